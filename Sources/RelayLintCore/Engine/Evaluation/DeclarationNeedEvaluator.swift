/// Reports, once per app, the manifest declaration a subject rule needs and the app lacks
/// (`needs_declaration:`), with the number of events the rule fired on there, in place of one
/// finding per event. The subject pass counted those events as app matches
/// (`EvaluationContext.appMatcherNeeds`), over every subject, shards included.
struct DeclarationNeedEvaluator {
    let context: EvaluationContext

    /// - Parameters:
    ///   - subjectRules: the run's subject rules, in the order of its tallies.
    ///   - matches, counts: the app matches and their counts, by app matcher; the matchers of
    ///     the rules that need a declaration follow those of the app rules, in rule order.
    /// - Returns: the findings, and for each the index of its rule among `subjectRules`.
    func evaluate(
        subjectRules: [Rule], apps: [AppRuleEvaluator.AppFacts], matches: [[String: Evidence]], counts: [[String: Int]]
    ) -> (findings: [Finding], rules: [Int]) {
        var findings: [Finding] = []
        var rules: [Int] = []
        var matcher = context.appMatcherNeeds.firstIndex { $0 != nil } ?? context.appMatcherNeeds.count
        for (ruleIndex, rule) in subjectRules.enumerated() {
            guard let need = rule.declarationNeed, rule.trigger != nil else { continue }
            defer { matcher += 1 }
            for (app, count) in counts[matcher].sorted(by: { $0.key < $1.key }) {
                let facts = apps.first { $0.bundleId == app }
                let message = need.message.render(masker: context.masker) { name in
                    switch name {
                    case "app": context.readableName(ofApp: app)
                    case "rule": rule.id
                    case "count": "\(count)"
                    default: nil
                    }
                }
                var evidence = matches[matcher][app].map { [$0] } ?? []
                for index in evidence.indices {
                    evidence[index].role = .trigger
                    evidence[index].note = "the first of \(Plural.counted(count, "event")) the rule fired on for this app"
                }
                findings.append(
                    Finding(
                        rule: rule.id, severity: context.severity(of: rule), subject: app, app: app, event: nil, time: nil,
                        message: message, fingerprint: Fingerprint.of(rule: rule.id, subject: app, event: nil),
                        location: facts?.manifestEntry?.location ?? evidence.first?.location ?? facts?.location,
                        expected: "the app's manifest entry declares \(need.key)", evidence: evidence))
                rules.append(ruleIndex)
            }
        }
        return (findings, rules)
    }
}
