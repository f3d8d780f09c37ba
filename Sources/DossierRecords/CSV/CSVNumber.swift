import Foundation

/// Reads numbers as spreadsheets write them: `1,234.5`, `1.234,5`, `45,5` (where `;` separates
/// fields, the comma is the decimal mark), `+3`, `−2` (a Unicode minus).
enum CSVNumber {
    /// Nil unless all of `text` (trimmed) is one number.
    static func parse(_ text: String, decimalComma: Bool) -> Double? {
        if let plain = plainNumber(text) { return plain }
        var body = Substring(text.trimmedWhitespace)
        var negative = false
        if let first = body.first, first == "-" || first == "−" || first == "+" {
            negative = first != "+"
            body = body.dropFirst()
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "," || $0 == ".") }),
              body.contains(where: \.isNumber)
        else { return nil }
        let commas = body.filter { $0 == "," }.count, dots = body.filter { $0 == "." }.count
        var digits: String
        if commas > 0 && dots > 0 {
            // Whichever mark comes last is the decimal mark; the other groups thousands.
            let decimal: Character = body.lastIndex(of: ",")! > body.lastIndex(of: ".")! ? "," : "."
            let grouping: Character = decimal == "," ? "." : ","
            guard body.filter({ $0 == decimal }).count == 1, isGrouped(body.split(separator: decimal)[0], by: grouping) else {
                return nil
            }
            digits = String(body.filter { $0 != grouping })
            if decimal == "," { digits = digits.replacingOccurrences(of: ",", with: ".") }
        } else if commas > 0 {
            if decimalComma || (commas == 1 && !isGrouped(body, by: ",")) {
                guard commas == 1 else { return nil }
                digits = body.replacingOccurrences(of: ",", with: ".")
            } else {
                guard isGrouped(body, by: ",") else { return nil }
                digits = String(body.filter { $0 != "," })
            }
        } else if dots > 1 {
            guard isGrouped(body, by: ".") else { return nil }
            digits = String(body.filter { $0 != "." })
        } else {
            digits = String(body)
        }
        guard let value = Double(digits) else { return nil }
        return negative ? -value : value
    }

    /// The same from a cell's UTF-8 bytes: plain numbers are read without making a string.
    static func parse(_ utf8: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Double? {
        plainNumber(utf8) ?? parse(String(decoding: utf8, as: UTF8.self), decimalComma: decimalComma)
    }

    /// Powers of ten a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// What most cells hold, `45`, `-3`, `0.05`: ASCII digits with at most one point and a sign,
    /// read straight away. Nil for anything else, which the general reading takes.
    private static func plainNumber(_ text: String) -> Double? {
        var text = text
        return text.withUTF8(plainNumber)
    }

    private static func plainNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var digits = 0, fractionDigits = 0, points = 0
        var mantissa: UInt64 = 0
        var negative = false
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if points > 0 { fractionDigits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                if index > 0 { return nil }
                negative = byte == UInt8(ascii: "-")
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        // Up to 15 digits, the mantissa and the power of ten are exact doubles, so one division
        // rounds exactly as reading the text would (Clinger's fast path); longer ones are read.
        guard digits <= 15 else { return Double(String(decoding: bytes, as: UTF8.self)) }
        let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// `1,234,567`: one to three digits, then groups of exactly three.
    private static func isGrouped(_ text: Substring, by separator: Character) -> Bool {
        let groups = text.split(separator: separator, omittingEmptySubsequences: false)
        guard groups.count > 1, (1...3).contains(groups[0].count) else { return groups.count == 1 && !groups[0].isEmpty }
        return groups.dropFirst().allSatisfy { $0.count == 3 }
    }
}
