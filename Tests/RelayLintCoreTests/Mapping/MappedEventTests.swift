@testable import RelayLintCore
import Testing

/// A mapped event keeps its fields sorted by name without a dictionary: the fields are worked
/// out in the order the mapping writes them, so the first that fails is the one a record's
/// error names, and each lands in its place by name.
@Suite struct MappedEventTests {
    private static let mapping = """
        mapping: field-order
        recognize: {path: id, exists: true}
        events:
          - type: signin
            id: {path: id}
            time: {path: t}
            subject: {path: uid}
            fields:
              zeta: {epoch_milliseconds: {path: z}}
              alpha: {epoch_milliseconds: {path: a}}
              mid: {path: m}
        """

    private func outcome(_ record: String) throws -> RecordMapper.Outcome {
        let mapping = try MappingLoader.load(text: Self.mapping, path: "order.yml", sha256: "").get()
        var text = record
        return try text.withUTF8 { try RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil)).map(parsing: $0) }
    }

    @Test func theFieldWrittenFirstIsTheFailureTold() throws {
        let outcome = try outcome(#"{"id":"e","t":"2025-01-01T00:00:00Z","uid":"u","z":"late","a":"early"}"#)
        guard case .invalid(let reason) = outcome else {
            Issue.record("the record was not invalid: \(outcome)")
            return
        }
        #expect(reason.contains("'z'"))
    }

    @Test func fieldsComeOutSortedByNameWithoutTheAbsentOnes() throws {
        let outcome = try outcome(#"{"id":"e","t":"2025-01-01T00:00:00Z","uid":"u","z":2,"m":null,"a":1}"#)
        guard case .events(let events) = outcome, let event = events.first else {
            Issue.record("the record gave no event: \(outcome)")
            return
        }
        #expect(event.fields.map(\.key) == ["alpha", "zeta"])
        #expect(
            event.members == [
                "id": .string("e"), "time": .string("2025-01-01T00:00:00Z"), "subject": .string("u"),
                "type": .string("signin"), "alpha": .number(JSONNumber(1000)), "zeta": .number(JSONNumber(2000)),
            ])
        #expect(event.subject == .string("u") && event.type == .string("signin") && event.app == nil)
    }
}
