@testable import RelayLintCore
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
