import Foundation

/// A JSON Web Signature in compact form (`header.payload.signature`, each base64url), as Apple
/// sends its server-to-server notifications: decoded, and checked when keys are given.
struct SignedToken: Sendable {
    let header: [String: JSONValue]
    let claims: JSONValue
    /// The bytes the signature covers: `header.payload` as sent.
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// Decodes a compact JWS; what it must be is said in the error (three base64url parts, a JSON
    /// object header, a JSON payload).
    init(compact text: String) throws(MappingFailure) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw MappingFailure("a signed token (JWS) must be three base64url parts separated by '.', found \(parts.count)")
        }
        let names = ["header", "payload", "signature"]
        var decoded: [[UInt8]] = []
        for (index, part) in parts.enumerated() {
            guard let bytes = SignedToken.base64URLDecode(part) else {
                throw MappingFailure("the token's \(names[index]) is not base64url")
            }
            decoded.append(bytes)
        }
        let headerValue: JSONValue
        let claimsValue: JSONValue
        do throws(JSONParser.SyntaxError) {
            headerValue = try decoded[0].withUnsafeBufferPointer { buffer throws(JSONParser.SyntaxError) in
                try JSONParser.parseDocument(buffer)
            }
            claimsValue = try decoded[1].withUnsafeBufferPointer { buffer throws(JSONParser.SyntaxError) in
                try JSONParser.parseDocument(buffer)
            }
        } catch {
            throw MappingFailure("the token's header or payload is not JSON: \(error.reason)")
        }
        guard case .object(let header) = headerValue else { throw MappingFailure("the token's header must be a JSON object") }
        self.header = header
        claims = claimsValue
        signingInput = Array(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        signature = decoded[2]
    }

    /// base64url without padding (RFC 7515 §2); padding is tolerated.
    static func base64URLDecode(_ text: Substring) -> [UInt8]? {
        var standard = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.hasSuffix("=") { standard.removeLast() }
        guard standard.utf8.count % 4 != 1 else { return nil }
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }
}
