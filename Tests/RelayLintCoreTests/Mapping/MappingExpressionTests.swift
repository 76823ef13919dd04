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
    ])
    func aLookupFindsANumberByItsValue(value: String, expected: String) throws {
        let record = try JSONParser.parseDocument(#"{"code": "# + value + #", "none": null, "name": "n"}"#)
        let scope = MappingScope(record: record, tokens: TokenReader(keys: nil))
        let lookup = MappingExpression.lookup(
            .path(try #require(MappingPath("code"))),
            table: ["1": .string("one"), "100": .string("hundred"), "0.5": .string("half")], default: .constant(.string("other")))
        #expect(try lookup.evaluate(in: scope) == .string(expected))
        let joined = MappingExpression.concat([.path(try #require(MappingPath("name"))), .path(try #require(MappingPath("none")))])
        #expect(try joined.evaluate(in: scope) == .string("n"))
    }
}
