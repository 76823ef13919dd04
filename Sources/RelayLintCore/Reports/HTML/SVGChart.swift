import Plot

/// Small charts drawn as inline SVG for the HTML report.
///
/// Inline SVG needs no script, no image file and no network, and it prints as sharply as text.
/// Every coordinate is a whole number computed with integer arithmetic, so the same report
/// gives the same bytes on every platform. Labels come from the inputs (rule ids, days) and go
/// through `HTMLEscaping` like every other value; a long label is shortened on the chart and
/// given in full in the element's tooltip (`<title>`).
enum SVGChart {
    /// One bar or column.
    struct Item: Equatable {
        var label: String
        var value: Int
        /// A fill colour from the report's own palette (never from the inputs).
        var color: String
        /// The tooltip; the label and the value when nil.
        var detail: String? = nil
    }

    /// Width of every chart's coordinate system; the page scales it to the column width.
    static let width = 720
    /// Labels longer than this many characters are shortened with `…` on the chart.
    static let labelLimit = 40
    static let font = "DejaVu Sans, Helvetica, Arial, sans-serif"
    static let inkColor = "#1f2328"
    static let gridColor = "#d0d7de"
    static let mutedColor = "#57606a"

    // MARK: Horizontal bars

    static let labelColumn = 300
    static let rowHeight = 26
    static let barHeight = 16
    static let padding = 8

    /// One horizontal bar per item, labelled on the left, its value at the end; for counts per
    /// category such as findings per rule.
    static func horizontalBars<Context>(_ items: [Item], title: String) -> Node<Context> {
        let barSpace = width - labelColumn - 56
        let maximum = max(1, items.map(\.value).max() ?? 0)
        let height = padding * 2 + max(1, items.count) * rowHeight
        var nodes: [Node<Context>] = [.element(named: "title", nodes: [.escapedText(title)])]
        if items.isEmpty {
            nodes.append(text("nothing to chart", x: labelColumn, y: padding + rowHeight / 2 + 4, anchor: "start", color: mutedColor))
        }
        for (index, item) in items.enumerated() {
            let top = padding + index * rowHeight
            let length = item.value * barSpace / maximum
            let drawn = item.value > 0 ? max(2, length) : 0
            nodes.append(
                .element(
                    named: "g",
                    nodes: [
                        .element(named: "title", nodes: [.escapedText(item.detail ?? "\(item.label): \(item.value)")]),
                        text(shortened(item.label), x: labelColumn - 8, y: top + barHeight / 2 + 5, anchor: "end", color: inkColor),
                        rectangle(x: labelColumn, y: top, width: drawn, height: barHeight, color: item.color),
                        text(String(item.value), x: labelColumn + drawn + 6, y: top + barHeight / 2 + 5, anchor: "start", color: inkColor),
                    ]))
        }
        nodes.append(line(x1: labelColumn, y1: padding - 4, x2: labelColumn, y2: height - padding + 4 - (rowHeight - barHeight)))
        return svg(height: height, label: title, nodes: nodes)
    }

    // MARK: Columns

    static let plotLeft = 52
    static let plotRight = 12
    static let plotTop = 18
    static let plotHeight = 170
    static let axisSpace = 34
    /// At most this many labels under the columns, so they never overlap.
    static let maximumAxisLabels = 8

