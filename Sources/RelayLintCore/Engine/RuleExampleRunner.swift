/// Runs the examples every rule carries (`relaylint rules test`): each example's timeline is
/// evaluated with that rule alone and the firings are compared with the expected ones.
public enum RuleExampleRunner {
    /// The outcome of one example.
    public struct Outcome: Sendable, Equatable {
        public private(set) var rule: String
        public private(set) var example: String
        public private(set) var location: SourceLocation
        public private(set) var expected: [String]
        public private(set) var actual: [String]
        /// Problems with the example's own data (an invalid event, say).
        public private(set) var problems: [Diagnostic]
        /// The example's timeline, one line per event, for failure messages.
        public var timeline: [String] { entries.map(\.text) }
        private var entries: [TimelineEntry]
        /// Decided on the whole ids: two ids that mask alike are still two.
        public let passed: Bool

        init(
            rule: String, example: String, location: SourceLocation, expected: [String], actual: [String], problems: [Diagnostic],
            timeline: [TimelineEntry]
        ) {
            self.rule = rule
            self.example = example
            self.location = location
            self.expected = expected
            self.actual = actual
            self.problems = problems
            entries = timeline
            passed = problems.isEmpty && expected == actual
        }

        /// The outcome as `rules test` prints it: examples are often records pasted from a
        /// production log, and the output lands in CI logs, so every address and phone number in
        /// its name, ids, problems and timeline is masked (`--show-pii` shows them).
        public func masked(by masker: PIIMasker) -> Outcome {
            guard masker.isEnabled else { return self }
            var outcome = self
            outcome.example = masker.maskText(example)
            outcome.expected = expected.map(masker.maskSubjectID)
            outcome.actual = actual.map(masker.maskSubjectID)
            outcome.problems = problems.map { problem in
                var problem = problem
                problem.message = masker.maskText(problem.message)
                return problem
            }
            outcome.entries = entries.map { $0.masked(by: masker) }
            return outcome
        }
    }

    /// Runs every example of every rule, in rule then example order.
    public static func run(_ rules: RuleSet, relayDomains: RelayDomains = RelayDomains()) -> [Outcome] {
        rules.rules.flatMap { rule in rule.examples.map { run($0, of: rule, relayDomains: relayDomains) } }
    }

    public static func run(_ example: RuleExample, of rule: Rule, relayDomains: RelayDomains = RelayDomains()) -> Outcome {
        let loaded = load(example, relayDomains: relayDomains)
        var builder = loaded.builder
        var problems = loaded.problems
        var actual: [String] = []
        if problems.isEmpty, let dataset = try? builder.finish() {
            let request = LintRequest(rules: RuleSet(rules: [rule], files: []), relayDomains: relayDomains, showPII: true, parallelism: 1)
            do {
                let report = try Linter.evaluate(
                    dataset, subjectRules: rule.scope == .subject ? [rule] : [],
                    appRules: rule.scope == .app ? [rule] : [], request: request)
                actual = report.findings.map { $0.event ?? $0.subject }.sorted()
            } catch {
                problems.append(contentsOf: error.diagnostics)
            }
        }
        problems += unknownFirings(in: example)
        return Outcome(
            rule: rule.id, example: example.name, location: example.location,
            expected: example.expectedFirings.sorted(), actual: actual, problems: problems, timeline: loaded.timeline)
    }

    /// What is wrong with an example as it is written, found without running it (`rules
    /// validate`): an event, account or manifest entry that is not valid input, and an expected
    /// firing that names none of the example's events, subjects or apps (a typo there makes the
    /// example fail for the wrong reason, or pass a rule that never fires on it).
    public static func problems(in example: RuleExample) -> [Diagnostic] {
        load(example, relayDomains: RelayDomains()).problems + unknownFirings(in: example)
    }

    /// The example's data in a dataset of its own, the problems with it, and its timeline.
    private static func load(
        _ example: RuleExample, relayDomains: RelayDomains
    ) -> (builder: DatasetBuilder, problems: [Diagnostic], timeline: [TimelineEntry]) {
        var builder = DatasetBuilder(relayDomains: relayDomains, skipInvalid: false, retainedTypes: nil)
        var problems: [Diagnostic] = []
        var manifestEntries: [AppManifest.Entry] = []
        for (value, location) in example.manifest {
            guard case .string(let bundleId)? = value.objectValue?["bundle_id"] else {
                problems.append(Diagnostic(.error, "example manifest entry needs a string 'bundle_id'", at: location))
                continue
            }
            manifestEntries.append(AppManifest.Entry(bundleId: bundleId, declarations: value.objectValue ?? [:], location: location))
        }
        if !example.manifest.isEmpty {
            builder.setManifest(AppManifest(entries: manifestEntries, path: example.location.file), sha256: "")
        }
        for (value, location) in example.accounts {
            switch FirebaseJSONExportReader.account(from: value, location: location) {
            case .success(let account): _ = builder.add(account)
            case .failure(let problem): problems.append(Diagnostic(.error, "example account: \(problem.reason)", at: location))
            }
        }
        var timeline: [TimelineEntry] = []
        for (index, (value, location)) in example.events.enumerated() {
            let record = record(value)
            switch Event.make(from: record, location: location, sequence: UInt64(index)) {
            case .success(let event):
                builder.ingest(event, digest: ContentDigest(record), content: record)
                timeline.append(TimelineEntry(event))
            case .failure(let problem):
                problems.append(Diagnostic(.error, "example event: \(problem.reason)", at: location))
            }
        }
        return (builder, problems, timeline)
    }

    /// An example's event as a log would hold it: an event without `subject` is u1's.
    private static func record(_ value: JSONValue) -> JSONValue {
        guard case .object(var members) = value, members["subject"] == nil else { return value }
        members["subject"] = .string("u1")
        return .object(members)
    }

    /// The expected firings that name no event id, subject, exported account or app of the
    /// example: a finding names one of those (`Finding.event`, else its subject or app).
    private static func unknownFirings(in example: RuleExample) -> [Diagnostic] {
        var known: Set<String> = ["app"]
        for (value, _) in example.events {
            for key in ["id", "subject", "app"] {
                if case .string(let name)? = record(value).objectValue?[key] { known.insert(name) }
            }
        }
        for (value, _) in example.accounts {
            if case .string(let name)? = value.objectValue?["localId"] { known.insert(name) }
        }
        for (value, _) in example.manifest {
            if case .string(let name)? = value.objectValue?["bundle_id"] { known.insert(name) }
        }
        return example.expectedFirings.filter { !known.contains($0) }.map { name in
            Diagnostic(
                .error,
                "example '\(example.name)' expects a finding on '\(name)', which is none of its event ids, subjects, accounts or apps",
                at: example.firesLocation ?? example.location)
        }
    }
}
