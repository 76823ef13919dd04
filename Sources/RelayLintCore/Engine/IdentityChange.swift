/// How an event changes a subject's identities (contract §2.4, "Identities from events").
enum IdentityChange {
    case add(Identity)
    case remove(Identity)
    case accountCreated
    case accountDeleted

    /// The change an event makes, if any.
    static func of(_ event: Event, relayDomains: RelayDomains) -> [IdentityChange] {
        switch event.type {
        case "identity.linked":
            return identity(linkedBy: event, relayDomains: relayDomains).map { [.add($0)] } ?? []
        case "identity.unlinked":
            return identity(linkedBy: event, relayDomains: relayDomains).map { [.remove($0)] } ?? []
        case "account.created":
            return [.accountCreated] + (identity(signingIn: event, relayDomains: relayDomains).map { [.add($0)] } ?? [])
        case "signin":
            return identity(signingIn: event, relayDomains: relayDomains).map { [.add($0)] } ?? []
        case "account.deleted":
            return [.accountDeleted]
        default:
            return []
        }
    }

    /// `identity.linked` / `identity.unlinked`: by `kind`, then by `provider`.
    static func identity(linkedBy event: Event, relayDomains: RelayDomains) -> Identity? {
        let kind = event.string("kind")
        let provider = event.string("provider") ?? ""
        if kind == "email" || provider == "password" {
            return emailIdentity(event.string("value") ?? event.string("email"), relayDomains: relayDomains)
        }
        if kind == "phone" || provider == "phone" {
            return Identity(category: .phone, key: Identity.phoneKey(event.string("value") ?? event.string("phone") ?? ""))
        }
        if provider == "apple.com" { return appleIdentity(event, relayDomains: relayDomains) }
        if kind == "provider" || kind == nil, Identity.isSocial(provider: provider) {
            return Identity(category: .social, key: provider)
        }
        return nil
    }

    /// `account.created` / `signin`: by the sign-in `provider`.
    static func identity(signingIn event: Event, relayDomains: RelayDomains) -> Identity? {
        switch event.string("provider") ?? "" {
        case "password": return emailIdentity(event.string("email"), relayDomains: relayDomains)
        case "phone": return Identity(category: .phone, key: Identity.phoneKey(event.string("phone") ?? event.string("value") ?? ""))
        case "apple.com": return appleIdentity(event, relayDomains: relayDomains)
        case let provider where Identity.isSocial(provider: provider): return Identity(category: .social, key: provider)
        default: return nil
        }
    }

    private static func emailIdentity(_ address: String?, relayDomains: RelayDomains) -> Identity {
        let address = address ?? ""
        return Identity(category: .email, key: Identity.emailKey(address), isRelayEmail: relayDomains.isRelayAddress(address))
    }

    private static func appleIdentity(_ event: Event, relayDomains: RelayDomains) -> Identity {
        let relay = [event.string("email"), event.string("value")].contains { $0.map(relayDomains.isRelayAddress) ?? false }
        return Identity(category: .apple, key: "apple.com", isAnonymized: relay || event.flag("is_private_email"))
    }
}
