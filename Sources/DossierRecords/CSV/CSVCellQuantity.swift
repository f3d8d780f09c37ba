import DossierCore

/// A quantity written in one cell with its units, as people and apps write them: `8.2 oz`,
/// `4lb 2.70oz`, `5 lb 3 oz`, `18.15in`, `1 h 48 min`, `1:48` (a duration), `1시간 20분`,
/// `1時間15分`, `6,5 kg`. Each number takes the unit written after it, and the parts are summed
/// in the unit records keep; every unit must measure what the column does, or the cell is no
/// quantity (and is reported, never read as something else).
enum CSVCellQuantity {
    /// The cell's value in `unit`, or nil when it is not one quantity of that kind.
    static func value(of cell: String, in unit: MeasurementUnit, name: String, decimalComma: Bool) -> Double? {
        if unit == .minutes, let minutes = clockDuration(cell) { return minutes }
        var total = 0.0
        var pendingNumber: Double?
        var parts = 0
        for token in tokens(cell) {
            switch token {
            case .number(let text):
                guard pendingNumber == nil, let number = CSVNumber.parse(text, decimalComma: decimalComma) else { return nil }
                pendingNumber = number
            case .word(let word):
                guard let number = pendingNumber,
                      let (dimension, factor) = CSVHeaderVocabulary.unit(word, forName: CSVHeaderVocabulary.key(name)),
                      dimension.unit == unit
                else { return nil }
                total += number * factor
                pendingNumber = nil
                parts += 1
            }
        }
        // `5 lb 3`: a number with no unit after it says nothing certain.
        guard parts > 0, pendingNumber == nil else { return nil }
        return total
    }

    private enum Token {
        case number(String)
        case word(String)
    }

    /// Numbers (digits with `.` or `,` inside, a sign in front) and the words between them;
    /// spaces only separate. `4lb 2.70oz` is 4, lb, 2.70, oz.
    private static func tokens(_ cell: String) -> [Token] {
        var tokens: [Token] = []
        var number = "", word = ""
        func flush() {
            if !number.isEmpty { tokens.append(.number(number)); number = "" }
            if !word.isEmpty { tokens.append(.word(word)); word = "" }
        }
        for character in cell {
            if character.isASCII && character.isNumber {
                if !word.isEmpty { flush() }
                number.append(character)
            } else if (character == "." || character == ",") && !number.isEmpty {
                number.append(character)
            } else if (character == "-" || character == "+" || character == "−") && number.isEmpty && word.isEmpty && tokens.isEmpty {
                number.append(character)
            } else if character.isWhitespace {
                flush()
            } else {
                if !number.isEmpty { flush() }
                word.append(character)
            }
        }
        flush()
        return tokens
    }

    /// `1:48` or `1:48:30` (hours, minutes, seconds) in minutes.
    private static func clockDuration(_ cell: String) -> Double? {
        let parts = cell.trimmedWhitespace.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts.dropFirst().allSatisfy({ $0.count == 2 }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60
        else { return nil }
        let seconds = parts.count == 3 ? Int(parts[2]) ?? 60 : 0
        guard seconds < 60 else { return nil }
        return Double(hours * 60 + minutes) + Double(seconds) / 60
    }
}
