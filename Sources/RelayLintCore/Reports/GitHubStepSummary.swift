/// The Markdown a workflow appends to `$GITHUB_STEP_SUMMARY`: the run's verdict, a table of the
/// rules and a table of the findings, on the run's summary page.
///
/// GitHub refuses a step summary over 1 MiB (and then shows none), so the text is built within a
/// byte budget: rows that do not fit are left out and a closing note says how many and where to
/// find them; each cell is also cut to a few hundred characters so that one huge id cannot crowd
/// out every other row. Every value from the inputs is escaped with `GitHubMarkdown`.
struct GitHubStepSummary {
    /// GitHub's limit is 1 MiB (1,048,576 bytes); the rest is headroom for what a workflow
    /// appends around it.
    static let defaultByteLimit = 1_000_000
    /// Longest cell text, in characters, before escaping.
    static let maximumCellLength = 300

    var byteLimit: Int = GitHubStepSummary.defaultByteLimit

    func render(_ report: LintReport) -> String {
        let summary = report.summary
        let active = report.activeFindings
        let findings = report.findings.count
        var head: [String] = []
        if active.isEmpty {
            head.append("## relaylint: no findings")
        } else {
            let counts = Severity.allCases.reversed().compactMap { severity -> String? in
                let count = active.count { $0.severity == severity }
                return count == 0 ? nil : GitHubReporter.plural(count, severity.rawValue)
            }
            head.append("## relaylint: \(GitHubReporter.plural(active.count, "finding")) (\(counts.joined(separator: ", ")))")
        }
        head.append("")
        head.append(
            "Checked \(Plural.counted(summary.subjects, "subject")), \(Plural.counted(summary.events, "event")) and "
                + "\(Plural.counted(summary.accounts, "account")) against \(Plural.counted(report.rules.count, "rule"))"
                + (report.showsPII ? "; email addresses and phone numbers are shown unmasked." : "."))
        var remarks: [String] = []
        let expired = report.expiredSuppressions.count
        if expired > 0 {
            remarks.append(
                "**\(GitHubReporter.plural(expired, "suppression")) expired** and no longer appl\(expired == 1 ? "ies" : "y"): renew or remove \(expired == 1 ? "it" : "them")."
            )
        }
        if findings > active.count {
            remarks.append(
                "\(GitHubReporter.plural(findings - active.count, "finding")) accepted by a suppression (marked below); they do not fail the run."
            )
        }
        if summary.skippedRecords > 0 {
            remarks.append(
                "**\(summary.skippedRecords) invalid record\(summary.skippedRecords == 1 ? " was" : "s were") skipped** (--skip-invalid): their data was not checked."
            )
        }
        for input in report.inputsReadNothing {
            remarks.append("**Warning: " + cell(LintReport.nothingReadMessage(input.path)) + "**: nothing from it was checked.")
        }
        if summary.duplicates > 0 { remarks.append("\(summary.duplicates) duplicate event\(summary.duplicates == 1 ? "" : "s") ignored.") }
        if summary.pending > 0 {
            remarks.append(
                "\(summary.pending) check\(summary.pending == 1 ? "" : "s") pending: the window reaches past the end of the data.")
        }
        let notes = AuditReportContent.notes(of: report).count
        if notes > 0 {
            remarks.append("\(notes) data-quality note\(notes == 1 ? "" : "s") in the full report.")
        }
        if !remarks.isEmpty { head += [""] + remarks.map { "- " + $0 } }

        var rules = ["", "| Rule | Severity | Checked | Findings | Pending |", "| --- | --- | ---: | ---: | ---: |"]
        for outcome in report.rules {
            let rule = outcome.rule
            let title = cell(rule.id) + ": " + cell(rule.title)
            rules.append("| \(title) | \(rule.severity.rawValue) | \(outcome.checked) | \(outcome.violated) | \(outcome.pending) |")
        }

        var rows: [String] = []
        if findings > 0 {
            rows = [
                "", "### Findings", "", "| Severity | Rule | Subject | Event | Time | Location | Message |",
                "| --- | --- | --- | --- | --- | --- | --- |",
            ]
            for finding in report.findings {
                let severity = finding.severity.rawValue + (finding.suppression == nil ? "" : " (suppressed)")
                let cells = [
                    severity, cell(finding.rule), cell(finding.subject), cell(finding.event ?? "—"),
                    finding.time?.description ?? "—", cell(finding.location?.description ?? "—"), cell(finding.message),
                ]
                rows.append("| " + cells.joined(separator: " | ") + " |")
            }
        }

        // Whole lines in order while they fit, with room left for the closing note; after the
        // first line that does not fit, nothing more (a later table row without its header
        // would not render as a table), only the count of what was left out.
        let reserve = 400
        var output = ""
        var bytes = 0
        var isFull = false
        var omittedRules = 0
        var omittedFindings = 0
        for (section, lines) in [(0, head), (1, rules), (2, rows)] {
            for (index, line) in lines.enumerated() {
                let size = line.utf8.count + 1
                if isFull || bytes + size + reserve > byteLimit {
                    isFull = true
                    if section == 1 && index >= 3 { omittedRules += 1 }
                    if section == 2 && index >= 5 { omittedFindings += 1 }
                    continue
                }
                output += line + "\n"
                bytes += size
            }
        }
        if omittedRules > 0 || omittedFindings > 0 {
            var left: [String] = []
            if omittedRules > 0 { left.append("\(omittedRules) rule\(omittedRules == 1 ? "" : "s")") }
            if omittedFindings > 0 { left.append("\(omittedFindings) finding\(omittedFindings == 1 ? "" : "s")") }
            output +=
                "\n_Truncated: \(left.joined(separator: " and ")) not shown, to keep this summary under GitHub's 1 MiB limit; "
                + "see the full report._\n"
        }
        return output
    }

    private func cell(_ value: String) -> String {
        GitHubMarkdown.escape(value, limit: Self.maximumCellLength)
    }
}
