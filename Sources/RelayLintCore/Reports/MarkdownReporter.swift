/// The audit report as Markdown, for a pull-request comment or a wiki page: the same content as
/// the HTML report, in tables, with a findings-per-rule table (and a bar of block characters)
/// where the HTML report draws charts. Every value from the inputs is escaped with
/// `MarkdownEscaping`, so no subject id, path or rule text can break a table or add markup.
public struct MarkdownReporter: Reporter {
    public init() {}
    public var identifier: String { "markdown" }
    public var fileExtension: String { "md" }
    public var summary: String { "Markdown audit report, for a pull-request comment or a wiki page" }

    /// The widest text bar in the findings-per-rule table, in block characters.
    static let barWidth = 20

    public func render(_ report: LintReport, options: ReportOptions) -> String {
        let content = AuditReportContent(report: report, options: options)
        var lines: [String] = []
        lines += header(content)
        lines += scope(content)
        lines += summary(content)
        lines += ["## Rules", ""]
        for section in content.sections { lines += rule(section, content: content) }
        if !content.otherFindings.isEmpty {
            lines += ["### Findings of other rules", "", "These findings name rules that the report does not describe.", ""]
            lines += findings(content.otherFindings, outcome: nil, content: content)
        }
        lines += suppressions(content)
        let notes = AuditReportContent.notes(of: report)
        lines += diagnostics(title: "Data-quality notes", notes.listed, count: notes.count, none: "No data-quality notes.")
        let invalid = AuditReportContent.invalidRecords(of: report)
        lines += diagnostics(
            title: AuditReportContent.invalidRecordsTitle, invalid.listed, count: invalid.count,
            none: AuditReportContent.noInvalidRecords,
            intro: AuditReportContent.invalidRecordsIntro)
        lines += footer(content)
        return lines.joined(separator: "\n") + "\n"
    }

    private func escaped(_ value: String) -> String { MarkdownEscaping.inline(value) }

    private func header(_ content: AuditReportContent) -> [String] {
        var table = MarkdownTable(["Field", "Value"])
        table.add(["**Reviewer**", given(content.reviewer)])
        table.add(["**Date**", given(content.date)])
        table.add(["**Tool**", escaped(content.tool)])
        table.add(["**Result**", "**" + escaped(content.result) + "**"])
        table.add([
            "**Rule pack**",
            escaped(
                AuditReportContent.counted(content.report.rules.count, "rule") + ", SHA-256 "
                    + content.report.rulePackSHA256),
        ])
        table.add(["**Personal data**", escaped(content.personalData)])
        return ["# " + escaped(content.title), ""] + table.lines + [""]
    }

    private func scope(_ content: AuditReportContent) -> [String] {
        let report = content.report
        var inputs = MarkdownTable(["File", "Kind", "SHA-256", "Records", "Invalid", "Duplicates", "Time covered"], numeric: [3, 4, 5])
        for input in report.inputs {
            inputs.add([
                escaped(input.path), escaped(input.kind.rawValue), escaped(input.sha256), "\(input.records)", "\(input.invalid)",
                "\(input.duplicates)",
                input.firstTime == nil && input.lastTime == nil ? "—" : escaped(AuditReportContent.window(input.firstTime, input.lastTime)),
            ])
        }
        var lines = [
            "## Scope", "",
            "The run read these files. Their SHA-256 identifies exactly what was checked; records are log lines, "
                + "exported accounts or manifest apps.", "",
        ]
        lines += inputs.lines + [""]
        let mapped = content.mappedSources
        if !mapped.isEmpty {
            lines += ["Logs read through a mapping, every record accounted for:", ""]
            lines += mapped.map { "- " + escaped($0.path) + ": " + escaped($0.text) } + [""]
        }
        lines += [report.earliest == nil ? "No events were read." : "The events cover " + escaped(content.timeWindow) + " (UTC).", ""]
        lines += [
            "### Rule pack", "",
            escaped(
                AuditReportContent.counted(report.rules.count, "rule") + " from "
                    + AuditReportContent.counted(report.ruleFiles.count, "file") + "; SHA-256 of the pack: " + report.rulePackSHA256), "",
        ]
        var files = MarkdownTable(["File", "SHA-256", "Rules"])
        for file in report.ruleFiles {
            files.add([escaped(file.path), escaped(file.sha256), file.rules.map(escaped).joined(separator: ", ")])
        }
        lines += files.lines + ["", "### Apps", ""]
        if report.apps.isEmpty {
            lines += ["No app appears in the data or the manifest.", ""]
        } else {
            var apps = MarkdownTable(["App", "Creates accounts", "In manifest", "Exported accounts"], numeric: [3])
            for app in report.apps {
                apps.add([
                    escaped(UnnamedApp.readableSubject(app.bundleId)), app.createsAccounts ? "yes" : "no", app.inManifest ? "yes" : "no",
                    "\(app.accounts)",
                ])
            }
            lines += apps.lines + [""]
        }
        return lines
    }

