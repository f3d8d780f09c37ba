/// The names nearest a misspelt one, for "did you mean" in messages: `pets/lo` -> `pets/leo`,
/// `wieght` -> `weight`.
public enum ClosestNames {
    /// Up to `count` of `candidates` within a distance that grows with the name's length (one
    /// edit for short names, a third of the letters for long ones), nearest first.
    public static func closest(to name: String, among candidates: [String], count: Int = 3) -> [String] {
        let target = Array(name.lowercased().unicodeScalars.map(\.value))
        let limit = max(1, target.count / 3)
        return candidates
            .map { candidate in (candidate, NameDistance.between(target, Array(candidate.lowercased().unicodeScalars.map(\.value)), limit: limit)) }
            .filter { $0.1 <= limit }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .prefix(count).map(\.0)
    }
}
