/// What the subject pass over some subjects found and what their inputs held, before the report
/// is assembled: the boundary between the map step (`Ingest/` and `Evaluation/`: reading and
/// evaluating one partition's subjects) and the reduce step (`Reduce/`: adding partitions up,
/// then deciding the app rules, suppressions, baseline and masking once, as `Linter.assemble`
/// does for a single run).
///
/// Every run crosses it, partitioned or not: a single run hands its one evaluation straight to
/// `Linter.assemble`; a partition run writes it into its partial (`PartitionReport`), and
/// `PartitionMerger` adds the partials up. It is all the reduce step knows of the subjects: their
/// events and the dataset stay on the map side, so that a partial is small and a merge reads
/// none of the logs or exports again (of the inputs, only the manifest).
///
/// Every part adds up over disjoint sets of subjects: counts are summed, sets united, the
/// earliest app match kept. Nothing in it is masked: suppressions and baselines match whole
/// ids, and masking comes last.
public struct PartialEvaluation: Sendable, Codable, Equatable {
    /// The earliest event of one app-rule matcher in one app, and its subject, which settles ties.
    public struct AppMatch: Sendable, Codable, Equatable {
        public var evidence: Evidence
        public var subject: String
    }

    /// Checks of one subject rule.
    public struct RuleTally: Sendable, Codable, Equatable {
        public var triggered = 0
        public var violated = 0
        public var pending = 0
    }

    /// Events of one UTC day.
    public struct DayCount: Sendable, Codable, Equatable {
        public var day: Int64
        public var count: Int
    }

    /// Subject-rule findings: in report order from a run; partition by partition from `merge`
    /// (the report's assembly sorts them).
    public var findings: [Finding]
    /// Per subject rule, in rule order.
    public var tallies: [RuleTally]
    /// Per app matcher (`EvaluationContext.appMatchers`), by app.
    public var appMatches: [[String: AppMatch]]
    public var appMatchCounts: [[String: Int]]
    public var subjects: Int
    public var anonymizedSubjects: Int
    /// Exported accounts per app.
    public var accountsPerApp: [String: Int]
    /// Apps the data names (events and exported accounts), sorted.
    public var appsSeen: [String]
    /// Apps whose data holds an `account.created` or an exported account, sorted.
    public var appsCreatingAccounts: [String]
    /// Every input read, then the configuration.
    public var inputs: [InputFileSummary]
    /// The invalid records skipped (`--skip-invalid`): the first ones, then a note on how many
    /// more there were (`InvalidRecordList.unlistedNote`).
    public var skipped: [Diagnostic]
    /// Data-quality notes, in the order a single run lists them.
    public var notes: [Diagnostic]
    public var events: Int
    public var duplicates: Int
    public var eventsPerDay: [DayCount]
    public var earliest: Timestamp?
    public var latest: Timestamp?
    /// The end of the data the windows were decided against (`--data-end`, else `latest`).
    public var horizon: Timestamp
    /// Exported accounts with a relay address, and exported `apple.com` entries: together they
    /// tell an export of an old firebase-tools, which a note names once for the whole data.
    public var relayAccountsExported: Int
    public var appleEntriesExported: Int

    /// How many invalid records were skipped, those counted and not listed included.
    var skippedRecords: Int {
        InvalidRecordList.split(skipped).count
    }
}

extension PartialEvaluation.RuleTally {
    init(_ tally: SubjectRuleEvaluator.Tally) {
        self.init(triggered: tally.triggered, violated: tally.violated, pending: tally.pending)
    }

    var tally: SubjectRuleEvaluator.Tally {
        var tally = SubjectRuleEvaluator.Tally()
        tally.triggered = triggered
        tally.violated = violated
        tally.pending = pending
        return tally
    }
}

extension PartialEvaluation.AppMatch {
    /// The earlier match wins; on a tie, the one of the subject first in id order.
    func precedes(_ other: Self) -> Bool {
        (evidence.time, evidence.location) != (other.evidence.time, other.evidence.location)
            ? (evidence.time, evidence.location) < (other.evidence.time, other.evidence.location)
            : Array(subject.utf8).lexicographicallyPrecedes(Array(other.subject.utf8))
    }
}
