@testable import RelayLintCore
import Foundation
import RelayLintTestSupport
import Testing

/// A rule's message is filled for every finding: what it holds must stay in proportion to the
/// rule, whatever the events hold.
@Suite struct MessageTemplateTests {
    private static func template(_ text: String) throws -> MessageTemplate {
        try MessageTemplate.parse(text).get()
    }

    @Test func aMessageIsFilledWithItsValuesMasked() throws {
        let message = try Self.template("{event.type} of {subject} to {event.to}: {event.reason}")
            .render(masker: PIIMasker()) { name in
                ["event.type": "email.sent", "subject": "u1", "event.to": "jane@example.com"][name]
            }
        #expect(message == "email.sent of u1 to j•••@example.com: (unset)")
    }

    /// A value is shown to 256 characters, masked before it is cut (a cut address would not
    /// read as one).
    @Test func aLongValueIsShownByItsStart() throws {
        let long = "jane@example.com " + String(repeating: "x", count: 300)
        let message = try Self.template("[{event.note}]").render(masker: PIIMasker()) { _ in long }
        #expect(message == "[" + String(("j•••@example.com " + String(repeating: "x", count: 300)).prefix(256)) + "…]")
    }

    /// A value made of the subject's id (an event id) shows the subject masked as the subject is,
    /// before it is cut: cut first, a cut through the number left its first digits, which masking
    /// no longer saw as a number (hostile 16, F8).
    @Test func aLongValueHoldingTheSubjectShowsItMaskedBeforeTheCut() throws {
        let subject = "(0161) 496 0000"
        let id = String(repeating: "y", count: 243) + "-" + subject
        let message = try Self.template("{event.id}").render(masker: PIIMasker(), subject: subject) { _ in id }
        #expect(message == String(repeating: "y", count: 243) + "-•••••••••00")
        #expect(!message.contains("496"))
    }

    /// A message naming a 50 KB field 2,000 times filled 100 MB for each finding.
    /// Cut by Unicode scalars: a letter with 200,000 combining marks is one character.
    @Test func aValueOfCombiningMarksIsCutToo() throws {
        let message = try Self.template("{event.note}").render(masker: PIIMasker()) { _ in
            "a" + String(repeating: "\u{301}", count: 200_000)
        }
        #expect(message.unicodeScalars.count == MessageTemplate.longestValue + 1)
    }

    @Test func aMessageStopsPastItsLimit() throws {
        let template = try Self.template(String(repeating: "{event.blob} ", count: 2_000))
        let message = template.render(masker: PIIMasker()) { _ in String(repeating: "b", count: 50_000) }
        #expect(message.hasSuffix("…"))
        #expect(message.utf8.count <= MessageTemplate.longestMessageBytes + 300 * 4)
    }
}

/// What a finding says was expected describes the rule's requirement in every finding: it stays
/// in proportion too, whatever the rule lists.
@Suite struct FindingExpectedTests {
    /// A requirement against a list of 5,000 values copied the whole list into each finding.
    @Test func aLongListIsShownByItsStartAndCount() throws {
        let values = (0..<5_000).map { "\"store-\($0)\"" }.joined(separator: ", ")
        let rule = """
            id: deleted-from-known-stores
            severity: error
            when: {type: account.deleted}
            require:
              followed_by: {type: data.deleted, where: {store: {in: [\(values)]}}}
            message: "{subject}"
            """
        let loaded = RuleLoader.load(text: rule, path: "rule.yml", sha256: "")
        #expect(loaded.diagnostics.isEmpty)
        let events = try Fixtures.temporaryFile(
            named: "events.jsonl", contents: #"{"id":"d1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"account.deleted"}"# + "\n")
        let report = try Linter.run(
            LintRequest(eventPaths: [events], rules: RuleSet(rules: loaded.rules, files: []), parallelism: 1))
        let expected = try #require(report.findings.first { $0.rule == "deleted-from-known-stores" }?.expected)
        #expect(expected.contains("store-19, … (4980 more)"), "\(expected.prefix(300))")
        #expect(!expected.contains("store-20,"))
        #expect(expected.unicodeScalars.count <= Finding.longestExpected + 1)
    }

    @Test func anExpectationIsCutPastItsLimit() {
        let long = String(repeating: "a word ", count: 2_000)
        let finding = Finding(
            rule: "r", severity: .error, subject: "u1", app: "app", event: nil, time: nil, message: "m", fingerprint: "f", location: nil,
            expected: long, evidence: [])
        #expect(finding.expected.unicodeScalars.count == Finding.longestExpected + 1)
        #expect(finding.expected.hasSuffix("…"))
    }
}
