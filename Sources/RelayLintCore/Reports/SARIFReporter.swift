import Foundation

/// SARIF 2.1.0, shaped as GitHub code scanning reads it, so findings become alerts on the pull
/// request that changed the logs, with the rule's help beside them.
///
/// Valid against the OASIS schema (`Scripts/validate-sarif.py` checks it) and within code
/// scanning's limits: at most 25,000 results per run (more are cut, in report order, and the run
/// says so), at most 10 tags per rule (the number code scanning shows) and 100 related locations
/// per result. Alerts are matched across runs by the finding's own stable fingerprint, given as
/// `partialFingerprints.primaryLocationLineHash`, so an alert survives edits to the log around
/// it. Every rule of the run is listed, also those without results, so that code scanning closes
/// the alerts of a rule that no longer fires. Findings a suppression accepts are left out:
/// code scanning ignores SARIF `suppressions` and would open alerts for them (the JSON, Markdown
/// and HTML reports keep them in their suppression register). Output is deterministic: no times,
/// sorted keys.
public struct SARIFReporter: Reporter {
    /// Code scanning rejects a run with more results than this.
    static let maximumResults = 25_000
    /// Code scanning keeps at most this many locations of a result.
    static let maximumRelatedLocations = 100
    /// Code scanning shows at most this many tags of a rule.
    static let maximumTags = 10
    /// Skipped records and data-quality notes listed as notifications; the JSON report has all.
    static let maximumNotifications = 100

    let resultLimit: Int

    public init() { self.init(resultLimit: SARIFReporter.maximumResults) }

    /// A lower limit lets tests exercise the cut without 25,000 findings.
    init(resultLimit: Int) { self.resultLimit = resultLimit }

    public var identifier: String { "sarif" }
    public var fileExtension: String { "sarif" }
    public var summary: String { "SARIF 2.1.0, for GitHub code scanning and other SARIF viewers" }

    public func render(_ report: LintReport, options: ReportOptions) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try! encoder.encode(log(report))
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The SARIF document for a report.
    func log(_ report: LintReport) -> SARIFLog {
        var artifactIndex: [String: Int] = [:]
        for (index, input) in report.inputs.enumerated() where artifactIndex[input.path] == nil {
            artifactIndex[input.path] = index
        }
        var ruleIndex: [String: Int] = [:]
        for (index, outcome) in report.rules.enumerated() where ruleIndex[outcome.rule.id] == nil {
            ruleIndex[outcome.rule.id] = index
        }
        func location(_ source: SourceLocation, id: Int? = nil, message: String? = nil) -> SARIFLog.Location {
            SARIFLog.Location(
                id: id,
                physicalLocation: SARIFLog.PhysicalLocation(
                    artifactLocation: SARIFLog.ArtifactLocation(path: source.file, index: artifactIndex[source.file]),
                    region: source.line >= 1 ? SARIFLog.Region(startLine: source.line) : nil),
                message: message.map { SARIFLog.Message(plain: $0) })
        }
        // Code scanning shows no alert without a location: an app finding that has none (no
        // manifest, no log) points at the first input file as a whole.
        let fallback = report.inputs.first.map { SourceLocation(file: $0.path) }

        let active = report.activeFindings
        let kept = active.prefix(resultLimit)
        let results = kept.map { finding -> SARIFLog.Result in
            let related = finding.evidence.filter { $0.role != .trigger }
            let shown = related.prefix(Self.maximumRelatedLocations)
            return SARIFLog.Result(
                ruleId: finding.rule,
                ruleIndex: ruleIndex[finding.rule],
                level: finding.severity.rawValue,
                message: SARIFLog.Message(plain: finding.message),
                locations: (finding.location ?? fallback).map { [location($0)] },
                partialFingerprints: ["primaryLocationLineHash": finding.fingerprint],
                relatedLocations: shown.isEmpty
                    ? nil
                    : shown.enumerated().map { offset, item in
                        location(item.location, id: offset + 1, message: Self.describe(item))
                    },
                properties: SARIFLog.ResultProperties(
                    subject: finding.subject, app: finding.app, event: finding.event, time: finding.time?.description,
                    omittedEvidence: related.count > shown.count ? related.count - shown.count : nil))
        }

        let truncated = active.count > kept.count
        let truncation =
            truncated
            ? "\(Plural.counted(active.count, "finding")), of which the first \(kept.count) in report order are results of this run "
                + "(code scanning accepts at most \(Self.maximumResults) per run); the JSON report has all of them"
            : nil
        var notifications: [SARIFLog.Notification] = []
        if let truncation { notifications.append(SARIFLog.Notification(level: "warning", message: SARIFLog.Message(plain: truncation))) }
        /// - Parameter count: how many there were, when more than `diagnostics` lists.
        func list(_ diagnostics: [Diagnostic], count: Int? = nil, what: String) {
            let shown = diagnostics.prefix(Self.maximumNotifications)
            for diagnostic in shown {
                notifications.append(
                    SARIFLog.Notification(
                        level: diagnostic.severity.rawValue, message: SARIFLog.Message(plain: diagnostic.message),
                        locations: [location(diagnostic.location)]))
            }
            if let more = AuditReportContent.remainder(
                of: count ?? diagnostics.count, shown: shown.count, listed: diagnostics.count, what: what)
            {
                notifications.append(SARIFLog.Notification(level: "note", message: SARIFLog.Message(plain: more)))
            }
        }
        for outcome in report.expiredSuppressions {
            notifications.append(
                SARIFLog.Notification(
                    level: "warning",
                    message: SARIFLog.Message(
                        plain: "suppression of \(outcome.suppression.reportTarget) expired on "
                            + "\(outcome.suppression.expires): it no longer applies"),
                    locations: [location(outcome.suppression.location)]))
        }
        let invalid = AuditReportContent.invalidRecords(of: report)
        list(invalid.listed, count: invalid.count, what: "skipped records (--skip-invalid)")
        let notes = AuditReportContent.notes(of: report)
        list(notes.listed, count: notes.count, what: "data-quality notes")

        let summary = report.summary
        let run = SARIFLog.Run(
            tool: SARIFLog.Tool(
                driver: SARIFLog.ToolComponent(
                    name: report.tool.name, version: report.tool.version, semanticVersion: report.tool.version,
                    informationUri: report.tool.informationURI, rules: report.rules.map { Self.descriptor($0.rule) })),
            invocations: [
                SARIFLog.Invocation(
                    executionSuccessful: true,
                    toolExecutionNotifications: notifications.isEmpty ? nil : notifications)
            ],
            artifacts: report.inputs.map(Self.artifact),
            results: Array(results),
            properties: SARIFLog.RunProperties(
                findings: active.count, results: kept.count, suppressed: summary.suppressed, truncated: truncated,
                truncation: truncation,
                subjects: summary.subjects, events: summary.events, accounts: summary.accounts,
                duplicates: summary.duplicates, skippedRecords: summary.skippedRecords, pending: summary.pending,
                rulePackSHA256: report.rulePackSHA256))
        return SARIFLog(runs: [run])
    }

