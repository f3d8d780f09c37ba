/// One JSON object written straight into text, its keys in the order they are added: the
/// `--json` line of a source, for which `JSONSerialization` boxed every value as `Any` and cast
/// it back, and compared every key through ICU's collation to sort them, a part of filing a
/// small file worth measuring (docs/performance.md). Strings are escaped exactly as
/// `JSONSerialization` does with `.withoutEscapingSlashes` (`JSONLineWriterTests` compares the
/// two), so a line reads the same whichever wrote it.
struct JSONLineWriter {
    private var text = "{"

    /// `key`'s value, a string; `null` for nil.
    mutating func add(_ key: String, _ value: String?) {
        start(key)
        if let value { JSONLineWriter.quote(value, into: &text) } else { text += "null" }
    }

    mutating func add(_ key: String, _ value: Int) {
        start(key)
        text += String(value)
    }

    mutating func add(_ key: String, _ value: Bool) {
        start(key)
        text += value ? "true" : "false"
    }

    mutating func add(_ key: String, _ values: [String]) {
        start(key)
        text += "["
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            JSONLineWriter.quote(value, into: &text)
        }
        text += "]"
    }

    /// An object of whole numbers, its keys in the order given.
    mutating func add(_ key: String, _ counts: KeyValuePairs<String, Int>) {
        start(key)
        var inner = JSONLineWriter()
        for (name, count) in counts { inner.add(name, count) }
        text += inner.text + "}"
    }

    /// The object, closed, and its line's end.
    var line: String { text + "}\n" }

    private mutating func start(_ key: String) {
        if text.utf8.count > 1 { text += "," }
        JSONLineWriter.quote(key, into: &text)
        text += ":"
    }

    /// `value` in quotes: `"` and `\` escaped, the control characters as `\b`, `\f`, `\n`, `\r`,
    /// `\t` or `\u00xx`; everything else, `/` and all beyond ASCII included, as it is.
    static func quote(_ value: String, into text: inout String) {
        text += "\""
        let hex: [Character] = Array("0123456789abcdef")
        var plainFrom = value.unicodeScalars.startIndex
        var index = plainFrom
        let scalars = value.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escaped: String?
            switch scalar {
            case "\"": escaped = "\\\""
            case "\\": escaped = "\\\\"
            case "\u{8}": escaped = "\\b"
            case "\u{C}": escaped = "\\f"
            case "\n": escaped = "\\n"
            case "\r": escaped = "\\r"
            case "\t": escaped = "\\t"
            case "\u{0}"..."\u{1F}": escaped = "\\u00" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 0xF)])
            default: escaped = nil
            }
            if let escaped {
                text.unicodeScalars.append(contentsOf: scalars[plainFrom..<index])
                text += escaped
                plainFrom = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        text.unicodeScalars.append(contentsOf: scalars[plainFrom..<scalars.endIndex])
        text += "\""
    }
}
