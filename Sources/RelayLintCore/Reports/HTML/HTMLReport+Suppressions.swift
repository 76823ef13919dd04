import Plot

/// The suppression register: every accepted finding is a team's decision, and a reviewer signs
/// for those decisions too, so each suppression is listed with who made it, why, until when, and
/// how it fared in this run (active, expired, or matching nothing any more).
extension HTMLReport {
    func suppressionsSection() -> Node<HTML.BodyContext> {
        let suppressions = report.suppressions
        return .section(
            .class("appendix"),
            .id("suppressions"),
            .h2(.escapedText(suppressions.isEmpty ? "Suppressions" : "Suppressions (\(suppressions.count))")),
            .if(
                suppressions.isEmpty,
                .p(.class("muted"), .escapedText("No suppressions: every finding in this report counts.")),
                else: .table(
                    .class("suppressions"),
                    .headerRow(["Accepts", "Status", "Author", "Expires", "Defined at"]),
                    .group(
                        suppressions.map { outcome in
                            let suppression = outcome.suppression
                            // One body per suppression, so that its justification stays with it on a page.
                            return .tbody(
                                .tr(
                                    .pathCell(AuditReportContent.target(of: suppression)),
                                    .td(
                                        .span(
                                            .class("badge " + HTMLReport.statusClass(outcome.status)), .escapedText(outcome.status.rawValue)
                                        ),
                                        .escapedText(" " + AuditReportContent.statusDetail(of: outcome))),
                                    .cell(suppression.author),
                                    .td(.class("nowrap"), .escapedText(suppression.expires)),
                                    .pathCell(suppression.location.description)
                                ),
                                .tr(
                                    .class("justification"),
                                    .td(
                                        .escapedAttribute(named: "colspan", value: "5"),
                                        .strong(.escapedText("Justification: ")), .escapedText(content.justification(of: suppression))))
                            )
                        })
                ))
        )
    }

    /// Expired suppressions apply no more and want renewing, stale ones want removing, active
    /// ones are fine.
    static func statusClass(_ status: SuppressionOutcome.Status) -> String {
        switch status {
        case .active: "pass"
        case .expired: "warning"
        case .stale: "warning"
        }
    }
}
