/// A number as written with its unit word, e.g. 0.05 "kg", 5 "마리", 2 "pinkies".
public struct Quantity: Hashable, Sendable {
    public let value: Double
    /// The unit word as written, lowercased; "" when the number stood alone.
    public let unit: String
    /// What was counted or measured, when the words around the number say ("cricket", "milk").
    public let label: String?
    /// The decimals the number was written with (`4.5`: one), for showing it converted.
    public let decimals: Int

    public init(value: Double, unit: String, label: String? = nil, decimals: Int = 0) {
        self.value = value
        self.unit = unit
        self.label = label
        self.decimals = decimals
    }
}
