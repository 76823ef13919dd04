import Foundation

/// Renders a `LintReport` in one output format. Each format lives in its own file and is
/// registered in `ReporterRegistry`, whose identifiers are the values of `--format`.
public protocol Reporter: Sendable {
    /// The `--format` value.
    var identifier: String { get }
    /// One line for `--help`.
    var summary: String { get }
    /// The usual file name ending for this format, without the dot (`Examples/reports/report.<ext>`).
    var fileExtension: String { get }
    func render(_ report: LintReport, options: ReportOptions) -> String
    /// The rendered report's UTF-8 in pieces, for writing it as it is made: a JSON report of
    /// 300k findings is 384 MB. Each piece is valid only during the call that hands it over.
    func write(_ report: LintReport, options: ReportOptions, to sink: (UnsafeRawBufferPointer) -> Void)
}

extension Reporter {
    /// `render`'s text in one piece, for the formats that are made whole.
    public func write(_ report: LintReport, options: ReportOptions, to sink: (UnsafeRawBufferPointer) -> Void) {
        var text = render(report, options: options)
        text.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
    }
}

/// Presentation choices that are not part of the report itself.
public struct ReportOptions: Sendable {
    /// ANSI colour (the CLI turns it on only for a terminal).
    public var color: Bool
    /// The audit report's title (`--title`).
    public var title: String
    /// Who reviewed the run (`--reviewer`), for audit reports.
    public var reviewer: String?
    /// The audit report's date as the reviewer wants it printed (`--date`); reports never read
    /// the clock themselves, so the same inputs give the same bytes.
    public var date: String?
    /// Threads a reporter may render findings on (the JSON report does: 300k findings took
    /// seconds on one thread at the end of a run); the bytes do not depend on it.
    public var parallelism: Int

    public init(
        color: Bool = false, title: String = "Sign in with Apple privacy compliance report",
        reviewer: String? = nil, date: String? = nil, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.color = color
        self.title = title
        self.reviewer = reviewer
        self.date = date
        self.parallelism = parallelism
    }
}

/// All output formats, by identifier.
public enum ReporterRegistry {
    public static let all: [any Reporter] = [
        TextReporter(), JSONReporter(), SARIFReporter(), JUnitReporter(), GitHubReporter(), HTMLReporter(), MarkdownReporter(),
    ]

    public static var identifiers: [String] { all.map(\.identifier) }

    public static func reporter(for identifier: String) -> (any Reporter)? {
        all.first { $0.identifier == identifier }
    }
}
