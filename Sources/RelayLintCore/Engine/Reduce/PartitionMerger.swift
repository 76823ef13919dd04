import Foundation

/// Adds up the partials of `relaylint check --partition K/N` runs (the reduce step of a
/// partitioned run) into the `PartialEvaluation` of all the data, from which
/// `Linter.report(merging:request:)` makes the report a single run gives.
///
/// Each partition read its own files, so its inputs are named by its own paths: the merge
/// names them by the original files (`--sources`, written by `relaylint split`), adds their
/// counts up, and points every location at the original file (`split` keeps each record on its
/// original line).
public enum PartitionMerger {
    /// The files a partitioned run's data came from (`relaylint split` writes `sources.json`).
    public struct Sources: Sendable, Codable, Equatable {
        /// One original account export or log, in the order the partition runs are given theirs.
        public struct Input: Sendable, Codable, Equatable {
            public var path: String
            public var kind: InputKind
            public var sha256: String

            public init(path: String, kind: InputKind, sha256: String) {
                self.path = path
                self.kind = kind
                self.sha256 = sha256
            }
        }

        public var partitions: Int
        /// The latest event time of all the data: each partition run's `--data-end`.
        public var dataEnd: Timestamp?
        public var inputs: [Input]

        public init(partitions: Int, dataEnd: Timestamp?, inputs: [Input]) {
            self.partitions = partitions
            self.dataEnd = dataEnd
            self.inputs = inputs
        }
    }

