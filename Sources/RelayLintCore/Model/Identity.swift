/// What kind of identity an account holds, in the contract's terms (§2.3).
public enum IdentityCategory: String, Sendable, Hashable, Codable, CaseIterable {
    /// An email address (kind `email`, or the `password` provider).
    case email
    /// A phone number (kind `phone`, or the `phone` provider).
    case phone
    /// A federated credential other than `apple.com`, `password`, `phone`, `anonymous`.
    case social
    /// A Sign in with Apple identity.
    case apple
}

/// One identity a subject holds, told apart from others as contract §2.4 "Same identity" says.
public struct Identity: Sendable, Hashable {
    public var category: IdentityCategory
    /// The comparison key: the trimmed lowercased address, the phone digits, or the provider.
    public var key: String
    /// For email identities: the address is a relay address (and so not PII).
    public var isRelayEmail: Bool
    /// For `apple.com` identities: anonymized (relay address or `is_private_email`).
    public var isAnonymized: Bool

    public init(category: IdentityCategory, key: String, isRelayEmail: Bool = false, isAnonymized: Bool = false) {
        self.category = category
        self.key = key
        self.isRelayEmail = isRelayEmail
        self.isAnonymized = isAnonymized
    }

    /// Identities with the same category and key are the same identity.
    public var slot: IdentitySlot { IdentitySlot(category: category, key: key) }

    /// Whether `other` has this identity's slot, compared in place (the ledger and the export's
    /// identities search short lists with it, once per change).
    func hasSameSlot(as other: Identity) -> Bool { category == other.category && key == other.key }

    /// Whether this identity is personally identifying information in the sense of the consent rules.
    public var isPII: Bool {
        switch category {
        case .email: !isRelayEmail
        case .phone, .social: true
        case .apple: false
        }
    }

    static func emailKey(_ address: String) -> String {
        let trimmed = RelayDomains.trimWhitespace(address)
        // Most addresses are lowercase ASCII already: kept as they are, without a new string.
        if trimmed.utf8.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) }) { return trimmed }
        return trimmed.lowercased()
    }

    static func phoneKey(_ number: String) -> String {
        // In ASCII text every byte is a `Character` ("\r\n" aside, which holds no digit): the
        // digits are the bytes 0-9, picked without walking grapheme clusters.
        if number.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(unsafeUninitializedCapacity: number.utf8.count) { digits in
                var count = 0
                for byte in number.utf8 where (0x30...0x39).contains(byte) {
                    digits[count] = byte
                    count += 1
                }
                return count
            }
        }
        return number.filter { $0.isASCII && $0.isNumber }
    }

    /// Providers that are neither social nor an identity of their own category.
    static let nonSocialProviders: Set<String> = ["apple.com", "password", "phone", "anonymous"]

    static func isSocial(provider: String) -> Bool { !provider.isEmpty && !nonSocialProviders.contains(provider) }
}

/// The identity of an identity: category and comparison key.
public struct IdentitySlot: Sendable, Hashable {
    public var category: IdentityCategory
    public var key: String
}
