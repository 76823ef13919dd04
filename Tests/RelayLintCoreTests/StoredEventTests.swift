@testable import RelayLintCore
import Testing

/// The dataset keeps events packed until their subject is evaluated; what the evaluation
/// unpacks must be the event that was read, to the last field, location and discriminator.
@Suite struct StoredEventTests {
    static let sourceFiles = ["logs/a.jsonl", "logs/b.jsonl"]

    func roundTrip(_ event: Event, file: Int = 0) -> Event {
        StoredEvent(event, file: file).event(subject: event.subject, sourceFiles: Self.sourceFiles)
    }

    /// Every event the tests have: the Examples log, every rule example's events, and the fast
    /// path's edge lines (escapes, unicode, numbers in every spelling, nesting, null app).
    @Test func everyEventTheTestsHaveComesBackEqual() throws {
        let reader = EventLogReader(path: Self.sourceFiles[1], fileIndex: 1)
        let lines =
            try FastPathAgreementTests.exampleLogLines() + FastPathAgreementTests.ruleExampleLines()
            + FastPathAgreementTests.edgeLines.map { Array($0.utf8) }
        var events = 0
        for (index, line) in lines.enumerated() where !line.isEmpty {
            guard case .event(let event, _) = line.withUnsafeBufferPointer({ reader.strictParse($0, lineNumber: index + 1) }) else {
                continue
            }
            #expect(roundTrip(event, file: 1) == event, "\(String(decoding: line, as: UTF8.self))")
            events += 1
        }
        #expect(events > 150)
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
        let back = roundTrip(event)
        #expect(back == event)
        #expect(back.fields["negative"]?.displayText == "-0.0")
        #expect(back.location.column == 17)
        #expect(back.discriminator == "content-7f3a")
        #expect(back.app == nil)
    }
}
