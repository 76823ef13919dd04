import Foundation
@testable import RelayLintCore
import Testing

/// A notification's JWS is read as RFC 7515 writes one: three base64url parts without padding,
/// and no critical extension relaylint does not understand.
@Suite struct SignedTokenTests {
    /// `text` as base64url without padding.
    private static func part(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func failure(_ compact: String) -> String? {
        do {
            _ = try SignedToken(compact: compact)
            return nil
        } catch {
            return error.reason
        }
    }

    private static let header = part(#"{"alg":"RS256","kid":"k1"}"#)
    private static let payload = part(#"{"iss":"https://appleid.apple.com"}"#)

    @Test func aTokenOfThreeBase64URLPartsIsRead() throws {
        let token = try SignedToken(compact: "\(Self.header).\(Self.payload).AQID-_8")
        #expect(token.header["kid"] == .string("k1"))
        #expect(token.signature == [1, 2, 3, 0xFB, 0xFF])
    }

    /// Padding and the standard alphabet's `+` and `/` are not base64url: such a token is not
    /// the one Apple sent.
    @Test(arguments: ["AQID-_8=", "AQID+/8", "AQ ID"])
    func aSignatureThatIsNotBase64URLIsRefused(signature: String) {
        #expect(Self.failure("\(Self.header).\(Self.payload).\(signature)")?.hasPrefix("the token's signature is not base64url") == true)
    }

    /// Claims are capped as a record read whole is: a token of a million tiny values took
    /// hundreds of megabytes where the same claims decoded were refused.
    @Test func claimsOfMoreValuesThanARecordMayHoldAreRefused() {
        let values = Array(repeating: "0", count: InputLimits.recordValues).joined(separator: ",")
        let reason = Self.failure("\(Self.header).\(Self.part("{\"x\":[" + values + "]}")).AQID")
        #expect(reason?.contains("a record of more than \(InputLimits.recordValues) values") == true, "\(reason ?? "read")")
    }

    /// RFC 7515 §4.1.11: `"b64": false` under `crit` changes what the signature covers.
    @Test func aCriticalExtensionIsRefused() {
        let header = Self.part(#"{"alg":"RS256","kid":"k1","b64":false,"crit":["b64"]}"#)
        #expect(Self.failure("\(header).\(Self.payload).AQID")?.contains("critical extensions ('crit')") == true)
    }
}
