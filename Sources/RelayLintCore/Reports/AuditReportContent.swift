/// What the two audit formats (HTML and Markdown) say about a run, worked out once so that a
/// reviewer who reads one and a colleague who reads the other see the same facts in the same
/// order and the same words.
struct AuditReportContent {
    /// One rule as its section shows it.
    struct RuleSection {
        /// 1-based, in the order of `LintReport.rules`. The HTML anchors (`rule-N`) use it, so no
        /// text from a rule file ever ends up in an `id`.
        var number: Int
        var outcome: LintReport.RuleOutcome
        /// In report order, suppressed ones included (they are marked).
        var findings: [Finding]

        var rule: Rule { outcome.rule }
        /// The findings no suppression accepts.
        var active: [Finding] { findings.filter { $0.suppression == nil } }
    }

    /// Printed for a reviewer or date that was not given: reports never read the clock.
    static let notGiven = "not given"
    /// The appendix of records `--skip-invalid` skipped. Named for invalid records only: the
    /// records a log mapping skips on purpose (not an account change, a failed call) are counted
    /// by reason in the scope, and "no records were skipped" above them read as a false claim.
    static let invalidRecordsTitle = "Invalid records skipped"
    static let noInvalidRecords =
        "No invalid records: every record of every input was valid. Records a log mapping skips on purpose are counted by reason in the scope."
    static let invalidRecordsIntro = "These records were invalid and skipped (--skip-invalid); the rules did not see them."

    /// Notes and skipped records listed one by one up to this many; the JSON report has all
    /// that were listed.
    static let listLimit = 200

    /// The data-quality notes the report lists, and how many there were: a run lists its first
    /// 400 and counts the rest in a last note, which a list that shows fewer would leave out.
    static func notes(of report: LintReport) -> (listed: [Diagnostic], count: Int) {
        guard let last = report.notes.last, let unlisted = DatasetBuilder.unlistedNotes(in: last) else {
            return (report.notes, report.notes.count)
        }
        return (Array(report.notes.dropLast()), report.notes.count - 1 + unlisted)
    }

    /// The invalid records the report lists (the first ones), and how many were skipped.
    static func invalidRecords(of report: LintReport) -> (listed: [Diagnostic], count: Int) {
        (InvalidRecordList.split(report.skipped).listed, report.summary.skippedRecords)
    }

    /// How a list that shows `shown` of `count` records, of which the JSON report lists `listed`,
    /// ends: how many more there were and where to find them; nil when all are shown.
    static func remainder(of count: Int, shown: Int, listed: Int, what: String = "") -> String? {
        let rest = count - shown
        guard rest > 0 else { return nil }
        let more = "\(rest) more" + (what.isEmpty ? "" : " " + what)
        let inJSON = listed - shown
        return inJSON == rest ? more + " in the JSON report" : more + "; the JSON report lists \(inJSON) of them"
    }

    /// The first `listLimit` of `diagnostics`, out of `count`, and the line that says how many
    /// more there were and where they are listed; nil when all are shown.
    static func shown(_ diagnostics: [Diagnostic], of count: Int) -> (shown: ArraySlice<Diagnostic>, more: String?) {
        let shown = diagnostics.prefix(listLimit)
        let rest = count - shown.count
        let inJSON = diagnostics.count - shown.count
        guard rest > 0 else { return (shown, nil) }
        if inJSON == rest { return (shown, "… and \(rest) more, listed in the JSON report (--format json).") }
        return (shown, "… and \(rest) more; the JSON report (--format json) lists \(inJSON) of them.")
    }
    /// Most serious first, as every table and count lists them.
    static let severities: [Severity] = [.error, .warning, .note]

    let report: LintReport
    let options: ReportOptions
    let sections: [RuleSection]
    /// Findings of rules that `report.rules` does not describe (none in a normal run); listed so
    /// that no finding is ever left out of a signed report.
    let otherFindings: [Finding]
    let histogram: EventHistogram

