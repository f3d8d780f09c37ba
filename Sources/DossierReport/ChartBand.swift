/// A band drawn behind a chart's points: WHO's range between two z-scores, month by month.
struct ChartBand: Sendable {
    let name: String
    /// `(x, lower, upper)` per month.
    let points: [(x: Double, lower: Double, upper: Double)]
    /// The CSS class that colours it (`band-outer`, `band-inner`).
    let style: String
}
