import DossierCore
import Foundation

/// Reads a text file line by line in any `TextEncoding`, holding one chunk (64 KiB) at a time,
/// so a file of any size is read in bounded memory.
///
/// The encoding is told by a byte-order mark, else by whether the first chunk is valid UTF-8,
/// else valid CP949. A line that turns out not to decode is an error naming the line: the file
/// is refused rather than read as mojibake. One exception: a file detected as UTF-8 because its
/// first chunk was plain ASCII switches to CP949 at its first non-UTF-8 line, if that line is
/// CP949 (everything before it reads the same in both).
///
/// A line longer than `maximumLineBytes` is skipped unread, in the same bounded memory.
public final class LineReader {
    /// No care entry is a megabyte long; a line that is (a pasted blob, a binary with no line
    /// ends) would otherwise be held whole, then copied into records.
    public static let maximumLineBytes = 1 << 20

    /// Why an overlong line was not read, in the words every importer reports it with.
    public static func overlongReason(bytes: Int) -> String {
        "the line is \(bytes) bytes long, over the \(maximumLineBytes >> 20) MiB a line may have: not read"
    }

    // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
    @exclusivity(unchecked) public private(set) var encoding: TextEncoding
    public let path: String

    private let handle: FileHandle
    private let chunkSize: Int
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var endOfFile = false
    @exclusivity(unchecked) private var lineNumber = 0
    @exclusivity(unchecked) private var sawOnlyASCII = true

    /// Reads the file at `path` (a file Dossier wrote, a test's).
    public convenience init(path: String, chunkSize: Int = 1 << 16) throws(TextDecodingError) {
        let descriptor = SourcePath.openForReading(path)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        try self.init(descriptor: descriptor, path: path, chunkSize: chunkSize)
    }

    /// Reads a source: the very file that was found, never another one put in its place or a
    /// link's target that was not checked (`SourceFile.openForReading`).
    public convenience init(source: SourceFile, chunkSize: Int = 1 << 16) throws(TextDecodingError) {
        let descriptor: Int32
        do { descriptor = try source.openForReading() } catch {
            if case .unreadable(let reason) = error { throw .unreadable(path: source.readPath, reason: reason) }
            throw .unreadable(path: source.readPath, reason: "\(error)")
        }
        try self.init(descriptor: descriptor, path: source.readPath, chunkSize: chunkSize)
    }

    /// Reads from an open descriptor, which it closes when done.
    private init(descriptor: Int32, path: String, chunkSize: Int) throws(TextDecodingError) {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        self.path = path
        self.handle = handle
        self.chunkSize = chunkSize
        self.encoding = .utf8
        try fill(atLeast: chunkSize)
        encoding = try LineReader.detect(Array(buffer.prefix(chunkSize)), isWholeFile: endOfFile, path: path)
        position = encoding.byteOrderMark.count
        sawOnlyASCII = encoding == .utf8 && !buffer.contains { $0 >= 0x80 }
    }

    deinit {
        try? handle.close()
    }

    /// The next line, or nil at the end of the file.
    public func next() throws(TextDecodingError) -> TextLine? {
        guard let span = try nextLineRange() else { return nil }
        lineNumber += 1
        guard case .line(let range, let terminator) = span else {
            guard case .overlong(let bytes, let terminator) = span else { return nil }
            return TextLine(number: lineNumber, text: "", terminator: terminator, overlongByteCount: bytes)
        }
        let text = try decode(range)
        position = range.upperBound + terminator.utf8.count * encoding.unitSize
        return TextLine(number: lineNumber, text: text, terminator: terminator)
    }

