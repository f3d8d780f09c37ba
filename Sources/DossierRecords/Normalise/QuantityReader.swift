import DossierCore

/// Reads the numbers an entry gives, with their unit words and what they count: "귀뚜라미 5마리"
/// -> 5 마리 (cricket), "2 pinkies" -> 2 pinkies (pinky), "0.05kg" -> 0.05 kg, "밀웜 10" -> 10 (mealworm).
/// A duration written in parts, each part in a smaller unit than the one before and right after
/// it ("1時間30分", "1시간 20분", "2 h 15 min"), is one quantity: the minutes they sum to.
struct QuantityReader: Sendable {
    let classifier: KeywordClassifier

    func quantities(in words: [WordScanner.Word], memo: inout WordMemo) -> [Quantity] {
        var quantities: [Quantity] = []
        /// Minutes in the unit of the last part read, when it was a duration, and the index of its
        /// last word: the next part of the same duration starts right after it, in a smaller unit.
        var lastDuration: (minutesPerUnit: Double, end: Int)?
        var index = 0
        while index < words.count {
            defer { index += 1 }
            let first = index
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
                unitWord = WordScanner.word(unit)
                // "2023년", "3rd": numbers with words that are no unit are not quantities.
                guard UnitConverter.isUnit(unit) || memo.food(of: unitWord!, in: classifier) != nil else { continue }
            }
            var label = unitWord.flatMap { memo.food(of: $0, in: classifier) }
            if label == nil, quantities.count < 8 {
                let before = index - (unitWord != nil && gluedUnit.isEmpty ? 2 : 1)
                if before >= 0 { label = memo.food(of: words[before], in: classifier) }
                if label == nil, index + 1 < words.count { label = memo.food(of: words[index + 1], in: classifier) }
            }
            let minutesPerUnit = UnitConverter.minutes(in: unit)
            if let minutesPerUnit, let last = lastDuration, last.end == first - 1, minutesPerUnit < last.minutesPerUnit {
                let before = quantities.removeLast()
                // The part before may itself be parts summed, in minutes already.
                let minutes = before.value * (UnitConverter.minutes(in: before.unit) ?? 1) + value * minutesPerUnit
                quantities.append(Quantity(value: minutes, unit: "min", label: before.label))
            } else {
                quantities.append(Quantity(value: value, unit: unit, label: label,
                                           decimals: RecordMeasurement.decimals(written: words[first].text.utf8)))
            }
            lastDuration = minutesPerUnit.map { ($0, index) }
        }
        return quantities
    }

    /// A word that starts with a number: the number, and the letters glued after it. Read from
    /// the word's UTF-8 bytes, not an array of scalars: it is asked of every word of every entry
    /// (docs/performance.md, "QuantityReader").
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
            guard let value = Double(String(decoding: digits, as: UTF8.self)), value < RecordMeasurement.largestValue else { return nil }
            return (value, String(decoding: UnsafeBufferPointer(rebasing: bytes[end...]), as: UTF8.self))
        }
    }
}
