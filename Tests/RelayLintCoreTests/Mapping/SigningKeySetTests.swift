import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// `--apple-keys`: a key set whose keys are ambiguous or too weak to prove anything is refused,
/// and the key ids it quotes are masked like any value from a file.
@Suite struct SigningKeySetTests {
    /// The Examples' 2048-bit test key, as the JWKS lists it.
    static func exampleKey() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Examples/real-logs/apple-keys.json")))
        let set = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require((set["keys"] as? [[String: Any]])?.first)
    }

    static func load(_ keys: [[String: Any]]) throws -> Result<SigningKeySet, DiagnosticsError> {
        let data = try JSONSerialization.data(withJSONObject: ["keys": keys])
        let path = try Fixtures.temporaryFile(named: "keys.json", contents: String(decoding: data, as: UTF8.self))
        return Result { () throws(DiagnosticsError) in try SigningKeySet.load(path: path) }
    }

    @Test func theExampleKeySetLoads() throws {
        #expect(throws: Never.self) { try Self.load([try Self.exampleKey()]).get() }
    }

    /// A key marked for encryption (`use: enc`) or for another algorithm (`alg: ES256`) does
    /// not verify an RS256 signature (RFC 7517): a set of only such keys is refused, and a token
    /// naming one fails saying so. Both verified tokens before.
    @Test(arguments: [("use", "enc"), ("alg", "ES256")])
    func aKeyMarkedForAnotherUseVerifiesNothing(member: String, value: String) throws {
        var marked = try Self.exampleKey()
        marked[member] = value
        let alone = try #require(try Self.load([marked]).failure)
        #expect(alone.diagnostics.first?.message.contains("no RSA key for RS256 signatures") == true, "\(alone.diagnostics)")
        var other = try Self.exampleKey()
        other["kid"] = "another"
        let keys = try Self.load([marked, other]).get()
        #expect(keys.count == 1)
        let line = try #require(
            try String(contentsOfFile: Fixtures.path("Examples/real-logs/apple-notifications.jsonl"), encoding: .utf8)
                .split(separator: "\n").first)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let token = try SignedToken(compact: try #require(body["payload"] as? String))
        #expect(throws: Never.self) { try Self.load([try Self.exampleKey()]).get().verify(token) }
        let failure = try #require(Result { () throws(MappingFailure) in try keys.verify(token) }.failure)
        #expect(failure.reason.contains("marked '\(member)': \(value), not a key for RS256 signatures"), "\(failure.reason)")
    }

    @Test func aKeyIdListedTwiceIsRefused() throws {
        let key = try Self.exampleKey()
        let error = try #require(try Self.load([key, key]).failure)
        #expect(error.diagnostics.first?.message.contains("is in the set twice") == true)
    }

    @Test func anRSAKeyUnder2048BitsIsRefused() throws {
        var key = try Self.exampleKey()
        key["n"] = String((key["n"] as? String ?? "").prefix(86))  // 64 bytes: 512 bits
        let error = try #require(try Self.load([key]).failure)
        #expect(error.diagnostics.first?.message.contains("an RSA key of 512 bits; at least 2048 are needed") == true)
    }

    /// Every signature is checked with the key: one over 4096 bits, or with an exponent over 32
    /// bits, made each check up to a hundred times Apple's.
    @Test func anRSAKeyOver4096BitsOrWithAWideExponentIsRefused() throws {
        func encoded(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        var wide = try Self.exampleKey()
        wide["n"] = encoded([0x80] + Array(repeating: 0x01, count: 512))  // 4104 bits
        #expect(try #require(try Self.load([wide]).failure).diagnostics.first?.message.contains("RSA key of 4104 bits") == true)
        var exponent = try Self.exampleKey()
        exponent["e"] = encoded([0x01, 0x00, 0x00, 0x00, 0x01])  // 2^32 + 1: 33 bits
        #expect(
            try #require(try Self.load([exponent]).failure).diagnostics.first?.message.contains("with a 33-bit exponent") == true)
    }

    /// Bits are counted from the modulus's first set bit: a 2047-bit key has 256 bytes too.
    @Test func aKeyOneBitShortIsRefused() throws {
        var key = try Self.exampleKey()
        var modulus = try #require(SignedToken.base64URLDecode(Substring(key["n"] as? String ?? "")))
        modulus[0] = 0x64  // 0110 0100: the top bit clear
        key["n"] = Data(modulus).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let error = try #require(try Self.load([key]).failure)
        #expect(error.diagnostics.first?.message.contains("an RSA key of 2047 bits") == true, "\(error.diagnostics)")
    }

    /// A key's problem is reported where that key starts in the file, not at its first line:
    /// Apple's set holds several keys, and a copy edited by hand may break any of them.
    @Test func aBadKeyIsReportedAtItsLineAndColumn() throws {
        let good = String(
            decoding: try JSONSerialization.data(withJSONObject: try Self.exampleKey(), options: [.sortedKeys]), as: UTF8.self)
        let text =
            "{\n  \"keys\": [\n    \(good),\n    {\"kty\": \"RSA\", \"kid\": \"short\", \"n\": \"AQAB\", \"e\": \"AQAB\"},\n\(good)\n  ]\n}\n"
        let path = try Fixtures.temporaryFile(named: "keys.json", contents: text)
        let error = try #require(Result { () throws(DiagnosticsError) in try SigningKeySet.load(path: path) }.failure)
        #expect(
            error.diagnostics.map(\.description) == [
                "\(path):4:5: error: key 'short' is an RSA key of 17 bits; at least 2048 are needed",
                "\(path):5:1: error: key '\(try Self.exampleKey()["kid"] as? String ?? "")' is in the set twice: which one signs is not clear",
            ])
    }

    @Test func keyIdsAreQuotedMasked() throws {
        var key = try Self.exampleKey()
        key["kid"] = "victim.person@example.com"
        let error = try #require(try Self.load([key, key]).failure)
        let message = try #require(error.diagnostics.first?.message)
        #expect(!message.contains("victim.person@example.com"), "\(message)")
        #expect(message.contains("@example.com"), "\(message)")
    }
}

extension Result {
    /// The error of a failure; nil for a success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
