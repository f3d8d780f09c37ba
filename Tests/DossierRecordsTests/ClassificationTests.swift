import DossierCore
import Foundation
import Logging
import Testing
@testable import DossierRecords

@Suite("Record kinds and measurements from what keepers and parents write")
struct ClassificationTests {
    static let leo = try! Subject(parsing: "pets/leo")

    static func normalise(_ body: String, kind: String? = nil, layout: LibraryLayout? = nil) throws -> RecordDraft {
        try normalised(body, kind: kind, layout: layout).records[0]
    }

    /// The batch after the transforms: the record, and what they reported.
    static func normalised(_ body: String, kind: String? = nil, layout: LibraryLayout? = nil) throws -> ItemBatch {
        let context = PipelineContext(
            logger: Logger(label: "test"), layout: layout ?? LibraryLayout(root: URL(fileURLWithPath: "/nonexistent")),
            routing: RoutingContext(requestedSubject: nil, existingSubjects: []))
        let draft = RecordDraft(source: RecordSource(path: "/log.txt", line: 1), subject: leo,
                                date: RecordDate(year: 2023, month: 5, day: 1)!, kind: kind, body: body[...], text: body)
        var batch = ItemBatch(records: [draft])
        for transform in [ClassifyTransform(), UnitsTransform()] as [any Transform] {
            try transform.apply(to: &batch, context: context)
        }
        return batch
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let body: String
        let kind: String
        let measurements: [RecordMeasurement]
        var testDescription: String { body }
    }

    static let cases: [Case] = [
        Case(body: "귀뚜라미 5마리", kind: "feeding", measurements: [RecordMeasurement(name: "cricket", value: 5, unit: .count)]),
        Case(body: "밀웜 5", kind: "feeding", measurements: [RecordMeasurement(name: "mealworm", value: 5, unit: .count)]),
        Case(body: "밀웜 10", kind: "feeding", measurements: [RecordMeasurement(name: "mealworm", value: 10, unit: .count)]),
        Case(body: "fed 2 pinkies", kind: "feeding", measurements: [RecordMeasurement(name: "pinky", value: 2, unit: .count)]),
        Case(body: "5 crickets", kind: "feeding", measurements: [RecordMeasurement(name: "cricket", value: 5, unit: .count)]),
        Case(body: "귀뚜라미를 3마리 먹음", kind: "feeding", measurements: [RecordMeasurement(name: "cricket", value: 3, unit: .count)]),
        Case(body: "탈피 (완탈)", kind: "shedding", measurements: []),
        Case(body: "shed, stuck tail tip", kind: "shedding", measurements: []),
        Case(body: "체중 45g", kind: "weight", measurements: [RecordMeasurement(name: "weight", value: 45, unit: .grams)]),
        Case(body: "weight 312 g", kind: "weight", measurements: [RecordMeasurement(name: "weight", value: 312, unit: .grams)]),
        Case(body: "체중 0.05kg", kind: "weight", measurements: [RecordMeasurement(name: "weight", value: 50, unit: .grams)]),
        Case(body: "무게 45 그램", kind: "weight", measurements: [RecordMeasurement(name: "weight", value: 45, unit: .grams)]),
        Case(body: "몸무게 1.2킬로", kind: "weight", measurements: [RecordMeasurement(name: "weight", value: 1200, unit: .grams)]),
        // No unit: never grams by default (see `unitlessWeights`).
        Case(body: "체중 45", kind: "weight", measurements: []),
        Case(body: "키 75cm", kind: "height", measurements: [RecordMeasurement(name: "height", value: 75, unit: .centimetres)]),
        Case(body: "height 30 in", kind: "height", measurements: [RecordMeasurement(name: "height", value: 76.2, unit: .centimetres)]),
        Case(body: "0.6 oz milk", kind: "feeding", measurements: [RecordMeasurement(name: "milk", value: 17.7441, unit: .millilitres)]),
        Case(body: "분유 120ml", kind: "feeding", measurements: [RecordMeasurement(name: "formula", value: 120, unit: .millilitres)]),
        Case(body: "water change", kind: "cleaning", measurements: []),
        Case(body: "물갈이", kind: "cleaning", measurements: []),
        Case(body: "청소 완료", kind: "cleaning", measurements: []),
        Case(body: "낮잠 40분", kind: "sleep", measurements: [RecordMeasurement(name: "duration", value: 40, unit: .minutes)]),
        Case(body: "잠 1.5시간", kind: "sleep", measurements: [RecordMeasurement(name: "duration", value: 90, unit: .minutes)]),
        Case(body: "키우기 시작한 지 1년", kind: "memo", measurements: []),
        Case(body: "약간 늦게 먹음", kind: "feeding", measurements: []),
        Case(body: "looked lively today", kind: "memo", measurements: []),
        Case(body: "1,250 g weight", kind: "weight", measurements: [RecordMeasurement(name: "weight", value: 1250, unit: .grams)]),
    ]

