@testable import DossierReport
import Testing

@Suite("The report's charts draw any finite value a year file holds")
struct SVGChartTests {
    static func point(_ day: Int, _ value: Double) -> ChartPoint {
        ChartPoint(x: Double(day), y: value, date: SVGChart.isoDay(day), value: "\(value)", unit: "g", label: "\(value) g")
    }

    @Test("Weights of 1e308 g and -1e308 g beside 45 g are drawn at real coordinates, never NaN or infinity")
    func extremeValuesAreDrawn() {
        let chart = SVGChart(series: "weight", title: "Weight", yUnit: "g", xAxis: .days,
                             points: [SVGChartTests.point(19_723, 45), SVGChartTests.point(19_724, 1e308),
                                      SVGChartTests.point(19_725, -1e308), SVGChartTests.point(19_726, 1.7976931348623157e308)])
        let svg = chart.svg
        #expect(svg.components(separatedBy: "<circle ").count == 5)
        for bad in ["nan", "inf"] { #expect(!svg.lowercased().contains(bad), "\(svg)") }
    }

    @Test("Ordinary weights are drawn as before: the lowest at the bottom of the plot and the highest at its top")
    func ordinaryValues() {
        let svg = SVGChart(series: "weight", title: "Weight", yUnit: "g", xAxis: .days,
                           points: [SVGChartTests.point(19_723, 45), SVGChartTests.point(19_724, 5)]).svg
        #expect(svg.contains("<circle cx=\"70.0\" cy=\"27.2\""))
        #expect(svg.contains("<circle cx=\"628.0\" cy=\"216.8\""))
        #expect(svg.contains(">48.2 g</text>") && svg.contains(">1.80 g</text>"))
    }
}
