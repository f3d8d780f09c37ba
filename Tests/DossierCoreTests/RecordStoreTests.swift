import Foundation
import DossierTestSupport
import Testing
@testable import DossierCore

@Suite("The record store: year files sorted, each record once")
struct RecordStoreTests {
    let folder: TemporaryFolder
    let layout: LibraryLayout
    let leo = try! Subject(parsing: "pets/leo")

    init() throws {
        folder = try TemporaryFolder()
        layout = LibraryLayout(root: folder.url)
        try FileManager.default.createDirectory(at: layout.stagingFolder, withIntermediateDirectories: true)
    }

    func record(_ day: Int, _ text: String, line: Int, year: Int = 2023, hour: Int? = nil) -> Record {
        Record(subject: leo, date: RecordDate(year: year, month: 5, day: day, hour: hour, minute: hour.map { _ in 30 })!,
               kind: "memo", measurements: [], text: text, source: RecordSource(path: "/logs/leo.txt", line: line))
    }

    func commit(_ records: [Record], memoryLimit: Int = 8 << 20) throws -> RecordStore.CommitResult {
        let spill = RecordSpill(stagingFolder: layout.stagingFolder.path, dryRun: false, memoryLimit: memoryLimit)
        for record in records { try spill.add(record) }
        return try RecordStore(layout: layout).commit(try spill.finish())
    }

    func stored(year: Int = 2023) throws -> [Record] {
        var records: [Record] = []
        try RecordStore(layout: layout).forEachRecord(of: leo) { records.append($0) }
        return records.filter { $0.date.year == year }
    }

    @Test("Records land in their year's file, by date, in the order they were written within a day")
    func sortsByDateThenLine() throws {
        let written = [record(7, "c", line: 3), record(1, "a", line: 1), record(7, "b", line: 2), record(1, "z", line: 9, year: 2024),
                       record(7, "d", line: 4, hour: 9)]
        let result = try commit(written)
        #expect(result.added == 5)
        #expect(result.files == ["pets/leo/records/2023.jsonl", "pets/leo/records/2024.jsonl"])
        #expect(try stored().map(\.text) == ["a", "b", "c", "d"])
        #expect(try stored(year: 2024).map(\.text) == ["z"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: layout.stagingFolder.path).isEmpty)
    }

    @Test("The same records committed again add nothing and leave the file's bytes as they were")
    func duplicatesAddNothing() throws {
        let written = (1...5).map { record($0, "entry \($0)", line: $0) }
        _ = try commit(written)
        let path = layout.root.appendingPathComponent("pets/leo/records/2023.jsonl").path
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let again = try commit(written.reversed() + [written[0]])
        #expect(again.added == 0)
        #expect(again.duplicate == 6)
        #expect(again.changedFiles.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("New records merge between the ones already filed")
    func mergesWithTheYearFile() throws {
        _ = try commit([record(1, "first", line: 1), record(9, "last", line: 9)])
        let result = try commit([record(5, "middle", line: 5), record(1, "first", line: 1)])
        #expect(result.added == 1)
        #expect(result.duplicate == 1)
        #expect(try stored().map(\.text) == ["first", "middle", "last"])
        #expect(result.changedFiles.map(\.count) == [3])
    }

    @Test("Spilling in many small runs gives the same file as one run")
    func runsMergeAlike() throws {
        let written = (0..<300).map { record($0 % 28 + 1, "entry \($0)", line: $0 + 1) } + [record(3, "entry 2", line: 3)]
        _ = try commit(written, memoryLimit: 2_000)
        let small = try Data(contentsOf: layout.root.appendingPathComponent("pets/leo/records/2023.jsonl"))
        try FileManager.default.removeItem(at: layout.root.appendingPathComponent("pets/leo/records"))
        let result = try commit(written)
        #expect(result.added == 300)
        #expect(result.duplicate == 1)
        #expect(try Data(contentsOf: layout.root.appendingPathComponent("pets/leo/records/2023.jsonl")) == small)
    }

    @Test("A record line is JSON in a fixed field order, read back to the same record")
    func lineFormat() throws {
        let weighed = Record(subject: leo, date: RecordDate(year: 2023, month: 5, day: 7, hour: 15, minute: 30)!, kind: "weight",
                             measurements: [RecordMeasurement(name: "weight", value: 45, unit: .grams)],
                             text: "체중 45g \"정상\"", source: RecordSource(path: "/logs/leo.txt", line: 3))
        let line = String(decoding: RecordLine.encode(weighed), as: UTF8.self)
        #expect(line == #"{"id":"\#(weighed.id)","subject":"pets/leo","date":"2023-05-07T15:30","kind":"weight","measurements":[{"name":"weight","value":45,"unit":"g"}],"text":"체중 45g \"정상\"","source":{"path":"/logs/leo.txt","line":3}}"# + "\n")
        #expect(try JSONDecoder().decode(Record.self, from: Data(line.utf8)) == weighed)
        #expect(weighed.id == Record.id(subject: leo, date: weighed.date, kind: "weight", text: "체중 45g \"정상\""))
        #expect(weighed.id.hex.count == 16)
    }
}
