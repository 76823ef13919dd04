/// Decides whether an email address is an Apple private-relay address.
///
/// The contract fixes the test: the domain, trimmed of Unicode white space and compared
/// case-insensitively, must be exactly one of the configured relay domains. `icloud.com` is not
/// among the defaults because it also holds real mailboxes.
public struct RelayDomains: Sendable, Hashable {
    /// Apple's relay domains as of mid-2026.
    public static let defaultDomains = ["privaterelay.appleid.com", "private.icloud.com"]

    public private(set) var domains: [String]
    /// The domains' bytes, for the ASCII fast path.
    private let domainBytes: [[UInt8]]

    public init(_ domains: [String] = RelayDomains.defaultDomains) {
        self.domains = domains.map { RelayDomains.normalize($0) }
        self.domainBytes = self.domains.map { Array($0.utf8) }
    }

    /// The address's domain, trimmed and lowercased, or nil when it has no `@`.
    public static func domain(of address: String) -> String? {
        let trimmed = trimWhitespace(address)
        guard let at = trimmed.lastIndex(of: "@") else { return nil }
        return normalize(String(trimmed[trimmed.index(after: at)...]))
    }

    /// True when the address's domain is exactly one of the relay domains.
    public func isRelayAddress(_ address: String) -> Bool {
        if let isRelay = Self.withUTF8(address, asciiRelayTest) { return isRelay }
        guard let domain = RelayDomains.domain(of: address) else { return false }
        return domains.contains(domain)
    }

    /// True for domains that look like a relay domain without being one
    /// (`privaterelay.apple.id.com`, `appleid.com`): worth a data-quality note.
    public func isLookAlike(_ address: String) -> Bool {
        // Most addresses are ordinary: byte tests rule them out before the costlier checks.
        let ordinary = Self.withUTF8(address) { bytes in
            !Self.mayLookAlike(bytes) || asciiRelayTest(bytes) == true
        }
        guard !ordinary else { return false }
        guard let domain = RelayDomains.domain(of: address), !domains.contains(domain) else { return false }
        let squashed = domain.filter { $0.isLetter || $0.isNumber }
        if domain == "appleid.com" || domain.hasSuffix(".appleid.com") { return true }
        return domains.contains { relay in
            let relaySquashed = relay.filter { $0.isLetter || $0.isNumber }
            return squashed == relaySquashed || squashed.contains(relaySquashed) || domain.hasPrefix("privaterelay.")
        }
    }

    /// The string's UTF-8 bytes as one buffer: these tests run on every address of a log, and
    /// walking `String.UTF8View` index by index costs several times more.
    private static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var copy = text
        return copy.withUTF8(body)
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

    /// A byte-level prefilter, run on every address of a log: false when the text after the last
    /// `@` is ASCII and contains none of `apple`, `relay`, `icloud` in any case, so that neither
    /// the address nor its lowercased, trimmed form can look like a relay address.
    static func mayLookAlike(_ address: String) -> Bool { withUTF8(address, mayLookAlike) }

    private static func mayLookAlike(_ address: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let at = address.lastIndex(of: UInt8(ascii: "@")) else { return false }
        var window: UInt64 = 0
        for byte in address[(at + 1)...] {
            if byte >= 0x80 { return true }
            // The last six bytes, lowercased, in the low bits.
            window = window << 8 | UInt64(byte | 0x20)
            let last5 = window & 0xFF_FFFF_FFFF
            let last6 = window & 0xFFFF_FFFF_FFFF
            if last5 == 0x61_70_70_6C_65 || last5 == 0x72_65_6C_61_79 || last6 == 0x69_63_6C_6F_75_64 { return true }
        }
        return false
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
