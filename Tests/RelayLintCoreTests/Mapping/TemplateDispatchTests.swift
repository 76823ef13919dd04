@testable import RelayLintCore
import Testing

/// Templates chosen by the value their conditions test give every record the outcome that
/// testing each condition in turn gives: the same events in the same order, the same skip, the
/// same failure.
@Suite struct TemplateDispatchTests {
    /// Dispatched templates (`equals`, `in` with a repeat, first in an `all`), templates that are
    /// not (a number in `in`, another value, no condition, an `any` that another test may make
    /// hold) between them, and a value that fails to work out when the text it parses is not JSON.
    private static let mapping = """
        mapping: dispatch
        recognize: {path: id, exists: true}
        let:
          action: {last_part: {path: action}, separator: "."}
          parsed: {parse_json: {path: raw}}
        defaults:
          id: {path: id}
          time: {path: t}
          subject: {path: uid}
        events:
          - when: {path: flag, equals: true}
            type: flagged
          - when: {path: $action, equals: created}
            type: account.created
          - when: {path: $action, in: [signin, login, signin]}
            type: signin
          - when: {path: $action, in: [consent, 7]}
            type: consent.granted
          - when: {all: [{path: $action, equals: linked}, {path: email, exists: true}]}
            type: identity.linked
            fields: {kind: email, value: {path: email}}
          - type: always
            fields: {action: {path: action}}
          - when: {any: [{path: $action, equals: created}, {path: flag, equals: true}]}
            type: either
          - when: {path: $parsed.kind, equals: linked}
            type: parsed
          - when: {path: $action, in: [deleted, created]}
            type: account.deleted
        unmatched:
          reason: nothing
        """

    private static let records = [
        #"{"id":"a","t":"2025-01-01T00:00:00Z","uid":"u","action":"svc.created"}"#,
        #"{"id":"b","t":"2025-01-01T00:00:00Z","uid":"u","action":"signin"}"#,
        #"{"id":"c","t":"2025-01-01T00:00:00Z","uid":"u","action":"v1.login","flag":true}"#,
        #"{"id":"d","t":"2025-01-01T00:00:00Z","uid":"u","action":"consent"}"#,
        #"{"id":"e","t":"2025-01-01T00:00:00Z","uid":"u","action":7}"#,
        #"{"id":"f","t":"2025-01-01T00:00:00Z","uid":"u","action":"linked","email":"x@privaterelay.appleid.com"}"#,
        #"{"id":"g","t":"2025-01-01T00:00:00Z","uid":"u","action":"linked"}"#,
        #"{"id":"h","t":"2025-01-01T00:00:00Z","uid":"u","action":"deleted","raw":"{\"kind\":\"linked\"}"}"#,
        #"{"id":"i","t":"2025-01-01T00:00:00Z","uid":"u","action":"deleted","raw":"not json"}"#,
        #"{"id":"j","t":"2025-01-01T00:00:00Z","uid":"u","action":{"name":"created"}}"#,
        #"{"id":"k","t":"2025-01-01T00:00:00Z","uid":"u"}"#,
        #"{"id":"l","t":"2025-01-01T00:00:00Z","uid":"u","action":"cre\u0061ted"}"#,
        #"{"id":"m","t":"2025-01-01T00:00:00Z","uid":"u","action":null,"flag":true}"#,
    ]

