@testable import RelayLintCore
import Testing

/// A long `in:` list of a mapping is looked up in a set; it must accept exactly what the list
/// search accepts (JSON equality, numbers by value: `1` is `1.0` and `10e-1`).
@Suite struct CandidateValuesTests {
    static func number(_ text: String) -> JSONValue { .number(JSONNumber(text: text, value: Double(text)!)) }

    @Test func theSetAcceptsWhatTheListSearchAccepts() throws {
        let listed = (0..<20).map { JSONValue.string("m\($0)") } + [Self.number("1"), .bool(true), .null, .array([.string("x")])]
        let values = CandidateValues(listed)
        let candidates: [JSONValue] = [
            .string("m3"), .string("M3"), .string("m30"), Self.number("1.0"), Self.number("10e-1"), Self.number("2"), .string("1"),
            .bool(true), .bool(false), .null, .array([.string("x")]), .array([]), .object([:]),
        ]
        var accepted = 0
        for candidate in candidates {
            let searched = listed.contains { MappingCondition.Test.same($0, candidate) }
            #expect(values.contains(candidate) == searched, "\(candidate)")
            if searched { accepted += 1 }
        }
        #expect(accepted == 6)
        #expect(CandidateValues(Array(listed.prefix(3))).contains(.string("m2")))
    }
}
