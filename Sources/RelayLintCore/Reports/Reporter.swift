/// Renders a `LintReport` in one output format. Each format lives in its own file and is
/// registered in `ReporterRegistry`, whose identifiers are the values of `--format`.
public protocol Reporter: Sendable {
    /// The `--format` value.
    var identifier: String { get }
    /// One line for `--help`.
    var summary: String { get }
    func render(_ report: LintReport, options: ReportOptions) -> String
}

/// Presentation choices that are not part of the report itself.
public struct ReportOptions: Sendable {
    /// ANSI colour (the CLI turns it on only for a terminal).
    public var color: Bool

    public init(color: Bool = false) { self.color = color }
}

/// All output formats, by identifier.
public enum ReporterRegistry {
    public static let all: [any Reporter] = [TextReporter(), JSONReporter()]

    public static var identifiers: [String] { all.map(\.identifier) }

    public static func reporter(for identifier: String) -> (any Reporter)? {
        all.first { $0.identifier == identifier }
    }
}