    @Test("Each entry gets its kind and its measurements in SI units", arguments: cases)
    func classifies(_ entry: Case) throws {
        let draft = try ClassificationTests.normalise(entry.body)
        #expect(draft.kind == entry.kind)
        #expect(draft.measurements == entry.measurements)
    }

    @Test("A number too large to measure anything (three hundred nines, a trillion) is no quantity, never a value of 0 or infinity",
          arguments: [String(repeating: "9", count: 305) + "g", String(repeating: "9", count: 400) + " g",
                      String(repeating: "9", count: 300) + "kg", "1000000000000 g"])
    func numbersTooLargeAreNoQuantity(_ written: String) throws {
        let draft = try ClassificationTests.normalise("weight \(written)")
        #expect(draft.kind == "weight")
        #expect(draft.measurements.isEmpty, "\(draft.measurements)")
        #expect(try ClassificationTests.normalise("weight 999999999999 g").measurements
                == [RecordMeasurement(name: "weight", value: 999_999_999_999, unit: .grams)])
    }

    @Test("PiyoLog's Japanese words give their kinds", arguments: [
        ("ミルク 120ml", "feeding"), ("母乳 左10分 右5分", "feeding"), ("搾母乳 60ml", "feeding"), ("離乳食 おかゆ", "feeding"),
        ("寝る", "sleep"), ("起きる", "wake"), ("おしっこ", "diaper"), ("うんち 多め", "diaper"), ("体重 6.2kg", "weight"),
        ("身長 61.5cm", "height"), ("体温 36.8℃", "temperature"), ("お風呂", "bath"), ("予防接種 ヒブ", "health"),
    ])
    func japaneseKinds(body: String, kind: String) throws {
        #expect(try ClassificationTests.normalise(body).kind == kind)
    }

    @Test("An English total heads a summary line; one further into a note only adds something up", arguments: [
        ("Total feeds: 6", "summary"), ("Daily Total 720 ml", "summary"), ("fed 5 crickets, total 10 this week", "feeding"),
        ("weighed 412 g, total gain 30 g since May", "weight"),
    ])
    func englishTotals(body: String, kind: String) throws {
        #expect(try ClassificationTests.normalise(body).kind == kind)
    }

    @Test("A Japanese weight and height are read in their units")
    func japaneseMeasurements() throws {
        #expect(try ClassificationTests.normalise("体重 6.2kg").measurements == [RecordMeasurement(name: "weight", value: 6200, unit: .grams)])
        #expect(try ClassificationTests.normalise("身長 61.5cm").measurements == [RecordMeasurement(name: "height", value: 61.5, unit: .centimetres)])
    }

    @Test("A kind the source gave is kept; its quantities are still read")
    func givenKindsWin() throws {
        let draft = try ClassificationTests.normalise("42 g", kind: "weight")
        #expect(draft.kind == "weight")
        #expect(draft.measurements == [RecordMeasurement(name: "weight", value: 42, unit: .grams)])
    }

    @Test("A log's weight written with no unit is never taken as grams: kept as text and reported, until the library names its unit")
    func unitlessWeights() throws {
        let batch = try ClassificationTests.normalised("체중 45")
        #expect(batch.records[0].measurements.isEmpty)
        #expect(batch.records[0].fields == ["weight": "45"])
        #expect(batch.problems == [SourceProblem(line: 1, reason: "the weight's number has no unit, and pets/leo's class is not known "
            + "(give it a species or class) to judge it by; kept as text: write its unit after the number, or name it in "
            + #"config/records.json ({"units": {"weight": "…"}})"#)])

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-units-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("config"), withIntermediateDirectories: true)
        try Data(#"{"units": {"weight": "g"}}"#.utf8).write(to: folder.appendingPathComponent("config/records.json"))
        let settled = try ClassificationTests.normalised("체중 45", layout: LibraryLayout(root: folder))
        #expect(settled.records[0].measurements == [RecordMeasurement(name: "weight", value: 45, unit: .grams)])
        #expect(settled.problems.isEmpty)
    }

    @Test("A library's keyword file adds kinds and foods, and its words come first")
    func libraryKeywords() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-keywords-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("config"), withIntermediateDirectories: true)
        try Data(#"{"kinds": [{"kind": "vet", "words": ["동물병원", "checkup"]}], "foods": [{"food": "snail", "words": ["달팽이"]}]}"#.utf8)
            .write(to: folder.appendingPathComponent("config/keywords.json"))
        let layout = LibraryLayout(root: folder)
        #expect(try ClassificationTests.normalise("동물병원 정기검진", layout: layout).kind == "vet")
        let snails = try ClassificationTests.normalise("달팽이 3", layout: layout)
        #expect(snails.kind == "feeding")
        #expect(snails.measurements == [RecordMeasurement(name: "snail", value: 3, unit: .count)])
    }
}
