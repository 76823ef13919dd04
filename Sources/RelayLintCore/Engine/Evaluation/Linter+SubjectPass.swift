/// The evaluation step over a whole dataset: every subject's timeline through the subject rules,
/// a partition of the dataset's storage at a time, added up into a `PartialEvaluation`.
extension Linter {
    /// The map step's evaluation: evaluates the subject rules on every subject of the dataset (of
    /// the shard or partition, with `--shard` or `--partition`) and adds up what the report needs.
    /// - Parameter dataset: taken over, as in `evaluate`.
    static func subjectPass(
        _ dataset: consuming Dataset, subjectRules: [Rule], appRules: [Rule], request: LintRequest
    ) throws(DiagnosticsError) -> PartialEvaluation {
        let (appMatchers, appMatcherNeeds) = EvaluationContext.appMatchers(appRules: appRules, subjectRules: subjectRules)
        if let end = request.dataEnd, let latest = dataset.latest, latest > end {
            throw DiagnosticsError([
                Diagnostic(
                    .error, "the data holds an event at \(latest), after --data-end \(end): give the end of the whole data",
                    at: dataset.latestLocation
                        ?? SourceLocation(file: dataset.inputs.first { $0.kind == .events && $0.lastTime == latest }?.path ?? ""))
            ])
        }
        let context = EvaluationContext(
            relayDomains: request.relayDomains, masker: PIIMasker(isEnabled: !request.showPII),
            horizon: request.dataEnd ?? dataset.latest ?? Timestamp(nanoseconds: 0), defaultApp: dataset.defaultApp,
            hasManifest: dataset.manifest != nil, appMatchers: appMatchers, appMatcherNeeds: appMatcherNeeds)
        let matching = MatcherEvaluation(relayDomains: request.relayDomains, manifest: dataset.manifest, defaultApp: dataset.defaultApp)
        let evaluator = {
            var evaluator = SubjectRuleEvaluator(rules: subjectRules, matching: matching, context: context)
            evaluator.indexedSearchFrom = request.indexedSearchFrom
            return evaluator
        }()
        // Outside the shard, only the app rules' matchers run: app rules depend on every subject.
        let appMatchersOnly = SubjectRuleEvaluator(rules: [], matching: matching, context: context)
        let shard = request.shard ?? request.partition
        // The subjects are taken in id order; their events and accounts stay packed in the
        // dataset's storage until a worker unpacks them. Nothing is looked up by id any more.
        var table = dataset.subjects
        dataset.subjects = SubjectTable()
        table.dropLookupIndex()
        let order = table.indicesInIDOrder()
        let inShard = order.map { shard?.contains(subjectHash: table.hash(at: $0)) ?? true }
        // The table's entries (64 bytes each, 128 MB for 2M subjects) go before the findings come.
        let (subjectRecords, accountApps, accountAppNames) = evaluationRecords(of: table, in: order, dataset: dataset)
        table.dropEntries()
        let subjects = consume table
        let names = dataset.names
        let discriminators = dataset.discriminators
        let duplicates = dataset.duplicates
        // Taken out of the dataset, so that each partition's records die once it is evaluated.
        var storage = dataset.storage
        dataset.storage = PartitionedArena()
        // The subjects of each partition, by their place in id order.
        var members = Array(repeating: [Int32](), count: storage.partitions.count)
        for rank in order.indices { members[storage.partition(ofHash: subjects.hash(at: order[rank]))].append(Int32(rank)) }
        let empty = EvaluationTotals(rules: subjectRules.count, appMatchers: context.appMatchers.count)
        var totals = empty
        for partition in members.indices {
            var arena = storage.partitions[partition]
            storage.partitions[partition] = PackedArena()
            do throws(SpillError) {
                try arena.load()
            } catch {
                throw DiagnosticsError([Diagnostic(.error, error.description, at: SourceLocation(file: error.directory))])
            }
            let loaded = arena
            let ranks = members[partition]
            members[partition] = []
            // Each worker adds up a run of subjects as it goes (findings, counts, the earliest
            // app matches), so that the per-subject results never pile up: with 2M subjects
            // they were a gigabyte, more than the packed data itself.
            let parts = max(1, request.parallelism) * 16
            let runs = (0..<parts).map { part in ranks.count * part / parts..<ranks.count * (part + 1) / parts }
            let threads = ranks.count > 64 ? request.parallelism : 1
            let runTotals = parallelMap(runs, parallelism: threads, serialUpTo: 1) { run -> EvaluationTotals in
                var totals = empty
                for place in run {
                    let rank = Int(ranks[place])
                    let id = subjects.id(at: order[rank])
                    let subject = subjectRecords[rank]
                    var events = subject.events.events(
                        subject: id, names: names, discriminators: discriminators, duplicates: duplicates, arena: loaded)
                    if !discriminators.isEmpty { Fingerprint.keepDiscriminatorsWithinSubject(&events) }
                    let account = StoredAccount.unpack(at: subject.account, in: loaded)
                    if request.partition != nil, !inShard[rank] {
                        // A partition's inputs hold its subjects only: another's would be counted twice.
                        if let location = (events.map(\.location) + [account?.location].compactMap { $0 }).min() {
                            totals.strays.append((id, location))
                        }
                        continue
                    }
                    let result = (inShard[rank] ? evaluator : appMatchersOnly).evaluate(
                        Timeline(
                            subject: id, events: events, account: account,
                            accountApp: accountApps[rank] < 0 ? nil : accountAppNames[Int(accountApps[rank])],
                            relayDomains: request.relayDomains))
                    totals.add(result, inShard: inShard[rank], rank: rank)
                }
                return totals
            }
            // Added to the one running total in place: a `reduce(into: totals)` starts from a
            // copy of it, whose first append may copy every finding of the partitions before.
            for part in runTotals { totals.add(part) }
        }
        if let partition = request.partition, !totals.strays.isEmpty {
            throw DiagnosticsError(
                totals.strays.sorted { $0.location < $1.location }.prefix(DatasetBuilder.noteLimit).map { stray in
                    Diagnostic(
                        .error,
                        "subject '\(stray.subject)' belongs to partition \(Shard.slot(of: stray.subject, among: partition.count) + 1)/\(partition.count), not \(partition): give each partition run its own subjects only (`relaylint split`)",
                        at: stray.location)
                })
        }
        // Ties between app matches go to the subject first in id order.
        let appMatches = totals.appMatches.map { matches in
            matches.mapValues { PartialEvaluation.AppMatch(evidence: $0.evidence, subject: subjects.id(at: order[$0.rank])) }
        }
        // What the pass needed is let go of before the findings are unpacked: at 10M events the
        // run's peak is here, with 300k findings.
        _ = consume subjectRecords
        _ = consume order
        _ = consume subjects
        // Unpacked once the events are gone; taken out of the totals, so that the array is not
        // shared and the appends and the sort below change it in place.
        var packed = PackedFindings()
        swap(&packed, &totals.findings)
        var findings = (consume packed).unpacked()
        sortInReportOrder(&findings)
        var tallies = totals.tallies
        var subjectCount = 0
        var accountsPerApp: [String: Int] = [:]
        for (inShard, accountApp) in zip(inShard, accountApps) where inShard {
            subjectCount += 1
            if accountApp >= 0 { accountsPerApp[accountAppNames[Int(accountApp)], default: 0] += 1 }
        }
        let accountAppSet = Set(accountAppNames)
        let evaluation = PartialEvaluation(
            findings: findings, tallies: tallies.map(PartialEvaluation.RuleTally.init), appMatches: appMatches,
            appMatchCounts: totals.appMatchCounts, subjects: subjectCount, anonymizedSubjects: totals.anonymized,
            accountsPerApp: accountsPerApp, appsSeen: dataset.appsSeen.union(accountAppSet).sorted(),
            appsCreatingAccounts: dataset.appsCreatingAccounts.union(accountAppSet).sorted(),
            inputs: dataset.inputs + request.extraInputs, skipped: dataset.skipped, notes: dataset.notes,
            events: dataset.eventCount, duplicates: dataset.duplicateCount,
            eventsPerDay: dataset.eventsPerDay.sorted { $0.key < $1.key }.map { PartialEvaluation.DayCount(day: $0.key, count: $0.value) },
            earliest: dataset.earliest, latest: dataset.latest, horizon: context.horizon,
            relayAccountsExported: dataset.relayAccountsExported, appleEntriesExported: dataset.appleEntriesExported)
        tallies = []
        return evaluation
    }

    /// What the evaluation needs of each subject, by its place in id order (`order`): its packed
    /// events and account (16 bytes), and its account's app as an index into `appNames` (-1 for
    /// none).
    private static func evaluationRecords(of table: SubjectTable, in order: [Int], dataset: borrowing Dataset) -> (
        records: [(events: StoredEvents, account: Int)], accountApps: [Int32], appNames: [String]
    ) {
        var records: [(events: StoredEvents, account: Int)] = []
        records.reserveCapacity(order.count)
        var accountApps = [Int32](repeating: -1, count: order.count)
        var appNames: [String] = []
        var appIndex: [String: Int32] = [:]
        for (rank, index) in order.enumerated() {
            let subject = table[index]
            records.append((subject.events, subject.accountPosition))
            guard subject.hasAccount else { continue }
            let app = dataset.app(ofAccountOf: subject)
            if appIndex[app] == nil {
                appIndex[app] = Int32(appNames.count)
                appNames.append(app)
            }
            accountApps[rank] = appIndex[app]!
        }
        return (records, accountApps, appNames)
    }
}
