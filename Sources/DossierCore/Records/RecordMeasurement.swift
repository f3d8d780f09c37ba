import Foundation

/// One number a record carries: `{"name": "weight", "value": 45, "unit": "g"}`.
public struct RecordMeasurement: Hashable, Sendable, Codable {
    public let name: String
    public let value: Double
    public let unit: MeasurementUnit
    /// A value converted from another unit is stored as it came out (4 oz: 118.294 ml), but that
    /// is more than the source said: the decimals it is shown to, as many as the source's number
    /// gave in this unit (`"decimals": 0`: 118 ml). Nil for a value as written, shown as stored.
    /// Not part of the record's id.
    public let decimals: Int?

    /// No care record measures a trillion of anything: a number this large or larger (`1e305
    /// kg`, three hundred nines) is a slip or a hostile file, and is read as no quantity, its
    /// text kept, rather than a value no unit or chart can hold.
    public static let largestValue: Double = 1e12

    public init(name: String, value: Double, unit: MeasurementUnit, decimals: Int? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
        self.decimals = decimals
    }

    /// The same measurement: its name, value and unit. How many decimals it is shown to is how it
    /// reads, not what it is (a record's id leaves it out too).
    public static func == (lhs: RecordMeasurement, rhs: RecordMeasurement) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value && lhs.unit == rhs.unit
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
        hasher.combine(unit)
    }

    /// The value as a person should read it: to `decimals` when it has them.
    public var shownValue: String {
        guard let decimals, value.isFinite else { return RecordLine.number(value) }
        return String(format: "%.\(decimals)f", value)
    }

    /// `shownDecimals(of: decimals(written:), convertedBy:)`, the bytes read only for a
    /// conversion: a CSV's every cell passes here, and most are in the library's units already.
    public static func shownDecimals<Bytes: Collection<UInt8>>(ofWritten written: Bytes, convertedBy factor: Double) -> Int? {
        factor == 1 ? nil : shownDecimals(of: decimals(written: written), convertedBy: factor)
    }

    /// The decimals a number written with `sourceDecimals` of them keeps once multiplied by
    /// `factor` (4.5 oz x 29.57: none; 0.05 kg x 1000: none; 2.25 in x 2.54: two); nil when nothing was converted.
    public static func shownDecimals(of sourceDecimals: Int, convertedBy factor: Double) -> Int? {
        guard factor != 1, factor.isFinite, factor != 0 else { return nil }
        return max(0, min(6, sourceDecimals - Int(log10(abs(factor)).rounded(.down))))
    }

    /// How many decimals a written number has (`4.5`, `4.5oz`: one; `1,250`: none; `0,65`: two):
    /// the digits after its decimal point, a comma followed by other than three digits counting
    /// as one, as the readers take it.
    public static func decimals<Bytes: Collection<UInt8>>(written: Bytes) -> Int {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        // Read in place (a log's every number passes here): no copy of the bytes.
        var sawDigit = false
        var index = written.startIndex
        while index != written.endIndex {
            let byte = written[index]
            let next = written.index(after: index)
            if byte == 0x2E || byte == 0x2C {
                let following = written[next...].prefix(while: isDigit).count
                if byte == 0x2E || following != 3 { return following }
            } else if isDigit(byte) {
                sawDigit = true
            } else if sawDigit {
                // The number ended (`45g`): it had no decimals. A sign or space before it does not end it.
                return 0
            }
            index = next
        }
        return 0
    }
}