    /// A rule as code scanning shows it: title, description, and help that says why (the
    /// rationale), which requirements it checks, and where they are written.
    static func descriptor(_ rule: Rule) -> SARIFLog.ReportingDescriptor {
        var text: [String] = [rule.description.isEmpty ? rule.title : rule.description]
        var markdown = [GitHubMarkdown.escape(text[0])]
        if !rule.rationale.isEmpty {
            text.append("Why: " + rule.rationale)
            markdown.append("**Why:** " + GitHubMarkdown.escape(rule.rationale))
        }
        if !rule.controls.isEmpty {
            text.append("Controls: " + rule.controls.joined(separator: "; "))
            markdown.append("**Controls:** " + rule.controls.map(GitHubMarkdown.escape).joined(separator: "; "))
        }
        if !rule.references.isEmpty {
            text.append(
                "References:\n" + rule.references.map { "- " + $0.title + ($0.url.map { " <\($0)>" } ?? "") }.joined(separator: "\n"))
            markdown.append(
                "**References:**\n\n"
                    + rule.references.map { "- " + GitHubMarkdown.link(title: $0.title, url: $0.url) }
                    .joined(separator: "\n"))
        }
        var tags = ["privacy", "sign-in-with-apple", "compliance"]
        for control in rule.controls where !tags.contains(control) { tags.append(control) }
        return SARIFLog.ReportingDescriptor(
            id: rule.id,
            name: upperCamelCase(rule.id),
            // Plain text: SARIF viewers show a rule's descriptions and help text as they are,
            // never as Markdown or HTML; only `help.markdown` is rendered, and it is escaped.
            shortDescription: SARIFLog.MultiformatMessageString(text: rule.title),
            fullDescription: SARIFLog.MultiformatMessageString(text: text[0]),
            help: SARIFLog.MultiformatMessageString(text: text.joined(separator: "\n\n"), markdown: markdown.joined(separator: "\n\n")),
            helpUri: rule.references.lazy.compactMap { ReportURI.webURL($0.url) }.first,
            defaultConfiguration: SARIFLog.ReportingConfiguration(level: rule.severity.rawValue),
            // Findings are read off recorded events, not guessed from code, hence `high`
            // precision. No `security-severity`: these are privacy-compliance findings, and
            // code scanning would list them among security vulnerabilities.
            properties: SARIFLog.RuleProperties(
                tags: Array(tags.prefix(maximumTags)), precision: "high",
                problemSeverity: problemSeverity(rule.severity)))
    }

    /// An input file with the hash a reviewer needs to know exactly what was checked.
    static func artifact(_ input: InputFileSummary) -> SARIFLog.Artifact {
        SARIFLog.Artifact(
            location: SARIFLog.ArtifactLocation(path: input.path, index: nil),
            roles: [input.kind == .manifest || input.kind == .config ? "userSpecifiedConfiguration" : "analysisTarget"],
            hashes: input.sha256.isEmpty ? nil : ["sha-256": input.sha256],
            properties: SARIFLog.ArtifactProperties(
                kind: input.kind.rawValue, records: input.records, format: input.format, eventsMade: input.eventsMade,
                skippedRecords: input.format == nil ? nil : input.skippedRecords, verifiedSignatures: input.verifiedSignatures))
    }

    /// `consent-before-email-link` → `ConsentBeforeEmailLink`, the rule name SARIF viewers show.
    static func upperCamelCase(_ id: String) -> String {
        id.split { !$0.isLetter && !$0.isNumber }.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// Code scanning's own scale for non-security alerts.
    static func problemSeverity(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "recommendation"
        }
    }

    /// `boundary: signin evt-0076 at 2026-04-16T12:10:04Z: the search starts after this event`.
    static func describe(_ evidence: Evidence) -> String {
        "\(evidence.role.rawValue): \(evidence.type) \(evidence.event) at \(evidence.time)" + (evidence.note.map { ": \($0)" } ?? "")
    }
}
