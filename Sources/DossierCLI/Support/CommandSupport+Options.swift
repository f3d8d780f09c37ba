import ArgumentParser
import DossierCore

/// The ranges option values are held to, and the checks that refuse a value outside them
/// (exit 64, naming the option and its range): a value far out of range is a typo, and would
/// otherwise overflow where it is turned into a duration or a date.
extension CommandSupport {
    /// `1900 to 2199`: the years a date option may name, as its help says.
    static let dateYears = "\(RecordDate.plausibleYears.lowerBound) to \(RecordDate.plausibleYears.upperBound)"

    /// Refuses a date option outside the years a record can have: no record, birth or
    /// anniversary lies there, so such a date is a typo.
    static func checkYear(of date: RecordDate, option: String) throws {
        guard RecordDate.plausibleYears.contains(date.year) else {
            throw ValidationError("\(option): \(date) is outside the years \(dateYears).")
        }
    }

    /// `--jobs`: more threads than this only wait on each other and on the disk.
    static let jobRange = 1...256

    /// Refuses a number option outside its range (the option's help states it), naming both; NaN
    /// and infinity are outside every range. A negative number reaches this only when the option
    /// is declared with `parsing: .unconditional`; otherwise it reads as an option of its own.
    static func check(_ value: Double, option: String, in range: ClosedRange<Double>, unit: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) must be \(span(range)) \(unit), not \(shown(value)).")
        }
    }

    static func check(_ value: Int, option: String, in range: ClosedRange<Int>) throws {
        guard range.contains(value) else { throw ValidationError("\(option) must be \(span(range)), not \(value).") }
    }

    /// `0.1 to 86,400`, as help texts and messages write a range.
    static func span<Number: BinaryInteger>(_ range: ClosedRange<Number>) -> String {
        "\(shown(Double(range.lowerBound))) to \(shown(Double(range.upperBound)))"
    }

    static func span(_ range: ClosedRange<Double>) -> String {
        "\(shown(range.lowerBound)) to \(shown(range.upperBound))"
    }

    /// `86,400`, `0.1`, `-1`, `10,000,000,000`: whole numbers with thousands marked, whatever the
    /// locale, so messages read the same everywhere.
    private static func shown(_ value: Double) -> String {
        guard value.isFinite, value == value.rounded(), abs(value) < 1e15 else { return "\(value)" }
        let digits = String(Int64(abs(value)))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }
}
