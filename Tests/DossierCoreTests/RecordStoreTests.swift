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
        let spill = RecordSpill(layout: layout, dryRun: false, memoryLimit: memoryLimit)
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
        #expect(weighed.id == Record.id(subject: leo, date: weighed.date, kind: "weight", text: "체중 45g \"정상\"",
                                        measurements: weighed.measurements))
        // The same words read to another number (a unit settled differently) are another record.
        #expect(weighed.id != Record.id(subject: leo, date: weighed.date, kind: "weight", text: "체중 45g \"정상\"",
                                        measurements: [RecordMeasurement(name: "weight", value: 45_000, unit: .grams)]))
        // Words alone keep the id they always had: SHA-256 of subject, date, kind and text.
        #expect(Record.id(subject: leo, date: weighed.date, kind: "memo", text: "calm").hex == "683bf22f4cd60b48")
        #expect(weighed.id.hex.count == 16)
    }

    /// The runs a spill hands over for these records, by year.
    func runs(_ records: [Record], memoryLimit: Int = 8 << 20) throws -> [Int: [PendingRecords.Run]] {
        let spill = RecordSpill(layout: layout, dryRun: false, memoryLimit: memoryLimit)
        for record in records { try spill.add(record) }
        let pending = try spill.finish()
        defer { pending.discard() }
        return Dictionary(uniqueKeysWithValues: pending.runs.map { ($0.key.year, $0.value) })
    }

    func yearFile(_ year: Int = 2023) throws -> Data {
        try Data(contentsOf: layout.root.appendingPathComponent("pets/leo/records/\(year).jsonl"))
    }

    func removeYearFiles() throws {
        try FileManager.default.removeItem(at: layout.root.appendingPathComponent("pets/leo/records"))
    }

    @Test("Records in date order become the year file as written: one whole run, the same bytes as a merge")
    func inOrderRecordsAreTheYearFile() throws {
        let written = (1...28).flatMap { day in [record(day, "feeding \(day)", line: 2 * day), record(day, "memo \(day)", line: 2 * day + 1)] }
        let inOrder = try runs(written)
        #expect(inOrder[2023]?.count == 1)
        #expect(inOrder[2023]?.first?.whole?.lines == 56)
        // Reversed, only the last day comes in order: it stays one run among the buffered ones.
        let reversed = try runs(written.reversed())[2023] ?? []
        #expect(reversed.count > 1)
        #expect(reversed.compactMap(\.whole).map(\.lines) == [2])

        let result = try commit(written)
        #expect(result.added == 56)
        let direct = try yearFile()
        #expect(result.changedFiles.map(\.sha256) == [ContentDigest(of: Array(direct)).hex])
        try removeYearFiles()
        _ = try commit(written.reversed())
        #expect(try yearFile() == direct)
        #expect(try FileManager.default.contentsOfDirectory(atPath: layout.stagingFolder.path).isEmpty)
    }

    @Test("In date order, a day's entries are still sorted by time, and a copy within the day is kept once")
    func inOrderDaysAreSortedAndDeduplicated() throws {
        let written = [record(1, "late", line: 1, hour: 21), record(1, "early", line: 2, hour: 7), record(1, "late", line: 3, hour: 21),
                       record(2, "next day", line: 4)]
        #expect(try runs(written)[2023]?.first?.whole?.lines == 3)
        let result = try commit(written)
        #expect(result.added == 3)
        #expect(result.duplicate == 1)
        #expect(try stored().map(\.text) == ["early", "late", "next day"])
    }

    @Test("A day written out early to keep memory bounded, then an entry of that day that sorts before it: the year is merged, alike")
    func heldDayWrittenUnderMemoryPressure() throws {
        let written = (0..<40).map { record(1, "entry \($0)", line: $0 + 1, hour: 20 - $0 % 10) } + [record(2, "after", line: 41)]
        let tight = try runs(written, memoryLimit: 1_500)
        #expect((tight[2023]?.count ?? 0) > 1)
        _ = try commit(written, memoryLimit: 1_500)
        let small = try yearFile()
        try removeYearFiles()
        _ = try commit(written)
        #expect(try yearFile() == small)
        #expect(try stored().count == 41)
    }

    @Test("More year files than can be open at once: the idle ones are closed whole, and a year come back to is merged")
    func idleYearsAreClosed() throws {
        let years = 1950..<(1950 + RecordSpill.inOrderLimit + 6)
        let written = years.enumerated().map { record(1, "year \($1)", line: $0 + 1, year: $1) } + [record(2, "again", line: 999, year: 1950)]
        let spilled = try runs(written)
        #expect(spilled.count == years.count)
        #expect(spilled[1950]?.count == 2)
        #expect(spilled.filter { $0.key != 1950 }.allSatisfy { $0.value.count == 1 && $0.value[0].whole?.lines == 1 })
        let result = try commit(written)
        #expect(result.added == years.count + 1)
        #expect(try stored(year: 1950).map(\.text) == ["year 1950", "again"])
        #expect(try stored(year: years.last!).map(\.text) == ["year \(years.last!)"])
    }

    @Test("A record id is 16 hex digits, read back to the same id; anything else is refused")
    func recordIDs() throws {
        let id = RecordID(0x0123_4567_89AB_CDEF)
        #expect(id.hex == "0123456789abcdef")
        #expect(RecordID(hex: "0123456789ABCDEF") == id)
        #expect(RecordID(hex: "0123456789abcde") == nil)
        #expect(RecordID(hex: "0123456789abcdeg") == nil)
        #expect(try JSONDecoder().decode([RecordID].self, from: Data(#"["0123456789abcdef"]"#.utf8)) == [id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([RecordID].self, from: Data(#"["12"]"#.utf8)) }
    }

    @Test("Numbers in record lines: whole numbers without a point, negatives, fractions as the shortest text")
    func lineNumbers() throws {
        let measured = Record(subject: leo, date: RecordDate(year: 2023, month: 5, day: 7)!, kind: "weight",
                              measurements: [RecordMeasurement(name: "a", value: 0, unit: .grams),
                                             RecordMeasurement(name: "b", value: -3, unit: .grams),
                                             RecordMeasurement(name: "c", value: 1_234_567, unit: .grams),
                                             RecordMeasurement(name: "d", value: 0.05, unit: .grams)],
                              text: "t", source: RecordSource(path: "/l", line: 1_000_000))
        let line = String(decoding: RecordLine.encode(measured), as: UTF8.self)
        #expect(line.contains(#""value":0,"#))
        #expect(line.contains(#""value":-3,"#))
        #expect(line.contains(#""value":1234567,"#))
        #expect(line.contains(#""value":0.05,"#))
        #expect(line.hasSuffix(#""line":1000000}}"# + "\n"))
        #expect(try JSONDecoder().decode(Record.self, from: Data(line.utf8)) == measured)
    }
}
