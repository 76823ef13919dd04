/// What the subject pass adds up: in-shard findings (in no particular order: the report sorts
/// them), per-rule counts, the earliest match per app of each app-rule matcher (over all
/// subjects), anonymized subjects. Adding up does not depend on the order the subjects come in.
struct EvaluationTotals: Sendable {
    /// An app-rule match and the place of its subject in id order, which settles ties.
    struct RankedEvidence: Sendable {
        var evidence: Evidence
        var rank: Int
    }

    var findings = PackedFindings()
    var tallies: [SubjectRuleEvaluator.Tally]
    var appMatches: [[String: RankedEvidence]]
    /// How many events each app matcher matched, per app.
    var appMatchCounts: [[String: Int]]
    var anonymized = 0
    /// Subjects outside the partition (`--partition`), with where the inputs hold them first.
    var strays: [(subject: String, location: SourceLocation)] = []

    init(rules: Int, appMatchers: Int) {
        tallies = Array(repeating: SubjectRuleEvaluator.Tally(), count: rules)
        appMatches = Array(repeating: [:], count: appMatchers)
        appMatchCounts = Array(repeating: [:], count: appMatchers)
    }

    /// Adds one subject's result; `rank` is the subject's place in id order.
    mutating func add(_ result: SubjectRuleEvaluator.Result, inShard: Bool, rank: Int) {
        for index in appMatches.indices where !result.appMatches[index].isEmpty {
            mergeAppMatches(index, result.appMatches[index].mapValues { RankedEvidence(evidence: $0, rank: rank) })
            appMatchCounts[index].merge(result.appMatchCounts[index], uniquingKeysWith: +)
        }
        guard inShard else { return }
        for finding in result.findings { findings.append(finding) }
        addTallies(result.tallies)
        if result.wasEverAnonymized { anonymized += 1 }
    }

    /// Adds the totals of other subjects.
    mutating func add(_ other: EvaluationTotals) {
        for index in appMatches.indices where !other.appMatches[index].isEmpty {
            mergeAppMatches(index, other.appMatches[index])
            appMatchCounts[index].merge(other.appMatchCounts[index], uniquingKeysWith: +)
        }
        findings.append(contentsOf: other.findings)
        addTallies(other.tallies)
        anonymized += other.anonymized
        strays += other.strays
    }

    private mutating func addTallies(_ other: [SubjectRuleEvaluator.Tally]) {
        for index in tallies.indices {
            tallies[index].triggered += other[index].triggered
            tallies[index].violated += other[index].violated
            tallies[index].pending += other[index].pending
        }
    }

    /// The earlier match wins; on a tie, the one of the subject first in id order.
    private mutating func mergeAppMatches(_ index: Int, _ other: [String: RankedEvidence]) {
        appMatches[index].merge(other) { first, second in
            (first.evidence.time, first.evidence.location, first.rank) <= (second.evidence.time, second.evidence.location, second.rank)
                ? first : second
        }
    }
}
