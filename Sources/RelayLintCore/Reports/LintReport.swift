/// Everything a run found and everything it read: the single value every reporter renders.
public struct LintReport: Sendable, Equatable {
    /// The tool that produced the report.
    public struct Tool: Sendable, Equatable, Codable {
        public var name: String
        public var version: String
        public var informationURI: String

        public init(name: String = "relaylint", version: String, informationURI: String = "https://github.com/relaylint/relaylint") {
            self.name = name
            self.version = version
            self.informationURI = informationURI
        }
    }

    /// One rule as it was applied in this run: its description and how often it was checked.
    public struct RuleOutcome: Sendable, Equatable {
        public var rule: Rule
        /// Firing events (subject rules) or apps (app rules) the requirement was checked at.
        public var checked: Int
        public var violated: Int
        /// Checks not decided because a window reaches past the end of the data.
        public var pending: Int
    }

    /// What the run knows about one app.
    public struct AppOutcome: Sendable, Equatable, Codable {
        public var bundleId: String
        public var createsAccounts: Bool
        public var inManifest: Bool
        public var accounts: Int
    }

    /// Counts for the summary line and the JSON `summary` object.
    public struct Summary: Sendable, Equatable {
        public var subjects: Int
        public var events: Int
        public var accounts: Int
        public var duplicates: Int
        public var skippedRecords: Int
        public var anonymizedSubjects: Int
        /// Findings that are not suppressed.
        public var findings: Int
        /// Findings accepted by a suppression (still listed in `findings`).
        public var suppressed: Int
        /// Findings left out because an earlier report (`--baseline`) had them.
        public var baselined: Int
        public var pending: Int
        public var bySeverity: [Severity: Int]
    }

    public var tool: Tool
    public var inputs: [InputFileSummary]
    public var ruleFiles: [RuleSet.File]
    public var rulePackSHA256: String
    public var rules: [RuleOutcome]
    public var apps: [AppOutcome]
    public var summary: Summary
    /// Sorted in report order (`Finding.reportOrder`); suppressed ones included, marked.
    public var findings: [Finding]
    /// The suppression register: every suppression and how it fared.
    public var suppressions: [SuppressionOutcome]
    /// Records skipped with `--skip-invalid`.
    public var skipped: [Diagnostic]
    /// Data-quality notes.
    public var notes: [Diagnostic]
    /// Events per UTC day, in day order.
    public var eventsPerDay: [(day: String, count: Int)]
    public var earliest: Timestamp?
    public var latest: Timestamp?
    /// Whether PII was shown unmasked (`--show-pii`).
    public var showsPII: Bool
    /// The slice of subjects evaluated (`--shard K/N`); nil for a whole run.
    public var shard: Shard? = nil

    public static func == (lhs: LintReport, rhs: LintReport) -> Bool {
        lhs.tool == rhs.tool && lhs.inputs == rhs.inputs && lhs.ruleFiles == rhs.ruleFiles && lhs.rules == rhs.rules
            && lhs.apps == rhs.apps && lhs.summary == rhs.summary && lhs.findings == rhs.findings && lhs.suppressions == rhs.suppressions
            && lhs.skipped == rhs.skipped && lhs.notes == rhs.notes && lhs.earliest == rhs.earliest
            && lhs.latest == rhs.latest && lhs.showsPII == rhs.showsPII && lhs.shard == rhs.shard
            && lhs.eventsPerDay.map(\.day) == rhs.eventsPerDay.map(\.day) && lhs.eventsPerDay.map(\.count) == rhs.eventsPerDay.map(\.count)
    }

    /// The logs and exports that held no record (`InputFileSummary.readNothing`): each is also a
    /// warning note, and `--fail-on-empty` fails the run on them.
    public var inputsReadNothing: [InputFileSummary] { inputs.filter(\.readNothing) }

    /// The warning for an input that held no record.
    public static func nothingReadMessage(_ path: String) -> String { "no records were read from \(path)" }

    /// Findings no suppression accepts: the ones that count.
    public var activeFindings: [Finding] { findings.filter { !$0.isSuppressed } }

    /// Suppressions past their expiry date.
    public var expiredSuppressions: [SuppressionOutcome] { suppressions.filter { $0.status == .expired } }

    /// Whether the run fails at the given threshold (nil: never): an unsuppressed finding at or
    /// above it, and nothing else (exit 1 means findings at or above `--fail-on`). A suppression
    /// past its expiry date no longer applies, so the findings it accepted count again at their
    /// severity; the expiry itself is a warning in every report, which fails no run.
    public func fails(at threshold: Severity?) -> Bool {
        guard let threshold else { return false }
        // Not through `activeFindings`, which copies every finding (60 MB at 300k).
        return findings.contains { !$0.isSuppressed && $0.severity >= threshold }
    }
}
