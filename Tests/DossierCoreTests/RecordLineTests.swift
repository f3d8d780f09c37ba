import Synchronization
import Foundation
import DossierTestSupport
import Testing
@testable import DossierCore

/// Each entry's line, read as the spill reads them.
private func lines(of encoded: EncodedRecords) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    encoded.forEachLine { _, line in lines.append(Array(line)) }
    return lines
}

@Suite("Record lines written byte by byte: escaping, and drafts encoded without a Record")
struct RecordLineTests {
    let leo = try! Subject(parsing: "pets/leo")

    /// The escaping test, one byte at a time, that the word-at-a-time scan must agree with.
    func needsEscapingByteByByte(_ bytes: [UInt8]) -> Bool {
        bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    @Test("Every byte that needs escaping is found at every position of texts up to 24 bytes, and no other byte is")
    func findsEveryByteThatNeedsEscaping() {
        var disagreements: [String] = []
        // Plain ASCII, the bytes next to the special ones, and Hangul's UTF-8 bytes (>= 0x80).
        let fillers: [UInt8] = [UInt8(ascii: "a"), 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0xEB, 0xA0, 0x80, 0xFF]
        for length in 0...24 {
            for filler in fillers {
                let plain = [UInt8](repeating: filler, count: length)
                let expected = needsEscapingByteByByte(plain)
                if plain.withUnsafeBufferPointer(RecordLine.needsEscaping) != expected {
                    disagreements.append("\(length) x \(filler)")
                }
                for position in 0..<length {
                    for special in Array(UInt8(0)..<0x20) + [UInt8(ascii: "\""), UInt8(ascii: "\\")] {
                        var bytes = plain
                        bytes[position] = special
                        if !bytes.withUnsafeBufferPointer(RecordLine.needsEscaping) {
                            disagreements.append("\(special) at \(position) of \(length) in \(filler)")
                        }
                    }
                }
            }
        }
        #expect(disagreements == [])
    }

    @Test("Texts with two bytes to escape anywhere in them, around runs copied whole, read back as written")
    func runsBetweenEscapesReadBack() throws {
        let specials: [Character] = ["\"", "\\", "\n", "\u{01}"]
        for length in 0...19 {
            for first in 0..<max(length, 1) {
                for second in first..<max(length, 1) {
                    var characters = Array(String(repeating: "가b", count: length / 2 + 1).prefix(length))
                    if length > 0 {
                        characters[first] = specials[(first + second) % specials.count]
                        characters[second] = specials[second % specials.count]
                    }
                    let text = String(characters)
                    let record = Record(subject: leo, date: RecordDate(year: 2023, month: 5, day: 7)!, kind: "memo",
                                        measurements: [], text: text, source: RecordSource(path: "/logs/leo.txt", line: 1))
                    let line = RecordLine.encode(record)
                    #expect(try JSONDecoder().decode(Record.self, from: Data(line)) == record, "\(Array(text.utf8))")
                }
            }
        }
    }

    @Test("Texts with quotes, backslashes and control characters in any place read back as written")
    func escapedTextsReadBack() throws {
        let texts = ["", "a\"b", "\\", "줄\n바꿈\r\n탭\t끝", "\u{01}\u{1F}", "long text with a \"quote\" after eight bytes \\ and more",
                     "체중 45g", "\u{7F} is not escaped"]
        for text in texts {
            let record = Record(subject: leo, date: RecordDate(year: 2023, month: 5, day: 7)!, kind: "memo", measurements: [],
                                text: text, fields: ["메모 \"1\"": text], source: RecordSource(path: "/logs/\"레오\".txt", line: 1))
            let line = RecordLine.encode(record)
            #expect(line.last == 0x0A)
            #expect(!line.dropLast().contains(0x0A), "\(text)")
            #expect(try JSONDecoder().decode(Record.self, from: Data(line)) == record, "\(text)")
        }
    }

    @Test("A line whose every string is control characters, and whose numbers are the longest, is written whole")
    func theLongestLineFitsTheRoomWorkedOutForIt() throws {
        // Each control byte takes six (\u001f): the most any string can grow. A write past the room
        // worked out for the line would stop the test run.
        let controls = String(decoding: (0..<300).map { UInt8(1 + $0 % 31) }, as: UTF8.self)
        let measurements = [RecordMeasurement(name: controls, value: -1.7976931348623157e+308, unit: .grams),
                            RecordMeasurement(name: "", value: -999_999_999_999_999, unit: .count),
                            RecordMeasurement(name: "x", value: .leastNonzeroMagnitude, unit: .millilitres)]
        let record = Record(subject: leo, date: RecordDate(year: 2023, month: 5, day: 14, hour: 15, minute: 30,
                                                           utcOffsetMinutes: -570)!,
                            kind: controls, measurements: measurements, text: controls,
                            fields: [controls: controls, "": ""], source: RecordSource(path: "/" + controls, line: .max))
        let line = RecordLine.encode(record)
        #expect(line.last == 0x0A)
        #expect(try JSONDecoder().decode(Record.self, from: Data(line)) == record)
        #expect(RecordLine.number(-1.7976931348623157e+308) == "-1.7976931348623157e+308")
    }

    @Test("A draft is encoded to the same line, year file and sort key as the Record made of it; no kind is a memo")
    func draftsEncodeLikeRecords() {
        let date = RecordDate(year: 2023, month: 5, day: 14, hour: 15, minute: 30)!
        let source = RecordSource(path: "/logs/leo.txt", line: 12)
        let measurements = [RecordMeasurement(name: "weight", value: 45.5, unit: .grams)]
        let fields = ["b": "2", "a": "1"]
        var fromDrafts = EncodedRecords()
        fromDrafts.append(RecordDraft(source: source, subject: leo, date: date, kind: "weight", body: "체중", text: "체중 45.5g",
                                      measurements: measurements, fields: fields), subject: leo)
        fromDrafts.append(RecordDraft(source: source, date: date, body: "잘 잠", text: "잘 잠"), subject: leo)
        var fromRecords = EncodedRecords()
        fromRecords.append(Record(subject: leo, date: date, kind: "weight", measurements: measurements, text: "체중 45.5g",
                                  fields: fields, source: source))
        fromRecords.append(Record(subject: leo, date: date, kind: "memo", measurements: [], text: "잘 잠", source: source))
        #expect(fromDrafts.bytes == fromRecords.bytes)
        #expect(fromDrafts.entries.map { fromDrafts.groups[$0.groupIndex] }
                == fromRecords.entries.map { fromRecords.groups[$0.groupIndex] })
        #expect(fromDrafts.entries.map(\.key) == fromRecords.entries.map(\.key))
        #expect(fromDrafts.entries.map(\.range) == fromRecords.entries.map(\.range))
        let memo = String(decoding: lines(of: fromDrafts)[1], as: UTF8.self)
        #expect(memo.contains(#""kind":"memo""#))
        #expect(memo.contains(#""id":"\#(Record.id(subject: leo, date: date, kind: "memo", text: "잘 잠"))""#))
    }
}

