import Foundation

/// A value of cpython's apple_testdata.expected.json: JSON, with bytes as {"$bytes_base64": ...}
/// and dates as {"$date_utc": ...}.
enum PropertyListExpectedValue: Decodable {
    case bool(Bool), int(Int), uint(UInt64), real(Double), string(String)
    case data(Data), date(Date), array([PropertyListExpectedValue]), dictionary([String: PropertyListExpectedValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int.self) { self = .int(value); return }
        if let value = try? container.decode(UInt64.self) { self = .uint(value); return }
        if let value = try? container.decode(Double.self) { self = .real(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([PropertyListExpectedValue].self) { self = .array(value); return }
        let dictionary = try container.decode([String: PropertyListExpectedValue].self)
        if dictionary.count == 1, case .string(let base64)? = dictionary["$bytes_base64"], let data = Data(base64Encoded: base64) {
            self = .data(data)
        } else if dictionary.count == 1, case .string(let text)? = dictionary["$date_utc"],
                  let date = ISO8601DateFormatter().date(from: text) {
            self = .date(date)
        } else {
            self = .dictionary(dictionary)
        }
    }

    /// As `PropertyListValueText.of` writes the loaded value.
    var text: String {
        switch self {
        case .bool(let value): return PropertyListValueText.of(value)
        case .int(let value): return PropertyListValueText.of(value)
        case .uint(let value): return PropertyListValueText.of(value)
        case .real(let value): return PropertyListValueText.of(value)
        case .string(let value): return PropertyListValueText.of(value)
        case .data(let value): return PropertyListValueText.of(value)
        case .date(let value): return PropertyListValueText.of(value)
        case .array(let values): return "[" + values.map(\.text).joined(separator: ", ") + "]"
        case .dictionary(let values): return "{" + values.keys.sorted().map { "\($0): \(values[$0]!.text)" }.joined(separator: ", ") + "}"
        }
    }
}
