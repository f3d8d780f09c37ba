/// Splits an entry's text into lowercased words with what sits between them: the shared first
/// step of classification and quantity reading. Digits and letters glued together ("45g",
/// "5마리") stay one word; the readers take them apart.
struct WordScanner {
    struct Word: Equatable {
        let text: String
        let isHangul: Bool
    }

    static func words(in text: String) -> [Word] {
        var words: [Word] = []
        var current = String.UnicodeScalarView()
        var hangul = false
        func close() {
            if !current.isEmpty { words.append(Word(text: String(current).lowercased(), isHangul: hangul)) }
            current = String.UnicodeScalarView()
            hangul = false
        }
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let value = scalar.value
            let isDigit = (0x30...0x39).contains(value)
            // A decimal point or comma inside a number belongs to it.
            let isNumberMark = (value == 0x2E || value == 0x2C) && index > 0 && index + 1 < scalars.count
                && (0x30...0x39).contains(scalars[index - 1].value) && (0x30...0x39).contains(scalars[index + 1].value)
            let isHangulSyllable = (0xAC00...0xD7A3).contains(value)
            // ASCII and Hangul syllables by range: the Unicode property tables are only asked
            // about the rest.
            let isLetter = value < 0x80 ? (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                : isHangulSyllable || scalar.properties.isAlphabetic
            if isDigit || isNumberMark || isLetter {
                if isHangulSyllable { hangul = true }
                current.append(scalar)
            } else {
                close()
            }
        }
        close()
        return words
    }

    /// Hangul words carry particles (귀뚜라미를, 체중은): these are the endings a keyword may have
    /// when the keyword is a single syllable, which would otherwise match too much (키우기, 약간).
    static let particles: Set<String> = ["을", "를", "이", "가", "은", "는", "도", "만", "에", "로", "으로", "랑", "와", "과"]
}
