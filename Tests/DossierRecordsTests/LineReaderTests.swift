import Foundation
import DossierTestSupport
import Testing
@testable import DossierRecords

@Suite("Reading text in the encodings notepad files come in")
struct LineReaderTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func lines(_ bytes: [UInt8], chunkSize: Int = 1 << 16) throws -> (TextEncoding, [TextLine]) {
        let path = try folder.write(bytes, to: "log.txt")
        let reader = try LineReader(path: path, chunkSize: chunkSize)
        var lines: [TextLine] = []
        while let line = try reader.next() { lines.append(line) }
        return (reader.encoding, lines)
    }

    static let korean = "2023.05.01 레오 귀뚜라미 5마리"

    @Test("UTF-8 with and without a BOM, UTF-16 LE and BE with a BOM, all read alike")
    func unicodeEncodings() throws {
        let text = LineReaderTests.korean + "\n똠방각하\n"
        let utf16 = Array(text.utf16)
        let cases: [(TextEncoding, [UInt8])] = [
            (.utf8, Array(text.utf8)),
            (.utf8WithBOM, [0xEF, 0xBB, 0xBF] + Array(text.utf8)),
            (.utf16LittleEndian, [0xFF, 0xFE] + utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            (.utf16BigEndian, [0xFE, 0xFF] + utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
        ]
        for (expected, bytes) in cases {
            let (encoding, read) = try lines(bytes)
            #expect(encoding == expected)
            #expect(read.map(\.text) == [LineReaderTests.korean, "똠방각하"], "\(expected)")
        }
    }

    @Test("CP949 is recognised and decoded, 똠 included (EUC-KR lacks it)")
    func cp949() throws {
        let bytes: [UInt8] = [50, 48, 50, 51, 46, 48, 53, 46, 48, 49, 32, 183, 185, 191, 192, 32, 177, 205, 182, 209, 182, 243,
                              185, 204, 32, 53, 184, 182, 184, 174, 0x0D, 0x0A, 140, 99]
        let (encoding, read) = try lines(bytes)
        #expect(encoding == .cp949)
        #expect(read.map(\.text) == [LineReaderTests.korean, "똠"])
        #expect(read.map(\.terminator) == ["\r\n", ""])
    }

    @Test("CR, LF and CRLF all end lines, also across chunk boundaries")
    func lineEndings() throws {
        let text = "a\rb\r\nc\nd\r\n\re"
        for chunkSize in [1, 2, 3, 64] {
            let (_, read) = try lines(Array(text.utf8), chunkSize: chunkSize)
            #expect(read.map(\.text) == ["a", "b", "c", "d", "", "e"], "chunk \(chunkSize)")
            #expect(read.map(\.terminator) == ["\r", "\r\n", "\n", "\r\n", "\r", ""])
            #expect(read.map(\.number) == [1, 2, 3, 4, 5, 6])
        }
    }

    @Test("Line ends are found wherever they fall in long lines, next to tabs and other control bytes")
    func lineEndsInLongLines() throws {
        var text = "", expected: [String] = [], terminators: [String] = []
        for length in 0...20 {
            for (index, terminator) in ["\n", "\r\n", "\r"].enumerated() {
                var line = String(repeating: "a", count: length)
                if length > 0 { line.insert(["\t", "\u{0B}", "\u{0C}"][index], at: line.index(line.startIndex, offsetBy: length / 2)) }
                text += line + terminator
                expected.append(line)
                terminators.append(terminator)
            }
        }
        for chunkSize in [16, 1 << 16] {
            let (_, read) = try lines(Array(text.utf8), chunkSize: chunkSize)
            #expect(read.map(\.text) == expected, "chunk \(chunkSize)")
            #expect(read.map(\.terminator) == terminators)
        }
    }

    @Test("A file that is ASCII at first and CP949 later switches to CP949 at that line")
    func lateCP949() throws {
        let ascii = Array(repeating: Array("2023-05-01 fed\n".utf8), count: 10).flatMap { $0 }
        let (encoding, read) = try lines(ascii + [183, 185, 191, 192, 0x0A], chunkSize: 16)
        #expect(encoding == .cp949)
        #expect(read.last?.text == "레오")
    }

    @Test("Bytes that are no known encoding are refused with the line, never read as mojibake")
    func refusesUnknownEncodings() throws {
        let latin1 = Array("line one\n".utf8) + [0x48, 0xE9, 0xFF, 0x6C, 0x0A]
        #expect(throws: TextDecodingError.unknownEncoding(
            path: folder.path("log.txt"), reason: "byte 0xE9 on line 2 is neither UTF-8 nor CP949 (EUC-KR)")) {
            _ = try lines(latin1)
        }
        let utf8ThenBad = Array("레오\n".utf8) + Array(repeating: 0x41, count: 40) + [0x0A, 0xC3, 0x28, 0x0A]
        #expect(throws: TextDecodingError.invalidLine(path: folder.path("log.txt"), line: 3, encoding: .utf8)) {
            _ = try lines(utf8ThenBad, chunkSize: 8)
        }
        #expect(TextDecodingError.invalidLine(path: "/x/log.txt", line: 3, encoding: .utf8).description
            == "/x/log.txt:3: this line is not valid UTF-8, the encoding of the lines before it")
    }

    @Test("Lines lent as bytes are the lines read as text: every encoding, line ending and chunk size, CP949 met late")
    func linesLentAsBytes() throws {
        let text = "a\rb\r\n레오 5마리\nd\r\n\r똠"
        let utf16 = Array(text.utf16)
        let ascii = Array(repeating: Array("2023-05-01 fed\n".utf8), count: 10).flatMap { $0 }
        let files: [[UInt8]] = [
            Array(text.utf8),
            [0xEF, 0xBB, 0xBF] + Array(text.utf8),
            [0xFF, 0xFE] + utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            [0xFE, 0xFF] + utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
            ascii + [183, 185, 191, 192, 0x0A, 0x41],
        ]
        for (index, bytes) in files.enumerated() {
            for chunkSize in [4, 7, 16, 1 << 16] {
                let (encoding, expected) = try lines(bytes, chunkSize: chunkSize)
                let reader = try LineReader(path: folder.write(bytes, to: "lent.txt"), chunkSize: chunkSize)
                var lent: [TextLine] = []
                while let line = try reader.withNextLine({ number, utf8, terminator in
                    TextLine(number: number, text: String(decoding: utf8, as: UTF8.self), terminator: terminator)
                }) {
                    lent.append(line)
                }
                #expect(lent == expected, "file \(index), chunk \(chunkSize)")
                #expect(reader.encoding == encoding)
            }
        }
    }

    @Test("A line lent as bytes that is not UTF-8 is refused with its number, like one read as text")
    func lentLineThatIsNotUTF8() throws {
        let path = try folder.write(Array("레오\n".utf8) + Array(repeating: 0x41, count: 40) + [0x0A, 0xC3, 0x28, 0x0A], to: "bad.txt")
        let reader = try LineReader(path: path, chunkSize: 8)
        var lent: [String] = []
        #expect(throws: TextDecodingError.invalidLine(path: path, line: 3, encoding: .utf8)) {
            while let text = try reader.withNextLine({ _, utf8, _ in String(decoding: utf8, as: UTF8.self) }) { lent.append(text) }
        }
        #expect(lent == ["레오", String(repeating: "A", count: 40)])
    }

    @Test("A line over 1 MiB is skipped unread and counted, in every encoding and line ending; the lines around it are read")
    func overlongLinesAreSkipped() throws {
        let limit = LineReader.maximumLineBytes
        let long = String(repeating: "귀뚜라미 ", count: limit / 10 + 9) + "끝"
        for terminator in ["\n", "\r\n", "\r"] {
            let text = "2024-03-01 레오 탈피" + terminator + long + terminator + "체중 45g" + terminator + long
            for (encoding, bytes) in [(TextEncoding.utf8, Array(text.utf8)),
                                      (.utf16LittleEndian, [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })] {
                let (found, read) = try lines(bytes)
                #expect(found == encoding)
                let longBytes = encoding == .utf8 ? long.utf8.count : long.utf16.count * 2
                #expect(read == [
                    TextLine(number: 1, text: "2024-03-01 레오 탈피", terminator: terminator),
                    TextLine(number: 2, text: "", terminator: terminator, overlongByteCount: longBytes),
                    TextLine(number: 3, text: "체중 45g", terminator: terminator),
                    TextLine(number: 4, text: "", terminator: "", overlongByteCount: longBytes),
                ], "\(encoding) \(terminator.debugDescription)")
            }
        }
        let atTheLimit = String(repeating: "a", count: limit)
        #expect(try lines(Array((atTheLimit + "\nb\n").utf8)).1.map(\.text) == [atTheLimit, "b"])
    }

    @Test("A line over 1 MiB lent as bytes is refused with its number and length")
    func overlongLentLine() throws {
        let bytes = Array("a,b\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: LineReader.maximumLineBytes + 1) + [0x0A]
        let path = try folder.write(bytes, to: "long.csv")
        let reader = try LineReader(path: path)
        #expect(try reader.withNextLine { _, utf8, _ in utf8.count } == 3)
        #expect(throws: TextDecodingError.lineTooLong(path: path, line: 2, bytes: LineReader.maximumLineBytes + 1)) {
            _ = try reader.withNextLine { _, utf8, _ in utf8.count }
        }
        #expect(TextDecodingError.lineTooLong(path: "/logs/a.csv", line: 2, bytes: 1_048_577).description
            == "/logs/a.csv:2: the line is 1048577 bytes long, over the 1 MiB a line may have: not read")
    }
}
