import DossierCore
import Foundation

/// A date and/or time as CSV exports write them, read into its parts:
/// `1/13/26, 15:58` (M/D/YY), `1/13/2026 3:58 PM`, `2026-01-13 15:58`, `2026-01-13T15:58:00+09:00`,
/// `2026.01.13`, `2026년 1월 13일 오후 3:58`, `Jan 13, 2026`, `20260113`.
///
/// Day-month order: a year written first means Y-M-D; a year written last is read in the order
/// given (the CSV importer decides it for each column from all of its values); without one, M/D/Y
/// as US apps write it, unless the first number cannot be a month (13/1/2026 is D/M/Y). Three
/// short numbers are M/D/YY with slashes, YY.MM.DD otherwise (Korean `23.05.10`). Two-digit years
/// are 20yy. Seconds are dropped: records keep minutes.
struct CSVTimestamp: Equatable {
    var year: Int?
    var month: Int?
    var day: Int?
    var hour: Int?
    var minute: Int?
    var utcOffsetMinutes: Int?
    /// For a date written with the year last, its first two numbers as written: the ones whose
    /// order is a question.
    var yearLastPair: YearLastPair?

    struct YearLastPair: Equatable {
        let first: Int
        let second: Int
    }

    var hasDate: Bool { year != nil }

    /// As a record's date; nil without a whole date or for a day that does not exist (nor one
    /// outside `RecordDate.plausibleYears`, as in notepad logs). A time without minutes is on the hour.
    var recordDate: RecordDate? {
        guard let year, let month, let day, RecordDate.plausibleYears.contains(year) else { return nil }
        return RecordDate(year: year, month: month, day: day, hour: hour, minute: hour.map { _ in minute ?? 0 },
                          utcOffsetMinutes: hour == nil ? nil : utcOffsetMinutes)
    }
    var hasTime: Bool { hour != nil }

    private enum Token: Equatable {
        case number(Int, digits: Int)
        case word(String)
        case symbol(Character)
    }

    private static let months: [String: Int] = [
        "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4, "may": 5,
        "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
        "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
    ]
    /// Words a date may carry that say nothing the numbers do not.
    private static let ignorable: Set<String> = [
        "t", "at", "mon", "monday", "tue", "tues", "tuesday", "wed", "wednesday", "thu", "thur", "thurs", "thursday",
        "fri", "friday", "sat", "saturday", "sun", "sunday", "월", "화", "수", "목", "금", "토", "일",
        "월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일", "요일", "utc", "gmt",
    ]

    /// Nil unless the whole text reads as a date, a time, or both.
    static func parse(_ text: String, order: CSVDateOrder? = nil) -> CSVTimestamp? {
        var text = text
        if let iso = text.withUTF8(isoTimestamp) { return iso }
        return parseWritten(text, order: order)
    }

    /// The same from UTF-8 bytes: the usual ISO form is read without making a string.
    static func parse(_ utf8: UnsafeBufferPointer<UInt8>, order: CSVDateOrder? = nil) -> CSVTimestamp? {
        isoTimestamp(utf8) ?? parseWritten(String(decoding: utf8, as: UTF8.self), order: order)
    }

    /// Any of the forms, told apart by their tokens.
    private static func parseWritten(_ text: String, order: CSVDateOrder?) -> CSVTimestamp? {
        var lowered = text.lowercased()
        if lowered.utf8.contains(UInt8(ascii: ".")) && lowered.contains("m.") {
            lowered = lowered.replacingOccurrences(of: "a.m.", with: "am").replacingOccurrences(of: "p.m.", with: "pm")
        }
        let tokens = tokenize(lowered)
        guard !tokens.isEmpty else { return nil }
        var result = CSVTimestamp()
        var meridiem: String?
        var dateNumbers: [(value: Int, digits: Int)] = []
        var dateSeparators: [Character] = []
        var monthName: Int?

        func number(_ index: Int) -> (Int, Int)? {
            guard index < tokens.count, case .number(let value, let digits) = tokens[index] else { return nil }
            return (value, digits)
        }
        func isSymbol(_ index: Int, _ character: Character) -> Bool {
            index < tokens.count && tokens[index] == .symbol(character)
        }
        func isWord(_ index: Int, _ word: String) -> Bool {
            index < tokens.count && tokens[index] == .word(word)
        }

        var index = 0
        while index < tokens.count {
            // H:MM[:SS[.fff]], then maybe Z or an offset.
            if result.hour == nil, let (hour, _) = number(index), isSymbol(index + 1, ":"), let (minute, minuteDigits) = number(index + 2),
               minuteDigits == 2 {
                result.hour = hour
                result.minute = minute
                var end = index + 3
                if isSymbol(end, ":"), let (_, secondDigits) = number(end + 1), secondDigits == 2 {
                    end += 2
                    if isSymbol(end, "."), number(end + 1) != nil { end += 2 }
                }
                if isWord(end, "z") {
                    result.utcOffsetMinutes = 0
                    end += 1
                } else if isSymbol(end, "+") || isSymbol(end, "-"), let (offset, digits) = number(end + 1) {
                    let sign = isSymbol(end, "-") ? -1 : 1
                    if digits == 4 {
                        result.utcOffsetMinutes = sign * (offset / 100 * 60 + offset % 100)
                        end += 2
                    } else if digits <= 2, isSymbol(end + 2, ":"), let (minutes, minuteDigits) = number(end + 3), minuteDigits == 2 {
                        result.utcOffsetMinutes = sign * (offset * 60 + minutes)
                        end += 4
                    } else if digits <= 2 {
                        result.utcOffsetMinutes = sign * offset * 60
                        end += 2
                    }
                }
                index = end
                continue
            }
            // Korean markers after a number: 2026년 1월 13일 15시 58분 30초.
            if let (value, digits) = number(index), index + 1 < tokens.count, case .word(let marker) = tokens[index + 1],
               ["년", "월", "일", "시", "분", "초"].contains(marker) {
                switch marker {
                case "년": result.year = digits <= 2 ? 2000 + value : value
                case "월": result.month = value
                case "일": result.day = value
                case "시": result.hour = value; result.minute = result.minute ?? 0
                case "분": result.minute = value
                default: break
                }
                index += 2
                continue
            }
            switch tokens[index] {
            case .number(let value, let digits):
                dateNumbers.append((value, digits))
            case .word(let word):
                if ["am", "pm", "오전", "오후"].contains(word) {
                    meridiem = word
                } else if let month = months[word] {
                    guard monthName == nil else { return nil }
                    monthName = month
                } else if !ignorable.contains(word) {
                    return nil
                }
            case .symbol(let symbol):
                if "/-.".contains(symbol) && !dateNumbers.isEmpty { dateSeparators.append(symbol) }
            }
            index += 1
        }

        if let meridiem {
            guard let hour = result.hour, (1...12).contains(hour) else { return nil }
            let afternoon = meridiem == "pm" || meridiem == "오후"
            result.hour = afternoon ? (hour == 12 ? 12 : hour + 12) : (hour == 12 ? 0 : hour)
        }
        guard result.assignDate(dateNumbers, separators: dateSeparators, monthName: monthName, order: order) else { return nil }
        guard result.hasDate || result.hasTime else { return nil }
        return result
    }

