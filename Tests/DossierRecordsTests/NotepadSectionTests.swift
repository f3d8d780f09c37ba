import DossierCore
import Testing
@testable import DossierRecords

@Suite("Notepad logs: years, sections and continuation lines")
struct NotepadSectionTests {
    typealias F = NotepadFixtures

    @Test("A date without a year takes the year of the entries before it")
    func yearCarriesForward() {
        let log = "2022.11.02 fed\n11/9 fed\n11월 16일 fed\nNov 23 fed"
        #expect(F.parse(log) == [
            F.entry(1, "2022-11-02", nil, "fed", text: "2022.11.02 fed"),
            F.entry(2, "2022-11-09", nil, "fed", text: "11/9 fed"),
            F.entry(3, "2022-11-16", nil, "fed", text: "11월 16일 fed"),
            F.entry(4, "2022-11-23", nil, "fed", text: "Nov 23 fed"),
        ])
    }

    @Test("December to January moves the year on; a day up to a month before the last stays in its year")
    func yearRollsOver() {
        let log = "2023-12-30 fed\n12/31 fed\n1/2 fed\n2/1 fed\n5/3 fed\n4/28 forgot this one\n4/2 fed\n12/1 fed\n3/1 molt"
        #expect(F.parse(log) == [
            F.entry(1, "2023-12-30", nil, "fed", text: "2023-12-30 fed"),
            F.entry(2, "2023-12-31", nil, "fed", text: "12/31 fed"),
            F.entry(3, "2024-01-02", nil, "fed", text: "1/2 fed"),
            F.entry(4, "2024-02-01", nil, "fed", text: "2/1 fed"),
            F.entry(5, "2024-05-03", nil, "fed", text: "5/3 fed"),
            F.entry(6, "2024-04-28", nil, "forgot this one", text: "4/28 forgot this one"),
            F.entry(7, "2024-04-02", nil, "fed", text: "4/2 fed"),
            F.entry(8, "2024-12-01", nil, "fed", text: "12/1 fed"),
            F.entry(9, "2025-03-01", nil, "molt", text: "3/1 molt"),
        ])
        #expect(F.parse("2024-05-03 fed\n4/1 fed") == [
            F.entry(1, "2024-05-03", nil, "fed", text: "2024-05-03 fed"),
            F.entry(2, "2025-04-01", nil, "fed", text: "4/1 fed"),
        ])
    }

    @Test("A year written on a line replaces the carried one for the lines after it")
    func writtenYearWins() {
        let log = "2023-05-01 fed\n2021-05-08 fed\n5/15 fed"
        #expect(F.parse(log) == [
            F.entry(1, "2023-05-01", nil, "fed", text: "2023-05-01 fed"),
            F.entry(2, "2021-05-08", nil, "fed", text: "2021-05-08 fed"),
            F.entry(3, "2021-05-15", nil, "fed", text: "5/15 fed"),
        ])
    }

    @Test("With no year above, the fallback year is taken and reported once, on that line")
    func fallbackYear() {
        let log = "[레오]\n\n5/3 탈피 (완탈)\n5/10 fed"
        let events = F.parse(log, fallbackYear: 2024)
        #expect(events == [
            F.problem(3, "no year before '5/3'; took 2024, the year the file was last changed"),
            F.entry(3, "2024-05-03", F.leo, "탈피 (완탈)", text: "5/3 탈피 (완탈)"),
            F.entry(4, "2024-05-10", F.leo, "fed", text: "5/10 fed"),
        ])
        guard case .problem(let problem) = events.first else { Issue.record("no problem first"); return }
        #expect(problem.description == "line 3: no year before '5/3'; took 2024, the year the file was last changed")
        #expect(F.parse("5월 3일 (수) 탈피", fallbackYear: 2023) == [
            F.problem(1, "no year before '5월 3일'; took 2023, the year the file was last changed"),
            F.entry(1, "2023-05-03", nil, "탈피", text: "5월 3일 (수) 탈피"),
        ])
    }

    @Test("29 February without a year takes the next leap year near; with none near it is reported")
    func leapDayWithoutYear() {
        #expect(F.parse("2024-02-20 fed\n2/29 fed") == [
            F.entry(1, "2024-02-20", nil, "fed", text: "2024-02-20 fed"),
            F.entry(2, "2024-02-29", nil, "fed", text: "2/29 fed"),
        ])
        #expect(F.parse("2021-02-20 fed\n2/29 fed") == [
            F.entry(1, "2021-02-20", nil, "fed", text: "2021-02-20 fed"),
            F.problem(2, "'2/29' is not a day in 2021 or 2022"),
        ])
        #expect(F.parse("2/29 fed", fallbackYear: 2023) == [F.problem(1, "'2/29' is not a day in 2023")])
    }

    @Test("Each section header form dates the lines under it; bullets are stripped from bodies")
    func sectionHeaders() {
        let headers = ["== 2024-03-02 ==", "[2024-03-02]", "2024-03-02:", "# 2024-03-02", "## 2024-03-02 ##",
                       "2024.03.02 (토)", "2024-03-02", "=== 2024년 3월 2일 (토) ===", "[2024-03-02 (Sat)]",
                       "  2024/3/2  ", "Saturday, March 2, 2024:", "- 2024-03-02", "2024-03-02 ---"]
        for header in headers {
            let log = header + "\n- fed 2 pinkies\n* water change\n• weight 312 g\n·shed\n  plain line"
            #expect(F.parse(log) == [
                F.entry(2, "2024-03-02", nil, "fed 2 pinkies", text: "- fed 2 pinkies"),
                F.entry(3, "2024-03-02", nil, "water change", text: "* water change"),
                F.entry(4, "2024-03-02", nil, "weight 312 g", text: "• weight 312 g"),
                F.entry(5, "2024-03-02", nil, "shed", text: "·shed"),
                F.entry(6, "2024-03-02", nil, "plain line", text: "plain line"),
            ], "\(header)")
        }
    }

    @Test("A header's time times the lines under it; a line's own time replaces it")
    func sectionTimes() {
        let log = "2024-03-02 09:00\nfed\n- 14:30 water change\n오후 6:05 weight 312 g"
        #expect(F.parse(log) == [
            F.entry(2, "2024-03-02T09:00", nil, "fed", text: "fed"),
            F.entry(3, "2024-03-02T14:30", nil, "water change", text: "- 14:30 water change"),
            F.entry(4, "2024-03-02T18:05", nil, "weight 312 g", text: "오후 6:05 weight 312 g"),
        ])
    }

    @Test("A dateless line continues the day and subject of the entry before it, without that entry's time")
    func continuationLines() {
        let log = "2023.05.01 레오 귀뚜라미 5마리\n    밀웜 3\n2023.05.02 14:30 청소\n물갈이\n\n- 온도 28도"
        #expect(F.parse(log) == [
            F.entry(1, "2023-05-01", F.leo, "귀뚜라미 5마리", text: "2023.05.01 레오 귀뚜라미 5마리"),
            F.entry(2, "2023-05-01", F.leo, "밀웜 3", text: "밀웜 3"),
            F.entry(3, "2023-05-02T14:30", nil, "청소", text: "2023.05.02 14:30 청소"),
            F.entry(4, "2023-05-02", nil, "물갈이", text: "물갈이"),
            F.entry(6, "2023-05-02", nil, "온도 28도", text: "- 온도 28도"),
        ])
    }

    @Test("A dateless line with no date above it is reported, each such line")
    func datelessAtTop() {
        let events = F.parse("Leo's care log\nkept since spring\n2024-03-02 fed")
        #expect(events == [
            F.problem(1, "no date on this line or above it"),
            F.problem(2, "no date on this line or above it"),
            F.entry(3, "2024-03-02", nil, "fed", text: "2024-03-02 fed"),
        ])
        guard case .problem(let first) = events.first else { Issue.record("no problem"); return }
        #expect(first.description == "line 1: no date on this line or above it")
    }

    @Test("Blank lines, rules and lone bullets give nothing, and neither does a header with nothing under it")
    func nothingLines() {
        #expect(F.parse("\n   \n\t\n-----\n=====\n***\n-\n•\n\u{3000}\n2024-03-02\n").isEmpty)
    }

    @Test("Lines are read with their own numbers and terminators ignored, one at a time")
    func streaming() {
        var parser = NotepadParser(directory: F.directory, fileSubject: nil, options: NotepadOptions(fallbackYear: 2024))
        var events: [NotepadEvent] = []
        parser.parse(TextLine(number: 41, text: "== 2024-03-02 ==", terminator: "\r\n")) { events.append($0) }
        #expect(events == [])
        parser.parse(TextLine(number: 42, text: "- fed 2 pinkies\u{3000}", terminator: "\r\n")) { events.append($0) }
        #expect(events == [F.entry(42, "2024-03-02", nil, "fed 2 pinkies", text: "- fed 2 pinkies")])
        parser.finish { events.append($0) }
        #expect(events.count == 1)
    }
}
