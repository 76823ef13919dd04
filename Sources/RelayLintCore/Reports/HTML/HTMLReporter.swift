import Foundation
import Plot

/// The audit report for privacy reviewers as one self-contained HTML file: scope with file
/// hashes, an executive summary with inline SVG charts, one section per rule with every finding
/// and its evidence, data-quality notes, and a sign-off block. It loads nothing from anywhere,
/// prints to PDF cleanly, and gives the same bytes for the same inputs and options.
public struct HTMLReporter: Reporter {
    public init() {}
    public var identifier: String { "html" }
    public var fileExtension: String { "html" }
    public var summary: String { "self-contained HTML audit report for privacy reviewers (prints to PDF)" }

    public func render(_ report: LintReport, options: ReportOptions) -> String {
        var bytes: [UInt8] = []
        write(report, options: options) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the document as Plot renders it whole, the findings a batch at a time: the frame
    /// is rendered with an empty element in place of each list of findings, and each finding
    /// apart, at the depth of that element (inside as many elements without a name, which add
    /// depth and no tag), then written where the element stood. So the document is never one
    /// tree or one string: 66,000 findings took 1.4 GB and 28 s, now a batch's worth.
    public func write(_ report: LintReport, options: ReportOptions, to sink: (UnsafeRawBufferPointer) -> Void) {
        var html = HTMLReport(content: AuditReportContent(report: report, options: options))
        html.holdsFindingsOut = true
        let frame = Array((html.document().render(indentedBy: .spaces(1)) + "\n").utf8)
        func emit(_ bytes: ArraySlice<UInt8>) { bytes.withUnsafeBytes { sink($0) } }
        // Each list's placeholder line, in document order: where its line feed is, where the
        // element ends, and its depth (the indentation: one space a level).
        let lists = html.findingLists
        var places: [(lineFeed: Int, end: Int, depth: Int)] = []
        for list in lists {
            let name = HTMLReport.placeholder(ofList: list.number)
            let element = Array("<\(name)></\(name)>".utf8)
            let from = places.last?.end ?? 0
            guard let start = frame[from...].firstRange(of: element)?.lowerBound else { break }
            var lineStart = start
            while lineStart > from, frame[lineStart - 1] == UInt8(ascii: " ") { lineStart -= 1 }
            guard lineStart > from, frame[lineStart - 1] == UInt8(ascii: "\n") else { break }
            places.append((lineStart - 1, start + element.count, start - lineStart))
        }
        guard places.count == lists.count else {
            // Not reached (the frame holds each list's placeholder on a line of its own, in
            // order); should it ever not, the whole document is rendered rather than a list lost.
            assertionFailure("a list of findings has no placeholder line in the frame")
            html.holdsFindingsOut = false
            emit(Array((html.document().render(indentedBy: .spaces(1)) + "\n").utf8)[...])
            return
        }
        var written = 0
        let document = html
        for (list, place) in zip(lists, places) {
            emit(frame[written..<place.lineFeed])
            let batches = stride(from: 0, to: list.findings.count, by: 64).map { $0..<min($0 + 64, list.findings.count) }
            let inFlight = max(1, min(options.parallelism, ProcessInfo.processInfo.activeProcessorCount)) * 2
            for window in stride(from: 0, to: batches.count, by: inFlight) {
                let round = Array(batches[window..<min(window + inFlight, batches.count)])
                let rendered = Linter.parallelMap(round, parallelism: options.parallelism, serialUpTo: 1) { batch in
                    var bytes: [UInt8] = []
                    for index in batch {
                        var node = document.finding(list.findings[index], number: index + 1, of: list.findings.count, rule: list.rule)
                        for _ in 0..<place.depth { node = .element(named: "", nodes: [node]) }
                        let text = node.render(indentedBy: .spaces(1)).utf8
                        bytes.append(UInt8(ascii: "\n"))
                        bytes.append(contentsOf: text.drop { $0 == UInt8(ascii: "\n") })
                    }
                    return bytes
                }
                for part in rendered { emit(part[...]) }
            }
            written = place.end
        }
        emit(frame[written...])
    }
}
