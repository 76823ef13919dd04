/// `relaylint rules test --format junit`: the rule examples as JUnit XML, so a team's CI shows
/// its custom rules' tests on the same dashboards as its code's. One test suite per rule, one
/// test case per example; a failing example's failure says what was expected and what fired, with
/// the example's place and timeline in its body. A rule without examples is a skipped case. No
/// durations, timestamps or host names: the same rules give the same bytes.
public enum RuleExampleJUnit {
    public static func render(_ outcomes: [RuleExampleRunner.Outcome], rules: RuleSet) -> String {
        let byRule = Dictionary(grouping: outcomes, by: \.rule)
        var suites: [(name: String, cases: [String], tests: Int, failures: Int, skipped: Int)] = []
        for rule in rules.rules {
            let examples = byRule[rule.id] ?? []
            var cases: [String] = []
            var failures = 0
            var uses: [String: Int] = [:]
            for outcome in examples {
                // Two examples of one name, or of names that mask alike, are numbered: dashboards
                // tell test cases apart by name.
                var name = outcome.example
                uses[name, default: 0] += 1
                if let use = uses[name], use > 1 { name += " (\(use))" }
                let open = "    <testcase" + JUnitReporter.attributes([("name", name), ("classname", rule.id), ("time", "0")])
                guard !outcome.passed else {
                    cases.append(open + "/>")
                    continue
                }
                failures += 1
                cases.append(open + ">")
                cases.append(
                    "      <failure" + JUnitReporter.attributes([("message", failureMessage(outcome)), ("type", "example")]) + ">"
                        + JUnitReporter.text(failureBody(outcome)) + "</failure>")
                cases.append("    </testcase>")
            }
            var skipped = 0
            if examples.isEmpty {
                skipped = 1
                cases.append(
                    "    <testcase" + JUnitReporter.attributes([("name", "examples"), ("classname", rule.id), ("time", "0")]) + ">")
                cases.append("      <skipped" + JUnitReporter.attributes([("message", "the rule has no examples")]) + "/>")
                cases.append("    </testcase>")
            }
            suites.append((rule.id, cases, examples.count + skipped, failures, skipped))
        }
        let tests = outcomes.count + suites.reduce(0) { $0 + $1.skipped }
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append(
            "<testsuites"
                + JUnitReporter.attributes([
                    ("name", "relaylint rules test"), ("tests", "\(tests)"), ("failures", "\(suites.reduce(0) { $0 + $1.failures })"),
                    ("errors", "0"), ("skipped", "\(suites.reduce(0) { $0 + $1.skipped })"), ("time", "0"),
                ]) + ">")
        for suite in suites {
            lines.append(
                "  <testsuite"
                    + JUnitReporter.attributes([
                        ("name", suite.name), ("tests", "\(suite.tests)"), ("failures", "\(suite.failures)"), ("errors", "0"),
                        ("skipped", "\(suite.skipped)"), ("time", "0"),
                    ]) + ">")
            lines += suite.cases
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    static func failureMessage(_ outcome: RuleExampleRunner.Outcome) -> String {
        if let problem = outcome.problems.first { return problem.message }
        return "expected to fire [\(outcome.expected.joined(separator: ", "))], fired [\(outcome.actual.joined(separator: ", "))]"
    }

    static func failureBody(_ outcome: RuleExampleRunner.Outcome) -> String {
        var lines = ["\(outcome.location): example"]
        lines += outcome.problems.map(\.description)
        lines.append("timeline:")
        lines += outcome.timeline.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
