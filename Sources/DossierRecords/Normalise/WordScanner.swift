/// Splits an entry's text into lowercased words with what sits between them: the shared first
/// step of classification and quantity reading. A number and the letters glued after it ("45g",
/// "5마리", "1時間") stay one word; the readers take them apart. A number glued after Hangul or
/// CJK letters starts a word of its own: Japanese writes no space there ("ミルク120ml",
/// "1時間30分", "左10分"), and Korean often none ("귀뚜라미5마리").
struct WordScanner {
    struct Word: Equatable {
        let text: String
        let isHangul: Bool
        /// Holds kana or Han ideographs: such text has no spaces between its words, so keywords
        /// are looked for inside it (`ミルク合計` holds ミルク and 合計).
        var isCJK = false
    }

    /// One word as the scanner would make it, for a word found some other way (a unit glued
    /// after a number).
    static func word(_ text: String) -> Word {
        let scalars = text.unicodeScalars
        return Word(text: text, isHangul: scalars.contains { isHangulSyllable($0.value) },
                    isCJK: scalars.contains { isCJK($0.value) })
    }

    static func isHangulSyllable(_ value: UInt32) -> Bool { (0xAC00...0xD7A3).contains(value) }

    /// Hiragana, katakana (full and half width) and the Han ideographs Japanese and Chinese use.
    static func isCJK(_ value: UInt32) -> Bool {
        (0x3040...0x30FF).contains(value) || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFF66...0xFF9F).contains(value) || value == 0x3005  // 々
    }

    /// Read from the text's UTF-8 bytes, each word made of its slice of the text (no copy
    /// through an array, no second UTF-8 check); only a word with a capital letter in it is
    /// lowercased. Notes rarely repeat, so this runs for most records of a big import, where the
    /// former scalar-by-scalar scan (an array of the scalars, a string appended a scalar at a time,
    /// every word lowercased) weighed on the whole import (docs/performance.md, "WordScanner").
    static func words(in text: String) -> [Word] {
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { words(in: text, bytes: $0) } ?? []
    }

    private static func words(in text: String, bytes: UnsafeBufferPointer<UInt8>) -> [Word] {
        var words: [Word] = []
        var start = -1
        var hangul = false
        var cjk = false
        var cased = false
        /// Whether the last scalar of the open word was a Hangul syllable or CJK letter.
        var afterSyllable = false
        let utf8 = text.utf8
        func close(at end: Int) {
            guard start >= 0 else { return }
            let word = String(Substring(utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]))
            words.append(Word(text: cased ? word.lowercased() : word, isHangul: hangul, isCJK: cjk))
            start = -1
            hangul = false
            cjk = false
            cased = false
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                // A decimal point or comma inside a number belongs to it.
                let isNumberMark = (byte == 0x2E || byte == 0x2C) && index > 0 && index + 1 < count
                    && isDigit(bytes[index - 1]) && isDigit(bytes[index + 1])
                let isCapital = byte >= 0x41 && byte <= 0x5A
                if isDigit(byte) || isNumberMark || (byte >= 0x61 && byte <= 0x7A) || isCapital {
                    if afterSyllable && isDigit(byte) { close(at: index) }
                    if start < 0 { start = index }
                    if isCapital { cased = true }
                    afterSyllable = false
                } else {
                    close(at: index)
                }
                index += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<min(length, count - index) { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
            // Hangul syllables by range: the Unicode property tables are only asked about the rest.
            let isHangulSyllable = WordScanner.isHangulSyllable(value)
            if isHangulSyllable || Unicode.Scalar(value)?.properties.isAlphabetic == true {
                if start < 0 { start = index }
                let isCJK = !isHangulSyllable && WordScanner.isCJK(value)
                if isHangulSyllable { hangul = true } else { cased = true }
                if isCJK { cjk = true }
                afterSyllable = isHangulSyllable || isCJK
            } else {
                close(at: index)
            }
            index += length
        }
        close(at: count)
        return words
    }

    /// Hangul words carry particles (귀뚜라미를, 체중은): these are the endings a keyword may have
    /// when the keyword is a single syllable, which would otherwise match too much (키우기, 약간).
    static let particles: Set<String> = ["을", "를", "이", "가", "은", "는", "도", "만", "에", "로", "으로", "랑", "와", "과"]
}
