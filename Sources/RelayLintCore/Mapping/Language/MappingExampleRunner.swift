/// Runs the examples of a mapping: each record through the mapping, its events compared with
/// the expected ones after both are validated as events (so `time` compares as an instant).
enum MappingExampleRunner {
    static func run(_ mapping: LogMapping) -> [MappingExampleResult] {
        mapping.examples.map { example in
            MappingExampleResult(
                mapping: mapping.id, example: example.name, location: example.location, problem: check(example, of: mapping),
                warning: recognition(of: example, by: mapping))
        }
    }

    /// A record `recognize` does not accept is mapped all the same after one it accepts, so an
    /// example of it passes; but a log that starts with it is not read with this mapping, which
    /// the example alone never shows.
    private static func recognition(of example: MappingExample, by mapping: LogMapping) -> String? {
        // A record that is no object is an example of an invalid record, not of a log's first.
        guard example.notJSON == nil, example.record.objectValue != nil,
            !RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil)).recognizes(example.record)
        else {
            return nil
        }
        return "the mapping's 'recognize' does not hold for this record: a log that starts with it is not read with this "
            + "mapping (records after the first are mapped whatever 'recognize' says)"
    }

    private static func check(_ example: MappingExample, of mapping: LogMapping) -> String? {
        let mapper = RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil))
        var index = AppleAccountIndex()
        for (appleID, subject) in example.appleIDs { index.add(appleID: appleID, subject: subject) }
        let location = example.location
        // Refused as a log's reader refuses it, before any mapping.
        var outcome = example.notJSON.map { RecordMapper.Outcome.invalid($0) } ?? mapper.map(example.record)
        var actual: [Event] = []
        if case .events(let mapped) = outcome {
            for event in mapped {
                switch MappedEvents.event(from: event, appleAccounts: index, location: location, sequence: 0) {
                case .event(let made): actual.append(made)
                case .skipped(let reason): outcome = .skipped(reason: reason, detail: nil)
                case .invalid(let reason): outcome = .invalid(reason)
                }
                if case .events = outcome { continue }
                break
            }
        }
        switch (example.expectation, outcome) {
        case (.events(let expected), .events):
            var wanted: [Event] = []
            for (number, object) in expected.enumerated() {
                switch Event.make(from: object, location: location, sequence: 0) {
                case .success(let event): wanted.append(event)
                case .failure(let problem): return "expected event \(number + 1) is not a valid event: \(problem.reason)"
                }
            }
            guard wanted.count == actual.count else {
                return "expected \(Plural.counted(wanted.count, "event")), the mapping gave \(actual.count): \(describe(actual))"
            }
            for (number, (want, got)) in zip(wanted, actual).enumerated() where want != got {
                return "event \(number + 1): expected \(describe([want])), the mapping gave \(describe([got]))"
            }
            return nil
        case (.skipped(let reason), .skipped(let actualReason, _)):
            return reason == actualReason ? nil : "expected the record skipped as '\(reason)', it was skipped as '\(actualReason)'"
        case (.invalid(let text), .invalid(let message)):
            return message.contains(text) ? nil : "expected an invalid record with '\(text)', the message is '\(message)'"
        case (_, .events(let mapped)):
            return "the mapping gave \(mapped.count) event(s): \(describe(actual))"
        case (_, .skipped(let reason, _)):
            return "the record was skipped as '\(reason)'"
        case (_, .invalid(let message)):
            return "the record is invalid: \(message)"
        }
    }

    private static func describe(_ events: [Event]) -> String {
        events.map { event in
            var members: [String: JSONValue] = [:]
            for (key, value) in event.fields { members[key] = value }
            members["id"] = .string(event.id)
            members["time"] = .string(event.time.description)
            members["subject"] = .string(event.subject)
            members["type"] = .string(event.type)
            if let app = event.app { members["app"] = .string(app) }
            return JSONValue.object(members).sortedText
        }.joined(separator: ", ")
    }
}