    /// The next line lent to `body` as valid UTF-8 without its terminator, or nil at the end of
    /// the file: for readers that take lines apart byte by byte (CSV), which would otherwise have
    /// a `String` built only to read its bytes back. UTF-8 lines are checked where they lie in the
    /// buffer; other encodings are decoded first. The bytes are only valid inside `body`.
    public func withNextLine<Result>(
        _ body: (_ number: Int, _ utf8: UnsafeBufferPointer<UInt8>, _ terminator: String) -> Result
    ) throws(TextDecodingError) -> Result? {
        guard let span = try nextLineRange() else { return nil }
        lineNumber += 1
        // A reader of records that may span lines (quoted CSV fields) cannot go on past a hole.
        guard case .line(let range, let terminator) = span else {
            guard case .overlong(let bytes, _) = span else { return nil }
            throw .lineTooLong(path: path, line: lineNumber, bytes: bytes)
        }
        let number = lineNumber
        var result: Result?
        var lent = false
        if encoding == .utf8 || encoding == .utf8WithBOM {
            buffer.withUnsafeBufferPointer { all in
                let bytes = UnsafeBufferPointer(rebasing: all[range])
                let check = UTF8Validation.check(bytes)
                guard check.valid else { return }
                if !check.ascii { sawOnlyASCII = false }
                result = body(number, bytes, terminator)
                lent = true
            }
        }
        if !lent {
            // Other encodings; or a line that is not UTF-8, which decoding reports, or which
            // switches a file that was plain ASCII so far to CP949.
            var text = try decode(range)
            result = text.withUTF8 { body(number, $0, terminator) }
        }
        position = range.upperBound + terminator.utf8.count * encoding.unitSize
        return result
    }

    /// A line found by `nextLineRange`: where it lies in the buffer, or, for one too long, how long it was.
    private enum LineSpan {
        case line(Range<Int>, terminator: String)
        case overlong(bytes: Int, terminator: String)
    }

    /// Where the next line lies in the buffer and what ends it; nil at the end of the file.
    private func nextLineRange() throws(TextDecodingError) -> LineSpan? {
        while true {
            if buffer.count - position > LineReader.maximumLineBytes { return try skipOverlongLine() }
            if let end = lineEnd(from: position) { return .line(position..<end.index, terminator: end.terminator) }
            if endOfFile {
                guard position < buffer.count else { return nil }
                return .line(position..<buffer.count, terminator: "")
            }
            try fill(atLeast: chunkSize)
        }
    }

    /// Reads past the rest of a line already known to be too long, dropping its bytes as they
    /// come, and leaves `position` after its terminator.
    private func skipOverlongLine() throws(TextDecodingError) -> LineSpan {
        let unit = encoding.unitSize
        var skipped = 0
        while true {
            if let end = lineEnd(from: position) {
                // A line that fits after all (the buffer held it and more) is read as usual.
                guard skipped + end.index - position > LineReader.maximumLineBytes else {
                    return .line(position..<end.index, terminator: end.terminator)
                }
                skipped += end.index - position
                position = end.index + end.terminator.utf8.count * unit
                return .overlong(bytes: skipped, terminator: end.terminator)
            }
            if endOfFile {
                guard skipped + buffer.count - position > LineReader.maximumLineBytes else {
                    return .line(position..<buffer.count, terminator: "")
                }
                skipped += buffer.count - position
                position = buffer.count
                return .overlong(bytes: skipped, terminator: "")
            }
            // All but the last code unit, which may be a CR whose LF is still to come.
            let dropped = max(0, (buffer.count - position) / unit - 1) * unit
            skipped += dropped
            position += dropped
            try fill(atLeast: chunkSize)
        }
    }

