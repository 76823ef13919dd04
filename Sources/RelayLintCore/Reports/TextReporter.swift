/// The terminal report: findings grouped by rule, compiler-style lines that editors link, the
/// evidence indented below, and a summary line. Every value from the inputs and the rules goes
/// through `TerminalEscaping`, so no id, field value or file name can start a line of its own or
/// send a control sequence to the terminal.
public struct TextReporter: Reporter {
    public init() {}
    public var identifier: String { "text" }
    public var fileExtension: String { "txt" }
    public var summary: String { "readable report for a terminal (default)" }

    public func render(_ report: LintReport, options: ReportOptions) -> String {
        let style = ANSIStyle(enabled: options.color)
        let e = TerminalEscaping.escape as (String) -> String
        var lines: [String] = []
        let byRule = Dictionary(grouping: report.activeFindings, by: \.rule)
        for outcome in report.rules {
            guard let findings = byRule[outcome.rule.id], !findings.isEmpty else { continue }
            let rule = outcome.rule
            lines.append(style.bold(e(rule.id)) + " — \(e(rule.title)) " + style.dim("(\(findings.count) of \(outcome.checked) checked)"))
            for finding in findings {
                let place = finding.location.map { e("\($0)") + ": " } ?? ""
                let severity = style.severity(finding.severity)
                lines.append("  \(place)\(severity): \(e(finding.message)) [\(e(finding.rule))]")
                lines.append(
                    style.dim(
                        e(
                            "      subject \(rule.scope == .app ? UnnamedApp.readableSubject(finding.subject) : finding.subject)"
                                + (finding.event.map { ", event \($0)" } ?? "")
                                + (finding.time.map { " at \($0)" } ?? ""))))
                lines.append(style.dim(e("      expected: \(finding.expected)")))
                for item in finding.evidence where item.role != .trigger {
                    lines.append(
                        style.dim(
                            e(
                                "      \(item.role.rawValue): \(item.type) \(item.event) at \(item.time) (\(item.location))"
                                    + (item.note.map { ": \($0)" } ?? ""))))
                }
            }
            lines.append("")
        }
        let suppressed = report.findings.filter { $0.suppression != nil }
        if !report.suppressions.isEmpty {
            lines.append(style.bold("suppressions") + " (\(Plural.counted(suppressed.count, "finding")) accepted)")
            for outcome in report.suppressions {
                let suppression = outcome.suppression
                let target =
                    suppression.fingerprint.map { "fingerprint \($0)" }
                    ?? "\(suppression.rule ?? "")" + (suppression.subject.map { " for \($0)" } ?? "")
                let status: String
                switch outcome.status {
                case .active: status = "\(outcome.matched) finding\(outcome.matched == 1 ? "" : "s") accepted"
                case .expired: status = style.severity(.warning) + ": expired on \(e(suppression.expires)), no longer applied"
                case .stale: status = style.severity(.warning) + ": matches no finding any more; remove it"
                }
                lines.append("  " + e("\(suppression.location): \(target)") + ": \(status)")
                lines.append(style.dim(e("      \(suppression.justification) (\(suppression.author), until \(suppression.expires))")))
            }
            lines.append("")
        }
        if !report.skipped.isEmpty {
            let (listed, total) = AuditReportContent.invalidRecords(of: report)
            lines.append(style.bold("skipped records") + " (\(total), --skip-invalid)")
            for diagnostic in listed.prefix(20) { lines.append("  " + e(diagnostic.description)) }
            if let more = AuditReportContent.remainder(of: total, shown: min(listed.count, 20), listed: listed.count) {
                lines.append("  … " + more)
            }
            lines.append("")
        }
        let mapped = AuditReportContent.mappedSources(of: report)
        if !mapped.isEmpty {
            lines.append(style.bold("logs read through a mapping") + " (every record accounted for)")
            for source in mapped { lines.append("  " + e(source.path) + ": " + e(source.text)) }
            lines.append("")
        }
        let notes = AuditReportContent.notes(of: report)
        if notes.count > 0 {
            lines.append(style.bold("data-quality notes") + " (\(notes.count))")
            for diagnostic in notes.listed.prefix(20) { lines.append("  " + e(diagnostic.description)) }
            let shown = min(20, notes.listed.count)
            if let more = AuditReportContent.remainder(of: notes.count, shown: shown, listed: notes.listed.count) {
                lines.append("  … " + more)
            }
            lines.append("")
        }
        lines.append(summaryLine(report, style: style))
        return lines.joined(separator: "\n") + "\n"
    }

    func summaryLine(_ report: LintReport, style: ANSIStyle) -> String {
        let summary = report.summary
        let counts = Severity.allCases.reversed().map { severity in
            let count = summary.bySeverity[severity] ?? 0
            return "\(count) \(severity.rawValue)\(count == 1 ? "" : "s")"
        }.joined(separator: ", ")
        var text =
            summary.findings == 0
            ? style.green("no findings") : style.bold("\(summary.findings) finding\(summary.findings == 1 ? "" : "s")") + " (\(counts))"
        text +=
            " in \(Plural.counted(summary.subjects, "subject")), \(Plural.counted(summary.events, "event")), "
            + "\(Plural.counted(summary.accounts, "account")); \(Plural.counted(report.rules.count, "rule"))"
        var extras: [String] = []
        if summary.duplicates > 0 { extras.append("\(summary.duplicates) duplicate event\(summary.duplicates == 1 ? "" : "s") ignored") }
        if summary.skippedRecords > 0 {
            extras.append("\(summary.skippedRecords) invalid record\(summary.skippedRecords == 1 ? "" : "s") skipped")
        }
        if summary.suppressed > 0 { extras.append("\(summary.suppressed) suppressed") }
        if summary.baselined > 0 { extras.append("\(summary.baselined) in the baseline not shown") }
        if !report.expiredSuppressions.isEmpty {
            extras.append("\(report.expiredSuppressions.count) expired suppression\(report.expiredSuppressions.count == 1 ? "" : "s")")
        }
        if summary.pending > 0 { extras.append("\(summary.pending) check\(summary.pending == 1 ? "" : "s") pending (window still open)") }
        for input in report.inputsReadNothing {
            extras.append(style.severity(.warning) + ": " + TerminalEscaping.escape(LintReport.nothingReadMessage(input.path)))
        }
        if !extras.isEmpty { text += "; " + extras.joined(separator: ", ") }
        return text
    }
}

/// ANSI escapes, or nothing when colour is off.
struct ANSIStyle {
    let enabled: Bool

    private func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: wrap("error", "1;31")
        case .warning: wrap("warning", "1;33")
        case .note: wrap("note", "1;36")
        }
    }
}