@Suite("Files fsynced behind the writing")
struct BackgroundFileSyncTests {
    @Test("Every file asked for is synced before wait returns; a file that cannot be opened is the error, named")
    func syncsAndReportsTheFirstFailure() throws {
        let folder = try TemporaryFolder()
        let written = try (1...5).map { try folder.write([UInt8]("run \($0)".utf8), to: "\($0).run") }
        let files = LibraryFileSystem(root: folder.path)
        // Each fsync takes its time, as on a real disk: wait must not return before the last is done.
        let synced = Mutex<[String]>([])
        let syncing = BackgroundFileSync()
        for path in written {
            syncing.sync { () throws(LibraryError) in
                Thread.sleep(forTimeInterval: 0.02)
                try files.syncFile(path)
                synced.withLock { $0.append(path) }
            }
        }
        try syncing.wait()
        #expect(synced.withLock { $0 } == written)

        let missing = folder.path("gone.run")
        let failing = BackgroundFileSync()
        failing.sync(written[0], in: files)
        failing.sync(missing, in: files)
        failing.sync(written[1], in: files)
        #expect(throws: LibraryError.missing(path: missing)) { try failing.wait() }
    }
}

@Suite("Year files written through a buffer that never grows")
struct StagingFileWriterTests {
    @Test("Lines of every length around the buffer's size are written whole and in order, and the digest is the file's")
    func linesAcrossTheBufferAreWrittenWhole() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("year.run")
        let writer = try StagingFileWriter(path: path, in: LibraryFileSystem(root: folder.path))
        var expected: [UInt8] = []
        let size = StagingFileWriter.bufferSize
        for (index, length) in [10, size - 20, 19, 1, 2, size, 3, size + 5, 7].enumerated() {
            let line = [UInt8](repeating: UInt8(ascii: "a") + UInt8(index), count: length) + [0x0A]
            try line.withUnsafeBufferPointer { bytes throws(LibraryError) in try writer.write(bytes) }
            expected += line
        }
        try writer.writeLine(Array("last".utf8)[...])
        expected += Array("last\n".utf8)
        #expect(writer.written == expected.count)
        let digest = try writer.finish()
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        #expect(digest == ContentDigest(of: expected))
    }
}

@Suite("Byte buffers kept from one batch for the next")
struct ByteBufferPoolTests {
    @Test("A buffer given back is taken again, with the same memory; past the limit, buffers are let go")
    func buffersAreReused() {
        let pool = ByteBufferPool(limit: 1)
        var first = pool.take(capacity: 4096)
        #expect(first.isEmpty && first.capacity >= 4096)
        first.append(contentsOf: [1, 2, 3])
        let memory = first.withUnsafeBufferPointer { $0.baseAddress }
        pool.give(consume first)
        // Over the limit of one: this one is freed.
        pool.give([UInt8](repeating: 9, count: 10))
        let again = pool.take(capacity: 16)
        // Its bytes are still there, to be written over.
        #expect(again == [1, 2, 3])
        #expect(again.capacity >= 4096)
        #expect(again.withUnsafeBufferPointer { $0.baseAddress } == memory)
        // Nothing left: a new buffer.
        #expect(pool.take(capacity: 16).withUnsafeBufferPointer { $0.baseAddress } != memory)
    }

    @Test("Records encoded into a used buffer read exactly as records encoded into a new one")
    func encodingIntoAUsedBufferChangesNothing() {
        let record = Record(subject: try! Subject(parsing: "pets/leo"),
                            date: RecordDate(year: 2024, month: 3, day: 2)!, kind: "feeding", measurements: [],
                            text: "귀뚜라미 5마리", source: RecordSource(path: "/logs/leo.txt", line: 3))
        var fresh = EncodedRecords(capacity: 1)
        fresh.append(record)
        var used = EncodedRecords(capacity: 1, bytes: Array(repeating: 0x41, count: 700))
        used.append(record)
        #expect(lines(of: used) == lines(of: fresh))
        #expect(used.releaseBytes() == RecordLine.encode(record))
    }
}
