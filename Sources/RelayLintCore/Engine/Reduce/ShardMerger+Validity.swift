/// What a shard report must hold to be merged, beyond what every shard must agree on
/// (`ShardMerger.difference`): findings that a damaged copy, a concatenation or a hand edit
/// would change, as `PartitionReport` checks a partial's. Merged as they were, a finding given
/// twice was listed twice under one fingerprint (which SARIF and baselines key on), the summary
/// counted one number and the list held another, and findings out of order stayed so.
extension ShardMerger {
    /// What is wrong with the findings of the report at `path`, of shard `shard`; empty if nothing.
    static func problems(of document: JSONReportDocument, shard: Shard, path: String) -> [Diagnostic] {
        var problems: [String] = []
        let active = document.findings.count { $0.suppression == nil }
        if active != document.summary.findings || document.findings.count - active != document.summary.suppressed {
            problems.append(
                "lists \(Plural.counted(active, "finding")) and \(document.findings.count - active) suppressed where its summary counts "
                    + "\(document.summary.findings) and \(document.summary.suppressed): a report lists each finding it counts")
        }
        var bySeverity: [String: Int] = [:]
        for finding in document.findings where finding.suppression == nil { bySeverity[finding.severity, default: 0] += 1 }
        let counted = document.summary.bySeverity.filter { $0.value != 0 }
        if bySeverity != counted {
            let listed = bySeverity.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            let summed = counted.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            problems.append(
                "lists findings of severities \(listed.isEmpty ? "none" : listed) where its summary.bySeverity counts \(summed.isEmpty ? "none" : summed)"
            )
        }
        for (index, rule) in document.rules.enumerated() {
            let listed = document.findings.count { $0.rule == rule.id }
            guard listed > rule.violated else { continue }
            problems.append(
                "lists \(Plural.counted(listed, "finding")) of rule '\(rule.id)' where rules[\(index)].violated counts \(rule.violated): "
                    + "each finding is one violated check")
        }
        var fingerprints: Set<String> = []
        if let repeated = document.findings.first(where: { !fingerprints.insert($0.fingerprint).inserted }) {
            problems.append("holds the finding with fingerprint \(repeated.fingerprint) twice: a run reports each finding once")
        }
        if let foreign = foreignFinding(in: document, shard: shard) { problems.append(foreign) }
        // The order is told by the subjects shown whole: two that mask alike (`j•••@example.com`)
        // were ordered by their whole ids, which the report does not show.
        let whole = document.findings.filter { isShownWhole($0.subject, in: document) }
        if let index = whole.indices.dropFirst().first(where: { reportOrder(whole[$0], whole[$0 - 1]) }) {
            problems.append(
                "lists the finding with fingerprint \(whole[index].fingerprint) after one it comes before (by subject, time and rule): "
                    + "a run lists its findings in that order")
        }
        return problems.map { Diagnostic(.error, $0, at: SourceLocation(file: path)) }
    }

    /// A finding that another shard reports: one of a subject that hashes into another shard's
    /// slice, or of an app rule outside shard 1 (which alone reports them). A subject rule's
    /// finding of a whole app (a declaration it needs: no event, the app as its subject) is
    /// shard 1's too, wherever the app's name hashes (hostile 15, F2).
    private static func foreignFinding(in document: JSONReportDocument, shard: Shard) -> String? {
        let appRules = Set(document.rules.filter { $0.scope == Rule.Scope.app.rawValue }.map(\.id))
        for finding in document.findings {
            if appRules.contains(finding.rule) {
                guard shard.index != 1 else { continue }
                return "holds a finding of the app rule '\(finding.rule)', which shard 1/\(shard.count) alone reports, not \(shard)"
            }
            guard isShownWhole(finding.subject, in: document), !shard.contains(subject: finding.subject) else { continue }
            if shard.index == 1, finding.event == nil, finding.subject == finding.app { continue }
            let owner = Shard.slot(of: finding.subject, among: shard.count) + 1
            return "holds a finding of subject '\(finding.subject)', which belongs to shard \(owner)/\(shard.count), not \(shard): "
                + "each shard reports its own subjects only, a subject in two shards is counted twice"
        }
        return nil
    }

    /// Whether the report shows `subject` as its whole id: all of them with `--show-pii`, else
    /// those not masked.
    private static func isShownWhole(_ subject: String, in document: JSONReportDocument) -> Bool {
        document.showsPII == true || !isShownMasked(subject)
    }
}
