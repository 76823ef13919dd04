/// The attributes of an exported account that rules read (`exported_account:`): what the
/// export says of the account beyond its identities, such as whether it is disabled or which
/// custom claims the backend set, so that "no mail to a disabled account" needs no event of
/// its own. They are as the export shows them when it was taken, not at the time of an event.
extension AccountRecord {
    /// The names a rule may test; `custom_claims.NAME` reaches into the claims object.
    static let attributeNames = ["disabled", "email", "phone_number", "custom_claims"]

    /// Whether a rule may test this name (`custom_claims.siwaState` included).
    static func isAttribute(_ name: String) -> Bool {
        if attributeNames.contains(name) { return true }
        guard name.hasPrefix("custom_claims.") else { return false }
        return !name.dropFirst("custom_claims.".count).split(separator: ".", omittingEmptySubsequences: false).contains { $0.isEmpty }
    }

    /// The attribute's value; nil when the account lacks it. `disabled` is always there (an
    /// export that omits it means false).
    func attribute(_ name: String) -> JSONValue? {
        switch name {
        case "disabled": return .bool(disabled)
        case "email": return email.map(JSONValue.string)
        case "phone_number": return phoneNumber.map(JSONValue.string)
        case "custom_claims": return customClaims
        default:
            guard name.hasPrefix("custom_claims."), var current = customClaims else { return nil }
            for key in name.dropFirst("custom_claims.".count).split(separator: ".") {
                guard case .object(let members) = current, let next = members[String(key)] else { return nil }
                current = next
            }
            return current
        }
    }
}