    /// Reads several partials at once, on up to `parallelism` threads: decoding them was half of
    /// a merge's time, one after the other. Every problem of every file is reported.
    public static func read(
        _ inputs: [(path: String, data: Data)], parallelism: Int
    ) throws(DiagnosticsError) -> [(path: String, report: PartitionReport)] {
        let outcomes = Linter.parallelMap(inputs, parallelism: parallelism, serialUpTo: 1) { input in
            Result { () throws(DiagnosticsError) in try read(path: input.path, data: input.data) }
        }
        var partials: [(path: String, report: PartitionReport)] = []
        var problems: [Diagnostic] = []
        for (input, outcome) in zip(inputs, outcomes) {
            switch outcome {
            case .success(let report): partials.append((input.path, report))
            case .failure(let error): problems += error.diagnostics
            }
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        return partials
    }

    /// Reads a partial, naming the file in what is wrong with it.
    ///
    /// What the messages quote of the file (a value the decoder could not read, a subject id) is
    /// masked: a partial holds addresses unmasked, and standard error goes to CI logs.
    public static func read(path: String, data: Data) throws(DiagnosticsError) -> PartitionReport {
        let report: PartitionReport
        try JSONValueCount.check(data, path: path, kind: "a partial")
        do {
            report = try PartitionReport.read(data)
        } catch {
            // Cut short, unless the parser says otherwise: text after a whole JSON value (a NUL)
            // or nesting past its depth also leaves a partial that does not end in `}`.
            let notCut =
                (error as? JSONParser.SyntaxError).map {
                    $0.reason.hasPrefix("nesting deeper") || $0.reason.hasPrefix("unexpected text after")
                } ?? false
            let truncated = !data.isEmpty && !notCut && data.last != UInt8(ascii: "}") && data.last != UInt8(ascii: "\n")
            if truncated {
                throw DiagnosticsError([
                    Diagnostic(
                        .error, "the partial is truncated (it ends in the middle of its JSON): run its partition again",
                        at: SourceLocation(file: path))
                ])
            }
            var location = SourceLocation(file: path)
            if let syntax = error as? JSONParser.SyntaxError {
                (location.line, location.column) = data.withUnsafeBytes { raw in
                    FileBytes.lineAndColumn(of: syntax.offset, in: raw.bindMemory(to: UInt8.self))
                }
            }
            throw DiagnosticsError(
                Linter.masked(
                    [
                        Diagnostic(
                            .error,
                            "not a relaylint partial (`check --partition K/N --format json`): "
                                + (JSONReportDocument.notAWholeCount(error, in: data) ?? describe(error)), at: location)
                    ],
                    by: PIIMasker()))
        }
        let problems = report.problems()
        guard problems.isEmpty else {
            throw DiagnosticsError(Linter.masked(problems.map { Diagnostic(.error, $0, at: SourceLocation(file: path)) }, by: PIIMasker()))
        }
        return report
    }

    /// What the parser or the decoder found wrong, and where in the partial's structure, in the
    /// words a report read back uses (`JSONReportDocument.reason`): `'evaluation.events' must be
    /// a number`. A value one of the partial's own decoders refused says why too (a time that is
    /// no RFC 3339 time); the caller masks what it quotes.
    private static func describe(_ error: any Error) -> String {
        if let syntax = error as? JSONParser.SyntaxError { return syntax.reason }
        if case .dataCorrupted(let context)? = error as? DecodingError, !context.codingPath.isEmpty, !context.debugDescription.isEmpty {
            return "'\(JSONReportDocument.place(context))': \(context.debugDescription)"
        }
        return JSONReportDocument.reason(error)
    }

    /// Reads `sources.json` as `relaylint split` writes it; what is wrong with it, in a few
    /// words, otherwise.
    public static func readSources(_ data: Data, path: String) throws(DiagnosticsError) -> Sources {
        func refusal(_ reason: String, line: Int = 0, column: Int? = nil) -> DiagnosticsError {
            DiagnosticsError([
                Diagnostic(
                    .error, "not the sources.json of `relaylint split`: \(reason)",
                    at: SourceLocation(file: path, line: line, column: column))
            ])
        }
        // JSON as `split` writes it, read strictly first: Foundation's decoder took a trailing
        // comma, and named no line for a syntax error.
        let parsed: Result<JSONValue, JSONParser.SyntaxError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return Result { () throws(JSONParser.SyntaxError) in try JSONParser.parseDocument(bytes) }
        }
        if case .failure(let error) = parsed {
            let (line, column) = data.withUnsafeBytes { FileBytes.lineAndColumn(of: error.offset, in: $0.bindMemory(to: UInt8.self)) }
            throw refusal("it is not JSON: \(error.reason)", line: line, column: column)
        }
        let kinds = [InputKind.events, .accounts].map(\.rawValue)
        if case .success(.object(let members)) = parsed, case .array(let inputs)? = members["inputs"] {
            for (index, input) in inputs.enumerated() {
                guard case .object(let fields) = input else { continue }
                if case .string(let kind)? = fields["kind"], !kinds.contains(kind) {
                    throw refusal("'inputs[\(index)].kind' must be \(kinds.joined(separator: " or ")), found '\(PIIMasker().mask(kind))'")
                }
                if case .string(let hash)? = fields["sha256"], !isSHA256(hash) {
                    throw refusal(
                        "'inputs[\(index)].sha256' must be a SHA-256 (64 lowercase hexadecimal digits), found '\(PIIMasker().mask(hash).shortened())'"
                    )
                }
            }
        }
        do {
            return try JSONDecoder().decode(Sources.self, from: data)
        } catch {
            throw refusal(JSONReportDocument.reason(error))
        }
    }

