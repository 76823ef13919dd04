import Plot

/// The appendix on the data itself: notes about suspicious values (look-alike relay domains,
/// reused event ids) and the records skipped with `--skip-invalid`. A reviewer needs both to
/// judge how far the findings can be trusted.
extension HTMLReport {
    func notesSection() -> Node<HTML.BodyContext> {
        let notes = AuditReportContent.notes(of: report)
        return diagnosticsSection(
            id: "notes", title: "Data-quality notes", diagnostics: notes.listed, count: notes.count,
            none: "No data-quality notes.")
    }

    func skippedSection() -> Node<HTML.BodyContext> {
        let invalid = AuditReportContent.invalidRecords(of: report)
        return diagnosticsSection(
            id: "skipped", title: AuditReportContent.invalidRecordsTitle, diagnostics: invalid.listed, count: invalid.count,
            none: AuditReportContent.noInvalidRecords,
            intro: AuditReportContent.invalidRecordsIntro)
    }

    private func diagnosticsSection(
        id: String, title: String, diagnostics: [Diagnostic], count: Int? = nil, none: String,
        intro: String? = nil
    ) -> Node<HTML.BodyContext> {
        let count = count ?? diagnostics.count
        let (shown, more) = AuditReportContent.shown(diagnostics, of: count)
        return .section(
            .class("appendix"),
            .id(id),
            .h2(.escapedText(count == 0 ? title : "\(title) (\(count))")),
            .if(count == 0, .p(.class("muted"), .escapedText(none))),
            .if(
                count > 0,
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
                    .unwrap(more) { .p(.class("muted"), .escapedText($0)) }
                ))
        )
    }
}
