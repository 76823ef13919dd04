/// Decides whether an email address is an Apple private-relay address.
///
/// The contract fixes the test: the domain, trimmed of Unicode white space and compared
/// case-insensitively, must be exactly one of the configured relay domains. `icloud.com` is not
/// among the defaults because it also holds real mailboxes.
public struct RelayDomains: Sendable, Hashable {
    /// Apple's relay domains as of mid-2026.
    public static let defaultDomains = ["privaterelay.appleid.com", "private.icloud.com"]

    /// The most domains a run takes (`relay_domains`, `--relay-domain`): every address of every
    /// event is tested against each, for the relay test and the look-alike note, so a list of
    /// thousands (a `.relaylint.yml` a pull request brings) multiplied a run's time by as many.
    /// Apple has two; a few more cover a mail provider's or a test's.
    public static let maximumCount = 64

    public private(set) var domains: [String]
    /// The domains' bytes, for the ASCII fast path.
    private let domainBytes: [[UInt8]]
    /// The domains' letters and digits, as the look-alike test compares them, in bytes.
    private let squashedDomainBytes: [[UInt8]]

    public init(_ domains: [String] = RelayDomains.defaultDomains) {
        self.domains = domains.map { RelayDomains.normalize($0) }
        self.domainBytes = self.domains.map { Array($0.utf8) }
        self.squashedDomainBytes = self.domains.map { Array($0.filter { $0.isLetter || $0.isNumber }.utf8) }
    }

    /// The address's domain, trimmed and lowercased, or nil when it has no `@`.
    public static func domain(of address: String) -> String? {
        let trimmed = trimWhitespace(address)
        guard let at = trimmed.lastIndex(of: "@") else { return nil }
        return normalize(String(trimmed[trimmed.index(after: at)...]))
    }

    /// True when the address's domain is exactly one of the relay domains.
    public func isRelayAddress(_ address: String) -> Bool {
        // The address's bytes as one buffer: walking `String.UTF8View` index by index costs
        // several times more. A closure, not the method as a value: that captured `self` and
        // retained its three arrays for every address (the evaluation tests several per event).
        if let isRelay = address.withUTF8Bytes({ asciiRelayTest($0) }) { return isRelay }
        guard let domain = RelayDomains.domain(of: address) else { return false }
        return domains.contains(domain)
    }

    /// True for domains that look like a relay domain without being one
    /// (`privaterelay.apple.id.com`, `appleid.com`): worth a data-quality note.
    public func isLookAlike(_ address: String) -> Bool {
        // Most addresses are ASCII: byte tests decide them (a log has millions).
        address.withUTF8Bytes({ asciiLookAlikeTest($0) }) ?? unicodeLookAlikeTest(address)
    }

    /// The look-alike test for any address, on its `Character`s (the byte test must agree with
    /// it wherever it answers).
    func unicodeLookAlikeTest(_ address: String) -> Bool {
        guard let domain = RelayDomains.domain(of: address), !domains.contains(domain) else { return false }
        let squashed = domain.filter { $0.isLetter || $0.isNumber }
        if domain == "appleid.com" || domain.hasSuffix(".appleid.com") { return true }
        return domains.contains { relay in
            let relaySquashed = relay.filter { $0.isLetter || $0.isNumber }
            return squashed == relaySquashed || squashed.contains(relaySquashed) || domain.hasPrefix("privaterelay.")
        }
    }

    /// The same test on an address's UTF-8 bytes, for the log reader's fast path: a `String` is
    /// made only for the rare address the byte test cannot decide (one that is not ASCII).
    func isLookAlike(bytes address: UnsafeBufferPointer<UInt8>) -> Bool {
        asciiLookAlikeTest(address) ?? unicodeLookAlikeTest(String(decoding: address, as: UTF8.self))
    }

    /// The look-alike test on bytes for the usual address (see `asciiRelayTest`); nil for any
    /// other, which the Unicode-aware path decides. Letters and digits are ASCII's here, as
    /// `Character.isLetter` and `isNumber` are for ASCII. (A prefilter for the words of the
    /// default domains — `apple`, `relay`, `icloud` — missed the look-alikes of other domains.)
    private func asciiLookAlikeTest(_ address: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let isRelay = asciiRelayTest(address) else { return nil }
        guard !isRelay, let at = address.lastIndex(of: UInt8(ascii: "@")) else { return false }
        let domain = UnsafeBufferPointer(rebasing: address[(at + 1)...])
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: domain.count * 2) { buffer in
            var (lowered, squashed) = (0, domain.count)
            for byte in domain {
                let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                buffer[lowered] = lower
                lowered += 1
                if (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (lower >= UInt8(ascii: "0") && lower <= UInt8(ascii: "9"))
                {
                    buffer[squashed] = lower
                    squashed += 1
                }
            }
            let lower = UnsafeBufferPointer(rebasing: buffer[0..<lowered])
            if lower.elementsEqual("appleid.com".utf8) || lower.reversed().starts(with: ".appleid.com".utf8.reversed()) { return true }
            if lower.starts(with: "privaterelay.".utf8) { return !domains.isEmpty }
            let letters = UnsafeBufferPointer(rebasing: buffer[domain.count..<squashed])
            return squashedDomainBytes.contains { relay in
                relay.count <= letters.count
                    && (0...letters.count - relay.count).contains { letters[$0..<$0 + relay.count].elementsEqual(relay) }
            }
        }
    }

    /// The relay test on bytes for the usual address: all ASCII, its domain printable without
    /// white space (so trimming and Unicode lowercasing change nothing but ASCII case). nil for
    /// any other address, which the Unicode-aware path decides.
    private func asciiRelayTest(_ address: UnsafeBufferPointer<UInt8>) -> Bool? {
        var at: Int?
        for index in address.indices {
            let byte = address[index]
            if byte >= 0x80 { return nil }
            if byte == UInt8(ascii: "@") { at = index }
        }
        guard let at else { return false }
        let domain = UnsafeBufferPointer(rebasing: address[(at + 1)...])
        guard domain.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return domainBytes.contains { relay in
            relay.count == domain.count
                && zip(relay, domain).allSatisfy { expected, byte in
                    byte == expected || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") && byte | 0x20 == expected)
                }
        }
    }

    /// A prefilter for exported accounts, which test the address's key (trimmed, lowercased):
    /// false only where the byte test rules the address out, so that only the rare address it
    /// cannot decide, or a look-alike, costs a key.
    func mayLookAlike(_ address: String) -> Bool { address.withUTF8Bytes { asciiLookAlikeTest($0) ?? true } }

    static func normalize(_ domain: String) -> String { trimWhitespace(domain).lowercased() }

    /// What keeps `domain` from being a relay domain, in words; nil when it is one. An empty
    /// domain, `@` or an address replaced the list with one that matches no relay address, and
    /// every relay rule went quiet.
    public static func problem(with domain: String) -> String? {
        let normalized = normalize(domain)
        if normalized.isEmpty { return "is empty" }
        if normalized.contains("@") { return "holds '@': give the domain alone, the part after '@' (e.g. privaterelay.appleid.com)" }
        if normalized.contains(where: \.isWhitespace) || !normalized.contains(".") || normalized.hasPrefix(".")
            || normalized.hasSuffix(".")
        {
            return "is not a domain name (e.g. privaterelay.appleid.com)"
        }
        return nil
    }

    /// Trims characters for which `Character.isWhitespace` holds (Unicode White_Space), as the
    /// contract says; U+200B is not one of them.
    static func trimWhitespace(_ text: String) -> String {
        // Fast path: printable ASCII at both ends cannot be white space.
        if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return text
        }
        var slice = Substring(text)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
