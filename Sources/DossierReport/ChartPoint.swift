/// One record drawn on a chart: where it goes, and what the `<circle>`'s data attributes say of
/// it (its date, its value and unit as the records hold them), for a person and for the tests.
struct ChartPoint: Sendable {
    /// Days since 1970 on a chart against time; months of age on a chart against age.
    let x: Double
    /// In the chart's unit (kg on a WHO chart of a weight filed in g).
    let y: Double
    let date: String
    /// The value as `records --json` gives it, in `unit`.
    let value: String
    let unit: String
    /// What a pointer over the point shows: `2024-03-05: 52 g`.
    let label: String
}
