/// The machine-readable report of contract §5 (version 1): stable key order, sorted findings,
/// no timestamps of its own, so the same inputs give byte-identical output.
public struct JSONReporter: Reporter {
    public init() {}
    public var identifier: String { "json" }
    public var fileExtension: String { "json" }
    public var summary: String { "JSON report (contract version 1), for pipelines" }

    public func render(_ report: LintReport, options: ReportOptions) -> String {
        JSONReporter.text(of: JSONReportDocument(report))
    }

    /// The bytes of `render`, handed over as they are made instead of held.
    public func write(_ report: LintReport, options: ReportOptions, to sink: (UnsafeRawBufferPointer) -> Void) {
        let document = JSONReportDocument(report, withFindings: false)
        withoutActuallyEscaping(sink) { sink in
            var writer = PrettyJSONWriter { sink(UnsafeRawBufferPointer($0)) }
            document.write(to: &writer) { json in
                json.array(report.findings, parallelism: options.parallelism) { JSONReportDocument.FindingEntry($1).write(to: &$0) }
            }
            writer.finishLine()
        }
    }

    /// The report's text, for `check` and `merge` alike (`JSONReportDocument.write(to:)` decides
    /// its bytes, for `write` too).
    static func text(of document: JSONReportDocument) -> String {
        // Generous on purpose: a finding takes ~1.2 KB, and outgrowing the buffer copies it into
        // one twice as large, while reserved pages that are never written cost no memory.
        var writer = PrettyJSONWriter(capacity: 4096 + document.findings.count * 2048)
        document.write(to: &writer)
        writer.finishLine()
        return writer.text
    }
}

/// The Codable shape of the JSON report.
struct JSONReportDocument: Codable, Equatable {
    struct Input: Codable, Equatable {
        var path: String
        var kind: String
        var sha256: String
        var records: Int
        var invalid: Int
        var duplicates: Int
        var firstTime: String?
        var lastTime: String?
        /// The mapping a log was read through (absent for relaylint events and other inputs).
        var format: String?
        var eventsMade: Int?
        /// Records skipped on purpose, by reason; present for logs read through a mapping.
        var skippedRecords: [InputFileSummary.SkippedRecords]?
        var signedTokens: Int?
        var verifiedSignatures: Int?
    }

    struct RuleEntry: Codable, Equatable {
        var id: String
        var title: String
        var severity: String
        var scope: String
        var controls: [String]
        var file: String
        var checked: Int
        var violated: Int
        var pending: Int
    }

    struct RulePack: Codable, Equatable {
        var sha256: String
        var files: [RuleSet.File]
    }

    struct Summary: Codable, Equatable {
        var subjects: Int
        var events: Int
        var accounts: Int
        var findings: Int
        var suppressed: Int
        var baselined: Int
        var duplicates: Int
        var skipped: Int
        var pending: Int
        var anonymizedSubjects: Int
        var bySeverity: [String: Int]
    }

    struct Location: Codable, Equatable {
        var file: String
        var line: Int
        var column: Int?
    }

    struct EvidenceEntry: Codable, Equatable {
        var role: String
        var event: String
        var type: String
        var time: String
        var location: Location
        var note: String?
    }

    struct FindingEntry: Codable, Equatable {
        var rule: String
        var severity: String
        var subject: String
        var app: String
        var event: String?
        var time: String?
        var message: String
        var fingerprint: String
        var location: Location?
        var expected: String
        var evidence: [EvidenceEntry]
        var suppression: SuppressionEntry?

        enum CodingKeys: String, CodingKey {
            case rule, severity, subject, app, event, time, message, fingerprint, location, expected, evidence, suppression
        }

