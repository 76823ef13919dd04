/// What a partial says that `check --partition K/N` never writes: `merge` adds partials up as
/// they are, so a partial of another format, a negative count or another partition's subject
/// would be a wrong report (or a crash) rather than an error.
extension PartitionReport {
    /// What is wrong with the partial, each in words naming where in it; empty if nothing.
    func problems() -> [String] {
        if format != PartitionReport.formatName || version != PartitionReport.formatVersion {
            return [
                "is of format '\(format)' version \(version), not '\(PartitionReport.formatName)' version \(PartitionReport.formatVersion), "
                    + "the partial this relaylint writes: run its partition again with this relaylint"
            ]
        }
        var problems: [String] = []
        if let (place, count) = firstCountOutOfRange() {
            problems.append("holds \(count) at \(place): a count is from 0 to \(PartitionReport.largestCount)")
        }
        // Added with overflow reported: the counts may be the out-of-range ones just named.
        for (index, tally) in evaluation.tallies.enumerated() {
            let (decided, overflow) = tally.violated.addingReportingOverflow(tally.pending)
            guard overflow || decided > tally.triggered else { continue }
            problems.append(
                "holds more violated and pending checks than checks at evaluation.tallies[\(index)] "
                    + "(\(tally.violated) + \(tally.pending) of \(tally.triggered))")
            break
        }
        if let day = evaluation.eventsPerDay.first(where: { !PartitionReport.days.contains($0.day) }) {
            problems.append("holds a count of events for day \(day.day) after 1970, outside years 1 to 9999")
        }
        let violated = evaluation.tallies.reduce(0) { $0 &+ $1.violated }
        if evaluation.findings.count > violated {
            problems.append(
                "holds \(Plural.counted(evaluation.findings.count, "finding")) where its tallies count \(Plural.counted(violated, "violated check")): "
                    + "each finding is one violated check")
        }
        var fingerprints: Set<String> = []
        if let repeated = evaluation.findings.first(where: { !fingerprints.insert($0.fingerprint).inserted }) {
            problems.append("holds the finding with fingerprint \(repeated.fingerprint) twice: a run reports each finding once")
        }
        if !settings.skipInvalid, let input = evaluation.inputs.first(where: { $0.invalid > 0 }) {
            problems.append(
                "counts \(input.invalid) invalid records in \(input.path) of a run without --skip-invalid, which stops at the first one"
            )
        }
        if evaluation.appMatchCounts.count != evaluation.appMatches.count {
            problems.append(
                "holds match counts for \(evaluation.appMatchCounts.count) app matchers and earliest matches for \(evaluation.appMatches.count)"
            )
        }
        return problems
    }

    /// The largest count a partial may hold: 2^53, past any real run (and where a count stops
    /// being exact as a JSON number in most readers). Reports multiply and add counts; a forged
    /// one near `Int.max` crashed them.
    static let largestCount = 1 << 53

    /// Refuses a count read from the partial or report at `path` that no run writes, naming its
    /// place (`evaluation.skipped[3] (…)`).
    static func checkCount(_ count: Int, at place: String, in path: String) throws(DiagnosticsError) {
        guard (0...largestCount).contains(count) else {
            throw DiagnosticsError([
                Diagnostic(.error, "holds \(count) at \(place): a count is from 0 to \(largestCount)", at: SourceLocation(file: path))
            ])
        }
    }

