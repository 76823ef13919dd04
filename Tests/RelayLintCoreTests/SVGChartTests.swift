import Foundation
import Plot
@testable import RelayLintCore
import Testing

/// The inline SVG charts: labels escaped, whole-number coordinates, bars proportional to their
/// values, and the same bytes every time.
@Suite struct SVGChartTests {
    func render(_ node: Node<HTML.BodyContext>) -> String { node.render() }

    /// The values of one attribute, in document order.
    func values(of attribute: String, in svg: String) -> [String] {
        svg.components(separatedBy: " \(attribute)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    static let hostile = "<script>alert(1)</script>\"' & \n::error::x"

    @Test func labelsAndTitlesAreEscaped() {
        let svg =
            render(SVGChart.horizontalBars([SVGChart.Item(label: Self.hostile, value: 3, color: "#b42318")], title: Self.hostile))
            + render(SVGChart.columns([SVGChart.Item(label: Self.hostile, value: 3, color: "#4f6d8f")], title: Self.hostile))
        #expect(!svg.lowercased().contains("<script"))
        #expect(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;\"' &amp; &#xA;::error::x"))
        #expect(svg.contains("aria-label=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39; &amp; &#xA;::error::x\""))
        #expect(!svg.contains("\n"), "no value starts a line")
    }

    @Test func coordinatesAreWholeNumbers() {
        let items = (1...37).map { SVGChart.Item(label: "2026-01-\($0)", value: $0 * 7 % 13, color: "#4f6d8f") }
        let svg = render(SVGChart.columns(items, title: "t")) + render(SVGChart.horizontalBars(items, title: "t"))
        for attribute in ["x", "y", "width", "height", "x1", "x2", "y1", "y2"] {
            let found = values(of: attribute, in: svg)
            #expect(!found.isEmpty)
            #expect(found.allSatisfy { Int($0) != nil }, "\(attribute): \(found.filter { Int($0) == nil })")
        }
        #expect(svg == render(SVGChart.columns(items, title: "t")) + render(SVGChart.horizontalBars(items, title: "t")))
    }

    @Test func barsAreProportionalToTheirValues() {
        let items = [
            SVGChart.Item(label: "a", value: 4, color: "#000000"), SVGChart.Item(label: "b", value: 2, color: "#000000"),
            SVGChart.Item(label: "c", value: 0, color: "#000000"),
        ]
        let svg = render(SVGChart.horizontalBars(items, title: "t"))
        let widths = values(of: "width", in: svg).dropFirst().compactMap { Int($0) }
        #expect(widths.count == 3)
        #expect(widths[0] > 0 && widths[0] == 2 * widths[1])
        #expect(widths[2] == 0)
        #expect(svg.contains(">4</text>") && svg.contains(">2</text>") && svg.contains(">0</text>"))
    }

    @Test func columnsHaveOneRectanglePerItemAndFewLabels() {
        let items = (0..<53).map { SVGChart.Item(label: "w\($0)", value: $0, color: "#4f6d8f") }
        let svg = render(SVGChart.columns(items, title: "t"))
        #expect(svg.components(separatedBy: "<rect ").count - 1 == 53)
        let labels = svg.components(separatedBy: ">w").count - 1
        #expect(labels <= SVGChart.maximumAxisLabels + 53, "tooltips hold every label")
        let axisLabels = svg.components(separatedBy: "font-size=\"10\">w").count - 1
        #expect(axisLabels > 1 && axisLabels <= SVGChart.maximumAxisLabels)
    }

    @Test func longLabelsAreShortenedButKeptInTheTooltip() {
        let label = String(repeating: "x", count: 80)
        let svg = render(SVGChart.horizontalBars([SVGChart.Item(label: label, value: 1, color: "#000000")], title: "t"))
        #expect(svg.contains(">" + String(repeating: "x", count: SVGChart.labelLimit - 1) + "…</text>"))
        #expect(svg.contains("<title>" + label + ": 1</title>"))
    }

    @Test func emptyChartsSaySo() {
        #expect(render(SVGChart.horizontalBars([], title: "t")).contains("nothing to chart"))
        #expect(render(SVGChart.columns([], title: "t")).contains("no events"))
    }

    @Test(arguments: [(0, 1), (1, 1), (2, 2), (3, 5), (7, 10), (10, 10), (11, 20), (26, 50), (501, 1000)])
    func axisEndsOnARoundNumber(value: Int, expected: Int) {
        #expect(SVGChart.niceCeiling(value) == expected)
    }
}
