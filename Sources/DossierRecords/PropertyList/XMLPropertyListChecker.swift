/// Reads an XML property list's structure before Foundation parses it. Entity declarations are
/// refused outright (entity expansion is how "billion laughs" files exhaust memory), nesting is
/// bounded here rather than left to Foundation's own limit, and the mistakes Foundation on Linux
/// lets through silently are caught: a `<key>` inside an `<array>` (read as a string), `<data>`
/// that is not base64 (read as no bytes), a `<date>` like 2004-13-45 (rolled over into 2005).
///
/// It checks only structure; values are left for Foundation, whose messages for a bad integer or
/// real are already clear.
struct XMLPropertyListChecker {
    struct Failure: Error {
        let offset: Int
        let reason: String
        let isEntityDeclaration: Bool
    }

    private struct Tag {
        let name: String
        let start: Int
        let isClosing: Bool
        let isEmpty: Bool
    }

    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index: Int

    /// Whether the bytes look like XML at all: `<` first, after a BOM and white space.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        let text = utf8(bytes)
        var index = text.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < text.count, isSpace(text[index]) { index += 1 }
        return index < text.count && text[index] == UInt8(ascii: "<")
    }

    /// Throws the first thing found wrong; the offset is into `utf8(bytes)`.
    static func check(_ bytes: [UInt8]) throws(Failure) {
        let text = utf8(bytes)
        var checker = XMLPropertyListChecker(bytes: text, index: text.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        try checker.document()
    }

    /// The 1-based line of an offset in the checked text, for messages.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        utf8(bytes).prefix(offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    /// XML in UTF-16 (with a BOM, or recognisable by its first `<`) is checked as UTF-8.
    static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        let littleEndian: Bool
        var start = 0
        if bytes.starts(with: [0xFF, 0xFE]) { littleEndian = true; start = 2 }
        else if bytes.starts(with: [0xFE, 0xFF]) { littleEndian = false; start = 2 }
        else if bytes.starts(with: [0x3C, 0x00]) { littleEndian = true }
        else if bytes.starts(with: [0x00, 0x3C]) { littleEndian = false }
        else { return bytes }
        var units: [UInt16] = []
        units.reserveCapacity((bytes.count - start) / 2)
        var position = start
        while position + 1 < bytes.count {
            let first = UInt16(bytes[position]), second = UInt16(bytes[position + 1])
            units.append(littleEndian ? second << 8 | first : first << 8 | second)
            position += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    // MARK: Document

    private mutating func document() throws(Failure) {
        skipMisc()
        if starts("<!DOCTYPE") {
            try doctype()
            skipMisc()
        }
        guard index < bytes.count else { throw fail(at: index, "there is no root element") }
        let root = try tag()
        guard !root.isClosing else { throw fail(at: root.start, "a closing </\(root.name)> before any element") }
        if root.name == "plist" {
            guard !root.isEmpty else { throw fail(at: root.start, "<plist/> holds no value") }
            skipMisc()
            try noText(in: "plist")
            let value = try tag()
            guard !value.isClosing else { throw fail(at: value.start, "<plist> holds no value") }
            try self.value(value, depth: 1)
            skipMisc()
            try noText(in: "plist")
            let end = try tag()
            guard end.isClosing && end.name == "plist" else {
                throw fail(at: end.start, "<plist> holds more than one value (found <\(end.name)>)")
            }
        } else {
            try value(root, depth: 1)
        }
        skipMisc()
        guard index == bytes.count else { throw fail(at: index, "content after the end of the property list") }
    }

    private mutating func doctype() throws(Failure) {
        let start = index
        var quote: UInt8?
        var inSubset = false
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if inSubset && starts("<!ENTITY", caseInsensitive: true) {
                throw Failure(offset: index, reason: "XML entity declarations are not supported", isEntityDeclaration: true)
            } else if byte == UInt8(ascii: ">") && !inSubset {
                index += 1
                return
            }
            index += 1
        }
        throw fail(at: start, "the <!DOCTYPE> is never closed")
    }

    // MARK: Values

    private mutating func value(_ open: Tag, depth: Int) throws(Failure) {
        guard depth <= XMLPropertyListChecker.maximumDepth else {
            throw fail(at: open.start, "containers are nested more than \(XMLPropertyListChecker.maximumDepth) deep")
        }
        switch open.name {
        case "dict":
            if open.isEmpty { return }
            var pendingKey: (name: String, start: Int)?
            while true {
                skipMisc()
                try noText(in: "dict")
                let next = try tag()
                if next.isClosing {
                    guard next.name == "dict" else { throw mismatch(next, open: "dict") }
                    if let key = pendingKey { throw fail(at: key.start, "the key '\(key.name)' has no value") }
                    return
                }
                if let key = pendingKey {
                    guard next.name != "key" else { throw fail(at: key.start, "the key '\(key.name)' has no value") }
                    try value(next, depth: depth + 1)
                    pendingKey = nil
                } else {
                    guard next.name == "key" else {
                        throw fail(at: next.start, "<\(next.name)> in a <dict> where a <key> should be")
                    }
                    pendingKey = (try text(of: next), next.start)
                }
            }
        case "array":
            if open.isEmpty { return }
            while true {
                skipMisc()
                try noText(in: "array")
                let next = try tag()
                if next.isClosing {
                    guard next.name == "array" else { throw mismatch(next, open: "array") }
                    return
                }
                guard next.name != "key" else { throw fail(at: next.start, "a <key> inside an <array>") }
                try value(next, depth: depth + 1)
            }
        case "string", "integer", "real":
            _ = try text(of: open)
        case "date":
            let text = try text(of: open)
            guard XMLPropertyListChecker.isDate(text) else {
                throw fail(at: open.start, "the <date> '\(text.prefix(40))' is not a date of the form YYYY-MM-DDTHH:MM:SSZ")
            }
        case "data":
            let text = try text(of: open)
            guard XMLPropertyListChecker.isBase64(text) else { throw fail(at: open.start, "the <data> is not valid base64") }
        case "true", "false":
            guard !open.isEmpty else { return }
            let content = try text(of: open)
            guard content.allSatisfy(\.isWhitespace) else { throw fail(at: open.start, "<\(open.name)> holds text") }
        case "key":
            throw fail(at: open.start, "a <key> outside a <dict>")
        default:
            throw fail(at: open.start, "unknown element <\(open.name)>")
        }
    }

    /// The raw character data of a leaf element up to its closing tag; CDATA and comments allowed.
    private mutating func text(of open: Tag) throws(Failure) -> String {
        if open.isEmpty { return "" }
        var content: [UInt8] = []
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<") {
                if starts("<![CDATA[") {
                    let start = index
                    index += 9
                    guard let end = find("]]>") else { throw fail(at: start, "a CDATA section is never closed") }
                    content.append(contentsOf: bytes[index..<end])
                    index = end + 3
                    continue
                }
                if starts("<!--") {
                    try comment()
                    continue
                }
                let close = try tag()
                guard close.isClosing && close.name == open.name else {
                    throw fail(at: close.start, "<\(close.isClosing ? "/" : "")\(close.name)> inside <\(open.name)>, which holds only text")
                }
                return String(decoding: content, as: UTF8.self)
            }
            content.append(bytes[index])
            index += 1
        }
        throw fail(at: open.start, "<\(open.name)> is never closed")
    }

    // MARK: Lexing

    private mutating func tag() throws(Failure) -> Tag {
        let start = index
        guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { throw fail(at: index, "expected an element") }
        index += 1
        let isClosing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
        if isClosing { index += 1 }
        let nameStart = index
        while index < bytes.count, XMLPropertyListChecker.isNameByte(bytes[index]) { index += 1 }
        guard index > nameStart else { throw fail(at: start, "a '<' that does not start an element") }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                let isEmpty = bytes[index - 1] == UInt8(ascii: "/")
                index += 1
                return Tag(name: name, start: start, isClosing: isClosing, isEmpty: isEmpty)
            } else if byte == UInt8(ascii: "<") {
                break
            }
            index += 1
        }
        throw fail(at: start, "the tag <\(name) is never closed")
    }

    /// Skips white space, comments and processing instructions.
    private mutating func skipMisc() {
        while index < bytes.count {
            if XMLPropertyListChecker.isSpace(bytes[index]) {
                index += 1
            } else if starts("<!--") {
                guard (try? comment()) != nil else { return }
            } else if starts("<?") {
                guard let end = find("?>") else { return }
                index = end + 2
            } else {
                return
            }
        }
    }

    private mutating func comment() throws(Failure) {
        let start = index
        index += 4
        guard let end = find("-->") else { index = start; throw fail(at: start, "a comment is never closed") }
        index = end + 3
    }

    /// Text between elements of a container is an error (Foundation would stop there anyway, with
    /// a vaguer message).
    private mutating func noText(in container: String) throws(Failure) {
        guard index < bytes.count else { throw fail(at: index, "the file ends inside <\(container)>") }
        guard bytes[index] != UInt8(ascii: "<") else { return }
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "<"), end - index < 40 { end += 1 }
        let text = String(decoding: bytes[index..<end], as: UTF8.self)
        throw fail(at: index, "text '\(text)' between the elements of <\(container)>")
    }

    private func starts(_ literal: String, caseInsensitive: Bool = false) -> Bool {
        let pattern = Array(literal.utf8)
        guard index + pattern.count <= bytes.count else { return false }
        for (offset, byte) in pattern.enumerated() {
            let actual = bytes[index + offset]
            if actual == byte { continue }
            if caseInsensitive, actual | 0x20 == byte | 0x20, (byte | 0x20) >= 0x61, (byte | 0x20) <= 0x7A { continue }
            return false
        }
        return true
    }

    private func find(_ literal: String) -> Int? {
        let pattern = Array(literal.utf8)
        var position = index
        while position + pattern.count <= bytes.count {
            if bytes[position] == pattern[0] && Array(bytes[position..<(position + pattern.count)]) == pattern { return position }
            position += 1
        }
        return nil
    }

    private func fail(at offset: Int, _ reason: String) -> Failure {
        Failure(offset: offset, reason: reason, isEntityDeclaration: false)
    }

    private func mismatch(_ tag: Tag, open: String) -> Failure {
        fail(at: tag.start, "</\(tag.name)> closes <\(open)>")
    }

    // MARK: Values Foundation gets wrong silently

    static func isBase64(_ text: String) -> Bool {
        var count = 0, padding = 0
        for byte in text.utf8 where !isSpace(byte) {
            if byte == UInt8(ascii: "=") {
                padding += 1
            } else {
                let isAlphabet = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
                guard isAlphabet, padding == 0 else { return false }
            }
            count += 1
        }
        return padding <= 2 && count % 4 == 0
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` naming a real moment.
    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
        else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year >= 1, (1...12).contains(month), hour <= 23, minute <= 59, second <= 59
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
            || byte >= 0x80
    }
}
