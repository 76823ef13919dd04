/// What a subject can hold at a point of its timeline, as rule conditions name it
/// (`holds:`, `lacks:`, `adds:`, `links:`).
public struct IdentityFacets: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A non-relay email address (kind `email` or the `password` provider).
    public static let email = IdentityFacets(rawValue: 1 << 0)
    /// An email identity whose address is a relay address.
    public static let relayEmail = IdentityFacets(rawValue: 1 << 1)
    public static let phone = IdentityFacets(rawValue: 1 << 2)
    public static let social = IdentityFacets(rawValue: 1 << 3)
    /// Any `apple.com` identity.
    public static let apple = IdentityFacets(rawValue: 1 << 4)
    /// An anonymized `apple.com` identity; holding it is what "anonymized" means.
    public static let anonymizedApple = IdentityFacets(rawValue: 1 << 5)

    /// Personally identifying information in the consent rules' sense.
    public static let pii: IdentityFacets = [.email, .phone, .social]

    /// The names rule files use, in the order documentation lists them.
    public static let names: [(String, IdentityFacets)] = [
        ("email", .email), ("relay-email", .relayEmail), ("phone", .phone), ("social", .social),
        ("apple", .apple), ("anonymized-apple", .anonymizedApple), ("pii", .pii),
    ]

    public static func named(_ name: String) -> IdentityFacets? { names.first { $0.0 == name }?.1 }

    /// Names for messages and explanations.
    public var names: [String] {
        IdentityFacets.names.filter { $0.1 != .pii && contains($0.1) }.map(\.0)
    }
}