    /// Whether `text` is a SHA-256 as relaylint writes one: 64 lowercase hexadecimal digits.
    private static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { ("0"..."9").contains(Unicode.Scalar($0)) || ("a"..."f").contains(Unicode.Scalar($0)) }
    }

    /// Merges the partials, checking that they are every partition of one run.
    ///
    /// What the messages quote of the partials is masked, as in `read(path:data:)`.
    /// - Parameters:
    ///   - settings: the merge's own settings, which must be the partitions'.
    ///   - rules: every rule run, by id, with its severity: a finding of another rule, or of
    ///     another severity, is not one a partition wrote.
    ///   - appRules: the ids of the app rules run, whose findings name an app and belong to no
    ///     partition; every other finding must be of a subject of its partial's partition.
    ///   - toolVersion: the merge's version, which must be the partitions'.
    public static func merge(
        _ partials: [(path: String, report: PartitionReport)], sources: Sources?, settings: PartitionSettings, rules: [String: Severity],
        appRules: Set<String>, toolVersion: String
    ) throws(DiagnosticsError) -> PartialEvaluation {
        do {
            return try adding(
                partials, sources: sources, settings: settings, rules: rules, appRules: appRules, toolVersion: toolVersion)
        } catch {
            throw DiagnosticsError(Linter.masked(error.diagnostics, by: PIIMasker()))
        }
    }

    private static func adding(
        _ partials: [(path: String, report: PartitionReport)], sources: Sources?, settings: PartitionSettings, rules: [String: Severity],
        appRules: Set<String>, toolVersion: String
    ) throws(DiagnosticsError) -> PartialEvaluation {
        guard let first = partials.first else {
            throw DiagnosticsError([Diagnostic(.error, "no partials to merge", at: SourceLocation(file: ""))])
        }
        var problems = SliceCompleteness.problems(partials.map { ($0.path, $0.report.partition) }, kind: "partition", file: "partial")
        for (path, report) in partials {
            let at = SourceLocation(file: path)
            if report.tool.version != toolVersion {
                problems.append(
                    Diagnostic(.error, "was written by relaylint \(report.tool.version), not by this one (\(toolVersion))", at: at))
            } else if let difference = report.settings.difference(from: settings) {
                problems.append(Diagnostic(.error, "was checked with other options than this merge's: \(difference)", at: at))
            }
            if let unknown = report.unknownRuleProblem(severities: rules) { problems.append(Diagnostic(.error, unknown, at: at)) }
            if let foreign = report.foreignSubjectProblem(appRules: appRules) { problems.append(Diagnostic(.error, foreign, at: at)) }
            let shape = { (evaluation: PartialEvaluation) in
                [evaluation.tallies.count, evaluation.appMatches.count, evaluation.appMatchCounts.count]
            }
            if shape(report.evaluation) != shape(first.report.evaluation) {
                problems.append(
                    Diagnostic(
                        .error,
                        "holds counts for \(report.evaluation.tallies.count) subject rules and \(report.evaluation.appMatches.count) app matchers, "
                            + "\(first.path) for \(first.report.evaluation.tallies.count) and \(first.report.evaluation.appMatches.count)",
                        at: at))
            }
            // A partition run without --data-end is told apart below, with what to run again.
            if let sources, report.dataEnd != nil, report.dataEnd != sources.dataEnd {
                problems.append(
                    Diagnostic(
                        .error,
                        "was checked with --data-end \(report.dataEnd.map(\.description) ?? "(none)"), "
                            + "where the sources say the data ends at \(sources.dataEnd.map(\.description) ?? "(none)")", at: at))
            } else if report.dataEnd != first.report.dataEnd {
                problems.append(
                    Diagnostic(
                        .error,
                        "was checked with --data-end \(report.dataEnd.map(\.description) ?? "(none)"), "
                            + "\(first.path) with \(first.report.dataEnd.map(\.description) ?? "(none)")", at: at))
            }
            if report.evaluation.inputs.map(\.kind) != first.report.evaluation.inputs.map(\.kind) {
                problems.append(Diagnostic(.error, "read other kinds of input than \(first.path)", at: at))
            }
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        let ordered = partials.sorted { $0.report.partition.index < $1.report.partition.index }
        let inputs = try mergedInputs(ordered, sources: sources)
        // Each partial's own paths for the data, and the merged ones.
        var renames: [[String: String]] = []
        for (_, report) in ordered {
            var rename: [String: String] = [:]
            for (own, merged) in zip(report.evaluation.inputs, inputs) where own.path != merged.path { rename[own.path] = merged.path }
            renames.append(rename)
        }
        let inputIndex = Dictionary(inputs.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { a, _ in a })

        var merged = PartialEvaluation(
            findings: [], tallies: first.report.evaluation.tallies.map { _ in PartialEvaluation.RuleTally() },
            appMatches: first.report.evaluation.appMatches.map { _ in [:] },
            appMatchCounts: first.report.evaluation.appMatchCounts.map { _ in [:] }, subjects: 0, anonymizedSubjects: 0,
            accountsPerApp: [:], appsSeen: [], appsCreatingAccounts: [], inputs: inputs, skipped: [], notes: [], events: 0,
            duplicates: 0, eventsPerDay: [], earliest: nil, latest: nil, horizon: Timestamp(nanoseconds: 0),
            relayAccountsExported: 0, appleEntriesExported: 0)
        var appsSeen: Set<String> = []
        var creating: Set<String> = []
        var perDay: [Int64: Int] = [:]
        // Notes and skipped records with where they sort: by input, line and column, then by
        // partition and their place in it.
        var notes: [(key: [Int], note: Diagnostic)] = []
        var skipped: [(key: [Int], note: Diagnostic)] = []
        // Each partition lists its own first look-alikes and invalid records, and counts the rest.
        var unlistedLookAlikes = 0
        var unlistedNotes = 0
        var unlistedInvalid = 0
        // Where each partition's first invalid record not listed is.
        var unlistedStarts: [(key: [Int], location: SourceLocation)] = []
        // What the report adds up across rules, apps and days must fit too.
        var totals = (accounts: 0, pending: 0, perDay: 0)
        for (number, (path, report)) in ordered.enumerated() {
            let evaluation = report.evaluation
            let rename = renames[number]
            let earlier = ordered[..<number].map(\.path)
            func add(_ value: Int, to total: inout Int, _ what: @autoclosure () -> String) throws(DiagnosticsError) {
                try PartitionMerger.add(value, to: &total, what(), in: path, after: earlier)
            }
            func moved(_ location: SourceLocation) -> SourceLocation {
                var location = location
                if let path = rename[location.file] { location.file = path }
                return location
            }
            func moved(_ diagnostic: Diagnostic) -> Diagnostic {
                var diagnostic = diagnostic
                diagnostic.location = moved(diagnostic.location)
                for (own, path) in rename { diagnostic.message = diagnostic.message.replacingOccurrences(of: own + ":", with: path + ":") }
                return diagnostic
            }
            func key(_ diagnostic: Diagnostic, _ place: Int) -> [Int] {
                let location = diagnostic.location
                return [inputIndex[location.file] ?? -1, location.line, location.column ?? 0, number, place]
            }
            merged.findings += evaluation.findings.map { finding in
                var finding = finding
                finding.location = finding.location.map(moved)
                for index in finding.evidence.indices { finding.evidence[index].location = moved(finding.evidence[index].location) }
                return finding
            }
            for (index, tally) in evaluation.tallies.enumerated() {
                try add(tally.triggered, to: &merged.tallies[index].triggered, "evaluation.tallies[\(index)].triggered")
                try add(tally.violated, to: &merged.tallies[index].violated, "evaluation.tallies[\(index)].violated")
                try add(tally.pending, to: &merged.tallies[index].pending, "evaluation.tallies[\(index)].pending")
                try add(tally.pending, to: &totals.pending, "pending checks of all rules")
            }
            for (index, matches) in evaluation.appMatches.enumerated() {
                for (app, match) in matches {
                    var match = match
                    match.evidence.location = moved(match.evidence.location)
                    if let earlier = merged.appMatches[index][app], earlier.precedes(match) { continue }
                    merged.appMatches[index][app] = match
                }
                for (app, count) in evaluation.appMatchCounts[index] {
                    try add(
                        count, to: &merged.appMatchCounts[index][app, default: 0],
                        "evaluation.appMatchCounts[\(index)][\(PartitionReport.quoted(app))]")
                }
            }
            try add(evaluation.subjects, to: &merged.subjects, "evaluation.subjects")
            try add(evaluation.anonymizedSubjects, to: &merged.anonymizedSubjects, "evaluation.anonymizedSubjects")
            for (app, count) in evaluation.accountsPerApp {
                try add(count, to: &merged.accountsPerApp[app, default: 0], "evaluation.accountsPerApp[\(PartitionReport.quoted(app))]")
                try add(count, to: &totals.accounts, "exported accounts of all apps")
            }
            appsSeen.formUnion(evaluation.appsSeen)
            creating.formUnion(evaluation.appsCreatingAccounts)
            try add(evaluation.events, to: &merged.events, "evaluation.events")
            try add(evaluation.duplicates, to: &merged.duplicates, "evaluation.duplicates")
            for day in evaluation.eventsPerDay {
                try add(day.count, to: &perDay[day.day, default: 0], "evaluation.eventsPerDay count of day \(day.day)")
                try add(day.count, to: &totals.perDay, "events of all days")
            }
            if let earliest = evaluation.earliest { merged.earliest = min(merged.earliest ?? earliest, earliest) }
            if let latest = evaluation.latest { merged.latest = max(merged.latest ?? latest, latest) }
            try add(evaluation.relayAccountsExported, to: &merged.relayAccountsExported, "evaluation.relayAccountsExported")
            try add(evaluation.appleEntriesExported, to: &merged.appleEntriesExported, "evaluation.appleEntriesExported")
            /// Adds a count of things a partition did not list. Read back from a note's words, so
            /// checked here: a forged count near Int.max crashed the sum.
            func addUnlisted(_ count: Int, to total: inout Int, at place: String) throws(DiagnosticsError) {
                try PartitionReport.checkCount(count, at: place, in: path)
                try add(count, to: &total, place)
            }
            // Empty inputs are noted once for the whole data, below.
            let ownEmpty = Set(evaluation.inputs.filter(\.readNothing).map { LintReport.nothingReadMessage($0.path) })
            for (place, note) in evaluation.notes.enumerated() where !ownEmpty.contains(note.message) {
                if let count = DatasetBuilder.unlistedLookAlikes(in: note) {
                    try addUnlisted(
                        count, to: &unlistedLookAlikes, at: "evaluation.notes[\(place)] (look-alike relay addresses not listed)")
                    continue
                }
                if let count = DatasetBuilder.unlistedNotes(in: note) {
                    try addUnlisted(count, to: &unlistedNotes, at: "evaluation.notes[\(place)] (data-quality notes not listed)")
                    continue
                }
                let note = moved(note)
                notes.append((key(note, place), note))
            }
            for (place, record) in evaluation.skipped.enumerated() {
                if let count = InvalidRecordList.unlistedCount(in: record) {
                    try addUnlisted(count, to: &unlistedInvalid, at: "evaluation.skipped[\(place)] (invalid records not listed)")
                    let start = moved(record)
                    unlistedStarts.append((key(start, place), start.location))
                    continue
                }
                let record = moved(record)
                skipped.append((key(record, place), record))
            }
        }
        merged.horizon = merged.latest ?? Timestamp(nanoseconds: 0)
        for (path, report) in ordered where report.evaluation.latest != nil && report.evaluation.horizon != merged.horizon {
            problems.append(
                Diagnostic(
                    .error,
                    "decided its time windows at \(report.evaluation.horizon), but the data of all partitions ends at \(merged.horizon): "
                        + "run it again with --data-end \(merged.horizon)", at: SourceLocation(file: path)))
        }
        // Counts past the largest a run writes are refused here: their sums went on past Int.max.
        let listedInvalid = skipped.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        for (total, what) in [
            (unlistedInvalid.addingReportingOverflow(listedInvalid.count), "invalid records"),
            (unlistedLookAlikes.addingReportingOverflow(notes.count), "look-alike relay addresses"),
        ] where total.overflow || total.partialValue > PartitionReport.largestCount {
            problems.append(
                Diagnostic(
                    .error, "the partials' \(what) add up to more than \(PartitionReport.largestCount): not counts runs write",
                    at: SourceLocation(file: ordered.last?.path ?? "")))
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        // Findings stay in partition order: the report's assembly sorts all findings, app
        // findings included, in report order (a sort here too moved 300k findings at 10M events,
        // a fifth of merge, for nothing).
        merged.appsSeen = appsSeen.sorted()
        merged.appsCreatingAccounts = creating.sorted()
        merged.eventsPerDay = perDay.sorted { $0.key < $1.key }.map { PartialEvaluation.DayCount(day: $0.key, count: $0.value) }
        // As one run lists invalid records: the first `listedInvalidRecords` in input order (each
        // partition's first ones include all of its own among them), then how many more there were.
        // The note is at the first record not listed: the first past the cap, or one a partition
        // did not list.
        merged.skipped = listedInvalid.prefix(InputLimits.listedInvalidRecords).map(\.note)
        let pastCap = listedInvalid.dropFirst(InputLimits.listedInvalidRecords)
        unlistedInvalid += pastCap.count
        if unlistedInvalid > 0 {
            let starts = unlistedStarts + pastCap.prefix(1).map { ($0.key, $0.note.location) }
            let first = starts.min { $0.key.lexicographicallyPrecedes($1.key) }?.location
            merged.skipped.append(InvalidRecordList.unlistedNote(unlistedInvalid, at: first ?? SourceLocation(file: "")))
        }
        // As a single run lists them: empty inputs first, then by input and line, the note on an
        // old export after the notes on the exports.
        if let old = oldExportNote(merged, inputs: inputs),
            let accounts = inputs.lastIndex(where: { $0.kind == .accounts })
        {
            notes.append(([accounts, Int.max, 0, 0, 0], old))
        }
        let empty = inputs.filter(\.readNothing).map { input in
            Diagnostic(.warning, LintReport.nothingReadMessage(input.path), at: SourceLocation(file: input.path))
        }
        // As one run lists look-alikes: the first `noteLimit` in input order (each partition's
        // first ones include all of its own among them), then a note on how many more there were;
        // and the other notes: the first while fewer than `2 × noteLimit` are listed, the rest
        // counted (three partitions of a thousand links that name no identity listed them all).
        var lookAlikes = unlistedLookAlikes
        var listed: [Diagnostic] = []
        for note in notes.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }).map(\.note) {
            if DatasetBuilder.isLookAlikeNote(note) {
                lookAlikes += 1
                if lookAlikes - unlistedLookAlikes > DatasetBuilder.noteLimit { continue }
            } else if listed.count >= DatasetBuilder.noteLimit * 2 {
                unlistedNotes += 1
                continue
            }
            listed.append(note)
        }
        merged.notes = empty + listed
        if lookAlikes > DatasetBuilder.noteLimit {
            merged.notes.append(
                DatasetBuilder.unlistedLookAlikesNote(
                    lookAlikes - DatasetBuilder.noteLimit, at: SourceLocation(file: inputs.first?.path ?? "")))
        }
        if unlistedNotes > 0 {
            merged.notes.append(DatasetBuilder.unlistedNotesNote(unlistedNotes, at: SourceLocation(file: inputs.first?.path ?? "")))
        }
        return merged
    }

    /// `total + value`, or an error naming the partial whose count does not fit: counts are the
    /// partial's word, and a sum past `Int.max` stopped the process.
    /// - Parameter earlier: the partials already added up, named in the message.
    private static func add(_ value: Int, to total: inout Int, _ what: String, in path: String, after earlier: [String])
        throws(DiagnosticsError)
    {
        // Each partial's counts are at most 2^53; their sums are held to it too, as the README
        // promises of every count a report gives (a forged 2^53 beside a real 60 was merged).
        let (sum, overflow) = total.addingReportingOverflow(value)
        guard !overflow, sum <= PartitionReport.largestCount else {
            let others = earlier.isEmpty ? "its own other counts" : "those of \(earlier.joined(separator: ", "))"
            throw DiagnosticsError([
                Diagnostic(
                    .error,
                    "its \(what) (\(value)) added to \(others) is more than \(PartitionReport.largestCount): not a count a run writes",
                    at: SourceLocation(file: path))
            ])
        }
        total = sum
    }

    /// The note `DatasetBuilder.noteOldExport` writes, for the whole export.
    private static func oldExportNote(_ merged: PartialEvaluation, inputs: [InputFileSummary]) -> Diagnostic? {
        guard merged.relayAccountsExported > 0, merged.appleEntriesExported == 0,
            let path = inputs.first(where: { $0.kind == .accounts })?.path
        else { return nil }
        var builder = DatasetBuilder(relayDomains: RelayDomains(), skipInvalid: false, retainedTypes: nil)
        builder.relayAccountsExported = merged.relayAccountsExported
        builder.noteOldExport(path: path)
        return builder.notesSoFar.first
    }

    /// The partials' inputs added up: the data under their original names, the rest as each
    /// partition read it (alike in all).
    private static func mergedInputs(
        _ partials: [(path: String, report: PartitionReport)], sources: Sources?
    ) throws(DiagnosticsError) -> [InputFileSummary] {
        let first = partials[0]
        let isData = { (input: InputFileSummary) in input.kind == .events || input.kind == .accounts }
        let dataCount = first.report.evaluation.inputs.filter(isData).count
        var problems: [Diagnostic] = []
        if let sources {
            if sources.partitions != first.report.partition.count {
                problems.append(
                    Diagnostic(
                        .error, "the sources are of \(sources.partitions) partitions, the partials of \(first.report.partition.count)",
                        at: SourceLocation(file: first.path)))
            }
            if sources.inputs.map(\.kind) != first.report.evaluation.inputs.filter(isData).map(\.kind) {
                problems.append(
                    Diagnostic(
                        .error, "the partitions read \(dataCount) exports and logs, other than the \(sources.inputs.count) of the sources",
                        at: SourceLocation(file: first.path)))
            }
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        var merged = first.report.evaluation.inputs
        var dataPlace = 0
        for index in merged.indices {
            let all = partials.map { $0.report.evaluation.inputs[index] }
            guard isData(merged[index]) else {
                for (partial, input) in zip(partials, all) where input != merged[index] {
                    problems.append(
                        Diagnostic(.error, "read \(input.path) other than \(first.path) did", at: SourceLocation(file: partial.path)))
                }
                continue
            }
            if let source = sources?.inputs[dataPlace] {
                merged[index].path = source.path
                merged[index].sha256 = source.sha256
            } else if let other = zip(partials, all).first(where: { $0.1.path != merged[index].path || $0.1.sha256 != merged[index].sha256 }
            ) {
                problems.append(
                    Diagnostic(
                        .error,
                        "read \(other.1.path) where \(first.path) read \(merged[index].path): give the original files with --sources (`relaylint split` writes sources.json)",
                        at: SourceLocation(file: other.0.path)))
                continue
            }
            dataPlace += 1
            // The records skipped, by reason and detail: the first `listedSkipDetails` in partition
            // order, the others counted under their reason. Past that many, a partition counted
            // some details under their reason already, so the list may differ from one run's (the
            // README says so); the totals do not.
            var skipped = SkippedRecordTally()
            for (number, (partial, input)) in zip(partials, all).enumerated() {
                let earlier = partials[..<number].map(\.path)
                for record in input.skippedRecords {
                    let place = skipped.place(reason: record.reason, detail: record.detail)
                    try PartitionMerger.add(
                        record.count, to: &skipped.records[place].count, "evaluation.inputs[\(index)].skippedRecords count",
                        in: partial.path, after: earlier)
                }
                guard number > 0 else { continue }
                func add(_ value: Int, to total: inout Int, _ what: String) throws(DiagnosticsError) {
                    try PartitionMerger.add(value, to: &total, "evaluation.inputs[\(index)].\(what)", in: partial.path, after: earlier)
                }
                func add(_ value: Int?, to total: inout Int?, _ what: String) throws(DiagnosticsError) {
                    guard let value else { return }
                    var sum = total ?? 0
                    try add(value, to: &sum, what)
                    total = sum
                }
                try add(input.records, to: &merged[index].records, "records")
                try add(input.invalid, to: &merged[index].invalid, "invalid")
                try add(input.duplicates, to: &merged[index].duplicates, "duplicates")
                if let time = input.firstTime { merged[index].firstTime = min(merged[index].firstTime ?? time, time) }
                if let time = input.lastTime { merged[index].lastTime = max(merged[index].lastTime ?? time, time) }
                try add(input.eventsMade, to: &merged[index].eventsMade, "eventsMade")
                try add(input.signedTokens, to: &merged[index].signedTokens, "signedTokens")
                try add(input.verifiedSignatures, to: &merged[index].verifiedSignatures, "verifiedSignatures")
            }
            merged[index].skippedRecords = skipped.records
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        return merged
    }
}
