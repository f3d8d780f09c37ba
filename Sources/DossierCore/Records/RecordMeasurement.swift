/// One number a record carries: `{"name": "weight", "value": 45, "unit": "g"}`.
public struct RecordMeasurement: Hashable, Sendable, Codable {
    public let name: String
    public let value: Double
    public let unit: MeasurementUnit

    public init(name: String, value: Double, unit: MeasurementUnit) {
        self.name = name
        self.value = value
        self.unit = unit
    }
}
