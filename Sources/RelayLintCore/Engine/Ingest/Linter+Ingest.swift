import Foundation

/// The ingest step on the entry point's side: from a request, the `Dataset` the evaluation
/// reads (with `DatasetBuilder`), and what the rules tell it to keep.
extension Linter {
    static func read(_ request: LintRequest) throws(DiagnosticsError) -> Dataset {
        let subjectRules = request.rules.rules.filter { $0.scope == .subject }
        let appRules = request.rules.rules.filter { $0.scope == .app }
        var builder = DatasetBuilder(
            relayDomains: request.relayDomains, skipInvalid: request.skipInvalid,
            retainedTypes: retainedTypes(of: request.rules.rules))
        builder.parallelism = request.parallelism
        builder.masker = PIIMasker(isEnabled: !request.showPII)
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
        // Whether the problems are bad records --skip-invalid passes over, and only those.
        var skippableRecordsMet = false
        var otherProblemsMet = false
        func stop() -> DiagnosticsError {
            DiagnosticsError(problems, onlySkippableRecords: skippableRecordsMet && !otherProblemsMet)
        }
        func add(_ error: InputError) {
            problems.append(contentsOf: error.diagnostics)
            if case .skippableRecords = error { skippableRecordsMet = true } else { otherProblemsMet = true }
        }
        if let manifestPath = request.manifestPath {
            do {
                let manifestKeys = Set(request.rules.rules.flatMap(manifestKeys(of:)))
                let (manifest, sha256) = try AppManifestLoader.load(
                    path: manifestPath, ruleKeys: request.acceptsEveryManifestKey ? nil : manifestKeys)
                builder.setManifest(manifest, sha256: sha256)
            } catch {
                problems.append(contentsOf: error.diagnostics)
                otherProblemsMet = true
            }
        }
        if let path = request.subjectMapPath {
            do { builder.addInput(try SubjectMap.load(path: path, into: &builder.appleAccounts)) } catch {
                problems.append(contentsOf: error.diagnostics)
                otherProblemsMet = true
            }
        }
        // The logs that are files are recognised before the accounts are read: only a log joined
        // to accounts by Apple user id (Apple's notifications) needs every account's Apple ids
        // indexed, which at 2M accounts took 160 MiB. A pipe is recognised in its turn, as
        // before (its writer may be waiting for the accounts to be read), so with a pipe among
        // the logs the ids are indexed in case it needs them.
        var recognized: [Int: Result<(format: EventLogFormat, opened: OpenedInput?), InputError>] = [:]
        var mayJoinAppleIDs = false
        for (index, path) in request.eventPaths.enumerated() {
            guard FileBytes.isRegularFile(path) else {
                mayJoinAppleIDs = true
                continue
            }
            let outcome = Result { () throws(InputError) in try format(of: path, at: index, request: request) }
            recognized[index] = outcome
            if case .success((.mapped(let mapping), _)) = outcome, mapping.joinsAppleIDs { mayJoinAppleIDs = true }
        }
        builder.indexesAppleIDs = mayJoinAppleIDs
        for path in request.accountPaths {
            do { try builder.readAccounts(path: path) } catch {
                add(error)
                if builder.stoppedEarly { throw stop() }
            }
        }
        // A partition sees some of the accounts: the merge notes an old export for the whole.
        if let first = request.accountPaths.first, request.partition == nil { builder.noteOldExport(path: first) }
        // Logs whose events are joined to accounts by Apple user id come last, once every
        // account and event that can name one has been read; their input order stays theirs.
        var joinedLast: [(index: Int, path: String, mapping: LogMapping, opened: OpenedInput?)] = []
        for (index, path) in request.eventPaths.enumerated() {
            do {
                let recognition: (format: EventLogFormat, opened: OpenedInput?)
                if let known = recognized[index] {
                    recognition = try known.get()
                } else {
                    recognition = try format(of: path, at: index, request: request)
                }
                let (format, opened) = recognition
                switch format {
                case .native: try builder.readEvents(path: path, fileIndex: index, opened: opened)
                // Given last, a pipe is read in its turn: every input its joins need is read.
                case .mapped(let mapping) where mapping.joinsAppleIDs && opened != nil && index == request.eventPaths.count - 1:
                    try builder.readMappedEvents(
                        path: path, fileIndex: index, mapping: mapping, otherMappings: request.mappings(besides: mapping),
                        keys: request.appleKeys, opened: opened)
                // A pipe given before other inputs waits in a temporary file, so that its joins see
                // every input, as a file's do; inputs given after it are read before it, so they
                // must know its ids (the first use of an id is the one given first).
                case .mapped(let mapping) where mapping.joinsAppleIDs:
                    let waiting = try opened?.spooled(
                        path: path, directory: request.temporaryDirectory ?? FileManager.default.temporaryDirectory.path)
                    if index < request.eventPaths.count - 1 { try builder.expectIDs(ofLog: path, mapping: mapping, opened: waiting) }
                    joinedLast.append((index, path, mapping, waiting))
                case .mapped(let mapping):
                    try builder.readMappedEvents(
                        path: path, fileIndex: index, mapping: mapping, otherMappings: request.mappings(besides: mapping),
                        keys: request.appleKeys, opened: opened)
                }
            } catch {
                add(error)
                // Too many invalid records, or one from a pipe: nothing more is read.
                if builder.stoppedEarly { throw stop() }
            }
        }
        builder.beginLogsReadLast()
        for log in joinedLast {
            do {
                try builder.readMappedEvents(
                    path: log.path, fileIndex: log.index, mapping: log.mapping,
                    otherMappings: request.mappings(besides: log.mapping), keys: request.appleKeys, opened: log.opened)
            } catch {
                add(error)
                if builder.stoppedEarly { throw stop() }
            }
        }
        if let keys = request.appleKeys {
            builder.addInput(InputFileSummary(path: keys.path, kind: .keys, sha256: keys.sha256, records: keys.count))
        }
        let dataset: Dataset
        do {
            dataset = try builder.finish()
        } catch {
            add(error)
            throw stop()
        }
        guard problems.isEmpty else { throw stop() }
        return dataset
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

    /// The format of the log at `path`: the one `--events-format` names for it, else the one its
    /// first record shows.
    private static func format(
        of path: String, at index: Int, request: LintRequest
    ) throws(InputError) -> (format: EventLogFormat, opened: OpenedInput?) {
        let forced = request.eventFormats.isEmpty ? nil : request.eventFormats[request.eventFormats.count == 1 ? 0 : index]
        // A named format is read as it is: nothing is taken from the file to recognise it, but a
        // pipe is opened here, as for a recognised one, so that it is read as it is written.
        if let forced, let named = try EventLogFormat.named(forced, mappings: request.mappings, path: path) {
            let opened = try EventLogFormat.openedForNamedFormat(path: path)
            try EventLogFormat.refuseArchive(path: path, opened: opened)
            return (named, opened)
        }
        return try EventLogFormat.recognize(path: path, mappings: request.mappings)
    }
}

extension LintRequest {
    /// The formats `--events` reads besides `mapping`, named when a record of one of them is met
    /// in a log of `mapping`'s format.
    fileprivate func mappings(besides mapping: LogMapping) -> [LogMapping] { mappings.filter { $0.id != mapping.id } }
}