    /// Where the line starting at `start` ends and what ends it, if the buffer holds all of it.
    /// A CR at the buffer's end waits for the next chunk: it may be the first half of CRLF.
    private func lineEnd(from start: Int) -> (index: Int, terminator: String)? {
        let unit = encoding.unitSize
        let bigEndian = encoding == .utf16BigEndian
        var index = start
        let count = buffer.count
        return buffer.withUnsafeBufferPointer { bytes -> (index: Int, terminator: String)? in
            while index + unit <= count {
                // Eight bytes at a time where a code unit is a byte, straight to the first CR or
                // LF (the classic "has a zero byte" test for each, whose lowest hit is always a
                // true one).
                if unit == 1, index + 8 <= count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
                    let ones: UInt64 = 0x0101_0101_0101_0101
                    let lineFeeds = word ^ (ones &* 0x0A), returns = word ^ (ones &* 0x0D)
                    let hits = ((lineFeeds &- ones) & ~lineFeeds | (returns &- ones) & ~returns) & (ones &* 0x80)
                    guard hits != 0 else {
                        index += 8
                        continue
                    }
                    index += hits.trailingZeroBitCount >> 3
                }
                let character: UInt16
                if unit == 1 {
                    character = UInt16(bytes[index])
                } else {
                    character = bigEndian ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
                        : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
                }
                if character == 0x0A { return (index, "\n") }
                if character == 0x0D {
                    guard index + 2 * unit <= count else { return endOfFile ? (index, "\r") : nil }
                    let following = unit == 1 ? UInt16(bytes[index + 1])
                        : bigEndian ? UInt16(bytes[index + 2]) << 8 | UInt16(bytes[index + 3])
                        : UInt16(bytes[index + 3]) << 8 | UInt16(bytes[index + 2])
                    return (index, following == 0x0A ? "\r\n" : "\r")
                }
                index += unit
            }
            return nil
        }
    }

    private func decode(_ range: Range<Int>) throws(TextDecodingError) -> String {
        let slice = buffer[range]
        switch encoding {
        case .utf8, .utf8WithBOM:
            if let text = String(validating: slice, as: UTF8.self) {
                if sawOnlyASCII && slice.contains(where: { $0 >= 0x80 }) { sawOnlyASCII = false }
                return text
            }
            // Plain ASCII so far reads the same in CP949: switch if this line is CP949.
            if encoding == .utf8, sawOnlyASCII, let text = LineReader.decodeCP949(slice) {
                encoding = .cp949
                return text
            }
            throw .invalidLine(path: path, line: lineNumber, encoding: encoding)
        case .utf16LittleEndian, .utf16BigEndian:
            guard slice.count % 2 == 0 else { throw .invalidLine(path: path, line: lineNumber, encoding: encoding) }
            var units: [UInt16] = []
            units.reserveCapacity(slice.count / 2)
            var index = slice.startIndex
            while index < slice.endIndex {
                let first = UInt16(slice[index]), second = UInt16(slice[index + 1])
                units.append(encoding == .utf16LittleEndian ? second << 8 | first : first << 8 | second)
                index += 2
            }
            guard let text = String(validating: units, as: UTF16.self) else {
                throw .invalidLine(path: path, line: lineNumber, encoding: encoding)
            }
            return text
        case .cp949:
            guard let text = LineReader.decodeCP949(slice) else {
                throw .invalidLine(path: path, line: lineNumber, encoding: encoding)
            }
            return text
        }
    }

    /// Reads until the buffer holds `count` more bytes or the file ends; drops consumed bytes first.
    private func fill(atLeast count: Int) throws(TextDecodingError) {
        if position > 0 {
            buffer.removeSubrange(0..<position)
            position = 0
        }
        let target = buffer.count + count
        while buffer.count < target && !endOfFile {
            // Read straight into the buffer's new end (no `Data` to allocate and copy from).
            let start = buffer.count, wanted = target - start
            buffer.append(contentsOf: repeatElement(0, count: wanted))
            var got = -1
            repeat {
                got = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress! + start, wanted) }
            } while got < 0 && errno == EINTR
            buffer.removeLast(wanted - max(got, 0))
            if got < 0 { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { endOfFile = true }
        }
    }

    // MARK: Detection

    static func detect(_ sample: [UInt8], isWholeFile: Bool, path: String) throws(TextDecodingError) -> TextEncoding {
        for encoding in [TextEncoding.utf8WithBOM, .utf16LittleEndian, .utf16BigEndian]
            where sample.starts(with: encoding.byteOrderMark) {
            return encoding
        }
        if sample.contains(0) {
            throw .unknownEncoding(path: path, reason: "it holds NUL bytes: UTF-16 without a byte-order mark, or not text")
        }
        if isValidUTF8(sample, allowTruncatedEnd: !isWholeFile) { return .utf8 }
        if let offset = firstInvalidCP949Byte(sample, allowTruncatedEnd: !isWholeFile) {
            let line = sample[..<offset].filter { $0 == 0x0A }.count + 1
            throw .unknownEncoding(path: path, reason: String(format: "byte 0x%02X on line %d is neither UTF-8 nor CP949 (EUC-KR)",
                                                              sample[offset], line))
        }
        return .cp949
    }

    /// UTF-8 validity; a multi-byte sequence cut by the end of the sample is allowed when more follows.
    static func isValidUTF8(_ bytes: [UInt8], allowTruncatedEnd: Bool) -> Bool {
        var cut = bytes.count
        if allowTruncatedEnd {
            // Back up over a trailing incomplete sequence (at most 3 bytes).
            var index = bytes.count - 1
            while index >= 0 && index >= bytes.count - 3 && bytes[index] & 0xC0 == 0x80 { index -= 1 }
            if index >= 0 && bytes[index] >= 0xC0 { cut = index }
        }
        return bytes.withUnsafeBufferPointer { UTF8Validation.check(UnsafeBufferPointer(rebasing: $0[..<cut])).valid }
    }

    /// The offset of the first byte that cannot be CP949, or nil if all can.
    static func firstInvalidCP949Byte(_ bytes: [UInt8], allowTruncatedEnd: Bool) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            guard (0x81...0xFE).contains(lead) else { return index }
            guard index + 1 < bytes.count else { return allowTruncatedEnd ? nil : index }
            let trail = bytes[index + 1]
            guard (0x41...0x5A).contains(trail) || (0x61...0x7A).contains(trail) || (0x81...0xFE).contains(trail)
            else { return index }
            index += 2
        }
        return nil
    }

    static func decodeCP949(_ bytes: ArraySlice<UInt8>) -> String? {
        guard firstInvalidCP949Byte(Array(bytes), allowTruncatedEnd: false) == nil else { return nil }
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(bytes: bytes, encoding: TextEncoding.foundationCP949)
    }
}

