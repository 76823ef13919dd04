import Dispatch
import Foundation

/// What to check and how: the inputs of one `relaylint check` run.
public struct LintRequest: Sendable {
    public var eventPaths: [String]
    /// How logs other than relaylint's own become events (the built-in mappings and the team's);
    /// each `--events` file is recognised from its content.
    public var mappings: [LogMapping] = []
    /// Apple's public keys (`--apple-keys`): every signed notification is checked against them.
    public var appleKeys: SigningKeySet?
    /// `--subject-map`: Apple user ids and the accounts that hold them.
    public var subjectMapPath: String?
    public var accountPaths: [String]
    public var manifestPath: String?
    public var rules: RuleSet
    public var relayDomains: RelayDomains
    /// Count and list bad records instead of stopping (`--skip-invalid`).
    public var skipInvalid: Bool
    /// Show emails and phone numbers unmasked (`--show-pii`).
    public var showPII: Bool
    public var toolVersion: String
    /// Threads for the subject pass; the report does not depend on it.
    public var parallelism: Int
    /// Accepted findings (from configuration); empty with `--no-suppressions`.
    public var suppressions: [Suppression] = []
    /// Fingerprints of an earlier report (`--baseline`): those findings are left out.
    public var baselineFingerprints: Set<String> = []
    /// The review day, `YYYY-MM-DD`, for suppression expiry; the library never reads the clock.
    public var asOfDay: String?
    /// Inputs to list in the report besides the data (the configuration file).
    public var extraInputs: [InputFileSummary] = []
    /// Called now and then while the logs are read (on the reading thread), for a progress
    /// display; the library itself never prints.
    public var progress: (@Sendable (LintProgress) -> Void)?
    /// Evaluate only this slice of the subjects (`--shard K/N`); `ShardMerger` adds the slices up.
    public var shard: Shard?
    /// The partition the inputs hold (`--partition K/N`): they hold only its subjects (another
    /// subject is an error), and the run stops at `PartialEvaluation` for `PartitionMerger`.
    public var partition: Shard?
    /// The end of the whole data (`--data-end`), when the inputs are a part of it: windows still
    /// open at it are pending, as in a run over all the data. Nil: the latest event read.
    public var dataEnd: Timestamp?
    /// Inputs (logs and exports together) larger than this many bytes are read into a temporary
    /// file, in partitions by subject, and evaluated a partition at a time, so that memory holds
    /// one partition's events instead of all of them; so are inputs with a pipe among them, whose
    /// size is not known before it is read. 0 spills any input, `Int.max` none. The report does
    /// not depend on it.
    var spillThreshold = 128 << 20
    /// Where the temporary file goes; the system's (`TMPDIR`) when nil. When no file can be made
    /// there, the run keeps everything in memory.
    var temporaryDirectory: String?
    /// How a spilling run lays out its partitions; derived from the input size when nil (tests
    /// set it, to spill small inputs in many small chunks).
    var spillLayout: PartitionedArena.Layout?
    /// Timelines of at least this many steps are searched through indexes (`TimelineSearch`);
    /// shorter ones are walked. The report does not depend on it (tests compare both).
    var indexedSearchFrom = TimelineSearch.minimumSteps

    public init(
        eventPaths: [String] = [], accountPaths: [String] = [], manifestPath: String? = nil, rules: RuleSet,
        relayDomains: RelayDomains = RelayDomains(), skipInvalid: Bool = false, showPII: Bool = false,
        toolVersion: String = RelayLintVersion.current, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.eventPaths = eventPaths
        self.accountPaths = accountPaths
        self.manifestPath = manifestPath
        self.rules = rules
        self.relayDomains = relayDomains
        self.skipInvalid = skipInvalid
        self.showPII = showPII
        self.toolVersion = toolVersion
        self.parallelism = max(1, parallelism)
    }
}

/// The library's entry point: reads the inputs, evaluates every rule, returns the report.
public enum Linter {
    /// Runs one check. Throws every input problem found (with file and line) when the inputs
    /// cannot be trusted; never prints.
    public static func run(_ request: LintRequest) throws(DiagnosticsError) -> LintReport {
        let subjectRules = request.rules.rules.filter { $0.scope == .subject }
        let appRules = request.rules.rules.filter { $0.scope == .app }
        do {
            return try evaluate(try read(request), subjectRules: subjectRules, appRules: appRules, request: request)
        } catch {
            throw DiagnosticsError(masked(error.diagnostics, by: PIIMasker(isEnabled: !request.showPII)))
        }
    }

