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

    /// `text` escaped, in a `<span lang>` when its script says which language it is.
    static func span(_ text: String) -> String {
        guard let tag = of(text) else { return HTML.escape(text) }
        return "<span lang=\"\(tag)\">\(HTML.escape(text))</span>"
    }
}
