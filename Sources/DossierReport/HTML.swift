import DossierCore
import Glibc

/// Text made safe for HTML. Names, notes and log lines are user data: a note holding `<script>`
/// must show as text, and a name holding a quote must not end an attribute.
enum HTML {
    /// For text and for attribute values (always written in double quotes).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // Control characters (a name's stray bytes) would make the page invalid; shown as U+FFFD.
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A path for an `href` or `src`: each component percent-encoded where a URL needs it, so a
    /// name with a space, `#` or `?` still leads to its file. Encoded from the name's bytes on
    /// the disk (`SourcePath`): a name that is not UTF-8 (CP949 from a Korean zip) is carried
    /// in escapes that are not its bytes, and its link must name the bytes.
    static func url(_ path: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        let bytes = SourcePath.withFileSystemPath(path) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
        var out = ""
        for byte in bytes.map({ UInt8(bitPattern: $0) }) {
            if allowed.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return escape(out)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
