import Plot

/// The scope section: exactly which files were checked (with their SHA-256), which rules, which
/// apps, and the time the data covers. A reviewer signs for these inputs and no others.
extension HTMLReport {
    func scopeSection() -> Node<HTML.BodyContext> {
        .section(
            .id("scope"),
            .h2(.escapedText("Scope")),
            .p(
                .escapedText(
                    "The run read these files. Their SHA-256 identifies exactly what was checked; "
                        + "records are log lines, exported accounts or manifest apps.")),
            .table(
                .headerRow(["File", "Kind", "SHA-256", "Records", "Invalid", "Duplicates", "Time covered"], numeric: [3, 4, 5]),
                .tbody(
                    .group(
                        report.inputs.map { input in
                            .tr(
                                .pathCell(input.path),
                                .cell(input.kind.rawValue),
                                .hashCell(input.sha256),
                                .numberCell(input.records),
                                .numberCell(input.invalid),
                                .numberCell(input.duplicates),
                                .td(.class("nowrap"), window(input.firstTime, input.lastTime))
                            )
                        }))
            ),
            .if(
                !content.mappedSources.isEmpty,
                .group(
                    .p(.escapedText("Logs read through a mapping, every record accounted for:")),
                    .ul(
                        .group(
                            content.mappedSources.map { source in .li(.code(.escapedText(source.path)), .escapedText(": " + source.text)) })
                    )
                )),
            .if(
                report.earliest == nil,
                .p(.class("muted"), .escapedText("No events were read.")),
                else: .p(.escapedText("The events cover "), window(report.earliest, report.latest, inline: true), .escapedText(" (UTC)."))),
            .h3(.escapedText("Rule pack")),
            .p(
                .escapedText(
                    AuditReportContent.counted(report.rules.count, "rule") + " from "
                        + AuditReportContent.counted(report.ruleFiles.count, "file") + "; SHA-256 of the pack: "),
                .code(.class("hash"), .escapedText(report.rulePackSHA256))),
            .table(
                .headerRow(["File", "SHA-256", "Rules"]),
                .tbody(
                    .group(
                        report.ruleFiles.map { file in
                            .tr(
                                .pathCell(file.path), .hashCell(file.sha256),
                                .td(
                                    .group(
                                        file.rules.enumerated().map { index, rule in
                                            .group(.if(index > 0, .escapedText(", ")), .codeText(rule))
                                        })))
                        }))
            ),
            .h3(.escapedText("Apps")),
            appsTable()
        )
    }

    private func appsTable() -> Node<HTML.BodyContext> {
        guard !report.apps.isEmpty else { return .p(.class("muted"), .escapedText("No app appears in the data or the manifest.")) }
        return .table(
            .headerRow(["App", "Creates accounts", "In manifest", "Exported accounts"], numeric: [3]),
            .tbody(
                .group(
                    report.apps.map { app in
                        .tr(
                            .td(.appName(app.bundleId)), .cell(app.createsAccounts ? "yes" : "no"), .cell(app.inManifest ? "yes" : "no"),
                            .numberCell(app.accounts))
                    }))
        )
    }

    /// First and last event time, on two lines in a table, or on one line in a sentence.
    func window(_ first: Timestamp?, _ last: Timestamp?, inline: Bool = false) -> Node<HTML.BodyContext> {
        switch (first, last) {
        case (let first?, let last?) where first != last:
            return inline
                ? .group(.codeText(first.description), .escapedText(" to "), .codeText(last.description))
                : .group(.codeText(first.description), .br(), .escapedText("to "), .codeText(last.description))
        case (let only?, _), (nil, let only?):
            return .codeText(only.description)
        case (nil, nil):
            return .missing(inline ? "no events" : "—")
        }
    }
}
