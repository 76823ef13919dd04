import Foundation

/// Adds up the JSON reports of `relaylint check --shard K/N` runs into the JSON report that one
/// run over all subjects gives, byte for byte (`relaylint merge`).
///
/// Every shard read all inputs, so what a report says about the inputs, the rule pack, the apps
/// and the data-quality notes is the same in each and must agree; per-subject counts and
/// findings are disjoint and add up; app findings come from shard 1 alone (see `Shard`).
public enum ShardMerger {
    /// The merged report.
    public struct Merged: Sendable {
        /// The JSON report text, as `check --format json` writes it.
        public let json: String
        /// Severities of the findings no suppression accepts.
        let activeSeverities: [Severity]

        public var findingCount: Int { activeSeverities.count }

        /// Whether the merged report fails at the threshold, as `LintReport.fails(at:)` decides.
        public func fails(at threshold: Severity?) -> Bool {
            guard let threshold else { return false }
            return activeSeverities.contains { $0 >= threshold }
        }
    }

    /// Merges shard reports given as (path, contents); the paths name the culprits in errors.
    /// Shards run with `--show-pii` (which keep one run's order) merge only when `showPII` is
    /// given too: their reports hold addresses in clear, and masking a finished report cannot
    /// find every value its messages quote (one glued to a rule's words, `ref0612345678`), which
    /// `check` masks value by value.
    public static func merge(_ reports: [(path: String, data: Data)], showPII: Bool) throws(DiagnosticsError) -> Merged {
        var shards: [(path: String, document: JSONReportDocument, shard: Shard)] = []
        var problems: [Diagnostic] = []
        for (path, data) in reports {
            guard !data.isEmpty else {
                problems.append(Diagnostic(.error, "not a relaylint JSON report: the file is empty", at: SourceLocation(file: path)))
                continue
            }
            // Read as `--baseline` reads a report: a syntax error at its line and column, a
            // count that is not one, another version, each told as there.
            do throws(DiagnosticsError) {
                let document = try JSONReportDocument.read(data, path: path)
                guard let shard = document.shard else {
                    problems.append(
                        Diagnostic(
                            .error, "not a shard report: it has no 'shard' (run `relaylint check --shard K/N --format json`)",
                            at: SourceLocation(file: path)))
                    continue
                }
                shards.append((path, document, shard))
            } catch {
                problems += error.diagnostics
            }
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        guard let first = shards.first else {
            throw DiagnosticsError([Diagnostic(.error, "no shard reports to merge", at: SourceLocation(file: ""))])
        }
        if !showPII, let shown = shards.first(where: { $0.document.showsPII == true }) {
            throw DiagnosticsError([
                Diagnostic(
                    .error,
                    "shows addresses and phone numbers (its shard ran with --show-pii): merge it with --show-pii, or run the "
                        + "shards without --show-pii for a masked report (partitions give a masked report in one run's order)",
                    at: SourceLocation(file: shown.path))
            ])
        }
        problems += SliceCompleteness.problems(shards.map { ($0.path, $0.shard) }, kind: "shard", file: "shard report")
        for (path, document, shard) in shards { problems += Self.problems(of: document, shard: shard, path: path) }
        // A finding copied into another shard's report (of a subject shown masked, whose shard the
        // report cannot tell) is found by its fingerprint.
        var holders: [String: String] = [:]
        for (path, document, _) in shards {
            var own: Set<String> = []
            for finding in document.findings where own.insert(finding.fingerprint).inserted {
                if let other = holders.updateValue(path, forKey: finding.fingerprint) {
                    problems.append(
                        Diagnostic(
                            .error,
                            "holds the finding with fingerprint \(finding.fingerprint), which \(other) holds too: a run reports each finding once",
                            at: SourceLocation(file: path)))
                    break
                }
            }
        }
        for other in shards.dropFirst() {
            if let difference = difference(first.document, other.document) {
                problems.append(
                    Diagnostic(
                        .error,
                        "disagrees with \(first.path) on \(difference): shards must run on the same inputs, rules and options",
                        at: SourceLocation(file: other.path)))
            }
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }

        let ordered = shards.sorted { $0.shard.index < $1.shard.index }
        let documents = ordered.map(\.document)
        var merged = documents[0]
        merged.shard = nil
        // Counts are checked as partials' are (0 to 2^53) and added with overflow reported: a
        // hand-edited count near Int.max crashed the sum.
        for (number, (path, document, _)) in ordered.enumerated() {
            func add(_ value: Int, to total: inout Int, _ place: String) throws(DiagnosticsError) {
                try PartitionReport.checkCount(value, at: place, in: path)
                guard number > 0 else { return }
                let (sum, overflow) = total.addingReportingOverflow(value)
                guard !overflow else {
                    throw DiagnosticsError([
                        Diagnostic(
                            .error, "its \(place) added to the other shards' is past the largest count", at: SourceLocation(file: path))
                    ])
                }
                total = sum
            }
            for index in merged.rules.indices {
                let rule = document.rules[index]
                try add(rule.checked, to: &merged.rules[index].checked, "rules[\(index)].checked")
                try add(rule.violated, to: &merged.rules[index].violated, "rules[\(index)].violated")
                try add(rule.pending, to: &merged.rules[index].pending, "rules[\(index)].pending")
            }
            for index in merged.apps.indices {
                try add(document.apps[index].accounts, to: &merged.apps[index].accounts, "apps[\(index)].accounts")
            }
            try add(document.summary.subjects, to: &merged.summary.subjects, "summary.subjects")
            try add(document.summary.accounts, to: &merged.summary.accounts, "summary.accounts")
            try add(document.summary.findings, to: &merged.summary.findings, "summary.findings")
            try add(document.summary.suppressed, to: &merged.summary.suppressed, "summary.suppressed")
            try add(document.summary.baselined, to: &merged.summary.baselined, "summary.baselined")
            try add(document.summary.pending, to: &merged.summary.pending, "summary.pending")
            try add(document.summary.anonymizedSubjects, to: &merged.summary.anonymizedSubjects, "summary.anonymizedSubjects")
            for (severity, count) in document.summary.bySeverity.sorted(by: { $0.key < $1.key }) {
                try add(count, to: &merged.summary.bySeverity[severity, default: 0], "summary.bySeverity.\(severity)")
            }
            guard number > 0 else { continue }
            for index in merged.suppressions.indices {
                let theirs = document.suppressions[index]
                var matched = merged.suppressions[index].matched ?? 0
                try add(theirs.matched ?? 0, to: &matched, "suppressions[\(index)].matched")
                merged.suppressions[index].matched = matched
                merged.suppressions[index].status = mergedStatus(merged.suppressions[index].status, theirs.status)
            }
        }
        merged.showsPII = nil
        merged.findings = mergedInReportOrder(documents.map(\.findings))
        let active = merged.findings.filter { $0.suppression == nil }.compactMap { Severity(rawValue: $0.severity) }
        return Merged(json: JSONReporter.text(of: merged), activeSeverities: active)
    }

    /// What two shard reports disagree on, among what every shard computes alike; nil if nothing.
    private static func difference(_ a: JSONReportDocument, _ b: JSONReportDocument) -> String? {
        func ruleShape(_ rule: JSONReportDocument.RuleEntry) -> [String] { [rule.id, rule.title, rule.severity, rule.scope, rule.file] }
        func appShape(_ app: LintReport.AppOutcome) -> [String] { [app.bundleId, "\(app.createsAccounts)", "\(app.inManifest)"] }
        func suppressionShape(_ entry: JSONReportDocument.SuppressionEntry) -> JSONReportDocument.SuppressionEntry {
            var shape = entry
            shape.status = nil
            shape.matched = nil
            return shape
        }
        if a.version != b.version || a.tool != b.tool { return "the report version or the tool" }
        if (a.showsPII ?? false) != (b.showsPII ?? false) { return "--show-pii" }
        if a.inputs != b.inputs { return "the inputs (paths, hashes or record counts)" }
        if a.rulePack != b.rulePack || a.rules.map(ruleShape) != b.rules.map(ruleShape) { return "the rules" }
        if a.apps.map(appShape) != b.apps.map(appShape) { return "the apps" }
        if a.summary.events != b.summary.events || a.summary.duplicates != b.summary.duplicates
            || a.summary.skipped != b.summary.skipped || a.skipped != b.skipped
        {
            return "the events read"
        }
        if a.notes != b.notes { return "the data-quality notes" }
        if a.suppressions.map(suppressionShape) != b.suppressions.map(suppressionShape) { return "the suppressions" }
        return nil
    }

    /// A suppression is expired in every shard or in none; otherwise active where any shard used it.
    private static func mergedStatus(_ a: String?, _ b: String?) -> String? {
        let expired = SuppressionOutcome.Status.expired.rawValue
        let active = SuppressionOutcome.Status.active.rawValue
        if a == expired || b == expired { return expired }
        if a == active || b == active { return active }
        return a ?? b
    }

    /// The shards' findings, each shard's already in report order, merged into one list in
    /// report order, two lists at a time.
    ///
    /// Merged, not sorted again: a shard sorted its findings by whole subject ids, but its report
    /// shows them masked when they are addresses or phone numbers, and two subjects that mask
    /// alike (`jane@` and `john@example.com`) would have their findings interleaved by time. Each
    /// shard's order is kept, and the merge is keyed on the findings of subjects shown whole: the
    /// findings of masked subjects travel with the finding before them in their shard (those at
    /// its start come first). Keyed on the masked text, one phone number's `••••58` heading a
    /// shard held back every finding after it, and the whole list came out of order. Findings of
    /// masked subjects from different shards can only be placed so (run the shards with
    /// `--show-pii` for the single run's order, or use partitions, whose partials keep the whole
    /// ids).
    static func mergedInReportOrder(_ lists: [[JSONReportDocument.FindingEntry]]) -> [JSONReportDocument.FindingEntry] {
        // Each list as runs: a finding shown whole and the masked ones after it; a run without
        // such a head (masked findings at a shard's start) comes before every other.
        var lists: [[FindingRun]] = lists.map { findings in
            var runs: [FindingRun] = []
            for finding in findings {
                if isShownMasked(finding.subject), !runs.isEmpty {
                    runs[runs.count - 1].findings.append(finding)
                } else {
                    runs.append(FindingRun(findings: [finding]))
                }
            }
            return runs
        }
        while lists.count > 1 {
            var next: [[FindingRun]] = []
            for start in stride(from: 0, to: lists.count, by: 2) {
                next.append(start + 1 < lists.count ? merged(lists[start], lists[start + 1]) : lists[start])
            }
            lists = next
        }
        return (lists.first ?? []).flatMap(\.findings)
    }

    /// Findings of one shard that stay together: the first, and those of masked subjects after it.
    private struct FindingRun {
        var findings: [JSONReportDocument.FindingEntry]
        /// Whether the run is led by masked findings (a shard's first), which have no place to
        /// compare and come first.
        var isLedByMasked: Bool { findings.first.map { ShardMerger.isShownMasked($0.subject) } ?? false }
    }

    /// Two lists of runs in report order merged into one; on a tie the first list's run comes first.
    private static func merged(_ first: [FindingRun], _ second: [FindingRun]) -> [FindingRun] {
        var result: [FindingRun] = []
        result.reserveCapacity(first.count + second.count)
        var i = 0
        var j = 0
        while i < first.count, j < second.count {
            let secondFirst =
                second[j].isLedByMasked && !first[i].isLedByMasked
                || !first[i].isLedByMasked && !second[j].isLedByMasked && reportOrder(second[j].findings[0], first[i].findings[0])
            if secondFirst {
                result.append(second[j])
                j += 1
            } else {
                result.append(first[i])
                i += 1
            }
        }
        result += first[i...]
        result += second[j...]
        return result
    }

    /// Whether a subject is shown masked (`j•••@example.com`, `+1••••••••88`): its whole id, which
    /// placed it in a shard and in order, is not in the report.
    static func isShownMasked(_ subject: String) -> Bool { subject.contains("•") }

    /// `Finding.reportOrder` on report entries; times compare as instants, not as text.
    static func reportOrder(_ lhs: JSONReportDocument.FindingEntry, _ rhs: JSONReportDocument.FindingEntry) -> Bool {
        ReportOrder.precedes(lhs, rhs)
    }
}

extension JSONReportDocument.FindingEntry: ReportOrder.Ordered {
    var instant: Timestamp? { time.flatMap(Timestamp.init(rfc3339:)) }
}
