/// Reads the signed tokens of one parse worker's records: decodes them, checks their signatures
/// when a key set is given, and counts what it checked. One per worker thread, which alone
/// uses it (hence unchecked `Sendable`: it is handed to that thread).
final class TokenReader: @unchecked Sendable {
    let keys: SigningKeySet?
    private(set) var decoded = 0
    private(set) var verified = 0

    init(keys: SigningKeySet?) { self.keys = keys }

    /// The token's claims; a token that does not decode, or whose signature fails the key set,
    /// is a mapping failure.
    func claims(of text: String, what: String) throws(MappingFailure) -> JSONValue {
        let token = try SignedToken(compact: text)
        decoded += 1
        if let keys {
            try keys.verify(token)
            verified += 1
        }
        return token.claims
    }

    /// Forgets the counts (a worker reads one file at a time).
    func resetCounts() {
        decoded = 0
        verified = 0
    }
}
