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
            guard let bytes = SignedToken.base64URLDecode(part, allowsPadding: false) else {
                throw MappingFailure("the token's \(names[index]) is not base64url (letters, digits, '-' and '_', without '=')")
            }
            decoded.append(bytes)
        }
        let headerValue: JSONValue
        let claimsValue: JSONValue
        // Capped as a record read whole is (`InputLimits.recordValues`): a 16 MiB line of a
        // token of `[0,0,…]` claims took 630 MB, where the same claims decoded were refused.
        do throws(JSONParser.SyntaxError) {
            headerValue = try decoded[0].withUnsafeBufferPointer { buffer throws(JSONParser.SyntaxError) in
                try JSONParser.parseRecord(buffer)
            }
            claimsValue = try decoded[1].withUnsafeBufferPointer { buffer throws(JSONParser.SyntaxError) in
                try JSONParser.parseRecord(buffer)
            }
        } catch {
            throw MappingFailure("the token's header or payload is not JSON: \(error.reason)")
        }
        guard case .object(let header) = headerValue else { throw MappingFailure("the token's header must be a JSON object") }
        // RFC 7515 §4.1.11: a recipient refuses a token whose critical extensions it does not
        // understand (`"b64": false` changes what the signature covers); Apple's name none.
        if header["crit"] != nil {
            throw MappingFailure("the token's header names critical extensions ('crit'), which relaylint does not understand")
        }
        self.header = header
        claims = claimsValue
        signingInput = Array(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        signature = decoded[2]
    }

    /// base64url (RFC 4648 §5): letters, digits, `-` and `_`; without padding as a JWS writes it
    /// (RFC 7515 §2), and with it where `allowsPadding` (a key set's numbers). The standard
    /// alphabet's `+` and `/` are not base64url: a token spelled with them is not one as sent.
    static func base64URLDecode(_ text: Substring, allowsPadding: Bool = true) -> [UInt8]? {
        let body = allowsPadding ? text.prefix { $0 != "=" } : text
        guard text.dropFirst(body.count).allSatisfy({ $0 == "=" }),
            body.utf8.allSatisfy({ byte in
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { return nil }
        var standard = String(body).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard standard.utf8.count % 4 != 1 else { return nil }
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }
}
