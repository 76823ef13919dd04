import Crypto
import Foundation
import _CryptoExtras

/// The public keys a token must be signed with: a JSON Web Key Set (RFC 7517) as Apple
/// publishes it at `https://appleid.apple.com/auth/keys`. Only RSA keys (RS256, the algorithm
/// Apple signs with) are used; a token is checked against the key its header's `kid` names.
public struct SigningKeySet: Sendable {
    /// The RSA keys by `kid`.
    private let keys: [String: _RSA.Signing.PublicKey]
    /// The RSA keys the set marks for another use (`use` other than `sig`) or algorithm (`alg`
    /// other than RS256), by `kid`, with what it marks: a token naming one is not verified by it.
    private let otherKeys: [String: String]
    public let path: String
    public let sha256: String

    public var count: Int { keys.count }

    /// Loads a JWKS file; every problem is a diagnostic at the file.
    public static func load(path: String) throws(DiagnosticsError) -> SigningKeySet {
        let file: (data: Data, sha256: String)
        do {
            file = try FileBytes.read(path: path)
        } catch {
            throw DiagnosticsError(error.diagnostics)
        }
        let bytes = [UInt8](file.data)
        let parsed: Result<JSONValue, JSONParser.SyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParser.SyntaxError) in try JSONParser.parseDocument(buffer) }
        }
        let value: JSONValue
        switch parsed {
        case .success(let parsedValue): value = parsedValue
        case .failure(let error):
            let position = bytes.withUnsafeBufferPointer { FileBytes.lineAndColumn(of: error.offset, in: $0) }
            // The reason may quote a key of the file (`duplicate key '…'`).
            throw DiagnosticsError([
                Diagnostic(
                    .error, "invalid JSON: \(PIIMasker().mask(error.reason))",
                    at: SourceLocation(file: path, line: position.line, column: position.column))
            ])
        }
        // Each key's problem is reported where the key starts, the set's other problems at its
        // first line.
        let starts = bytes.withUnsafeBufferPointer { buffer in
            FileBytes.linesAndColumns(of: keyOffsets(in: buffer), in: buffer).map { position in
                SourceLocation(file: path, line: position.line, column: position.column)
            }
        }
        return try SigningKeySet(jwks: value, path: path, sha256: file.sha256, keyLocations: starts)
    }

    /// Where each element of the set's `keys` list starts, in order; empty when the document has
    /// no such list (the set is refused as a whole then).
    private static func keyOffsets(in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var parser = JSONParser(bytes: bytes)
        var offsets: [Int] = []
        let keys = JSONKeys(["keys"])
        do throws(JSONParser.SyntaxError) {
            parser.skipWhitespace()
            guard parser.currentByte == UInt8(ascii: "{"), var object = try parser.openObject(depth: 0) else { return [] }
            repeat {
                let isKeys = try parser.memberKey(in: keys, of: &object) == 0
                parser.skipWhitespace()
                guard isKeys, parser.currentByte == UInt8(ascii: "[") else {
                    try parser.skipValue(depth: 1)
                    continue
                }
                try parser.parseArray(depth: 1) { element throws(JSONParser.SyntaxError) in
                    element.skipWhitespace()
                    offsets.append(element.offset)
                    try element.skipValue(depth: 2)
                }
            } while try parser.nextMember(of: &object)
        } catch {
            // The document parsed once already; a second reading cannot fail.
            return []
        }
        return offsets
    }

    /// - Parameter keyLocations: where each element of `keys` starts; the file's first line for
    ///   any it lacks.
    init(jwks: JSONValue, path: String, sha256: String, keyLocations: [SourceLocation] = []) throws(DiagnosticsError) {
        self.path = path
        self.sha256 = sha256
        let setLocation = SourceLocation(file: path, line: 1)
        guard case .array(let entries)? = jwks.objectValue?["keys"] else {
            throw DiagnosticsError([Diagnostic(.error, "expected a JSON Web Key Set: an object with a 'keys' list", at: setLocation)])
        }
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        var otherKeys: [String: String] = [:]
        var problems: [Diagnostic] = []
        for (index, entry) in entries.enumerated() {
            let location = index < keyLocations.count ? keyLocations[index] : setLocation
            let members = entry.objectValue ?? [:]
            guard members["kty"]?.stringValue == "RSA" else { continue }
            guard let kid = members["kid"]?.stringValue, let n = members["n"]?.stringValue, let e = members["e"]?.stringValue,
                let modulus = SignedToken.base64URLDecode(Substring(n)), let exponent = SignedToken.base64URLDecode(Substring(e))
            else {
                problems.append(Diagnostic(.error, "key \(index + 1) needs 'kid', and 'n' and 'e' in base64url", at: location))
                continue
            }
            // Quoted masked: a key id is the file's own text, and may be anything.
            let quoted = PIIMasker().mask(kid)
            guard keys[kid] == nil, otherKeys[kid] == nil else {
                problems.append(Diagnostic(.error, "key '\(quoted)' is in the set twice: which one signs is not clear", at: location))
                continue
            }
            // Apple's keys are 2048-bit; a shorter one can be forged and proves nothing.
            let significant = modulus.drop { $0 == 0 }
            let bits = significant.first.map { (significant.count - 1) * 8 + (8 - $0.leadingZeroBitCount) } ?? 0
            guard bits >= 2048 else {
                problems.append(
                    Diagnostic(.error, "key '\(quoted)' is an RSA key of \(bits) bits; at least 2048 are needed", at: location))
                continue
            }
            // Every notification is checked with the key: one of 16,384 bits and a 31-bit
            // exponent made 20,000 of them take half a minute. Apple's are 2048 bits, exponent
            // 65537 (17 bits).
            let exponentDigits = exponent.drop { $0 == 0 }
            let exponentBits = exponentDigits.first.map { (exponentDigits.count - 1) * 8 + (8 - $0.leadingZeroBitCount) } ?? 0
            guard bits <= 4096, exponentBits <= 32 else {
                problems.append(
                    Diagnostic(
                        .error,
                        "key '\(quoted)' is an RSA key of \(bits) bits with a \(exponentBits)-bit exponent; relaylint reads keys of "
                            + "at most 4096 bits with an exponent of at most 32 bits (Apple's are 2048 bits, exponent 65537)",
                        at: location))
                continue
            }
            // RFC 7517: a key whose `use` is `enc` encrypts, and one whose `alg` names another
            // algorithm signs with that one; neither verifies an RS256 signature.
            if let use = members["use"], use.stringValue != "sig" {
                otherKeys[kid] = "marked 'use': \(PIIMasker().mask(use.displayText))"
                continue
            }
            if let alg = members["alg"], alg.stringValue != "RS256" {
                otherKeys[kid] = "marked 'alg': \(PIIMasker().mask(alg.displayText))"
                continue
            }
            do {
                keys[kid] = try _RSA.Signing.PublicKey(n: modulus, e: exponent)
            } catch {
                problems.append(
                    Diagnostic(
                        .error, "key '\(quoted)' is not a usable RSA public key: 'n' and 'e' must be its modulus and exponent",
                        at: location))
            }
        }
        if keys.isEmpty, problems.isEmpty {
            let why = otherKeys.isEmpty ? "" : " for RS256 signatures (every RSA key is marked for another use or algorithm)"
            problems.append(Diagnostic(.error, "the key set holds no RSA key\(why)", at: setLocation))
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        self.keys = keys
        self.otherKeys = otherKeys
    }

    /// Checks an RS256 signature with the key the token's `kid` names.
    func verify(_ token: SignedToken) throws(MappingFailure) {
        guard token.header["alg"]?.stringValue == "RS256" else {
            throw MappingFailure("the token is signed with '\((token.header["alg"]?.displayText ?? "none").shortened())', expected RS256")
        }
        if let kid = token.header["kid"]?.stringValue, let use = otherKeys[kid] {
            throw MappingFailure(
                "the token's key '\(PIIMasker().mask(kid).shortened())' of \(path) is \(use), not a key for RS256 signatures")
        }
        guard let kid = token.header["kid"]?.stringValue, let key = keys[kid] else {
            throw MappingFailure(
                "the token's key '\(PIIMasker().mask(token.header["kid"]?.displayText ?? "").shortened())' is not in \(path)")
        }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: token.signature)
        guard key.isValidSignature(signature, for: SHA256.hash(data: token.signingInput), padding: .insecurePKCS1v1_5) else {
            throw MappingFailure("the token's signature does not verify with key '\(kid)' of \(path)")
        }
    }
}
