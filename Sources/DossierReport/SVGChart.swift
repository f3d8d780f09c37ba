import Foundation

/// An inline SVG line chart: no script and no library, so it draws offline in any browser. Each
/// point is a `<circle>` carrying `data-date`, `data-value` and `data-unit`, one per record drawn,
/// so a test (or a person reading the source) can check the chart against the records.
struct SVGChart {
    /// `weight`, `length`, `weight-for-age`...: the `data-series` a test finds the chart by.
    let series: String
    let title: String
    /// The unit of the y axis, as labelled.
    let yUnit: String
    /// How the x axis is labelled: dates, or months of age.
    let xAxis: XAxis
    let points: [ChartPoint]
    var bands: [ChartBand] = []
    /// A line through the bands (WHO's median), `(x, y)`.
    var medianLine: [(x: Double, y: Double)] = []
    var caption: String? = nil

    enum XAxis {
        case days
        case months
    }

    static let width = 640.0
    static let height = 260.0
    static let left = 70.0
    static let right = 12.0
    static let top = 12.0
    static let bottom = 28.0

    var svg: String {
        let xs = points.map(\.x) + bands.flatMap { $0.points.map(\.x) }
        let ys = points.map(\.y) + bands.flatMap { $0.points.flatMap { [$0.lower, $0.upper] } }
        guard var minX = xs.min(), var maxX = xs.max(), var minY = ys.min(), var maxY = ys.max() else { return "" }
        if minX == maxX { minX -= 1; maxX += 1 }
        // Halves, so that no difference of two values overflows: a year file may hold any finite
        // number (1e308 g), and one infinity would draw every point at NaN.
        let padding = max((maxY / 2 - minY / 2) * 0.16, abs(maxY) * 0.02, 0.5)
        minY = max(minY - padding, -Double.greatestFiniteMagnitude)
        maxY = min(maxY + padding, Double.greatestFiniteMagnitude)
        let plotWidth = SVGChart.width - SVGChart.left - SVGChart.right
        let plotHeight = SVGChart.height - SVGChart.top - SVGChart.bottom
        func px(_ x: Double) -> String { SVGChart.number(SVGChart.left + (x / 2 - minX / 2) / (maxX / 2 - minX / 2) * plotWidth) }
        func py(_ y: Double) -> String { SVGChart.number(SVGChart.top + (maxY / 2 - y / 2) / (maxY / 2 - minY / 2) * plotHeight) }

        var out = "<figure class=\"chart-figure\">\n<figcaption>\(HTML.escape(title))</figcaption>\n"
        out += "<svg class=\"chart\" data-series=\"\(HTML.escape(series))\" viewBox=\"0 0 \(Int(SVGChart.width)) \(Int(SVGChart.height))\" "
        out += "role=\"img\" aria-label=\"\(HTML.escape(title))\">\n"
        // Axes and their end labels.
        out += "<line class=\"axis\" x1=\"\(px(minX))\" y1=\"\(py(minY))\" x2=\"\(px(maxX))\" y2=\"\(py(minY))\"/>\n"
        out += "<line class=\"axis\" x1=\"\(px(minX))\" y1=\"\(py(minY))\" x2=\"\(px(minX))\" y2=\"\(py(maxY))\"/>\n"
        for fraction in [0.0, 0.5, 1.0] {
            let y = (maxY - minY).isFinite ? minY + (maxY - minY) * fraction : minY * (1 - fraction) + maxY * fraction
            out += "<text class=\"tick\" x=\"\(SVGChart.number(SVGChart.left - 4))\" y=\"\(py(y))\" text-anchor=\"end\">"
                + "\(HTML.escape(SVGChart.label(y))) \(HTML.escape(yUnit))</text>\n"
        }
        for (x, anchor) in [(minX, "start"), (maxX, "end")] {
            out += "<text class=\"tick\" x=\"\(px(x))\" y=\"\(SVGChart.number(SVGChart.height - 8))\" text-anchor=\"\(anchor)\">"
                + "\(HTML.escape(xLabel(x)))</text>\n"
        }
        for band in bands where !band.points.isEmpty {
            let upper = band.points.map { "\(px($0.x)),\(py($0.upper))" }
            let lower = band.points.reversed().map { "\(px($0.x)),\(py($0.lower))" }
            out += "<polygon class=\"\(band.style)\" points=\"\((upper + lower).joined(separator: " "))\"><title>\(HTML.escape(band.name))</title></polygon>\n"
        }
        if !medianLine.isEmpty {
            out += "<polyline class=\"median\" points=\"\(medianLine.map { "\(px($0.x)),\(py($0.y))" }.joined(separator: " "))\"/>\n"
        }
        if points.count > 1 {
            out += "<polyline class=\"line\" points=\"\(points.map { "\(px($0.x)),\(py($0.y))" }.joined(separator: " "))\"/>\n"
        }
        for point in points {
            out += "<circle cx=\"\(px(point.x))\" cy=\"\(py(point.y))\" r=\"3.5\" data-date=\"\(HTML.escape(point.date))\" "
                + "data-value=\"\(HTML.escape(point.value))\" data-unit=\"\(HTML.escape(point.unit))\">"
                + "<title>\(HTML.escape(point.label))</title></circle>\n"
        }
        out += "</svg>\n"
        if let caption { out += "<p class=\"source\">\(HTML.escape(caption))</p>\n" }
        return out + "</figure>\n"
    }

    private func xLabel(_ x: Double) -> String {
        switch xAxis {
        case .days:
            return SVGChart.isoDay(Int(x.rounded()))
        case .months:
            return "\(Int(x.rounded())) months"
        }
    }

    /// Coordinates to a tenth of a pixel: enough for any screen, and the same text every run.
    static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// An axis value to three significant figures or so.
    static func label(_ value: Double) -> String {
        abs(value) >= 100 ? String(format: "%.0f", value) : abs(value) >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value)
    }

    /// Days since 1970 back to `YYYY-MM-DD` (Howard Hinnant's civil_from_days).
    static func isoDay(_ days: Int) -> String {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}
