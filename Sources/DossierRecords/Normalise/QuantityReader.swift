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

    /// A word that starts with a number: the number, and the letters glued after it.
    static func number(at word: String) -> (Double, String)? {
        // Asked of every word; most start with no digit, and are passed over without a copy.
        guard let lead = word.utf8.first, lead >= 0x30 && lead <= 0x39 else { return nil }
        let scalars = Array(word.unicodeScalars)
        guard let first = scalars.first, (0x30...0x39).contains(first.value) else { return nil }
        var end = 0
        var digits = ""
        while end < scalars.count {
            let scalar = scalars[end]
            if (0x30...0x39).contains(scalar.value) {
                digits.unicodeScalars.append(scalar)
            } else if scalar == "." {
                digits += "."
            } else if scalar == "," {
                // "1,250" is a thousand and more; "0,6" a decimal comma.
                let following = scalars[(end + 1)...].prefix { (0x30...0x39).contains($0.value) }.count
                if following != 3 { digits += "." }
            } else {
                break
            }
            end += 1
        }
        guard let value = Double(digits) else { return nil }
        return (value, String(String.UnicodeScalarView(scalars[end...])))
    }
}