// MARK: - TextEncoding

/// The encodings Dossier reads text in: what Korean notepad files have been saved as for years.
public enum TextEncoding: String, Sendable, CaseIterable {
    case utf8 = "UTF-8"
    case utf8WithBOM = "UTF-8 with BOM"
    case utf16LittleEndian = "UTF-16 LE"
    case utf16BigEndian = "UTF-16 BE"
    /// Windows code page 949, the superset of EUC-KR (it has 똠, which EUC-KR lacks).
    case cp949 = "CP949"

    /// Foundation's CP949 (kCFStringEncodingDOSKorean).
    static let foundationCP949 = String.Encoding(rawValue: 0x8000_0422)

    var byteOrderMark: [UInt8] {
        switch self {
        case .utf8WithBOM: return [0xEF, 0xBB, 0xBF]
        case .utf16LittleEndian: return [0xFF, 0xFE]
        case .utf16BigEndian: return [0xFE, 0xFF]
        case .utf8, .cp949: return []
        }
    }

    /// Bytes per code unit, for finding line ends.
    var unitSize: Int { self == .utf16LittleEndian || self == .utf16BigEndian ? 2 : 1 }
}

// MARK: - TextLine

/// One line of a text file, decoded, with what ended it.
public struct TextLine: Hashable, Sendable {
    /// 1-based.
    public let number: Int
    /// Without its terminator; empty for a line too long to read.
    public let text: String
    /// "\n", "\r\n", "\r", or "" for a last line with none. CSV keeps it inside quoted fields.
    public let terminator: String
    /// The length in bytes of a line longer than `LineReader.maximumLineBytes`, which is skipped
    /// unread (no log line that long is a care entry; holding it would cost memory without end).
    public let overlongByteCount: Int?

    public init(number: Int, text: String, terminator: String, overlongByteCount: Int? = nil) {
        self.number = number
        self.text = text
        self.terminator = terminator
        self.overlongByteCount = overlongByteCount
    }
}

// MARK: - UTF8Validation

