/// An `identity.linked` or `identity.unlinked` that names no identity by the contract's clauses
/// (§2.4): no built-in rule reads it as a link, so it gets a data-quality note rather than
/// silence. A log that writes `kind: social`, or a social provider without `kind: provider`, or
/// a mapping that leaves `kind` out, would otherwise hide every consent finding it should give.
enum LinkWithoutIdentity {
    /// The note for an event of `type` with these `kind` and `provider` strings (nil where the
    /// field is absent or not a string); nil when the event is no link or names an identity, as
    /// `IdentityChange.forEachIdentity` reads it.
    static func note(type: String, kind: String?, provider: String?) -> String? {
        guard type == "identity.linked" || type == "identity.unlinked" else { return nil }
        let provider = provider ?? ""
        let namesOne =
            kind == "email" || kind == "phone" || provider == "password" || provider == "phone" || provider == "apple.com"
            || (kind == "provider" && Identity.isSocial(provider: provider))
        guard !namesOne else { return nil }
        func quoted(_ value: String?) -> String { value.map { "'\($0.shortened())'" } ?? "none" }
        return "\(type) names no identity (kind \(quoted(kind)), provider \(quoted(provider.isEmpty ? nil : provider))), "
            + "so no built-in rule reads it: a link names an identity by kind email or phone, by kind provider with a social "
            + "provider, or by provider password, phone or apple.com"
    }
}