    init(report: LintReport, options: ReportOptions) {
        self.report = report
        self.options = options
        var sections: [RuleSection] = []
        var described: Set<String> = []
        for (index, outcome) in report.rules.enumerated() {
            described.insert(outcome.rule.id)
            sections.append(
                RuleSection(
                    number: index + 1, outcome: outcome,
                    findings: report.findings.filter { $0.rule == outcome.rule.id }))
        }
        self.sections = sections
        self.otherFindings = report.findings.filter { !described.contains($0.rule) }
        self.histogram = EventHistogram(eventsPerDay: report.eventsPerDay)
    }

    // MARK: Header

    /// Masked as the reviewer is: a title may name the person the audit is for.
    var title: String {
        options.title.isEmpty ? ReportOptions().title : PIIMasker(isEnabled: !report.showsPII).mask(options.title)
    }
    /// Masked like a suppression's author (contract §6): a reviewer often signs with an
    /// address, and the report is forwarded.
    var reviewer: String { AuditReportContent.given(options.reviewer.map(PIIMasker(isEnabled: !report.showsPII).mask)) }
    var date: String { AuditReportContent.given(options.date) }
    var tool: String { "\(report.tool.name) \(report.tool.version)" }

    /// `12 findings: 12 errors, 0 warnings, 0 notes`, or `no findings`, counting the findings no
    /// suppression accepts; then the suppressed, baselined and expired-suppression counts that
    /// are not zero.
    var result: String {
        let findings = report.activeFindings
        var text =
            findings.isEmpty
            ? "no findings"
            : AuditReportContent.counted(findings.count, "finding") + ": "
                + AuditReportContent.severities.map { AuditReportContent.counted(count(of: $0, in: findings), $0.rawValue) }
                .joined(separator: ", ")
        let suppressed = report.findings.count - findings.count
        if suppressed > 0 { text += "; \(suppressed) suppressed" }
        if report.summary.baselined > 0 { text += "; \(report.summary.baselined) in the baseline not shown" }
        let expired = report.expiredSuppressions.count
        if expired > 0 { text += "; " + AuditReportContent.counted(expired, "expired suppression") }
        return text
    }

    /// Whether the report can be forwarded (contract §6).
    var personalData: String {
        report.showsPII
            ? "shown unmasked (--show-pii): email addresses and phone numbers appear as they are in the inputs; "
                + "share this report only with people allowed to see them"
            : "masked: email addresses and phone numbers are shortened (j•••@example.com, +1•••••••67); "
                + "subject ids are shown as they are, unless one is itself an address or a number"
    }

    /// The span of all events read, or a sentence saying there were none.
    var timeWindow: String { AuditReportContent.window(report.earliest, report.latest) }

    /// The summary's opening sentence, in two parts: the result (set in bold) and the scope.
    var resultSentence: (lead: String, rest: String) {
        (
            result.prefix(1).uppercased() + result.dropFirst(),
            " from " + AuditReportContent.counted(report.rules.count, "rule") + " over "
                + AuditReportContent.counted(report.summary.subjects, "subject") + " and "
                + AuditReportContent.counted(report.summary.events, "event") + "."
        )
    }

    // MARK: Counts

    /// One row of the findings-by-rule table and chart.
    struct RuleTotal {
        var id: String
        /// The rule's section, when the report describes the rule.
        var number: Int?
        var title: String
        var severity: Severity
        /// The findings no suppression accepts.
        var findings: [Finding]
        var suppressed: Int
    }

    /// Findings per rule: every described rule in order, then any other rule with findings.
    var ruleTotals: [RuleTotal] {
        var rows = sections.map {
            RuleTotal(
                id: $0.rule.id, number: $0.number, title: $0.rule.title, severity: $0.rule.severity, findings: $0.active,
                suppressed: $0.findings.count - $0.active.count)
        }
        var others: [String] = []
        for finding in otherFindings where !others.contains(finding.rule) { others.append(finding.rule) }
        for id in others {
            let findings = otherFindings.filter { $0.rule == id }
            let active = findings.filter { $0.suppression == nil }
            rows.append(
                RuleTotal(
                    id: id, number: nil, title: "(not described in this report)",
                    severity: findings.map(\.severity).max() ?? .note, findings: active,
                    suppressed: findings.count - active.count))
        }
        return rows
    }

