@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Every example a rule file carries runs as a test: adding a rule adds its tests.
@Suite struct BuiltInRuleExamplesTests {
    static let outcomes: [RuleExampleRunner.Outcome] = {
        guard let rules = try? RuleSet.load(paths: [Fixtures.rules]) else { return [] }
        return RuleExampleRunner.run(rules)
    }()

    @Test func thePackLoadsAndEveryRuleHasExamples() throws {
        let rules = try RuleSet.load(paths: [Fixtures.rules])
        #expect(
            rules.rules.map(\.id).sorted() == [
                "apple-account-delete-honored", "consent-before-email-link", "consent-before-phone-link",
                "consent-before-social-link", "data-deleted-after-account-deletion", "deletion-request-completed",
                "in-app-deletion-channel-used", "in-app-deletion-offered", "no-mail-to-disabled-relay",
                "pii-on-anonymized-account-without-consent", "relay-mail-from-registered-sender", "token-revoked-before-deletion",
            ])
        for rule in rules.rules { #expect(rule.examples.count >= 2, "\(rule.id) needs passing and failing examples") }
        for rule in rules.rules {
            #expect(rule.examples.contains { $0.expectedFirings.isEmpty }, "\(rule.id) has no passing example")
            #expect(rule.examples.contains { !$0.expectedFirings.isEmpty }, "\(rule.id) has no firing example")
        }
    }

    @Test(arguments: outcomes)
    func example(_ outcome: RuleExampleRunner.Outcome) {
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(
            outcome.actual == outcome.expected,
            "\(outcome.rule): \(outcome.example) at \(outcome.location)\n\(outcome.timeline.joined(separator: "\n"))")
    }

    @Test func aWrongExpectationIsCaught() throws {
        var rule = try #require(try RuleSet.load(paths: [Fixtures.rules]).rule(id: "token-revoked-before-deletion"))
        var example = try #require(rule.examples.first { !$0.expectedFirings.isEmpty })
        example.expectedFirings = []
        rule.examples = [example]
        let outcome = RuleExampleRunner.run(example, of: rule)
        #expect(!outcome.passed)
    }
}

extension RuleExampleRunner.Outcome: CustomTestStringConvertible {
    public var testDescription: String { "\(rule): \(example)" }
}
