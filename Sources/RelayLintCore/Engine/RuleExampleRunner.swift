/// Runs the examples every rule carries (`relaylint rules test`): each example's timeline is
/// evaluated with that rule alone and the firings are compared with the expected ones.
public enum RuleExampleRunner {
    /// The outcome of one example.
    public struct Outcome: Sendable, Equatable {
        public var rule: String
        public var example: String
        public var location: SourceLocation
        public var expected: [String]
        public var actual: [String]
        /// Problems with the example's own data (an invalid event, say).
        public var problems: [Diagnostic]
        /// The example's timeline, one line per event, for failure messages.
        public var timeline: [String]

        public var passed: Bool { problems.isEmpty && expected == actual }
    }

    /// Runs every example of every rule, in rule then example order.
    public static func run(_ rules: RuleSet, relayDomains: RelayDomains = RelayDomains()) -> [Outcome] {
        rules.rules.flatMap { rule in rule.examples.map { run($0, of: rule, relayDomains: relayDomains) } }
    }

    public static func run(_ example: RuleExample, of rule: Rule, relayDomains: RelayDomains = RelayDomains()) -> Outcome {
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
        var timeline: [String] = []
        for (index, (value, location)) in example.events.enumerated() {
            var record = value
            if case .object(var members) = value, members["subject"] == nil {
                members["subject"] = .string("u1")
                record = .object(members)
            }
            switch Event.make(from: record, location: location, sequence: UInt64(index)) {
            case .success(let event):
                builder.ingest(event, digest: ContentDigest(record), content: record)
                let fields = event.fields.map { "\($0.key)=\($0.value.displayText)" }.joined(separator: " ")
                timeline.append("\(event.time) \(event.subject) \(event.id) \(event.type) \(fields)")
            case .failure(let problem):
                problems.append(Diagnostic(.error, "example event: \(problem.reason)", at: location))
            }
        }
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
        return Outcome(
            rule: rule.id, example: example.name, location: example.location,
            expected: example.expectedFirings.sorted(), actual: actual, problems: problems, timeline: timeline)
    }
}
