import Plot

/// The executive summary: key figures, findings by rule and severity (table and bar chart), how
/// much each rule checked, and the events over time.
extension HTMLReport {
    func summarySection() -> Node<HTML.BodyContext> {
        let summary = report.summary
        return .section(
            .id("summary"),
            .h2(.escapedText("Executive summary")),
            .p(.strong(.escapedText(content.resultSentence.lead)), .escapedText(content.resultSentence.rest)),
            .div(
                .class("figures"),
                figure(summary.findings, "finding"),
                figure(report.findings.count - report.activeFindings.count, "suppressed finding"),
                figure(summary.subjects, "subject"),
                figure(summary.anonymizedSubjects, "anonymized subject"),
                figure(summary.events, "event"),
                figure(summary.accounts, "exported account"),
                figure(report.apps.count, "app"),
                figure(summary.pending, "check", "pending"),
                figure(summary.duplicates, "duplicate event", "ignored"),
                figure(summary.skippedRecords, "invalid record", "skipped")
            ),
            .h3(.escapedText("Findings by rule and severity")),
            findingsTable(),
            .element(
                named: "figure",
                nodes: [
                    SVGChart.horizontalBars(findingBars(), title: "Findings per rule"),
                    .element(
                        named: "figcaption",
                        nodes: [.escapedText("Findings per rule (suppressed ones not counted), coloured by the rule's severity.")]),
                ]),
            .h3(.escapedText("Coverage")),
            .p(
                .escapedText(
                    "How often each rule's requirement was checked (at firing events for subject rules, at apps for app "
                        + "rules) and how often it was not met. Pending checks have a window that reaches past the end of the data.")),
            coverageTable(),
            .h3(.escapedText(content.histogramTitle)),
            .element(
                named: "figure",
                nodes: [
                    SVGChart.columns(
                        content.histogram.buckets.map { bucket in
                            SVGChart.Item(
                                label: bucket.label, value: bucket.count, color: HTMLStyle.eventColor,
                                detail: "\(content.histogram.period.rawValue) of \(bucket.label): "
                                    + AuditReportContent.counted(bucket.count, "event"))
                        }, title: content.histogramTitle),
                    .element(
                        named: "figcaption",
                        nodes: [
                            .escapedText(
                                AuditReportContent.counted(content.histogram.total, "event") + " after duplicates were removed, "
                                    + content.timeWindow + ".")
                        ]),
                ])
        )
    }

    /// A count with its label, the noun in the number the count asks for ("1 subject").
    private func figure(_ value: Int, _ noun: String, _ after: String = "") -> Node<HTML.BodyContext> {
        let label = Plural.word(value, noun) + (after.isEmpty ? "" : " " + after)
        return .div(.class("figure"), .span(.class("value"), .escapedText(String(value))), .span(.class("label"), .escapedText(label)))
    }

    /// One row per rule (and per rule outside the report's rules that has findings), a column
    /// per severity, and the totals.
    private func findingsTable() -> Node<HTML.BodyContext> {
        let rows = content.ruleTotals
        let severities = AuditReportContent.severities
        return .table(
            .headerRow(
                ["Rule", "Title"] + severities.map(AuditReportContent.title(of:)) + ["Total", "Suppressed"],
                numeric: Set(2...(severities.count + 3))),
            .tbody(
                .group(
                    rows.map { row in
                        .tr(
                            .td(ruleLink(row.id, number: row.number)), .cell(row.title),
                            .group(severities.map { .numberCell(content.count(of: $0, in: row.findings)) }),
                            .td(.class("num"), .strong(.escapedText(String(row.findings.count)))),
                            .numberCell(row.suppressed))
                    })),
            .tfoot(
                .tr(
                    .th(.escapedAttribute(named: "scope", value: "row"), .escapedText("All rules")), .td(),
                    .group(severities.map { .numberCell(content.count(of: $0, in: report.activeFindings)) }),
                    .td(.class("num"), .strong(.escapedText(String(report.activeFindings.count)))),
                    .numberCell(report.findings.count - report.activeFindings.count)))
        )
    }

    private func findingBars() -> [SVGChart.Item] {
        content.ruleTotals.map { row in
            SVGChart.Item(
                label: row.id, value: row.findings.count, color: HTMLStyle.color(of: row.severity),
                detail: "\(row.id): " + AuditReportContent.counted(row.findings.count, "finding"))
        }
    }

    private func coverageTable() -> Node<HTML.BodyContext> {
        .table(
            .headerRow(["Rule", "Checked", "In violation", "Compliant", "Pending", "Violation rate"], numeric: [1, 2, 3, 4, 5]),
            .tbody(
                .group(
                    content.sections.map { section in
                        let outcome = section.outcome
                        return .tr(
                            .td(ruleLink(section.rule.id, number: section.number)), .numberCell(outcome.checked),
                            .numberCell(outcome.violated), .numberCell(AuditReportContent.compliant(outcome)),
                            .numberCell(outcome.pending), .td(.class("num"), .escapedText(AuditReportContent.violationRate(outcome))))
                    }))
        )
    }

    /// A rule id linking to its section.
    func ruleLink(_ id: String, number: Int?) -> Node<HTML.BodyContext> {
        guard let number else { return .codeText(id) }
        return .a(.escapedAttribute(named: "href", value: "#rule-\(number)"), .code(.escapedText(id)))
    }
}
