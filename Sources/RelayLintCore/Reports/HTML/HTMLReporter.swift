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
        let document = HTMLReport(content: AuditReportContent(report: report, options: options)).document()
        return document.render(indentedBy: .spaces(1)) + "\n"
    }
}