    /// Gives the loose numbers their date roles; false if they cannot be a date.
    private mutating func assignDate(_ numbers: [(value: Int, digits: Int)], separators: [Character], monthName: Int?,
                                     order: CSVDateOrder?) -> Bool {
        let explicit = [year, month, day].compactMap { $0 }.count
        if explicit > 0 {
            // 2026년 1월 13일: all three written with markers, nothing loose.
            guard explicit == 3, numbers.isEmpty, monthName == nil else { return false }
            return true
        }
        if let monthName {
            // Jan 13, 2026 / 13 Jan 2026: the year is the long (or large) number.
            guard numbers.count == 2 else { return false }
            let yearFirst = numbers[0].digits == 4 || numbers[0].value > 31
            let (dayNumber, yearNumber) = yearFirst ? (numbers[1], numbers[0]) : (numbers[0], numbers[1])
            (year, month, day) = (CSVTimestamp.fullYear(yearNumber), monthName, dayNumber.value)
            return true
        }
        switch numbers.count {
        case 0:
            return true
        case 1 where numbers[0].digits == 8:
            let value = numbers[0].value
            (year, month, day) = (value / 10_000, value / 100 % 100, value % 100)
            return true
        case 3:
            let (first, second, third) = (numbers[0], numbers[1], numbers[2])
            if first.digits == 4 {
                (year, month, day) = (first.value, second.value, third.value)
            } else if third.digits == 4 || separators.first == "/" {
                let dayFirst: Bool
                switch order {
                case .dayFirst?: dayFirst = true
                case .monthFirst?: dayFirst = false
                case nil: dayFirst = first.value > 12 && second.value <= 12
                }
                yearLastPair = YearLastPair(first: first.value, second: second.value)
                (month, day) = dayFirst ? (second.value, first.value) : (first.value, second.value)
                year = CSVTimestamp.fullYear(third)
            } else if first.digits <= 2 && second.digits <= 2 && third.digits <= 2 {
                (year, month, day) = (2000 + first.value, second.value, third.value)
            } else {
                return false
            }
            return true
        default:
            return false
        }
    }

    /// `2026-01-13` or `2026-01-13 15:58` (also with `T`): what most exports write, read
    /// without tokenizing.
    private static func isoTimestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> CSVTimestamp? {
        guard bytes.count == 10 || bytes.count == 16, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-")
        else { return nil }
        func number(_ offset: Int, _ count: Int) -> Int? {
            var value = 0
            for index in offset..<(offset + count) {
                guard (48...57).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        var stamp = CSVTimestamp(year: year, month: month, day: day)
        if bytes.count == 16 {
            guard bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
                  let hour = number(11, 2), let minute = number(14, 2), hour < 24, minute < 60
            else { return nil }
            stamp.hour = hour
            stamp.minute = minute
        }
        return stamp
    }

    private static func fullYear(_ number: (value: Int, digits: Int)) -> Int {
        number.digits <= 2 ? 2000 + number.value : number.value
    }

    private static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var digits = "", letters = ""
        func flush() {
            if !digits.isEmpty {
                // More digits than any date part has would overflow nothing useful: cap them.
                tokens.append(.number(Int(digits.prefix(18)) ?? 0, digits: digits.count))
                digits = ""
            }
            if !letters.isEmpty {
                tokens.append(.word(letters))
                letters = ""
            }
        }
        for character in text {
            if character.isASCII && character.isNumber {
                if !letters.isEmpty { flush() }
                digits.append(character)
            } else if character.isLetter {
                if !digits.isEmpty { flush() }
                letters.append(character)
            } else {
                flush()
                if !character.isWhitespace && character != "," && character != "(" && character != ")" {
                    tokens.append(.symbol(character))
                }
            }
        }
        flush()
        return tokens
    }
}

// MARK: - CSVNumber

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
