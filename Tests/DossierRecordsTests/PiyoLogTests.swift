import DossierCore
import Foundation
import Logging
import Testing
@testable import DossierRecords

@Suite("PiyoLog's text export: days, the child's name line, totals and Japanese durations")
struct PiyoLogTests {
    static let hanako = NotepadFixtures.subject("children/hanako")
    static let directory = SubjectDirectory(entries: [(hanako, ["hanako", "はなこ"])])

    /// Two days in the shape PiyoLog's "share as text" writes: a title, rules between days, a
    /// day line with its weekday, the child's name with her age, timed entries, then the day's totals.
    static let export = """
        【ぴよログ】2024年1月
        ----------
        2024/1/5(金)
        はなこ (0歳3か月4日)

        08:40   ミルク 120ml
        10:15   うんち
        13:00   寝る
        14:30   起きる (1時間30分)
        18:20   体温 36.8℃
        22:05   ミルク 150ml

        ミルク合計   2回 270ml
        睡眠合計    1時間30分
        うんち合計   1回
        ----------
        2024/1/6(土)
        はなこ (0歳3か月5日)

        07:10   ミルク 140ml
        09:00   母乳 左 10分 / 右 5分
        12:30   おしっこ

        ミルク合計   1回 140ml
        母乳合計    左 10分 / 右 5分
        おしっこ合計  1回
        ----------
        """

    /// What a record says, in one comparable value.
    struct Row: Equatable, CustomStringConvertible {
        let line: Int
        let date: String
        let subject: String?
        let kind: String?
        let measurements: [RecordMeasurement]

        init(_ line: Int, _ date: String, _ subject: Subject?, _ kind: String, _ measurements: [RecordMeasurement] = []) {
            (self.line, self.date, self.subject, self.kind, self.measurements) = (line, date, subject?.path, kind, measurements)
        }

        init(_ draft: RecordDraft) {
            (line, date, subject, kind, measurements) = (draft.source.line, draft.date.iso8601, draft.subject?.path,
                                                         draft.kind, draft.measurements)
        }

        var description: String { "\(line) \(date) \(subject ?? "-") \(kind ?? "-") \(measurements)" }
    }

