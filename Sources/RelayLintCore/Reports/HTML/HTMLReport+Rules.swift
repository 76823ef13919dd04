import Plot

/// One section per rule, in the order of the rule pack: what the rule checks and why, where its
/// requirement comes from, how often it was checked, and every finding with its evidence.
extension HTMLReport {
    func ruleSection(_ section: AuditReportContent.RuleSection) -> Node<HTML.BodyContext> {
        let rule = section.rule
        return .section(
            .class("rule"),
            .id("rule-\(section.number)"),
            .header(
                .p(.class("kicker"), .escapedText("Rule \(section.number) of \(content.sections.count)")),
                .h2(.escapedText(rule.title)),
                .p(
                    .class("rule-meta"), .code(.escapedText(rule.id)), .badge(rule.severity),
                    .escapedText(" \(rule.scope.rawValue) rule, defined at "), .codeText(rule.location.description))
            ),
            .table(
                .class("facts"),
                .tbody(
                    .if(!rule.description.isEmpty, .fact("What it checks", .div(.class("prose"), .escapedText(rule.description)))),
                    .if(!rule.rationale.isEmpty, .fact("Why", .div(.class("prose"), .escapedText(rule.rationale)))),
                    .fact(rule.scope == .app ? "Applies to" : "Fires on", text: content.appliesTo(rule)),
                    .fact("Requires", text: content.requirement(rule)),
                    .if(
                        !rule.parameters.isEmpty,
                        .fact(
                            "Parameters",
                            .ul(
                                .group(
                                    rule.parameters.map {
                                        .li(.code(.escapedText(content.parameter($0))))
                                    })))),
                    .fact(
                        "Controls",
                        rule.controls.isEmpty ? .missing("none listed") : .ul(.group(rule.controls.map { .li(.escapedText($0)) }))),
                    .fact("References", rule.references.isEmpty ? .missing("none listed") : .ul(.group(rule.references.map(reference)))),
                    .fact("Coverage", text: content.coverage(of: section.outcome)),
                    .fact("Rule file SHA-256", .code(.class("hash"), .escapedText(rule.fileSHA256)))
                )
            ),
            .h3(.escapedText(findingsHeading(section.findings))),
            findingList(section.findings, passing: section.outcome, number: section.number)
        )
    }

    /// Findings of rules that `report.rules` does not describe; normally absent.
    func otherFindingsSection() -> Node<HTML.BodyContext> {
        guard !content.otherFindings.isEmpty else { return .empty }
        return .section(
            .class("rule"),
            .id("other-findings"),
            .h2(.escapedText("Findings of other rules")),
            .p(.escapedText("These findings name rules that the report does not describe.")),
            findingList(content.otherFindings, passing: nil, number: 0)
        )
    }

    /// `Findings (4)`, `Findings (4, 1 suppressed)`.
    private func findingsHeading(_ findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "Findings" }
        let suppressed = findings.filter { $0.suppression != nil }.count
        return "Findings (\(findings.count)" + (suppressed > 0 ? ", \(suppressed) suppressed)" : ")")
    }

    /// The findings of the rule section `number` (0: of other rules), or a placeholder for them
    /// when `holdsFindingsOut` (`HTMLReporter` writes them into its place a batch at a time).
    private func findingList(_ findings: [Finding], passing outcome: LintReport.RuleOutcome?, number: Int) -> Node<HTML.BodyContext> {
        guard !findings.isEmpty else {
            return .p(.class("muted"), .escapedText("No findings" + (outcome.map { ": " + content.coverage(of: $0) + "." } ?? ".")))
        }
        if holdsFindingsOut { return .element(named: Self.placeholder(ofList: number)) }
        return .group(
            findings.enumerated().map { index, finding in
                self.finding(finding, number: index + 1, of: findings.count, rule: outcome?.rule)
            })
    }

    /// The name of the empty element that stands for a list of findings held out.
    static func placeholder(ofList number: Int) -> String { "relaylint-findings-\(number)" }

    /// The lists of findings in the order the document holds them: each rule section's (by its
    /// number), then those of other rules (0).
    var findingLists: [(number: Int, findings: [Finding], rule: Rule?)] {
        content.sections.filter { !$0.findings.isEmpty }.map { ($0.number, $0.findings, $0.rule) }
            + (content.otherFindings.isEmpty ? [] : [(0, content.otherFindings, nil)])
    }

    func finding(_ finding: Finding, number: Int, of count: Int, rule: Rule?) -> Node<HTML.BodyContext> {
        .article(
            .class("finding " + finding.severity.rawValue + (finding.suppression == nil ? "" : " suppressed")),
            .h4(
                .badge(finding.severity),
                .if(finding.suppression != nil, .span(.class("badge suppressed"), .escapedText("suppressed"))),
                .escapedText(" Finding \(number) of \(count)")),
            .p(.class("message"), .escapedText(finding.message)),
            .unwrap(finding.suppression) { suppression in
                .p(
                    .class("acceptance"), .strong(.escapedText("Suppressed: ")),
                    .escapedText(content.acceptance(suppression)))
            },
            .dl(
                .class("finding-facts"),
                .dt(.escapedText("Subject")), .dd(rule?.scope == .app ? .appName(finding.subject) : .codeText(finding.subject)),
                .dt(.escapedText("App")), .dd(.appName(finding.app)),
                .dt(.escapedText("Event")), .dd(finding.event.map { .codeText($0) } ?? .missing(AuditReportContent.noEvent(rule))),
                .dt(.escapedText("Time")), .dd(finding.time.map { .codeText($0.description) } ?? .missing("—")),
                .dt(.escapedText("Location")), .dd(finding.location.map { .codeText($0.description) } ?? .missing("—")),
                .dt(.escapedText("Fingerprint")), .dd(.codeText(finding.fingerprint)),
                .dt(.escapedText("Expected")), .dd(.class("wide"), .escapedText(finding.expected))
            ),
            .if(!finding.evidence.isEmpty, evidenceTable(finding.evidence))
        )
    }

    /// The evidence as a small timeline, the firing event highlighted.
    private func evidenceTable(_ evidence: [Evidence]) -> Node<HTML.BodyContext> {
        .table(
            .class("evidence"),
            .caption(.escapedText("Evidence timeline")),
            .headerRow(["Time", "Event", "Type", "Role", "Note", "File:line"]),
            .tbody(
                .group(
                    evidence.map { item in
                        .tr(
                            .if(item.role == .trigger, .class("trigger")),
                            .td(.class("nowrap"), .codeText(item.time.description)),
                            .identifierCell(item.event),
                            .identifierCell(item.type),
                            .cell(item.role.rawValue),
                            .cell(item.note ?? ""),
                            .pathCell(item.location.description)
                        )
                    }))
        )
    }

    /// A reference as a link when its URL is http(s), otherwise as text with the URL shown.
    private func reference(_ reference: Rule.Reference) -> Node<HTML.ListContext> {
        if let url = HTMLEscaping.linkableURL(reference.url) {
            return .li(
                .a(
                    .class("external"), .escapedAttribute(named: "href", value: url),
                    .escapedAttribute(named: "rel", value: "noopener noreferrer"), .escapedText(reference.title)))
        }
        guard let url = reference.url else { return .li(.escapedText(reference.title)) }
        return .li(
            .escapedText(reference.title + " "), .span(.class("muted"), .escapedText("(not linked: ")),
            .codeText(url), .span(.class("muted"), .escapedText(")")))
    }
}