    /// One column per item, in order, over a y axis with gridlines; for counts over time such as
    /// events per week.
    static func columns<Context>(_ items: [Item], title: String) -> Node<Context> {
        let height = plotTop + plotHeight + axisSpace
        let plotWidth = width - plotLeft - plotRight
        let top = niceCeiling(items.map(\.value).max() ?? 0)
        var nodes: [Node<Context>] = [.element(named: "title", nodes: [.escapedText(title)])]
        let ticks = top % 2 == 0 ? [0, top / 2, top] : [0, top]
        for tick in ticks {
            let y = plotTop + plotHeight - tick * plotHeight / top
            nodes.append(line(x1: plotLeft, y1: y, x2: width - plotRight, y2: y))
            nodes.append(text(String(tick), x: plotLeft - 6, y: y + 4, anchor: "end", color: mutedColor, size: 11))
        }
        if items.isEmpty {
            nodes.append(text("no events", x: plotLeft + plotWidth / 2, y: plotTop + plotHeight / 2, anchor: "middle", color: mutedColor))
        }
        let count = max(1, items.count)
        let step = (items.count + maximumAxisLabels - 1) / maximumAxisLabels
        for (index, item) in items.enumerated() {
            let left = plotLeft + index * plotWidth / count
            let right = plotLeft + (index + 1) * plotWidth / count
            let slot = right - left
            let gap = slot >= 5 ? max(1, slot / 5) : 0
            let columnHeight = item.value > 0 ? max(1, item.value * plotHeight / top) : 0
            var group: [Node<Context>] = [
                .element(named: "title", nodes: [.escapedText(item.detail ?? "\(item.label): \(item.value)")]),
                rectangle(
                    x: left + gap / 2, y: plotTop + plotHeight - columnHeight, width: max(1, slot - gap),
                    height: columnHeight, color: item.color),
            ]
            if item.value > 0 && slot >= 18 {
                group.append(
                    text(
                        String(item.value), x: left + slot / 2, y: plotTop + plotHeight - columnHeight - 4,
                        anchor: "middle", color: inkColor, size: 10))
            }
            if index % max(1, step) == 0 {
                group.append(
                    text(
                        shortened(item.label), x: left + slot / 2, y: plotTop + plotHeight + 16,
                        anchor: "middle", color: mutedColor, size: 10))
            }
            nodes.append(.element(named: "g", nodes: group))
        }
        return svg(height: height, label: title, nodes: nodes)
    }

    /// The smallest 1, 2 or 5 times a power of ten that is at least `value` (and at least 1), so
    /// the y axis ends on a round number.
    static func niceCeiling(_ value: Int) -> Int {
        var power = 1
        while true {
            for factor in [1, 2, 5] where factor * power >= value { return factor * power }
            // The largest count an Int holds ends the axis where a power of ten no longer fits.
            guard power <= Int.max / 50 else { return value }
            power *= 10
        }
    }

    static func shortened(_ label: String) -> String {
        label.count <= labelLimit ? label : String(label.prefix(labelLimit - 1)) + "…"
    }

    // MARK: Elements

    private static func svg<Context>(height: Int, label: String, nodes: [Node<Context>]) -> Node<Context> {
        .element(
            named: "svg",
            nodes: [
                .escapedAttribute(named: "class", value: "chart"),
                .escapedAttribute(named: "viewBox", value: "0 0 \(width) \(height)"),
                .escapedAttribute(named: "width", value: String(width)),
                .escapedAttribute(named: "height", value: String(height)),
                .escapedAttribute(named: "role", value: "img"),
                .escapedAttribute(named: "aria-label", value: label),
                .escapedAttribute(named: "font-family", value: font),
                .escapedAttribute(named: "font-size", value: "12"),
            ] + nodes)
    }

    private static func text<Context>(_ value: String, x: Int, y: Int, anchor: String, color: String, size: Int? = nil) -> Node<Context> {
        var nodes: [Node<Context>] = [
            .escapedAttribute(named: "x", value: String(x)),
            .escapedAttribute(named: "y", value: String(y)),
            .escapedAttribute(named: "text-anchor", value: anchor),
            .escapedAttribute(named: "fill", value: color),
        ]
        if let size { nodes.append(.escapedAttribute(named: "font-size", value: String(size))) }
        return .element(named: "text", nodes: nodes + [.escapedText(value)])
    }

    private static func rectangle<Context>(x: Int, y: Int, width: Int, height: Int, color: String) -> Node<Context> {
        .element(
            named: "rect",
            nodes: [
                .escapedAttribute(named: "x", value: String(x)),
                .escapedAttribute(named: "y", value: String(y)),
                .escapedAttribute(named: "width", value: String(width)),
                .escapedAttribute(named: "height", value: String(height)),
                .escapedAttribute(named: "fill", value: color),
            ])
    }

    private static func line<Context>(x1: Int, y1: Int, x2: Int, y2: Int) -> Node<Context> {
        .element(
            named: "line",
            nodes: [
                .escapedAttribute(named: "x1", value: String(x1)),
                .escapedAttribute(named: "y1", value: String(y1)),
                .escapedAttribute(named: "x2", value: String(x2)),
                .escapedAttribute(named: "y2", value: String(y2)),
                .escapedAttribute(named: "stroke", value: gridColor),
                .escapedAttribute(named: "stroke-width", value: "1"),
            ])
    }
}
