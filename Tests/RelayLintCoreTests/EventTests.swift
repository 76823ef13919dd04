@testable import RelayLintCore
import Testing

/// An event is a value, though its members share one box between copies: changing a copy
/// never changes the event it was copied from, and equality is by members, not by box.
@Suite struct EventTests {
    static let original = Event(
        id: "e1", time: Timestamp(nanoseconds: 1_000), subject: "u1", type: "signin", app: "com.example",
        fields: ["provider": .string("apple.com")], location: SourceLocation(file: "events.jsonl", line: 3), sequence: 3)

    @Test func changingACopyLeavesTheOriginalAsItWas() {
        let event = Self.original
        var copy = event
        copy.id = "e2"
        copy.time = Timestamp(nanoseconds: 2_000)
        copy.subject = "u2"
        copy.type = "account.deleted"
        copy.app = nil
        copy.fields = ["provider": .string("google.com")]
        copy.location = SourceLocation(file: "other.jsonl", line: 9)
        copy.sequence = 9
        copy.discriminator = "d"
        #expect(event == Self.original)
        #expect(event.id == "e1" && event.time == Timestamp(nanoseconds: 1_000) && event.subject == "u1" && event.type == "signin")
        #expect(event.app == "com.example" && event.string("provider") == "apple.com" && event.location.line == 3)
        #expect(event.sequence == 3 && event.discriminator == nil)
        #expect(copy.id == "e2" && copy.subject == "u2" && copy.app == nil && copy.string("provider") == "google.com")
        #expect(copy.sequence == 9 && copy.discriminator == "d" && copy != event)
    }

    @Test func eventsWithEqualMembersAreEqualWhateverTheirBoxes() {
        var rebuilt = Event(
            id: "e1", time: Timestamp(nanoseconds: 1_000), subject: "u1", type: "signin", app: "com.example",
            fields: ["provider": .string("apple.com")], location: SourceLocation(file: "events.jsonl", line: 3), sequence: 3)
        #expect(rebuilt == Self.original)
        rebuilt.discriminator = "d"
        #expect(rebuilt != Self.original)
    }
}
