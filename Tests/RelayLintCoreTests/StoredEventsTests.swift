@testable import RelayLintCore
import Testing

/// The dataset keeps a subject's events packed until the subject is evaluated; what the
/// evaluation unpacks must be the events that were read, in order, to the last field, location
/// and discriminator.
@Suite struct StoredEventsTests {
    static let sourceFiles = ["logs/a.jsonl", "logs/b.jsonl"]

    /// Packs the events one after the other into one buffer, as a subject's events are.
    func roundTrip(_ events: [Event]) -> [Event] {
        let names = NameTable()
        var cache = NameTable.Cache(names)
        var arena = PackedArena()
        var stored = StoredEvents()
        var other = StoredEvents()
        var discriminators: [UInt64: String] = [:]
        for event in events {
            var packed: [UInt8] = [0xEE]  // a worker's buffer holds other events before this one
            StoredEvents.pack(event, names: &cache, into: &packed)
            packed.withUnsafeBufferPointer {
                stored.append(packed: UnsafeBufferPointer(rebasing: $0[1...]), in: &arena)
                // Another subject's events come in between in the arena.
                other.append(packed: UnsafeBufferPointer(rebasing: $0[1...]), in: &arena)
            }
            discriminators[event.sequence] = event.discriminator
        }
        return stored.events(
            subject: events.first?.subject ?? "", names: names.snapshot, discriminators: discriminators, duplicates: [], arena: arena)
    }

    /// Every event the tests have: the Examples log, every rule example's events, and the fast
    /// path's edge lines (escapes, unicode, numbers in every spelling, nesting, null app).
    @Test func everyEventTheTestsHaveComesBackEqual() throws {
        let reader = EventLogReader(path: Self.sourceFiles[1], fileIndex: 1)
        let lines =
            try FastPathAgreementTests.exampleLogLines() + FastPathAgreementTests.ruleExampleLines()
            + FastPathAgreementTests.edgeLines.map { Array($0.utf8) }
        var events: [Event] = []
        for (index, line) in lines.enumerated() where !line.isEmpty {
            guard case .event(var event, _) = line.withUnsafeBufferPointer({ reader.strictParse($0, lineNumber: index + 1) }) else {
                continue
            }
            event.subject = "one subject"
            events.append(event)
        }
        #expect(events.count > 150)
        let back = roundTrip(events)
        #expect(back.count == events.count)
        for (original, unpacked) in zip(events, back) {
            #expect(unpacked == original)
            #expect(Self.bytes(of: unpacked) == Self.bytes(of: original))
        }
    }

    /// `Event ==` compares strings up to Unicode equivalence and numbers by value; this is
    /// every string's UTF-8 and every number as written.
    static func bytes(of event: Event) -> [UInt8] {
        var parts = [event.id, event.type, event.app ?? "∅", event.location.description, event.discriminator ?? "∅"]
        for (key, value) in event.fields { parts += [key, FastPathAgreementTests.json(value)] }
        return Array(parts.joined(separator: "\u{0}").utf8)
    }

    /// Two spellings of `café` are equal `String`s but different bytes; each event keeps its own,
    /// in its type, its app and its field names.
    @Test func namesComeBackWithTheirOwnBytes() {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let events = [composed, decomposed, composed].enumerated().map { index, name in
            Event(
                id: "e\(index)", time: Timestamp(nanoseconds: Int64(index)), subject: "u1", type: name, app: name,
                fields: [name: .string(name)], location: RelayLintCore.SourceLocation(file: Self.sourceFiles[0], line: index + 1),
                sequence: UInt64(index))
        }
        let back = roundTrip(events)
        #expect(back.map { Array($0.type.utf8) } == events.map { Array($0.type.utf8) })
        #expect(back.map { Array(($0.app ?? "").utf8) } == events.map { Array(($0.app ?? "").utf8) })
        #expect(back.map { $0.fields.keys.map { Array($0.utf8) } } == events.map { $0.fields.keys.map { Array($0.utf8) } })
    }

    @Test func nestedValuesNumbersAndTheRarelySetPartsComeBack() {
        var event = Event(
            id: String(repeating: "long-id-", count: 40), time: Timestamp(nanoseconds: 1_772_366_400_123_456_789), subject: "ü1",
            type: "deletion.requested", app: nil,
            fields: [
                "nested": .object([
                    "list": .array([.null, .bool(true), .bool(false), .string("")]), "n": .number(JSONNumber(text: "1.50e+2", value: 150)),
                ]),
                "negative": .number(JSONNumber(text: "-0.0", value: -0.0)),
                "text": .string("e\u{301}🙂 \"quoted\"\n"),
                "empty": .object([:]),
            ],
            location: RelayLintCore.SourceLocation(file: Self.sourceFiles[0], line: 300_000, column: 17), sequence: 1 << 41 | 300_000)
        event.discriminator = "content-7f3a"
        let plain = Event(
            id: "e2", time: Timestamp(nanoseconds: -1), subject: "ü1", type: "signin", app: "com.example.app",
            location: RelayLintCore.SourceLocation(file: Self.sourceFiles[1], line: 1), sequence: 0)
        let unpacked = roundTrip([event, plain])
        #expect(unpacked == [event, plain])
        #expect(unpacked.map(Self.bytes(of:)) == [event, plain].map(Self.bytes(of:)))
        let back = unpacked[0]
        #expect(back.fields["negative"]?.displayText == "-0.0")
        #expect(back.location.column == 17)
        #expect(back.discriminator == "content-7f3a")
        #expect(back.app == nil)
        #expect(unpacked[1].time == Timestamp(nanoseconds: -1))
    }

    /// Times are packed as seconds and the nanoseconds beyond them: the ends of the range, and
    /// instants just before and after a second, come back exactly.
    @Test(arguments: [Int64.min, Int64.max, -1_000_000_001, -999_999_999, 0, 999_999_999, 1_000_000_000, 1_767_225_600_000_000_001])
    func extremeAndFractionalTimesComeBack(nanoseconds: Int64) {
        let event = Event(
            id: "t", time: Timestamp(nanoseconds: nanoseconds), subject: "u1", type: "signin",
            location: RelayLintCore.SourceLocation(file: Self.sourceFiles[0], line: 7), sequence: 7)
        #expect(roundTrip([event]).map(\.time) == [Timestamp(nanoseconds: nanoseconds)])
    }
}
