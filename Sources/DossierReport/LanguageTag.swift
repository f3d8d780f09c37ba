/// The language a name is written in, as far as its script tells: Hangul is Korean, kana is
/// Japanese. The `lang` attribute lets a browser pick the right font for Han characters, which
/// Korean, Japanese and Chinese draw differently.
enum LanguageTag {
    static func of(_ text: String) -> String? {
        var sawHan = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F: return "ko"
            case 0x3040...0x30FF, 0x31F0...0x31FF: return "ja"
            case 0x4E00...0x9FFF: sawHan = true
            default: continue
            }
        }
        return sawHan ? "ja" : nil
    }

    /// `text` escaped, in a `<span lang>` when its script says which language it is; in a
    /// `<bdi>` when it holds a right-to-left override or embedding (U+202A...U+202E,
    /// U+2066...U+2069), whose reordering would otherwise run on past the name and turn the
    /// text after it around (`Kid<RLO>evil</a>: first birthday`).
    static func span(_ text: String) -> String {
        let escaped: String
        if let tag = of(text) {
            escaped = "<span lang=\"\(tag)\">\(HTML.escape(text))</span>"
        } else {
            escaped = HTML.escape(text)
        }
        let steersDirection = text.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
        return steersDirection ? "<bdi>\(escaped)</bdi>" : escaped
    }
}