    private func mappers() throws -> (dispatching: RecordMapper, testingEach: RecordMapper) {
        let mapping = try MappingLoader.load(text: Self.mapping, path: "dispatch.yml", sha256: "").get()
        return (
            RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil)),
            RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil), dispatching: false)
        )
    }

    /// What the mapping written in `yaml` makes of `record`.
    private func outcome(of record: String, mapping yaml: String) throws -> RecordMapper.Outcome {
        let mapping = try MappingLoader.load(text: yaml, path: "mapping.yml", sha256: "").get()
        var text = record
        return try text.withUTF8 { try RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil)).map(parsing: $0) }
    }

    @Test(arguments: records)
    func aRecordMapsAsWhenEveryConditionIsTested(record: String) throws {
        let mappers = try mappers()
        var text = record
        let dispatched = try text.withUTF8 { try mappers.dispatching.map(parsing: $0) }
        let tested = try text.withUTF8 { try mappers.testingEach.map(parsing: $0) }
        #expect(dispatched == tested)
    }

    /// One mapper maps record after record: nothing of one record's dispatch or fields is left
    /// for the next.
    @Test func recordsMappedInTurnMapAsEachAlone() throws {
        let inTurn = try mappers()
        for record in Self.records + Self.records.reversed() {
            let alone = try mappers()
            var text = record
            let outcomes = try text.withUTF8 { bytes in
                (
                    try inTurn.dispatching.map(parsing: bytes), try inTurn.testingEach.map(parsing: bytes),
                    try alone.dispatching.map(parsing: bytes)
                )
            }
            #expect(outcomes.0 == outcomes.1, "\(record)")
            #expect(outcomes.0 == outcomes.2, "\(record)")
        }
    }

    @Test func theEventsOfARecordComeInTheOrderOfTheTemplates() throws {
        var text = #"{"id":"a","t":"2025-01-01T00:00:00Z","uid":"u","action":"svc.created","flag":true}"#
        let outcome = try text.withUTF8 { try mappers().dispatching.map(parsing: $0) }
        guard case .events(let events) = outcome else {
            Issue.record("the record gave no events: \(outcome)")
            return
        }
        #expect(events.map(\.type) == ["flagged", "account.created", "always", "either", "account.deleted"].map(JSONValue.string))
    }

    /// The value that fails to work out fails the record as it did, where the template that
    /// reads it first is reached.
    @Test func aValueThatFailsFailsTheRecord() throws {
        var text = #"{"id":"i","t":"2025-01-01T00:00:00Z","uid":"u","action":"deleted","raw":"not json"}"#
        let outcome = try text.withUTF8 { try mappers().dispatching.map(parsing: $0) }
        guard case .invalid(let reason) = outcome else {
            Issue.record("the record was not invalid: \(outcome)")
            return
        }
        #expect(reason.contains("invalid JSON"))
    }

    /// A template before the dispatched ones whose condition fails first is the failure told:
    /// the dispatch value is not worked out before the template that first reads it.
    @Test func anEarlierTemplatesFailureIsTheOneTold() throws {
        let outcome = try outcome(
            of: #"{"id":"f","t":"2025-01-01T00:00:00Z","uid":"u","one":"not json","two":"nor this"}"#,
            mapping: """
                mapping: failures
                recognize: {path: id, exists: true}
                let:
                  first: {parse_json: {path: one}}
                  second: {parse_json: {path: two}}
                defaults: {id: {path: id}, time: {path: t}, subject: {path: uid}}
                events:
                  - when: {path: $first.kind, equals: x}
                    type: flagged
                  - when: {path: $second.kind, equals: created}
                    type: account.created
                  - when: {path: $second.kind, in: [deleted]}
                    type: account.deleted
                """)
        guard case .invalid(let reason) = outcome else {
            Issue.record("the record was not invalid: \(outcome)")
            return
        }
        #expect(reason.contains("'one'"), "\(reason)")
    }

    /// Values worked out from others are tested, not dispatched: `1` and `1.0` are one
    /// expression to `==` but two texts to `concat`.
    @Test func computedValuesAreTestedInTurn() throws {
        let outcome = try outcome(
            of: #"{"id":"e","t":"2025-01-01T00:00:00Z","uid":"u","kind":"a"}"#,
            mapping: """
                mapping: computed
                recognize: {path: id, exists: true}
                defaults: {id: {path: id}, time: {path: t}, subject: {path: uid}}
                events:
                  - when: {value: {concat: [{path: kind}, 1.0]}, equals: "a1.0"}
                    type: account.created
                  - when: {value: {concat: [{path: kind}, 1]}, equals: "a1"}
                    type: signin
                """)
        guard case .events(let events) = outcome else {
            Issue.record("the record gave no events: \(outcome)")
            return
        }
        #expect(events.map(\.type) == ["account.created", "signin"].map(JSONValue.string))
    }

    @Test func theValueMostTemplatesTestIsChosen() throws {
        let mapping = try MappingLoader.load(text: Self.mapping, path: "dispatch.yml", sha256: "").get()
        let templates = PathBinder(mapping, layout: RecordLayout(nil)).bind(mapping).events
        let dispatch = try #require(TemplateDispatch(templates))
        // `in: [consent, 7]` holds a number: that template is tested, not dispatched.
        #expect(dispatch.dispatched == [false, true, true, false, true, false, false, false, true])
        #expect(dispatch.candidates["created"] == [1, 8])
        #expect(dispatch.candidates["signin"] == [2])
        #expect(dispatch.candidates["consent"] == nil)
    }

    @Test func oneTemplateOnAValueIsNoDispatch() throws {
        let mapping = try MappingLoader.load(
            text: """
                mapping: single
                recognize: {path: id, exists: true}
                defaults: {id: {path: id}, time: {path: t}, subject: {path: uid}}
                events:
                  - when: {path: action, equals: created}
                    type: account.created
                  - when: {path: other, equals: deleted}
                    type: account.deleted
                """, path: "single.yml", sha256: ""
        ).get()
        #expect(TemplateDispatch(PathBinder(mapping, layout: RecordLayout(nil)).bind(mapping).events) == nil)
    }
}
