@testable import RelayLintCore
import Testing

/// The functions a mapping's expressions call, on the values real logs give them.
@Suite struct MappingExpressionTests {
    /// `last_part` gives what follows the last separator, compared by bytes, or the whole text.
    @Test(arguments: [
        ("google.cloud.identitytoolkit.v1.AuthenticationService.SignInWithIdp", ".", "SignInWithIdp"),
        ("SignUp", ".", "SignUp"), ("a::b::c", "::", "c"), ("é.ü", ".", "ü"), ("trailing.", ".", ""), (".", ".", ""),
        ("", ".", ""), ("x", "", "x"), ("ab", "abc", "ab"), ("a..b", "..", "b"), ("a...b", "..", "b"),
    ])
    func lastPartIsWhatFollowsTheLastSeparator(text: String, separator: String, expected: String) {
        #expect(MappingExpression.lastPart(of: text, separator: separator) == expected)
    }

    /// A lookup finds a number by its value, as a condition compares it, whatever the logger's
    /// encoder wrote (`1.0`, `1e2`, `0.50`); a text that only looks like a number is text.
    /// `concat` leaves null out as it leaves out an absent value.
    @Test(arguments: [
        ("1.0", "one"), ("1e2", "hundred"), ("0.50", "half"), ("100", "hundred"), ("2", "other"), (#""1.0""#, "other"),
        (#""100""#, "hundred"),
    ])
    func aLookupFindsANumberByItsValue(value: String, expected: String) throws {
        let mapping = try MappingLoader.load(
            text: """
                mapping: m
                recognize: {path: code, exists: true}
                defaults: {id: {value: e1}, time: {value: "2026-01-01T00:00:00Z"}, subject: {value: u1}}
                events:
                  - type: t
                    fields:
                      kind: {lookup: {path: code}, table: {1: one, "100": hundred, 0.5: half}, default: other}
                      joined: {concat: [{path: name}, {path: none}]}
                """, path: "m.yml", sha256: ""
        ).get()
        let record = try JSONParser.parseDocument(#"{"code": "# + value + #", "none": null, "name": "n"}"#)
        guard case .events(let events) = RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil)).map(record) else {
            Issue.record("the record gave no event")
            return
        }
        let fields = Dictionary(uniqueKeysWithValues: events[0].fields.map { ($0.0, $0.1) })
        #expect(fields["kind"] == .string(expected))
        #expect(fields["joined"] == .string("n"))
    }

    /// Two keys of one table that are the same number would find one entry or the other by the
    /// order of a dictionary.
    @Test func aTableWithTwoKeysOfOneNumberIsAnError() {
        let text = """
            mapping: m
            recognize: {path: code, exists: true}
            defaults: {id: {value: e1}, time: {value: "2026-01-01T00:00:00Z"}, subject: {value: u1}}
            events: [{type: {lookup: {path: code}, table: {1: a, 1.0: b, "1.00": c}}}]
            """
        guard case .failure(let error) = MappingLoader.load(text: text, path: "m.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        #expect(
            error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" } == [
                "4:54 table keys '1' and '1.0' are the same number", "4:62 table keys '1.0' and '1.00' are the same number",
            ])
    }
}
