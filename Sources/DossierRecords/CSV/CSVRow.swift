/// One record of a CSV file: its fields, and the line it starts on so that a problem in it can
/// be pointed at in the file.
///
/// The fields are kept as one run of UTF-8 bytes (quotes and escapes already undone) with where
/// each ends, not as a `String` each: an import reads most cells as dates, numbers and names
/// straight from the bytes, and makes strings only of the text it keeps.
public struct CSVRow: Hashable, Sendable {
    /// 1-based; a row whose quoted field spans lines is numbered by its first line.
    public let line: Int
    /// The fields' bytes, one after another.
    let bytes: [UInt8]
    /// Where each field ends in `bytes`: field `i` is `ends[i - 1]..<ends[i]` (the first starts at 0).
    let ends: [Int]

    public init(line: Int, fields: [String]) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        ends.reserveCapacity(fields.count)
        for field in fields {
            bytes.append(contentsOf: field.utf8)
            ends.append(bytes.count)
        }
        self.init(line: line, bytes: bytes, ends: ends)
    }

    init(line: Int, bytes: [UInt8], ends: [Int]) {
        self.line = line
        self.bytes = bytes
        self.ends = ends
    }

    /// Never fewer than the header has: missing trailing fields are padded with "".
    public var count: Int { ends.count }

    public var fields: [String] { (0..<count).map(field) }

    public func field(_ index: Int) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range(of: index)]), as: UTF8.self) }
    }

    /// Where field `index` lies in `bytes`.
    func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// The line the row ends on: its first, plus the line breaks inside its quoted fields.
    var lastLine: Int {
        bytes.withUnsafeBufferPointer { bytes in
            var breaks = 0
            for (index, byte) in bytes.enumerated() where byte == 0x0A || (byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) {
                breaks += 1
            }
            return line + breaks
        }
    }

    /// The row with empty fields added up to `width`.
    consuming func padded(to width: Int) -> CSVRow {
        guard count < width else { return self }
        var ends = ends
        ends.append(contentsOf: repeatElement(bytes.count, count: width - count))
        return CSVRow(line: line, bytes: bytes, ends: ends)
    }
}
