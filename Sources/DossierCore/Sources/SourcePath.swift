import Glibc

/// File names are bytes. Most are UTF-8, but a zip made on a Korean Windows machine unpacks to
/// CP949 names (`\xb7\xb9\xbf\xc0.jpg`), and such a file must still be read, routed, filed and
/// removed, not lost to "No such file or directory".
///
/// Dossier keeps paths as `String`s; a byte that is not part of valid UTF-8 is carried in one
/// scalar of a private-use range (U+10FF80...U+10FFFF, byte 0x80 to 0xFF), the way Python's
/// `surrogateescape` does, so the bytes come back exactly when the path is handed to the file
/// system. (A name that really holds one of those rare scalars has its UTF-8 bytes escaped too,
/// so every name goes there and back unchanged.) On screen each escaped byte shows as U+FFFD.
public enum SourcePath {
    private static let escapeBase: UInt32 = 0x10_FF00
    private static let escapes: ClosedRange<UInt32> = 0x10_FF80...0x10_FFFF

    /// The path of these file-system bytes (no NUL among them).
    public static func string<Bytes: Collection<UInt8>>(fromFileSystem bytes: Bytes) -> String {
        let array = Array(bytes)
        if let valid = String(validating: array, as: UTF8.self), !valid.unicodeScalars.contains(where: { escapes.contains($0.value) }) {
            return valid
        }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < array.count {
            let length = validSequenceLength(array, at: index)
            if length > 0 {
                let scalar = String(decoding: array[index..<index + length], as: UTF8.self).unicodeScalars.first!
                if !escapes.contains(scalar.value) {
                    scalars.append(scalar)
                    index += length
                    continue
                }
                for byte in array[index..<index + length] { scalars.append(escaped(byte)) }
                index += length
                continue
            }
            scalars.append(escaped(array[index]))
            index += 1
        }
        return String(scalars)
    }

    /// The path of a NUL-terminated C string the file system gave (`readdir`, `realpath`).
    public static func string(fromCString pointer: UnsafePointer<CChar>) -> String {
        string(fromFileSystem: UnsafeBufferPointer(start: pointer, count: strlen(pointer)).lazy.map { UInt8(bitPattern: $0) })
    }

    /// Calls `body` with the path as the file system's NUL-terminated bytes.
    public static func withFileSystemPath<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        // Nearly every path holds no escape: it is passed as it is.
        guard path.utf8.contains(0xF4) else { return try path.withCString(body) }
        var bytes: [CChar] = []
        bytes.reserveCapacity(path.utf8.count + 1)
        for scalar in path.unicodeScalars {
            if escapes.contains(scalar.value) {
                bytes.append(CChar(bitPattern: UInt8(scalar.value - escapeBase)))
            } else {
                bytes.append(contentsOf: String(scalar).utf8.map { CChar(bitPattern: $0) })
            }
        }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// Opens the file for reading (`O_RDONLY | O_CLOEXEC`): a descriptor, or -1 with `errno` set.
    public static func openForReading(_ path: String) -> Int32 {
        withFileSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
    }

    /// `stat` (or `lstat`, which does not follow a last link) of the path; nil with `errno` set.
    public static func status(_ path: String, followingLinks: Bool = true) -> stat? {
        var info = stat()
        let result = withFileSystemPath(path) { followingLinks ? stat($0, &info) : lstat($0, &info) }
        return result == 0 ? info : nil
    }

    /// The text as a person should see it, and safe to print: each escaped byte as U+FFFD, the
    /// replacement character, and every character that would steer a terminal or reorder a line
    /// written out as a visible escape, so a name cannot retitle a terminal (`ESC ] 0 ; ... BEL`),
    /// break a listing's line in two, or read backwards:
    /// - `\t`, `\n` and `\r` as such (unless `keepingNewlines`, which leaves `\n` alone, for a
    ///   whole text whose own lines end in it);
    /// - every other C0 control, DEL and the C1 controls (U+0080...U+009F) as `\u` and four
    ///   hex digits: `\u001B`, `\u0007`, `\u007F`, `\u009B`;
    /// - the bidirectional embeddings, overrides and isolates (U+202A...U+202E, U+2066...U+2069)
    ///   and the line and paragraph separators (U+2028, U+2029) alike: `\u202E`.
    ///
    /// That is JSON's own form, so a JSON line passed through stays valid and means the same (its
    /// encoder escapes C0 itself; DEL, C1 and the bidirectional controls it leaves raw come out as
    /// escapes JSON reads back to them). A backslash is left as it is, for the same reason: a name
    /// holding the text `\u001B` reads like one holding ESC. The escapes keep the terminal safe;
    /// they are not a way back to the name's bytes (`withFileSystemPath` is).
    public static func displayed(_ text: String, keepingNewlines: Bool = false) -> String {
        // Nearly every text holds none: the bytes that can start one are looked for first.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 || $0 == 0xF4 }),
              text.unicodeScalars.contains(where: { needsEscape($0) || escapes.contains($0.value) })
        else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if escapes.contains(scalar.value) {
                shown.append("\u{FFFD}")
            } else if (scalar == "\n" && keepingNewlines) || !needsEscape(scalar) {
                shown.append(scalar)
            } else {
                shown.append(contentsOf: visibleEscape(of: scalar).unicodeScalars)
            }
        }
        return String(shown)
    }

    /// Whether a character steers a terminal or the order a line reads in.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func visibleEscape(of scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\t": return "\\t"
        case "\n": return "\\n"
        case "\r": return "\\r"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    private static func escaped(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(escapeBase + UInt32(byte))!
    }

    /// The length of the valid UTF-8 sequence at `index`, or 0 if the byte there starts none.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        return String(validating: bytes[index..<index + length], as: UTF8.self) == nil ? 0 : length
    }
}