    /// The map step of a partitioned run (`--partition K/N`): reads the partition's inputs and
    /// evaluates its subjects, leaving the app rules and the report to `PartitionMerger`.
    public static func runPartition(_ request: LintRequest) throws(DiagnosticsError) -> PartialEvaluation {
        let subjectRules = request.rules.rules.filter { $0.scope == .subject }
        let appRules = request.rules.rules.filter { $0.scope == .app }
        do {
            return try subjectPass(try read(request), subjectRules: subjectRules, appRules: appRules, request: request)
        } catch {
            throw DiagnosticsError(masked(error.diagnostics, by: PIIMasker(isEnabled: !request.showPII)))
        }
    }

    private static func read(_ request: LintRequest) throws(DiagnosticsError) -> Dataset {
        let subjectRules = request.rules.rules.filter { $0.scope == .subject }
        let appRules = request.rules.rules.filter { $0.scope == .app }
        var builder = DatasetBuilder(
            relayDomains: request.relayDomains, skipInvalid: request.skipInvalid,
            retainedTypes: retainedTypes(of: request.rules.rules))
        builder.parallelism = request.parallelism
        builder.shard = request.shard
        builder.progress = request.progress
        if request.progress != nil { builder.totalEventBytes = request.eventPaths.reduce(0) { $0 + (knownSize($1) ?? 0) } }
        builder.outsideShardTypes = outsideShardTypes(appRules: appRules, subjectRules: subjectRules)
        if let layout = spillLayout(for: request),
            let file = SpillFile(directory: request.temporaryDirectory ?? FileManager.default.temporaryDirectory.path)
        {
            builder.spill(to: file, layout: layout)
        }
        var problems: [Diagnostic] = []
        if let manifestPath = request.manifestPath {
            do {
                let manifestKeys = Set(request.rules.rules.flatMap(manifestKeys(of:)))
                let (manifest, sha256) = try AppManifestLoader.load(path: manifestPath, ruleKeys: manifestKeys)
                builder.setManifest(manifest, sha256: sha256)
            } catch {
                problems.append(contentsOf: error.diagnostics)
            }
        }
        if let path = request.subjectMapPath {
            do { builder.addInput(try SubjectMap.load(path: path, into: &builder.appleAccounts)) } catch {
                problems.append(contentsOf: error.diagnostics)
            }
        }
        for path in request.accountPaths {
            do { try builder.readAccounts(path: path) } catch { problems.append(contentsOf: error.diagnostics) }
        }
        // A partition sees some of the accounts: the merge notes an old export for the whole.
        if let first = request.accountPaths.first, request.partition == nil { builder.noteOldExport(path: first) }
        // Logs whose events are joined to accounts by Apple user id come last, once every
        // account and event that can name one has been read; their input order stays theirs.
        var joinedLast: [(index: Int, path: String, mapping: LogMapping)] = []
        for (index, path) in request.eventPaths.enumerated() {
            do {
                let (format, opened) = try EventLogFormat.recognize(path: path, mappings: request.mappings)
                switch format {
                case .native: try builder.readEvents(path: path, fileIndex: index, opened: opened)
                // A pipe cannot wait: its joins see what was read before it.
                case .mapped(let mapping) where mapping.joinsAppleIDs && opened == nil: joinedLast.append((index, path, mapping))
                case .mapped(let mapping):
                    try builder.readMappedEvents(
                        path: path, fileIndex: index, mapping: mapping, keys: request.appleKeys, opened: opened)
                }
            } catch {
                problems.append(contentsOf: error.diagnostics)
                // Too many invalid records, or one from a pipe: nothing more is read.
                if builder.stoppedEarly { throw DiagnosticsError(problems) }
            }
        }
        for log in joinedLast {
            do { try builder.readMappedEvents(path: log.path, fileIndex: log.index, mapping: log.mapping, keys: request.appleKeys) } catch {
                problems.append(contentsOf: error.diagnostics)
                if builder.stoppedEarly { throw DiagnosticsError(problems) }
            }
        }
        if let keys = request.appleKeys {
            builder.addInput(InputFileSummary(path: keys.path, kind: .keys, sha256: keys.sha256, records: keys.count))
        }
        let dataset: Dataset
        do {
            dataset = try builder.finish()
        } catch {
            problems.append(contentsOf: error.diagnostics)
            throw DiagnosticsError(problems)
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        return dataset
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

    /// How the run lays out its temporary file, or nil when it keeps everything in memory: it
    /// spills when the inputs add up to more than `spillThreshold`, or when one of them is a pipe
    /// (`--events <(gunzip -c events.jsonl.gz)` may hold any number of events: kept in memory,
    /// 10M took 1.5 GiB).
    static func spillLayout(for request: LintRequest) -> PartitionedArena.Layout? {
        let sizes = (request.eventPaths + request.accountPaths).map(knownSize)
        let known = sizes.reduce(0) { $0 + ($1 ?? 0) }
        let unknown = sizes.contains(nil)
        guard known > request.spillThreshold || (unknown && request.spillThreshold < .max) else { return nil }
        // Laid out as if a pipe held a gibibyte, so that a large one does not crowd a few partitions.
        return request.spillLayout ?? PartitionedArena.Layout(forInputBytes: known + (unknown ? 1 << 30 : 0))
    }

    /// A regular file's size; nil for an input whose size is not known before it is read (a pipe,
    /// a device); 0 when it cannot be read (reading it reports why).
    private static func knownSize(_ path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return 0 }
        // A compressed log holds several times its size.
        if GzipStream.isGzip(path: path) { return nil }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
        return attributes[.size] as? Int ?? 0
    }

    /// - Parameter dataset: taken over, so that no caller's copy keeps what the pass lets go of
    ///   (the subject table's lookup index) alive through it.
    static func evaluate(
        _ dataset: consuming Dataset, subjectRules: [Rule], appRules: [Rule], request: LintRequest
    ) throws(DiagnosticsError) -> LintReport {
        let manifest = dataset.manifest
        let evaluation = try subjectPass(dataset, subjectRules: subjectRules, appRules: appRules, request: request)
        return assemble(evaluation, manifest: manifest, subjectRules: subjectRules, appRules: appRules, request: request)
    }

    /// The map step: evaluates the subject rules on every subject of the dataset (of the shard or
    /// partition, with `--shard` or `--partition`) and adds up what the report needs.
    /// - Parameter dataset: taken over, as in `evaluate`.
    static func subjectPass(
        _ dataset: consuming Dataset, subjectRules: [Rule], appRules: [Rule], request: LintRequest
    ) throws(DiagnosticsError) -> PartialEvaluation {
        let (appMatchers, appMatcherNeeds) = EvaluationContext.appMatchers(appRules: appRules, subjectRules: subjectRules)
        if let end = request.dataEnd, let latest = dataset.latest, latest > end {
            throw DiagnosticsError([
                Diagnostic(
                    .error, "the data holds an event at \(latest), after --data-end \(end): give the end of the whole data",
                    at: SourceLocation(file: dataset.inputs.first { $0.kind == .events && $0.lastTime == latest }?.path ?? ""))
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
                    let events = subject.events.events(
                        subject: id, names: names, discriminators: discriminators, duplicates: duplicates, arena: loaded)
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

    /// Sorts the findings in report order through a permutation of their indices, then moves each
    /// into place: the standard sort's merge buffer holds half the elements, 30 MB of findings at
    /// 10M events, at the run's peak. The indices are sorted as the findings were (the same
    /// algorithm, stable in practice), so equal findings keep their order as before.
    static func sortInReportOrder(_ findings: inout [Finding]) {
        var order = Array(0..<findings.count)
        findings.withUnsafeBufferPointer { findings in order.sort { Finding.reportOrder(findings[$0], findings[$1]) } }
        // The element for place i is at order[i]: each cycle of the permutation is followed once,
        // carrying the cycle's first element along by swaps.
        var placed = [Bool](repeating: false, count: findings.count)
        findings.withUnsafeMutableBufferPointer { findings in
            for start in findings.indices where !placed[start] {
                var place = start
                while true {
                    placed[place] = true
                    let source = order[place]
                    if source == start { break }
                    findings.swapAt(place, source)
                    place = source
                }
            }
        }
    }

    /// Marks the findings that a live suppression accepts; expired suppressions apply to nothing.
    static func applySuppressions(_ suppressions: [Suppression], to findings: inout [Finding], asOf day: String?) -> [SuppressionOutcome] {
        var outcomes = suppressions.map { suppression in
            SuppressionOutcome(suppression: suppression, status: day.map(suppression.isExpired) ?? false ? .expired : .stale, matched: 0)
        }
        for index in findings.indices {
            for (number, suppression) in suppressions.enumerated() where suppression.matches(findings[index]) {
                outcomes[number].matched += 1
                guard outcomes[number].status != .expired else { continue }
                outcomes[number].status = .active
                if findings[index].suppression == nil { findings[index].suppression = suppression }
            }
        }
        return outcomes
    }

    /// Event types any rule can look at; nil when some matcher accepts every type.
    static func retainedTypes(of rules: [Rule]) -> Set<String>? {
        var types: Set<String> = []
        for rule in rules {
            let matchers = [rule.trigger].compactMap { $0 } + rule.requirement.matchers
            for matcher in matchers {
                guard let referenced = matcher.referencedTypes else { return nil }
                types.formUnion(referenced)
            }
        }
        return types
    }

    /// Event types to keep for subjects outside the shard: those app matchers can look at (the
    /// app rules' and the triggers of rules that need a declaration), plus the identity events
    /// when a matcher tests the subject's state.
    static func outsideShardTypes(appRules: [Rule], subjectRules: [Rule]) -> Set<String>? {
        let matchers = EvaluationContext.appMatchers(appRules: appRules, subjectRules: subjectRules).matchers
        var types: Set<String> = []
        for matcher in matchers {
            guard let referenced = matcher.referencedTypes else { return nil }
            types.formUnion(referenced)
            if matcher.readsSubjectState { types.formUnion(DatasetBuilder.identityTypes) }
        }
        return types
    }

    /// Manifest declarations the rule reads, which a manifest may therefore contain.
    static func manifestKeys(of rule: Rule) -> [String] {
        func keys(_ matcher: EventMatcher) -> [String] {
            var result = Array(matcher.appManifest.keys)
            for condition in matcher.fields {
                if case .listedInManifest(let key) = condition.test { result.append(key) }
            }
            return result + (matcher.anyOf + matcher.allOf + matcher.noneOf).flatMap(keys)
        }
        func keys(_ requirement: Requirement) -> [String] {
            switch requirement {
            case .manifest(let declarations): Array(declarations.keys)
            case .all(let inner), .any(let inner): inner.flatMap(keys)
            case .conditional(_, let inner): keys(inner)
            default: []
            }
        }
        let matchers = [rule.trigger].compactMap { $0 } + rule.requirement.matchers
        return keys(rule.requirement) + Array(rule.appCondition?.manifest.keys ?? [:].keys) + matchers.flatMap(keys)
            + [rule.declarationNeed?.key].compactMap { $0 }
    }

    /// Maps over the items on several threads, keeping the items' order in the result.
    /// - Parameter serialUpTo: up to this many items, one thread does it all (starting threads
    ///   costs more than a few small items).
    static func parallelMap<T: Sendable, R: Sendable>(
        _ items: [T], parallelism: Int, serialUpTo: Int = 64, _ transform: @Sendable (T) -> R
    ) -> [R] {
        guard parallelism > 1, items.count > serialUpTo else { return items.map(transform) }
        let slots = UnsafeMutableBufferPointer<R?>.allocate(capacity: items.count)
        slots.initialize(repeating: nil)
        defer { slots.deallocate() }
        let box = UnsafeSendable(slots)
        let chunkCount = min(items.count, parallelism * 8)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let start = items.count * chunk / chunkCount
            let end = items.count * (chunk + 1) / chunkCount
            for index in start..<end { box.value[index] = transform(items[index]) }
        }
        // Moved out, not copied: a copy left every result retained by the freed buffer (a leak
        // of ~230 bytes per exported user: 420 MB of a 2M-user export stayed resident).
        return slots.indices.map { (slots.baseAddress! + $0).move()! }
    }
}

/// Hands a buffer whose elements are written by disjoint indices to concurrent workers.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// What the subject pass adds up: in-shard findings (in no particular order: the report sorts
/// them), per-rule counts, the earliest match per app of each app-rule matcher (over all
/// subjects), anonymized subjects. Adding up does not depend on the order the subjects come in.
private struct EvaluationTotals: Sendable {
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