    private func summary(_ content: AuditReportContent) -> [String] {
        let report = content.report
        let summary = report.summary
        var lines = [
            "## Executive summary", "",
            "**" + escaped(content.resultSentence.lead) + "**" + escaped(content.resultSentence.rest), "",
        ]
        var figures = MarkdownTable(["Figure", "Count"], numeric: [1])
        for (label, value) in [
            ("Findings", summary.findings), ("Suppressed findings", report.findings.count - report.activeFindings.count),
            ("Subjects", summary.subjects),
            ("Anonymized subjects", summary.anonymizedSubjects), ("Events", summary.events),
            ("Exported accounts", summary.accounts), ("Apps", report.apps.count), ("Checks pending", summary.pending),
            ("Duplicate events ignored", summary.duplicates), ("Invalid records skipped", summary.skippedRecords),
        ] {
            figures.add([label, "\(value)"])
        }
        lines += figures.lines + [""]

        lines += ["### Findings by rule and severity", ""]
        let severities = AuditReportContent.severities
        var byRule = MarkdownTable(
            ["Rule", "Title"] + severities.map(AuditReportContent.title(of:)) + ["Total", "Suppressed", "Share"],
            numeric: Set(2...(severities.count + 3)))
        let rows = content.ruleTotals
        let most = max(1, rows.map(\.findings.count).max() ?? 0)
        for row in rows {
            let length = row.findings.count * MarkdownReporter.barWidth / most
            byRule.add(
                [escaped(row.id), escaped(row.title)] + severities.map { "\(content.count(of: $0, in: row.findings))" }
                    + [
                        "**\(row.findings.count)**", "\(row.suppressed)",
                        String(repeating: "█", count: row.findings.isEmpty ? 0 : max(1, length)),
                    ])
        }
        byRule.add(
            ["**All rules**", ""] + severities.map { "\(content.count(of: $0, in: report.activeFindings))" }
                + ["**\(report.activeFindings.count)**", "\(report.findings.count - report.activeFindings.count)", ""])
        lines += byRule.lines + [""]

        lines += [
            "### Coverage", "",
            "How often each rule's requirement was checked (at firing events for subject rules, at apps for app rules) and how "
                + "often it was not met. Pending checks have a window that reaches past the end of the data.", "",
        ]
        var coverage = MarkdownTable(
            ["Rule", "Checked", "In violation", "Compliant", "Pending", "Violation rate"], numeric: [1, 2, 3, 4, 5])
        for section in content.sections {
            let outcome = section.outcome
            coverage.add([
                escaped(section.rule.id), "\(outcome.checked)", "\(outcome.violated)", "\(AuditReportContent.compliant(outcome))",
                "\(outcome.pending)", escaped(AuditReportContent.violationRate(outcome)),
            ])
        }
        lines += coverage.lines + [""]

        lines += ["### " + escaped(content.histogramTitle), ""]
        if content.histogram.buckets.isEmpty {
            lines += ["No events were read.", ""]
        } else {
            let period = content.histogram.period
            var histogram = MarkdownTable(
                [period == .week ? "Week starting" : period == .day ? "Day" : period == .month ? "Month" : "Year", "Events"], numeric: [1])
            for bucket in content.histogram.buckets { histogram.add([escaped(bucket.label), "\(bucket.count)"]) }
            lines +=
                histogram.lines + [
                    "",
                    escaped(
                        AuditReportContent.counted(content.histogram.total, "event")
                            + " after duplicates were removed, " + content.timeWindow + "."), "",
                ]
        }
        return lines
    }

    private func rule(_ section: AuditReportContent.RuleSection, content: AuditReportContent) -> [String] {
        let rule = section.rule
        var lines = [
            "### \(section.number). " + escaped(rule.title), "",
            "**Id:** " + escaped(rule.id) + " · **Severity:** " + rule.severity.rawValue + " · **Scope:** " + rule.scope.rawValue
                + " · **Defined at:** " + escaped(rule.location.description), "",
        ]
        if !rule.description.isEmpty { lines += ["**What it checks:** " + escaped(trimmed(rule.description)), ""] }
        if !rule.rationale.isEmpty { lines += ["**Why:** " + escaped(trimmed(rule.rationale)), ""] }
        lines += ["**" + (rule.scope == .app ? "Applies to" : "Fires on") + ":** " + escaped(content.appliesTo(rule)), ""]
        lines += ["**Requires:** " + escaped(content.requirement(rule)), ""]
        if !rule.parameters.isEmpty {
            lines += ["**Parameters:** " + rule.parameters.map { escaped(content.parameter($0)) }.joined(separator: "; "), ""]
        }
        lines += ["**Controls:** " + (rule.controls.isEmpty ? "none listed" : rule.controls.map(escaped).joined(separator: "; ")), ""]
        if rule.references.isEmpty {
            lines += ["**References:** none listed", ""]
        } else {
            lines += ["**References:**", ""]
            for reference in rule.references {
                if let url = reference.url {
                    lines.append(
                        "- "
                            + (MarkdownEscaping.link(title: reference.title, url: url)
                                ?? escaped(reference.title) + " (not linked: " + escaped(url) + ")"))
                } else {
                    lines.append("- " + escaped(reference.title))
                }
            }
            lines.append("")
        }
        lines += ["**Coverage:** " + escaped(content.coverage(of: section.outcome)), ""]
        lines += ["**Rule file SHA-256:** " + escaped(rule.fileSHA256), ""]
        lines += findings(section.findings, outcome: section.outcome, content: content)
        return lines
    }

