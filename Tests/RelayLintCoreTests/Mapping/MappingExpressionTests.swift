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
}