    /// The first count below 0 or above `largestCount`, with where it stands (`evaluation.events`).
    private func firstCountOutOfRange() -> (place: String, count: Int)? {
        var counts: [(String, Int)] = [
            ("evaluation.subjects", evaluation.subjects), ("evaluation.anonymizedSubjects", evaluation.anonymizedSubjects),
            ("evaluation.events", evaluation.events), ("evaluation.duplicates", evaluation.duplicates),
            ("evaluation.relayAccountsExported", evaluation.relayAccountsExported),
            ("evaluation.appleEntriesExported", evaluation.appleEntriesExported),
        ]
        for (index, tally) in evaluation.tallies.enumerated() {
            counts += [
                ("evaluation.tallies[\(index)].triggered", tally.triggered), ("evaluation.tallies[\(index)].violated", tally.violated),
                ("evaluation.tallies[\(index)].pending", tally.pending),
            ]
        }
        for (index, matches) in evaluation.appMatchCounts.enumerated() {
            counts += matches.sorted { $0.key < $1.key }.map { ("evaluation.appMatchCounts[\(index)][\(Self.quoted($0.key))]", $0.value) }
        }
        counts += evaluation.accountsPerApp.sorted { $0.key < $1.key }.map {
            ("evaluation.accountsPerApp[\(Self.quoted($0.key))]", $0.value)
        }
        for (index, day) in evaluation.eventsPerDay.enumerated() { counts.append(("evaluation.eventsPerDay[\(index)].count", day.count)) }
        for (index, input) in evaluation.inputs.enumerated() {
            let place = "evaluation.inputs[\(index)]"
            counts += [("\(place).records", input.records), ("\(place).invalid", input.invalid), ("\(place).duplicates", input.duplicates)]
            for (name, count) in [
                ("eventsMade", input.eventsMade), ("signedTokens", input.signedTokens), ("verifiedSignatures", input.verifiedSignatures),
            ] {
                if let count { counts.append(("\(place).\(name)", count)) }
            }
            for (number, skipped) in input.skippedRecords.enumerated() {
                counts.append(("\(place).skippedRecords[\(number)].count", skipped.count))
            }
        }
        return counts.first { !(0...PartitionReport.largestCount).contains($0.1) }
    }

    /// The days since 1970 an event of years 1 to 9999 can fall on: the per-day chart turns each
    /// into a date, and a day past them is no date.
    static let days = Timestamp.years.lowerBound.seconds / 86_400...(Timestamp.years.upperBound.seconds - 1) / 86_400

    /// A key of the partial as a place names it: masked, and quoted so that the masker, which
    /// sees the whole message again, does not take the path before it for an address's name.
    static func quoted(_ key: String) -> String { "'\(PIIMasker().mask(key))'" }

    /// A finding of a rule the merge does not run (no partition of this run wrote it), or of
    /// another severity than the rule's: the partition runs had the merge's rules and
    /// configuration, so a finding of an error rule is an error.
    func unknownRuleProblem(severities: [String: Severity]) -> String? {
        for finding in evaluation.findings {
            guard let severity = severities[finding.rule] else {
                return "holds a finding of rule '\(finding.rule)', which is not among the rules this merge runs"
            }
            if finding.severity != severity {
                return
                    "holds a finding of rule '\(finding.rule)' as \(finding.severity.rawValue), where this merge's rule is of severity \(severity.rawValue)"
            }
        }
        return nil
    }

    /// A finding of a subject of another partition: the merge would count it twice, where `check
    /// --partition` refuses such inputs. Findings of app rules (`appRules`) name an app, not a
    /// subject, and belong to no partition; a subject rule's finding on an account has no event,
    /// so the rule, not the event, tells them apart.
    func foreignSubjectProblem(appRules: Set<String>) -> String? {
        let foreign = evaluation.findings.filter { !appRules.contains($0.rule) && !partition.contains(subject: $0.subject) }
        guard let first = foreign.first else { return nil }
        let owner = Shard.slot(of: first.subject, among: partition.count) + 1
        let more = foreign.count > 1 ? " (and \(Plural.counted(foreign.count - 1, "finding")) more of other partitions' subjects)" : ""
        return
            "holds a finding of subject '\(first.subject)', which belongs to partition \(owner)/\(partition.count), not \(partition)\(more): "
            + "each partition's partial holds its own subjects only, a subject in two partials is counted twice"
    }
}
