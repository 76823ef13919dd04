/// A GitHub-flavoured Markdown table. Cells are Markdown already (escaped values, maybe with
/// emphasis the report adds); an empty cell stays empty, and a row never has more or fewer
/// cells than the header, so no value can shift the columns.
struct MarkdownTable {
    enum Alignment {
        case left
        case right
    }

    var header: [String]
    var alignments: [Alignment]
    var rows: [[String]] = []

    /// `header` titles are plain text; the columns at `numeric` are right-aligned.
    init(_ header: [String], numeric: Set<Int> = []) {
        self.header = header.map(MarkdownEscaping.inline)
        self.alignments = header.indices.map { numeric.contains($0) ? .right : .left }
    }

    mutating func add(_ cells: [String]) {
        rows.append(header.indices.map { $0 < cells.count ? cells[$0] : "" })
    }

    var lines: [String] {
        func line(_ cells: [String]) -> String { "| " + cells.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |" }
        return [line(header), "|" + alignments.map { $0 == .right ? "---:" : "---" }.joined(separator: "|") + "|"] + rows.map(line)
    }
}
