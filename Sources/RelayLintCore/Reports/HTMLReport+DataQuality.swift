import Plot

/// The appendix on the data itself: notes about suspicious values (look-alike relay domains,
/// reused event ids) and the records skipped with `--skip-invalid`. A reviewer needs both to
/// judge how far the findings can be trusted.
extension HTMLReport {
    func notesSection() -> Node<HTML.BodyContext> {
        diagnosticsSection(
            id: "notes", title: "Data-quality notes", diagnostics: report.notes,
            none: "No data-quality notes.")
    }

    func skippedSection() -> Node<HTML.BodyContext> {
        diagnosticsSection(
            id: "skipped", title: AuditReportContent.invalidRecordsTitle, diagnostics: report.skipped,
            none: AuditReportContent.noInvalidRecords,
            intro: AuditReportContent.invalidRecordsIntro)
    }

    private func diagnosticsSection(
        id: String, title: String, diagnostics: [Diagnostic], none: String,
        intro: String? = nil
    ) -> Node<HTML.BodyContext> {
        let shown = diagnostics.prefix(AuditReportContent.listLimit)
        return .section(
            .class("appendix"),
            .id(id),
            .h2(.escapedText(diagnostics.isEmpty ? title : "\(title) (\(diagnostics.count))")),
            .if(diagnostics.isEmpty, .p(.class("muted"), .escapedText(none))),
            .if(
                !diagnostics.isEmpty,
                .group(
                    .unwrap(intro) { .p(.escapedText($0)) },
                    .table(
                        .headerRow(["Location", "Severity", "Message"]),
                        .tbody(
                            .group(
                                shown.map { diagnostic in
                                    .tr(
                                        .pathCell(diagnostic.location.description), .td(.badge(diagnostic.severity)),
                                        .cell(diagnostic.message))
                                }))
                    ),
                    .if(
                        diagnostics.count > shown.count,
                        .p(
                            .class("muted"),
                            .escapedText(
                                "… and \(diagnostics.count - shown.count) more, listed in the JSON report (--format json).")))
                ))
        )
    }
}
