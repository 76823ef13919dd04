@testable import RelayLintCore
import Testing

/// A long `in:` list is looked up in a set; the set must accept exactly the values the list
/// search (`MatcherEvaluation.equivalent`) accepts: booleans against `"true"` in any case,
/// numbers against strings that hold them, and the other way round.
@Suite struct EquivalentValuesTests {
    static let listed: [JSONValue] =
        (0..<14).map { .string("v\($0)") } + [
            .bool(true), .number(JSONNumber(text: "2.50", value: 2.5)), .string("7"), .string("1e3"), .null,
            .array([.string("x")]),
        ]

    static let candidates: [JSONValue] = [
        .string("v3"), .string("V3"), .string("v99"), .string("true"), .string("TRUE"), .string("false"), .bool(true),
        .bool(false), .string("2.5"), .string("2.50"), .string("02.5"), .number(JSONNumber(text: "2.5", value: 2.5)),
        .number(JSONNumber(text: "7", value: 7)), .number(JSONNumber(text: "7.0", value: 7)),
        .number(JSONNumber(text: "1000", value: 1000)), .number(JSONNumber(text: "8", value: 8)), .string("nan"), .null,
        .array([.string("x")]), .array([]), .object([:]),
    ]

    @Test func theSetAcceptsWhatTheListSearchAccepts() throws {
        let values = try #require(EquivalentValues(Self.listed))
        var accepted = 0
        for candidate in Self.candidates {
            let searched = Self.listed.contains { MatcherEvaluation.equivalent($0, candidate) }
            #expect(values.contains(candidate) == searched, "\(candidate)")
            if searched { accepted += 1 }
        }
        // Both answers occur: the comparison above is not of empty results.
        #expect(accepted > 8 && accepted < Self.candidates.count)
    }

    /// A string holds a number when it is written as JSON writes one: `Double(_:)` also read
    /// hexadecimal, `inf` and a leading `+`, so `equals: 15` matched "0xF".
    @Test(arguments: [("15", true), ("15.0", true), ("1.5e1", true), ("0xF", false), ("+15", false), ("0x1.ep3", false), ("15 ", false)])
    func aNumberMatchesAStringWrittenAsAJSONNumber(text: String, matches: Bool) {
        let fifteen = JSONValue.number(JSONNumber(text: "15", value: 15))
        #expect(MatcherEvaluation.equivalent(fifteen, .string(text)) == matches)
        #expect(MatcherEvaluation.equivalent(.string(text), fifteen) == matches)
    }

    @Test func aShortListIsSearched() {
        #expect(EquivalentValues(Array(Self.listed.prefix(EquivalentValues.shortestIndexed - 1))) == nil)
    }
}
