/// Decides whether an email address is an Apple private-relay address.
///
/// The contract fixes the test: the domain, trimmed of Unicode white space and compared
/// case-insensitively, must be exactly one of the configured relay domains. `icloud.com` is not
/// among the defaults because it also holds real mailboxes.
public struct RelayDomains: Sendable, Hashable {
    /// Apple's relay domains as of mid-2026.
    public static let defaultDomains = ["privaterelay.appleid.com", "private.icloud.com"]

    public private(set) var domains: [String]

    public init(_ domains: [String] = RelayDomains.defaultDomains) {
        self.domains = domains.map { RelayDomains.normalize($0) }
    }

    /// The address's domain, trimmed and lowercased, or nil when it has no `@`.
    public static func domain(of address: String) -> String? {
        let trimmed = trimWhitespace(address)
        guard let at = trimmed.lastIndex(of: "@") else { return nil }
        return normalize(String(trimmed[trimmed.index(after: at)...]))
    }

    /// True when the address's domain is exactly one of the relay domains.
    public func isRelayAddress(_ address: String) -> Bool {
        guard let domain = RelayDomains.domain(of: address) else { return false }
        return domains.contains(domain)
    }

    /// True for domains that look like a relay domain without being one
    /// (`privaterelay.apple.id.com`, `appleid.com`): worth a data-quality note.
    public func isLookAlike(_ address: String) -> Bool {
        guard let domain = RelayDomains.domain(of: address), !domains.contains(domain) else { return false }
        // Most addresses are ordinary: a substring test rules them out before the costlier checks.
        guard domain.contains("apple") || domain.contains("relay") || domain.contains("icloud") else { return false }
        let squashed = domain.filter { $0.isLetter || $0.isNumber }
        if domain == "appleid.com" || domain.hasSuffix(".appleid.com") { return true }
        return domains.contains { relay in
            let relaySquashed = relay.filter { $0.isLetter || $0.isNumber }
            return squashed == relaySquashed || squashed.contains(relaySquashed) || domain.hasPrefix("privaterelay.")
        }
    }

    static func normalize(_ domain: String) -> String { trimWhitespace(domain).lowercased() }

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
