/// The SI-style units records are normalised to.
public enum MeasurementUnit: String, Sendable, Codable, CaseIterable {
    case grams = "g"
    case centimetres = "cm"
    case millilitres = "ml"
    case minutes = "min"
    case count
}