    private func suppressions(_ content: AuditReportContent) -> [String] {
        let report = content.report
        guard !report.suppressions.isEmpty else {
            return ["## Suppressions", "", "No suppressions: every finding in this report counts.", ""]
        }
        var table = MarkdownTable(["Accepts", "Status", "Justification", "Author", "Expires", "Defined at"])
        for outcome in report.suppressions {
            let suppression = outcome.suppression
            table.add([
                escaped(AuditReportContent.target(of: suppression)), escaped(AuditReportContent.status(of: outcome)),
                escaped(content.justification(of: suppression)), escaped(suppression.author), escaped(suppression.expires),
                escaped(suppression.location.description),
            ])
        }
        return ["## Suppressions (\(report.suppressions.count))", ""] + table.lines + [""]
    }

    private func findings(_ findings: [Finding], outcome: LintReport.RuleOutcome?, content: AuditReportContent) -> [String] {
        guard !findings.isEmpty else {
            return ["#### Findings", "", "No findings" + (outcome.map { ": " + escaped(content.coverage(of: $0)) + "." } ?? "."), ""]
        }
        let suppressed = findings.filter { $0.suppression != nil }.count
        var lines = ["#### Findings (\(findings.count)" + (suppressed > 0 ? ", \(suppressed) suppressed)" : ")"), ""]
        for (index, finding) in findings.enumerated() {
            lines += [
                "##### Finding \(index + 1) of \(findings.count) — " + finding.severity.rawValue
                    + (finding.suppression == nil ? "" : ", suppressed"), "",
                "**Message:** " + escaped(finding.message), "",
            ]
            if let suppression = finding.suppression {
                lines += ["**Suppressed:** " + escaped(content.acceptance(suppression)), ""]
            }
            var facts = MarkdownTable(["Field", "Value"])
            let subject = outcome?.rule.scope == .app ? UnnamedApp.readableSubject(finding.subject) : finding.subject
            facts.add(["Subject", escaped(subject)])
            facts.add(["App", escaped(UnnamedApp.readableSubject(finding.app))])
            facts.add(["Event", finding.event.map(escaped) ?? AuditReportContent.noEvent(outcome?.rule)])
            facts.add(["Time", finding.time.map { escaped($0.description) } ?? "—"])
            facts.add(["Location", finding.location.map { escaped($0.description) } ?? "—"])
            facts.add(["Expected", escaped(finding.expected)])
            facts.add(["Fingerprint", escaped(finding.fingerprint)])
            lines += facts.lines + [""]
            if !finding.evidence.isEmpty {
                lines += ["Evidence timeline:", ""]
                var evidence = MarkdownTable(["Time", "Event", "Type", "Role", "Note", "File:line"])
                for item in finding.evidence {
                    let role = item.role == .trigger ? "**trigger**" : item.role.rawValue
                    evidence.add([
                        escaped(item.time.description), escaped(item.event), escaped(item.type), role,
                        escaped(item.note ?? ""), escaped(item.location.description),
                    ])
                }
                lines += evidence.lines + [""]
            }
        }
        return lines
    }

    /// - Parameter count: how many there were, when more than listed.
    private func diagnostics(
        title: String, _ diagnostics: [Diagnostic], count: Int? = nil, none: String, intro: String? = nil
    ) -> [String] {
        let count = count ?? diagnostics.count
        guard count > 0 else { return ["## " + title, "", none, ""] }
        var lines = ["## \(title) (\(count))", ""]
        if let intro { lines += [intro, ""] }
        var table = MarkdownTable(["Location", "Severity", "Message"])
        let (shown, more) = AuditReportContent.shown(diagnostics, of: count)
        for diagnostic in shown {
            table.add([escaped(diagnostic.location.description), diagnostic.severity.rawValue, escaped(diagnostic.message)])
        }
        lines += table.lines + [""]
        if let more { lines += [more, ""] }
        return lines
    }

    private func footer(_ content: AuditReportContent) -> [String] {
        [
            "---", "",
            "**Personal data:** " + escaped(content.personalData) + ".", "",
            escaped(
                "Generated by \(content.tool) from the inputs listed under Scope, without reading the clock: the same inputs and "
                    + "options give the same report, byte for byte. The JSON report (--format json) holds the same findings for machines."),
            "",
            "**Sign-off.** Reviewer: " + escaped(content.reviewer) + " · Date: " + escaped(content.date) + " · Signature: "
                + escaped(String(repeating: "_", count: 24)),
        ]
    }

    private func given(_ value: String) -> String {
        value == AuditReportContent.notGiven ? "*not given*" : escaped(value)
    }

    /// Rule texts from YAML block scalars end with a line break that would become a stray `<br>`.
    private func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
