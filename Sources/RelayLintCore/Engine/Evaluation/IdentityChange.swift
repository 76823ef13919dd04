/// How an event changes a subject's identities (contract §2.4, "Identities from events").
enum IdentityChange {
    case add(Identity)
    case remove(Identity)
    case accountCreated
    case accountDeleted

    /// Calls `body` with each change an event makes, in the order they apply (`account.created`
    /// and the identity it signs in with; each identity a link names). A callback rather than an
    /// array: every event of a timeline asks, and an array was an allocation each.
    static func forEach(of event: Event, relayDomains: RelayDomains, _ body: (IdentityChange) -> Void) {
        switch event.type {
        case "identity.linked":
            forEachIdentity(linkedBy: event, relayDomains: relayDomains) { body(.add($0)) }
        case "identity.unlinked":
            forEachIdentity(linkedBy: event, relayDomains: relayDomains) { body(.remove($0)) }
        case "account.created":
            body(.accountCreated)
            if let identity = identity(signingIn: event, relayDomains: relayDomains) { body(.add(identity)) }
        case "signin":
            if let identity = identity(signingIn: event, relayDomains: relayDomains) { body(.add(identity)) }
        case "account.deleted":
            body(.accountDeleted)
        default:
            break
        }
    }

    /// `identity.linked` / `identity.unlinked`: each identity the contract's four clauses give,
    /// each clause on its own (§2.4): an email identity when `kind` is `email` or `provider` is
    /// `password`; a phone identity when `kind` is `phone` or `provider` is `phone`; a social one
    /// when `kind` is `provider` and the provider is social; an `apple.com` one when the provider
    /// is `apple.com`. A link that says two things (`kind: phone`, `provider: password`) names
    /// both, and each consent rule sees its own; a social provider without `kind: provider` names
    /// no social identity.
    static func forEachIdentity(linkedBy event: Event, relayDomains: RelayDomains, _ body: (Identity) -> Void) {
        let kind = event.string("kind")
        let provider = event.string("provider") ?? ""
        // `value` is the address or number of the link's kind: in a link that names an email
        // and a phone identity, the other one is in `email` or `phone`.
        if kind == "email" || provider == "password" {
            let address = kind == "phone" ? event.string("email") : event.string("value") ?? event.string("email")
            body(emailIdentity(address, relayDomains: relayDomains))
        }
        if kind == "phone" || provider == "phone" {
            let number = kind == "email" ? event.string("phone") : event.string("value") ?? event.string("phone")
            body(Identity(category: .phone, key: Identity.phoneKey(number ?? "")))
        }
        if kind == "provider", Identity.isSocial(provider: provider) { body(Identity(category: .social, key: provider)) }
        if provider == "apple.com" { body(appleIdentity(event, relayDomains: relayDomains)) }
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
        func isRelay(_ field: String) -> Bool { event.string(field).map(relayDomains.isRelayAddress) ?? false }
        let relay = isRelay("email") || isRelay("value")
        return Identity(category: .apple, key: "apple.com", isAnonymized: relay || event.flag("is_private_email"))
    }
}
