/// Evaluates app rules once the subject pass has recorded which app-rule matchers each app's
/// events satisfy.
struct AppRuleEvaluator {
    let rules: [Rule]
    let context: EvaluationContext

    /// What the run knows about one app.
    struct AppFacts {
        var bundleId: String
        var createsAccounts: Bool
        var manifestEntry: AppManifest.Entry?
        /// Where an app finding points: the manifest entry, else the app's first `account.created`,
        /// else the export of its accounts, else the first line of the first log.
        var location: SourceLocation?
    }

    func evaluate(apps: [AppFacts], matches: [[String: Evidence]]) -> (findings: [Finding], tallies: [SubjectRuleEvaluator.Tally]) {
        var findings: [Finding] = []
        var tallies = Array(repeating: SubjectRuleEvaluator.Tally(), count: rules.count)
        var matcherOffset = 0
        for (ruleIndex, rule) in rules.enumerated() {
            let matcherCount = EvaluationContext.appMatchers(of: rule.requirement).count
            defer { matcherOffset += matcherCount }
            for app in apps where applies(rule, to: app) {
                tallies[ruleIndex].triggered += 1
                var next = matcherOffset
                let outcome = check(rule.requirement, app: app, matches: matches, next: &next)
                guard case .failure(let failure) = outcome else { continue }
                tallies[ruleIndex].violated += 1
                let message = rule.message.render(masker: context.masker) { name in
                    switch name {
                    case "subject", "app": context.readableName(ofApp: app.bundleId)
                    case "rule": rule.id
                    case "expected": failure.expected
                    default: nil
                    }
                }
                findings.append(
                    Finding(
                        rule: rule.id, severity: context.severity(of: rule), subject: app.bundleId, app: app.bundleId,
                        event: nil, time: nil, message: message,
                        fingerprint: Fingerprint.of(rule: rule.id, subject: app.bundleId, event: nil),
                        location: app.location, expected: failure.expected, evidence: failure.evidence))
            }
        }
        return (findings, tallies)
    }

    private func applies(_ rule: Rule, to app: AppFacts) -> Bool {
        guard let condition = rule.appCondition else { return true }
        if let creates = condition.createsAccounts, creates != app.createsAccounts { return false }
        for (key, value) in condition.manifest {
            guard let declared = app.manifestEntry?.declarations[key], MatcherEvaluation.equivalent(value, declared) else { return false }
        }
        return true
    }

    struct AppFailure: Error {
        var expected: String
        var evidence: [Evidence]
    }

    /// Walks the requirement in the same order as `EvaluationContext.appMatchers(of:)`.
    private func check(_ requirement: Requirement, app: AppFacts, matches: [[String: Evidence]], next: inout Int) -> Result<
        Void, AppFailure
    > {
        switch requirement {
        case .exists(let matcher):
            defer { next += 1 }
            if matches[next][app.bundleId] != nil { return .success(()) }
            return .failure(AppFailure(expected: "at least one " + matcher.summary + " in the app's data", evidence: []))
        case .absent(let matcher):
            defer { next += 1 }
            guard var found = matches[next][app.bundleId] else { return .success(()) }
            found.note = "found, but the rule forbids it"
            return .failure(AppFailure(expected: "no " + matcher.summary + " in the app's data", evidence: [found]))
        case .manifest(let declarations):
            let missing = declarations.keys.sorted().filter { key in
                guard let declared = app.manifestEntry?.declarations[key] else { return true }
                return !MatcherEvaluation.equivalent(declarations[key]!, declared)
            }
            if missing.isEmpty { return .success(()) }
            let wanted = missing.map { "\($0): \(declarations[$0]!.displayText)" }.joined(separator: ", ")
            return .failure(
                AppFailure(
                    expected: "the manifest declares \(wanted)" + (app.manifestEntry == nil ? " (the app has no manifest entry)" : ""),
                    evidence: []))
        case .all(let requirements):
            var firstFailure: AppFailure? = nil
            for inner in requirements {
                if case .failure(let failure) = check(inner, app: app, matches: matches, next: &next), firstFailure == nil {
                    firstFailure = failure
                }
            }
            return firstFailure.map { .failure($0) } ?? .success(())
        case .any(let requirements):
            var failures: [AppFailure] = []
            var satisfied = false
            for inner in requirements {
                switch check(inner, app: app, matches: matches, next: &next) {
                case .success: satisfied = true
                case .failure(let failure): failures.append(failure)
                }
            }
            if satisfied { return .success(()) }
            return .failure(
                AppFailure(
                    expected: failures.map(\.expected).joined(separator: "; or "),
                    evidence: failures.flatMap(\.evidence)))
        case .conditional(_, let inner):
            return check(inner, app: app, matches: matches, next: &next)
        case .never:
            return .failure(AppFailure(expected: "no such app", evidence: []))
        case .temporal:
            return .success(())
        }
    }
}
