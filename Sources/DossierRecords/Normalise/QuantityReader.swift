import DossierCore

/// Reads the numbers an entry gives, with their unit words and what they count: "귀뚜라미 5마리"
/// -> 5 마리 (cricket), "2 pinkies" -> 2 pinkies (pinky), "0.05kg" -> 0.05 kg, "밀웜 10" -> 10 (mealworm).
struct QuantityReader: Sendable {
    let classifier: KeywordClassifier

    func quantities(in words: [WordScanner.Word], memo: inout WordMemo) -> [Quantity] {
        var quantities: [Quantity] = []
        var index = 0
        while index < words.count {
            defer { index += 1 }
            guard let (value, gluedUnit) = QuantityReader.number(at: words[index].text) else { continue }
            var unit = gluedUnit
            var unitWord: WordScanner.Word?
            if unit.isEmpty, index + 1 < words.count {
                let next = words[index + 1]
                if UnitConverter.isUnit(next.text) || memo.food(of: next, in: classifier) != nil {
                    unit = next.text
                    unitWord = next
                    index += 1
                }
            } else if !unit.isEmpty {
                unitWord = WordScanner.Word(text: unit, isHangul: unit.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) })
                // "2023년", "3rd": numbers with words that are no unit are not quantities.
                guard UnitConverter.isUnit(unit) || memo.food(of: unitWord!, in: classifier) != nil else { continue }
            }
            var label = unitWord.flatMap { memo.food(of: $0, in: classifier) }
            if label == nil, quantities.count < 8 {
                let before = index - (unitWord != nil && gluedUnit.isEmpty ? 2 : 1)
                if before >= 0 { label = memo.food(of: words[before], in: classifier) }
                if label == nil, index + 1 < words.count { label = memo.food(of: words[index + 1], in: classifier) }
            }
            quantities.append(Quantity(value: value, unit: unit, label: label))
        }
        return quantities
    }

    /// A word that starts with a number: the number, and the letters glued after it. Read from
    /// the word's UTF-8 bytes (it is asked of every word of every entry): measured against the
    /// former array of scalars, 4% off an import of a CSV whose notes are all different (medians
    /// of five interleaved runs on a noisy machine: 2.42 s to 2.32 s).
    static func number(at word: String) -> (Double, String)? {
        // Most words start with no digit: passed over before any copy.
        guard let first = word.utf8.first, first >= 0x30 && first <= 0x39 else { return nil }
        var word = word
        return word.withUTF8 { bytes -> (Double, String)? in
            func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
            guard let lead = bytes.first, isDigit(lead) else { return nil }
            var end = 0
            var digits: [UInt8] = []
            digits.reserveCapacity(bytes.count)
            while end < bytes.count {
                let byte = bytes[end]
                if isDigit(byte) {
                    digits.append(byte)
                } else if byte == 0x2E {
                    digits.append(0x2E)
                } else if byte == 0x2C {
                    // "1,250" is a thousand and more; "0,6" a decimal comma.
                    var following = 0
                    while end + 1 + following < bytes.count, isDigit(bytes[end + 1 + following]) { following += 1 }
                    if following != 3 { digits.append(0x2E) }
                } else {
                    break
                }
                end += 1
            }
            guard let value = Double(String(decoding: digits, as: UTF8.self)) else { return nil }
            return (value, String(decoding: UnsafeBufferPointer(rebasing: bytes[end...]), as: UTF8.self))
        }
    }
}