    /// The log through the parser and the classify and units transforms, as an import runs them;
    /// problems come back as `line: reason`.
    static func records(_ log: String, fileSubject: Subject? = nil) throws -> (rows: [Row], problems: [String]) {
        var parser = NotepadParser(directory: directory, fileSubject: fileSubject,
                                   options: NotepadOptions(fallbackYear: 2024, nonNames: KeywordTable.builtIn.allWords))
        var drafts: [RecordDraft] = []
        var problems: [String] = []
        func take(_ event: NotepadEvent) {
            switch event {
            case .entry(let entry):
                drafts.append(RecordDraft(source: RecordSource(path: "/piyolog.txt", line: entry.line), subject: entry.subject,
                                          date: entry.date, body: entry.body, text: entry.text))
            case .problem(let problem):
                problems.append(problem.description)
            }
        }
        for (index, line) in log.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            parser.parse(TextLine(number: index + 1, text: String(line), terminator: "\n"), take)
        }
        parser.finish(take)
        let context = PipelineContext(
            logger: Logger(label: "test"), layout: LibraryLayout(root: URL(fileURLWithPath: "/nonexistent")),
            routing: RoutingContext(requestedSubject: nil, existingSubjects: []))
        var batch = ItemBatch(records: drafts)
        for transform in [ClassifyTransform(), UnitsTransform()] as [any Transform] {
            try transform.apply(to: &batch, context: context)
        }
        return (batch.records.map(Row.init), problems)
    }

    static func ml(_ name: String, _ value: Double) -> RecordMeasurement { RecordMeasurement(name: name, value: value, unit: .millilitres) }
    static func minutes(_ value: Double) -> RecordMeasurement { RecordMeasurement(name: "duration", value: value, unit: .minutes) }
    static func count(_ name: String, _ value: Double) -> RecordMeasurement { RecordMeasurement(name: name, value: value, unit: .count) }

    @Test("Each entry of a two-day export is one record: its day, time, child, kind and measurements")
    func twoDays() throws {
        let h = PiyoLogTests.hanako
        typealias P = PiyoLogTests
        let (rows, problems) = try P.records(P.export)
        #expect(problems == [])
        #expect(rows == [
            Row(6, "2024-01-05T08:40", h, "feeding", [P.ml("formula", 120)]),
            Row(7, "2024-01-05T10:15", h, "diaper"),
            Row(8, "2024-01-05T13:00", h, "sleep"),
            Row(9, "2024-01-05T14:30", h, "wake", [P.minutes(90)]),
            Row(10, "2024-01-05T18:20", h, "temperature"),
            Row(11, "2024-01-05T22:05", h, "feeding", [P.ml("formula", 150)]),
            Row(13, "2024-01-05", h, "summary", [P.count("formula", 2), P.ml("amount", 270)]),
            Row(14, "2024-01-05", h, "summary", [P.minutes(90)]),
            Row(15, "2024-01-05", h, "summary", [P.count("count", 1)]),
            Row(20, "2024-01-06T07:10", h, "feeding", [P.ml("formula", 140)]),
            Row(21, "2024-01-06T09:00", h, "feeding", [P.minutes(10), P.minutes(5)]),
            Row(22, "2024-01-06T12:30", h, "diaper"),
            Row(24, "2024-01-06", h, "summary", [P.count("formula", 1), P.ml("amount", 140)]),
            Row(25, "2024-01-06", h, "summary", [P.minutes(10), P.minutes(5)]),
            Row(26, "2024-01-06", h, "summary", [P.count("count", 1)]),
        ])
    }

    @Test("The day's totals are summaries, so a day's feedings are only its feeding entries")
    func totalsAreNoFeedings() throws {
        let (rows, _) = try PiyoLogTests.records(PiyoLogTests.export)
        #expect(rows.filter { $0.kind == "feeding" }.map(\.line) == [6, 11, 20, 21])
        #expect(rows.filter { $0.kind == "summary" }.map(\.line) == [13, 14, 15, 24, 25, 26])
    }

    @Test("Title, rule, day and name lines are headers, not records; a day line dates the lines under it")
    func headersAreNoRecords() throws {
        let (rows, problems) = try PiyoLogTests.records("""
            【ぴよログ】2024年1月
            ----------
            2024/1/5(金)
            はなこ (0歳3か月4日)
            ミルク合計 10回 930ml
            """)
        #expect(problems == [])
        #expect(rows == [Row(5, "2024-01-05", PiyoLogTests.hanako, "summary",
                             [PiyoLogTests.count("formula", 10), PiyoLogTests.ml("amount", 930)])])
    }

    @Test("Japanese dates read with a weekday in brackets or written out, and in 年月日 form")
    func japaneseDates() {
        let h = PiyoLogTests.hanako
        #expect(NotepadFixtures.parse("2024/1/5(金) はなこ 寝る\n2024年1月6日 はなこ 寝る\n2024年1月7日(日) はなこ 寝る\n"
                                      + "2024/1/8 月曜日 はなこ 寝る\n1月9日（火） はなこ 寝る", directory: PiyoLogTests.directory) == [
            NotepadFixtures.entry(1, "2024-01-05", h, "寝る", text: "2024/1/5(金) はなこ 寝る"),
            NotepadFixtures.entry(2, "2024-01-06", h, "寝る", text: "2024年1月6日 はなこ 寝る"),
            NotepadFixtures.entry(3, "2024-01-07", h, "寝る", text: "2024年1月7日(日) はなこ 寝る"),
            NotepadFixtures.entry(4, "2024-01-08", h, "寝る", text: "2024/1/8 月曜日 はなこ 寝る"),
            NotepadFixtures.entry(5, "2024-01-09", h, "寝る", text: "1月9日（火） はなこ 寝る"),
        ])
    }

    @Test("A name line the directory does not know is reported, and so are the lines under it, as under any name header")
    func unknownChild() throws {
        let (rows, problems) = try PiyoLogTests.records("2024/1/5(金)\nたろう (1歳2か月)\n08:40 ミルク 120ml")
        #expect(rows == [])
        #expect(problems == ["line 2: unknown name 'たろう'", "line 3: under the unknown name 'たろう' of line 2"])
    }

    @Test("In a file of one child, her name line is a header even when no subject answers to the name")
    func nameLineInAFileOfOneChild() throws {
        let (rows, problems) = try PiyoLogTests.records("2024/1/5(金)\nはーちゃん (0歳3か月4日)\n08:40 ミルク 120ml",
                                                        fileSubject: PiyoLogTests.hanako)
        #expect(problems == [])
        #expect(rows == [Row(3, "2024-01-05T08:40", nil, "feeding", [PiyoLogTests.ml("formula", 120)])])
    }

    @Test("An entry ending in brackets that are no age stays an entry")
    func bracketsThatAreNoAge() throws {
        let (rows, _) = try PiyoLogTests.records("2024/1/5(金)\nはなこ (0歳3か月4日)\n起きる (1時間30分)\nお風呂 (3歳の兄と)")
        #expect(rows.map(\.kind) == ["wake", "bath"])
    }

    @Test("Summary lines in Japanese, Chinese, Korean and English are summaries, whatever food they total", arguments: [
        "ミルク合計 10回 930ml", "母乳合計 左 35分 / 右 30分", "睡眠合計 12時間30分", "おしっこ合計 8回", "奶粉合计 5次",
        "수유 합계 5회", "분유합계 600ml", "Daily Total", "Totals", "total feeds: 6, 720 ml", "Formula total 24 oz",
    ])
    func summaries(line: String) {
        #expect(KeywordClassifier(table: .builtIn).classify(line).kind == "summary")
    }

    @Test("Finding words inside Japanese text gives ordinary PiyoLog lines their own kinds", arguments: [
        ("ミルク 120ml", "feeding"), ("うんち", "diaper"), ("寝る", "sleep"), ("起きる (1時間30分)", "wake"),
        ("体温 36.8℃", "temperature"), ("ミルク120ml", "feeding"), ("母乳左10分", "feeding"), ("寝る前にミルク", "sleep"),
        ("搾母乳 60ml", "feeding"), ("今日は公園に行った", "memo"),
    ])
    func ordinaryLines(body: String, kind: String) throws {
        #expect(try ClassificationTests.normalise(body).kind == kind)
    }

    @Test("A duration in hours and minutes is one measurement of its minutes, in Japanese, Korean and English", arguments: [
        ("起きる (1時間30分)", 90.0), ("睡眠 1時間15分", 75), ("昼寝 2時間 5分", 125), ("낮잠 1시간 20분", 80), ("잠 1시간20분", 80),
        ("nap 2 h 15 min", 135), ("寝る 45分", 45),
    ])
    func durations(body: String, minutes: Double) throws {
        #expect(try ClassificationTests.normalise(body).measurements == [PiyoLogTests.minutes(minutes)])
    }

    @Test("A Japanese feeding's millilitres are read from the word glued to it or apart")
    func millilitres() throws {
        #expect(try ClassificationTests.normalise("ミルク 120ml").measurements == [PiyoLogTests.ml("formula", 120)])
        #expect(try ClassificationTests.normalise("ミルク120ml").measurements == [PiyoLogTests.ml("formula", 120)])
    }
}
