/// GitHub Actions workflow commands: each finding becomes an annotation on the file and line of
/// its event, shown on the run and in the pull request's diff.
///
/// GitHub shows at most 10 annotations of each level per step and drops the rest silently, so
/// the reporter writes at most 10 per level (the first in report order) and always ends with one
/// plain line that counts everything, never a flood of commands nobody sees. Every value is
/// escaped as the runner expects, so that no input can end a command early, add a property or
/// start a line of its own (where it could issue `::add-mask::`, `::stop-commands::`, …).
/// `stepSummary(_:)` renders the Markdown for `$GITHUB_STEP_SUMMARY`.
public struct GitHubReporter: Reporter {
    /// Annotations of one level GitHub shows for a step.
    static let annotationsPerLevel = 10

    public init() {}
    public var identifier: String { "github" }
    public var fileExtension: String { "github.txt" }
    public var summary: String { "GitHub Actions annotations (::error file=…::), at most 10 per level, and a summary line" }

    public func render(_ report: LintReport, options: ReportOptions) -> String {
        let titles = Dictionary(report.rules.map { ($0.rule.id, $0.rule.title) }, uniquingKeysWith: { first, _ in first })
        var lines: [String] = []
        var shown: [Severity: Int] = [:]
        for finding in report.activeFindings where shown[finding.severity, default: 0] < Self.annotationsPerLevel {
            shown[finding.severity, default: 0] += 1
            lines.append(Self.annotation(for: finding, ruleTitle: titles[finding.rule]))
        }
        lines.append(Self.summaryLine(report, annotations: shown.values.reduce(0, +)))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `::error file=…,line=…,title=…::message`.
    static func annotation(for finding: Finding, ruleTitle: String?) -> String {
        var properties: [(String, String)] = []
        if let location = finding.location {
            properties.append(("file", location.file))
            if location.line >= 1 { properties.append(("line", "\(location.line)")) }
        }
        properties.append(("title", finding.rule + (ruleTitle.map { ": " + $0 } ?? "")))
        let list = properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(command(for: finding.severity)) \(list)::\(escapeData(finding.message))"
    }

    /// The workflow command of a severity: GitHub's annotation levels are the same three.
    static func command(for severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
    }

    /// The last line: plain text (it starts with `relaylint:`, never `::`) made of counts only.
    /// Findings a suppression accepts are counted apart and get no annotation: they do not fail
    /// the run. An expired suppression applies no more and wants renewing, so it is named here.
    static func summaryLine(_ report: LintReport, annotations: Int) -> String {
        let active = report.activeFindings
        var text: String
        if active.isEmpty {
            text = "relaylint: no findings in \(plural(report.summary.subjects, "subject")) and \(plural(report.summary.events, "event"))"
        } else {
            let counts = Severity.allCases.reversed().compactMap { severity -> String? in
                let count = active.count { $0.severity == severity }
                return count == 0 ? nil : plural(count, severity.rawValue)
            }
            text = "relaylint: \(plural(active.count, "finding")) (\(counts.joined(separator: ", ")));"
            text +=
                annotations == active.count
                ? " all shown as annotations"
                : " \(annotations) shown as annotations (GitHub shows \(annotationsPerLevel) per level), see the full report"
        }
        let suppressed = report.findings.count - active.count
        if suppressed > 0 { text += "; \(suppressed) suppressed" }
        let expired = report.expiredSuppressions.count
        if expired > 0 { text += "; \(plural(expired, "expired suppression")) (no longer applied)" }
        let skipped = report.summary.skippedRecords
        if skipped > 0 { text += "; \(plural(skipped, "invalid record")) skipped (--skip-invalid)" }
        for input in report.inputsReadNothing { text += "; warning: " + escapeData(LintReport.nothingReadMessage(input.path)) }
        return text
    }

    /// `1 error`, `2 errors`.
    static func plural(_ count: Int, _ noun: String) -> String { Plural.counted(count, noun) }

    /// The step summary Markdown for `$GITHUB_STEP_SUMMARY` (see `GitHubStepSummary`).
    public func stepSummary(_ report: LintReport) -> String {
        GitHubStepSummary().render(report)
    }

    // MARK: Escaping, as the Actions runner unescapes

    /// A command's message: `%`, carriage return and line feed.
    static func escapeData(_ value: String) -> String { escape(value, isProperty: false) }

    /// A property value: as a message, and also `:` and `,`, which end a value.
    static func escapeProperty(_ value: String) -> String { escape(value, isProperty: true) }

    /// Works on Unicode scalars, not characters: a `:` followed by a combining mark is one
    /// `Character` but still a colon to the runner. Line breaks are the runner's own escapes (it
    /// puts them back into the annotation); every other control scalar (ESC and the rest of C0
    /// and C1, U+2028/U+2029, bidi overrides) is written as `TerminalEscaping` writes it, since the
    /// raw command line is shown in the log too.
    private static func escape(_ value: String, isProperty: Bool) -> String {
        var output = ""
        output.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            case ":" where isProperty: output += "%3A"
            case "," where isProperty: output += "%2C"
            case _ where TerminalEscaping.isEscaped(scalar): output += TerminalEscaping.escape(scalar)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