        // `event` and `time` are written as null for app findings, as the contract shows.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rule, forKey: .rule)
            try container.encode(severity, forKey: .severity)
            try container.encode(subject, forKey: .subject)
            try container.encode(app, forKey: .app)
            try container.encode(event, forKey: .event)
            try container.encode(time, forKey: .time)
            try container.encode(message, forKey: .message)
            try container.encode(fingerprint, forKey: .fingerprint)
            try container.encodeIfPresent(location, forKey: .location)
            try container.encode(expected, forKey: .expected)
            try container.encode(evidence, forKey: .evidence)
            try container.encodeIfPresent(suppression, forKey: .suppression)
        }
    }

    struct SuppressionEntry: Codable, Equatable {
        var fingerprint: String?
        var rule: String?
        var subject: String?
        var justification: String
        var author: String
        var expires: String
        var location: Location
        var status: String?
        var matched: Int?
    }

    struct DiagnosticEntry: Codable, Equatable {
        var severity: String
        var message: String
        var location: Location
    }

    var version: Int
    var tool: LintReport.Tool
    var inputs: [Input]
    var rulePack: RulePack
    var rules: [RuleEntry]
    var apps: [LintReport.AppOutcome]
    var summary: Summary
    var findings: [FindingEntry]
    var suppressions: [SuppressionEntry]
    var skipped: [DiagnosticEntry]
    var notes: [DiagnosticEntry]
    /// Present in the reports of `check --shard K/N` only.
    var shard: Shard?
    /// True in a shard's report written with `--show-pii`: `merge` takes such shards only when
    /// it is given `--show-pii` too, as masking a finished report cannot find every value a
    /// message quotes (one glued to a rule's words, `ref0612345678`).
    var showsPII: Bool?

    /// - Parameter withFindings: false leaves `findings` empty, for a writer that converts the
    ///   report's findings one at a time (`write(to:findings:)`): converted all at once, 300k
    ///   findings took another 240 MB next to the report's own.
    init(_ report: LintReport, withFindings: Bool = true) {
        let location = Self.location
        let suppression = Self.suppression
        func diagnostic(_ diagnostic: Diagnostic) -> DiagnosticEntry {
            DiagnosticEntry(severity: diagnostic.severity.rawValue, message: diagnostic.message, location: location(diagnostic.location))
        }
        version = 1
        tool = report.tool
        inputs = report.inputs.map {
            Input(
                path: $0.path, kind: $0.kind.rawValue, sha256: $0.sha256, records: $0.records, invalid: $0.invalid,
                duplicates: $0.duplicates, firstTime: $0.firstTime?.description, lastTime: $0.lastTime?.description,
                format: $0.format, eventsMade: $0.eventsMade, skippedRecords: $0.format == nil ? nil : $0.skippedRecords,
                signedTokens: $0.signedTokens, verifiedSignatures: $0.verifiedSignatures)
        }
        rulePack = RulePack(sha256: report.rulePackSHA256, files: report.ruleFiles)
        rules = report.rules.map {
            RuleEntry(
                id: $0.rule.id, title: $0.rule.title, severity: $0.rule.severity.rawValue, scope: $0.rule.scope.rawValue,
                controls: $0.rule.controls, file: $0.rule.location.file, checked: $0.checked, violated: $0.violated,
                pending: $0.pending)
        }
        apps = report.apps
        var bySeverity: [String: Int] = [:]
        for severity in Severity.allCases { bySeverity[severity.rawValue] = report.summary.bySeverity[severity] ?? 0 }
        summary = Summary(
            subjects: report.summary.subjects, events: report.summary.events, accounts: report.summary.accounts,
            findings: report.summary.findings, suppressed: report.summary.suppressed, baselined: report.summary.baselined,
            duplicates: report.summary.duplicates, skipped: report.summary.skippedRecords,
            pending: report.summary.pending, anonymizedSubjects: report.summary.anonymizedSubjects, bySeverity: bySeverity)
        findings = withFindings ? report.findings.map(FindingEntry.init) : []
        suppressions = report.suppressions.map { suppression($0.suppression, $0) }
        skipped = report.skipped.map(diagnostic)
        notes = report.notes.map(diagnostic)
        shard = report.shard
        showsPII = report.shard != nil && report.showsPII ? true : nil
    }

    static func location(_ location: SourceLocation) -> Location {
        Location(file: location.file, line: location.line, column: location.column)
    }

    static func suppression(_ suppression: Suppression, _ outcome: SuppressionOutcome? = nil) -> SuppressionEntry {
        SuppressionEntry(
            fingerprint: suppression.fingerprint, rule: suppression.rule, subject: suppression.subject,
            justification: suppression.justification, author: suppression.author, expires: suppression.expires,
            location: location(suppression.location), status: outcome?.status.rawValue, matched: outcome?.matched)
    }
}

extension JSONReportDocument.FindingEntry {
    init(_ finding: Finding) {
        self.init(
            rule: finding.rule, severity: finding.severity.rawValue, subject: finding.subject, app: finding.app,
            event: finding.event, time: finding.time?.description, message: finding.message, fingerprint: finding.fingerprint,
            location: finding.location.map(JSONReportDocument.location), expected: finding.expected,
            evidence: finding.evidence.map {
                JSONReportDocument.EvidenceEntry(
                    role: $0.role.rawValue, event: $0.event, type: $0.type, time: $0.time.description,
                    location: JSONReportDocument.location($0.location), note: $0.note)
            }, suppression: finding.suppression.map { JSONReportDocument.suppression($0) })
    }
}
