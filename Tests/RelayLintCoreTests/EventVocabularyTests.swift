import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The event vocabulary catches a rule that reads a field no event type has (a typo would
/// otherwise print "(unset)" in every finding), and learns what the mappings in use produce.
@Suite struct EventVocabularyTests {
    static func rule(_ text: String) throws -> Rule {
        let loaded = RuleLoader.load(text: text, path: "rule.yml", sha256: "")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        return try #require(loaded.rules.first)
    }

    @Test func theBuiltInRulesReadOnlyDeclaredFields() throws {
        var vocabulary = try EventVocabulary.builtIn()
        for mapping in try MappingSet.load(userPaths: []).mappings { vocabulary.add(mapping) }
        let rules = try RuleSet.load(paths: [Fixtures.rules])
        #expect(rules.rules.flatMap(vocabulary.warnings(for:)).map(\.message) == [])
    }

    @Test func aMisspeltFieldAndPlaceholderAreWarnedAboutWithASuggestion() throws {
        let rule = try Self.rule(
            """
            id: typo
            severity: warning
            message: "mail to {event.reciepient} from {event.from}"
            when: {type: deletion.requested, where: {chanel: in_app}}
            """)
        var vocabulary = try EventVocabulary.builtIn()
        vocabulary = EventVocabulary(types: vocabulary.types.merging(["deletion.requested": ["channel", "reciepient", "from"]]) { $1 })
        let warnings = vocabulary.warnings(for: rule).map(\.message)
        // At the field's key, not the rule's id (walkthrough 7 #6).
        #expect(vocabulary.warnings(for: rule).map(\.location) == [SourceLocation(file: "rule.yml", line: 4, column: 42)])
        #expect(
            warnings == [
                "rule 'typo': no event type of deletion.requested declares a field 'chanel'; did you mean 'channel'? (if your logs carry it, add it to a mapping's fields or ignore this warning)"
            ])

        let mail = try Self.rule(
            """
            id: mail
            severity: warning
            message: "mail to {event.recipient}"
            when: {type: email.sent}
            """)
        #expect(
            try EventVocabulary.builtIn().warnings(for: mail).map(\.message).first?.contains(
                "{event.recipient}: no event type of email.sent declares a field 'recipient'") == true)
        // At the placeholder in the message.
        #expect(try EventVocabulary.builtIn().warnings(for: mail).first?.location == SourceLocation(file: "rule.yml", line: 3, column: 19))

        // In a message over several lines, at the line that holds it (review 66, item 11); one
        // the next key holds is not taken for it.
        let folded = try Self.rule(
            """
            id: mail
            severity: warning
            message: >-
              mail {event.id} to someone,
              sent as {event.too}
            when: {type: email.sent, where: {subject: {equals: "{event.too}"}}}
            """)
        #expect(
            try EventVocabulary.builtIn().warnings(for: folded).map(\.location) == [SourceLocation(file: "rule.yml", line: 5, column: 11)])

        // Columns count Unicode scalars, as the YAML reader's do; a placeholder written escaped
        // is told at the value's start, not found in a later rule (review 67, items 6 and 7).
        let accented = try Self.rule(
            "id: mail\nseverity: warning\nmessage: \"cafe\u{301} \u{1F469}\u{200D}\u{1F4BB} {event.too}\"\nwhen: {type: email.sent}\n")
        #expect(
            try EventVocabulary.builtIn().warnings(for: accented).map(\.location) == [SourceLocation(file: "rule.yml", line: 3, column: 21)]
        )
        let escaped = try Self.rule(
            "id: mail\nseverity: warning\nwhen: {type: email.sent}\nmessage: \"mail \\x7Bevent.too}\"\n# {event.too}\n")
        #expect(
            try EventVocabulary.builtIn().warnings(for: escaped).map(\.location) == [SourceLocation(file: "rule.yml", line: 4, column: 10)])
    }

    /// The README's custom rule, written as it is there, validates without a warning: a new user
    /// following it met "no event type of email.sent declares a field 'category'".
    @Test func theReadmesCustomRuleReadsOnlyDeclaredFields() throws {
        let readme = try String(contentsOfFile: Fixtures.path("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "   ```yaml\n   id: marketing-mail-needs-consent"))
        let end = try #require(readme.range(of: "   ```\n", range: start.upperBound..<readme.endIndex))
        let text = readme[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.dropFirst(3) }.joined(separator: "\n")
        let rule = try Self.rule("id: marketing-mail-needs-consent" + text)
        #expect(try EventVocabulary.builtIn().warnings(for: rule).map(\.message) == [])
    }

    @Test func aMappingsFieldsJoinTheVocabulary() throws {
        let mapping = try MappingLoader.load(
            text: """
                mapping: shop
                recognize: {path: order, exists: true}
                events:
                  - type: order.placed
                    fields: {amount: {path: total}}
                """, path: "shop.yml", sha256: ""
        ).get()
        let rule = try Self.rule(
            """
            id: big-order
            severity: note
            message: "order of {event.amount}"
            when: {type: order.placed, where: {amount: {exists: true}}}
            """)
        var vocabulary = try EventVocabulary.builtIn()
        #expect(vocabulary.warnings(for: rule).count == 2)
        vocabulary.add(mapping)
        #expect(vocabulary.warnings(for: rule).isEmpty)
    }
}