    func count(of severity: Severity, in findings: [Finding]) -> Int {
        findings.lazy.filter { $0.severity == severity }.count
    }

    /// `9 events checked, 4 in violation, 5 compliant`, plus the pending checks when there are
    /// any. The unit is the rule's scope: subject rules check firing events, app rules apps.
    /// Rules that describe their checks (`coverage:` in the rule file) are counted in their words:
    /// `9 links to an anonymized Apple ID checked, 5 with prior consent, 4 in violation`.
    func coverage(of outcome: LintReport.RuleOutcome) -> String {
        var text: String
        if let coverage = outcome.rule.coverage {
            text =
                "\(outcome.checked) \(coverage.unit) checked, \(AuditReportContent.compliant(outcome)) \(coverage.compliant), "
                + "\(outcome.violated) in violation"
        } else {
            let unit = outcome.rule.scope == .app ? "app" : "event"
            text =
                AuditReportContent.counted(outcome.checked, unit) + " checked, \(outcome.violated) in violation, "
                + "\(AuditReportContent.compliant(outcome)) compliant"
        }
        if outcome.pending > 0 { text += ", \(outcome.pending) pending (window still open)" }
        return text
    }

    /// Checks decided and passed: neither violated nor pending.
    static func compliant(_ outcome: LintReport.RuleOutcome) -> Int {
        max(0, outcome.checked - outcome.violated - outcome.pending)
    }

    /// The share of decided checks in violation, to one decimal (`44.4 %`), computed in integers
    /// so that every platform prints the same digits; `—` when nothing was decided.
    static func violationRate(_ outcome: LintReport.RuleOutcome) -> String {
        let decided = outcome.checked - outcome.pending
        guard decided > 0 else { return "—" }
        // In full width: a merged count times 1000 can pass Int.max (no real run gets there, a
        // forged partial did, and the multiplication trapped).
        let violated = min(outcome.violated, decided)
        let product = violated.multipliedFullWidth(by: 1000)
        let (low, carry) = product.low.addingReportingOverflow(UInt(decided / 2))
        let tenths = decided.dividingFullWidth((product.high + (carry ? 1 : 0), low)).quotient
        return "\(tenths / 10).\(tenths % 10) %"
    }

    // MARK: Rule texts

    /// What makes the rule look at an event or an app.
    func appliesTo(_ rule: Rule) -> String {
        switch rule.scope {
        case .subject:
            if let account = rule.accountTrigger { return masker.mask("each exported account where " + account.summary) }
            return masker.mask(rule.trigger?.summary ?? "any event")
        case .app:
            var text = "every app"
            if let creates = rule.appCondition?.createsAccounts { text += creates ? " that creates accounts" : " that creates no accounts" }
            return text
        }
    }

    func requirement(_ rule: Rule) -> String { masker.mask(RuleExplanation.summary(of: rule.requirement)) }

    /// `window: 14d (default 30d)`, `stores: [firestore]`: the values the run used.
    func parameter(_ parameter: Rule.Parameter) -> String {
        masker.mask(
            parameter.name + ": " + parameter.value.displayText
                + (parameter.value == parameter.defaultValue ? "" : " (default " + parameter.defaultValue.displayText + ")"))
    }

    /// What a rule's requirement and parameters show is masked as a finding's `expected` is: a
    /// parameter set in the configuration may list addresses (the masked finding beside its
    /// rule's unmasked requirement showed them).
    private var masker: PIIMasker { PIIMasker(isEnabled: !report.showsPII) }

    /// What a finding without a firing event is about.
    static func noEvent(_ rule: Rule?) -> String {
        switch (rule?.scope, rule?.accountTrigger) {
        case (.app?, _): "none (app-level finding)"
        case (_, .some): "none (fired by the exported account)"
        default: "none"
        }
    }

