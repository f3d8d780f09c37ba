/// Where in the pipeline a transform runs; transforms run in stage order, and in registration
/// order within a stage.
public enum TransformStage: Int, Comparable, CaseIterable, Sendable {
    /// Make the content itself right (upright pixels, decoded text).
    case content
    /// Normalise dates.
    case dates
    /// Normalise units, record kinds and names.
    case values
    /// Derive fields from the normalised ones.
    case derived

    public static func < (lhs: TransformStage, rhs: TransformStage) -> Bool { lhs.rawValue < rhs.rawValue }
}