/// Checks UTF-8 in place, without building a `String`: readers that work on a line's bytes (CSV)
/// need to know the bytes are valid text, not a copy of them. Logs and exports are mostly ASCII,
/// so ASCII is skipped eight bytes at a time; the rest follows the well-formed sequences of the
/// Unicode Standard (table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF).
enum UTF8Validation {
    /// Whether `bytes` are well-formed UTF-8, and whether they are all ASCII.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> (valid: Bool, ascii: Bool) {
        guard let base = bytes.baseAddress else { return (true, true) }
        let count = bytes.count
        var index = 0
        var ascii = true
        while index < count {
            if index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let highs = word & 0x8080_8080_8080_8080
                if highs == 0 {
                    index += 8
                    continue
                }
                // Straight to the first byte that is not ASCII: the lowest set bit, the word read little-endian.
                index += highs.trailingZeroBitCount >> 3
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            ascii = false
            // Hangul and most CJK, a Korean log's usual text: three bytes after a lead of E1...EC
            // or EE...EF, whose second byte may be any continuation byte: taken in one step, as
            // Korean notes are mostly such sequences (docs/performance.md, "UTF8Validation").
            if lead &- 0xE1 < 0x0F, lead != 0xED, index + 3 <= count,
               base[index + 1] & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80 {
                index += 3
                continue
            }
            guard let length = sequenceLength(base, index, count) else { return (false, false) }
            index += length
        }
        return (true, ascii)
    }

    /// The length of the well-formed multi-byte sequence at `index`, or nil if it is not one.
    private static func sequenceLength(_ base: UnsafePointer<UInt8>, _ index: Int, _ count: Int) -> Int? {
        let lead = base[index]
        let length: Int
        // The second byte's range depends on the lead; later bytes are always 80...BF.
        let second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: length = 2; second = 0x80...0xBF
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; second = 0x80...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4; second = 0x80...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return nil
        }
        guard index + length <= count, second.contains(base[index + 1]) else { return nil }
        for offset in 2..<max(2, length) where base[index + offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}

// MARK: - String+TrimmedWhitespace

extension String {
    /// The text without leading and trailing white space (Unicode White_Space: spaces, tabs,
    /// line breaks, no-break and ideographic spaces). Done in Swift rather than through
    /// Foundation's `trimmingCharacters(in:)`, which bridges through NSString, and on the UTF-8
    /// bytes, the way CSV cells are trimmed.
    var trimmedWhitespace: String {
        var text = self
        return text.withUTF8 { bytes in
            let trimmed = bytes.trimmedWhitespace
            return trimmed.count == bytes.count ? self : String(decoding: trimmed, as: UTF8.self)
        }
    }
}

// MARK: - Unicode.Scalar+Whitespace

extension Unicode.Scalar {
    /// Unicode's White_Space property, from its list (Unicode 15 PropList.txt): asked of the ends of
    /// every CSV cell, where the general property lookup weighed on the whole import
    /// (docs/performance.md, "Unicode.Scalar.isWhitespace").
    var isWhitespace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}

// MARK: - UnsafeBufferPointer+TrimmedWhitespace

extension UnsafeBufferPointer<UInt8> {
    /// Valid UTF-8 text without its leading and trailing white space (Unicode White_Space, as
    /// `Unicode.Scalar.isWhitespace` lists it), as a slice of the same memory: CSV cells are
    /// trimmed by the million, most of them with nothing to trim, and none needs a copy for it.
    var trimmedWhitespace: UnsafeBufferPointer<UInt8> {
        var start = startIndex, end = endIndex
        while start < end, let length = whitespaceLength(startingAt: start) { start += length }
        while start < end, let length = whitespaceLength(endingAt: end) { end -= length }
        return UnsafeBufferPointer(rebasing: self[start..<end])
    }

    /// The byte length of the scalar at `index` if it is white space.
    private func whitespaceLength(startingAt index: Int) -> Int? {
        let lead = self[index]
        if lead < 0x80 { return Unicode.Scalar(lead).isWhitespace ? 1 : nil }
        // White space past ASCII is two bytes (U+0085, U+00A0) or three (U+1680 to U+3000).
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard length < 4, index + length <= endIndex else { return nil }
        return scalar(at: index, length: length).isWhitespace ? length : nil
    }

    /// The byte length of the scalar that ends just before `end` if it is white space.
    private func whitespaceLength(endingAt end: Int) -> Int? {
        let last = self[end - 1]
        if last < 0x80 { return Unicode.Scalar(last).isWhitespace ? 1 : nil }
        var start = end - 1
        while start > startIndex, self[start] & 0xC0 == 0x80, end - start < 4 { start -= 1 }
        let length = end - start
        guard (2...3).contains(length) else { return nil }
        return scalar(at: start, length: length).isWhitespace ? length : nil
    }

    /// The two- or three-byte scalar at `index`.
    private func scalar(at index: Int, length: Int) -> Unicode.Scalar {
        let value = length == 2
            ? UInt32(self[index] & 0x1F) << 6 | UInt32(self[index + 1] & 0x3F)
            : UInt32(self[index] & 0x0F) << 12 | UInt32(self[index + 1] & 0x3F) << 6 | UInt32(self[index + 2] & 0x3F)
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }
}