    // MARK: Suppressions

    /// What a suppression accepts: `fingerprint 6cbe…`, or `rule-id for subject`.
    static func target(of suppression: Suppression) -> String {
        suppression.fingerprint.map { "fingerprint " + $0 }
            ?? (suppression.rule ?? "any rule") + (suppression.subject.map { " for " + $0 } ?? "")
    }

    /// How a suppression fared, after its status word: `1 finding accepted`.
    static func statusDetail(of outcome: SuppressionOutcome) -> String {
        switch outcome.status {
        case .active: counted(outcome.matched, "finding") + " accepted"
        case .expired: "after \(outcome.suppression.expires): no longer applied"
        case .stale: "matches no finding any more"
        }
    }

    /// How a suppression fared, in words: `active: 1 finding accepted`.
    static func status(of outcome: SuppressionOutcome) -> String {
        outcome.status.rawValue + ": " + statusDetail(of: outcome)
    }

    /// A suppression's justification. It is free text from the configuration and may quote a
    /// user's address or number, so it is masked like the findings' messages (contract §6)
    /// unless the run shows PII. The author stays as written: the point of the register is who
    /// accepted the finding.
    func justification(of suppression: Suppression) -> String {
        report.showsPII ? suppression.justification : PIIMasker().maskText(suppression.justification)
    }

    /// `accepted by jane@example.com until 2026-09-30 (.relaylint.yml:12): justification`.
    func acceptance(_ suppression: Suppression) -> String {
        "accepted by \(suppression.author) until \(suppression.expires) (\(suppression.location)): " + justification(of: suppression)
    }

    // MARK: Wording

    /// `Error`, `Warning`, `Note`: column titles.
    static func title(of severity: Severity) -> String {
        severity.rawValue.prefix(1).uppercased() + severity.rawValue.dropFirst()
    }

    /// `1 finding`, `2 findings`.
    static func counted(_ count: Int, _ noun: String) -> String { Plural.counted(count, noun) }

    static func window(_ first: Timestamp?, _ last: Timestamp?) -> String {
        switch (first, last) {
        case (let first?, let last?): "\(first) to \(last)"
        case (let only?, nil), (nil, let only?): only.description
        case (nil, nil): "no events"
        }
    }

    static func given(_ value: String?) -> String {
        guard let value, !value.allSatisfy(\.isWhitespace) else { return notGiven }
        return value
    }

    /// How the histogram's period is named in headings and captions.
    var histogramTitle: String {
        switch histogram.period {
        case .day: "Events per day (UTC)"
        case .week: "Events per week (weeks start on Monday, UTC)"
        case .month: "Events per month (UTC)"
        case .year: "Events per year (UTC)"
        }
    }

    /// One line per log read through a mapping: its format, what its records became, and the
    /// records skipped by reason, so that a reviewer sees every record of Google's and Apple's
    /// files accounted for.
    var mappedSources: [(path: String, text: String)] { Self.mappedSources(of: report) }

    /// The same lines for any report (the text report lists them too).
    static func mappedSources(of report: LintReport) -> [(path: String, text: String)] {
        report.inputs.compactMap { input in
            guard let format = input.format, input.kind == .events else { return nil }
            var text =
                "\(format): " + AuditReportContent.counted(input.records, "record") + " read, "
                + AuditReportContent.counted(input.eventsMade ?? 0, "event") + " made"
            if input.invalid > 0 { text += ", \(input.invalid) invalid" }
            for skipped in input.skippedRecords {
                text += ", \(skipped.count) skipped (\(skipped.reason)\(skipped.detail.map { ": " + $0 } ?? ""))"
            }
            if let tokens = input.signedTokens {
                text +=
                    input.verifiedSignatures.map { "; \($0) of \(tokens) signatures verified" }
                    ?? "; \(tokens) signatures not verified (no --apple-keys)"
            }
            return (input.path, text)
        }
    }
}
