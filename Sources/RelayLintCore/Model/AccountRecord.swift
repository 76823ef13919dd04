/// One account of a Firebase Auth / Identity Platform export (JSON or CSV), reduced to what the
/// rules need.
public struct AccountRecord: Sendable, Equatable {
    /// One entry of `providerUserInfo`.
    public struct ProviderEntry: Sendable, Equatable {
        public var providerId: String
        public var rawId: String?
        public var email: String?
        /// `federatedId`, kept for `apple.com` entries only, where it may name the Apple user id
        /// that Apple's notifications carry when `rawId` does not: the contract joins a
        /// notification through either. Other providers' ids are long URLs that nothing reads,
        /// so they are not kept.
        public var federatedId: String?

        public init(providerId: String, rawId: String? = nil, email: String? = nil, federatedId: String? = nil) {
            self.providerId = providerId
            self.rawId = rawId
            self.email = email
            self.federatedId = providerId == "apple.com" && federatedId != rawId ? federatedId : nil
        }

        /// The Apple user ids this entry names: `rawId` and a `federatedId` that differs from it.
        var appleUserIDs: [String] {
            guard providerId == "apple.com" else { return [] }
            return [rawId, federatedId].compactMap { $0 }
        }
    }

    /// `localId`: the subject id the log refers to.
    public var localId: String
    public var email: String?
    public var phoneNumber: String?
    /// Whether the export carries a password hash (old exports list no `password` provider).
    public var hasPasswordHash: Bool
    public var disabled: Bool
    public var createdAt: Timestamp?
    public var providers: [ProviderEntry]
    /// The custom claims set on the account (`customAttributes`), as a JSON object; nil when
    /// it has none. Rules read them through `exported_account:`.
    public var customClaims: JSONValue?
    public var location: SourceLocation

    public init(
        localId: String, email: String? = nil, phoneNumber: String? = nil, hasPasswordHash: Bool = false,
        disabled: Bool = false, createdAt: Timestamp? = nil, providers: [ProviderEntry] = [],
        customClaims: JSONValue? = nil, location: SourceLocation
    ) {
        self.localId = localId
        self.email = email
        self.phoneNumber = phoneNumber
        self.hasPasswordHash = hasPasswordHash
        self.disabled = disabled
        self.createdAt = createdAt
        self.providers = providers
        self.customClaims = customClaims
        self.location = location
    }

    /// The identities the export shows, as contract §2.4 "Identities from the export" derives them.
    func identities(relayDomains: RelayDomains) -> [Identity] {
        // A list, not a dictionary by slot: an account has a handful of identities, and this
        // runs for every account with events (hashing each key string was ~1% of a run). Past a
        // few dozen it gets an index by slot, as the ledger does: an export entry of 80,000
        // providers searched the list for each one (minutes).
        var result: [Identity] = []
        var positions: [IdentitySlot: Int]? = nil
        func add(_ identity: Identity) {
            let found = positions.map { $0[identity.slot] } ?? result.firstIndex(where: { $0.hasSameSlot(as: identity) })
            if let index = found {
                result[index].isAnonymized = result[index].isAnonymized || identity.isAnonymized
            } else {
                result.append(identity)
                positions?[identity.slot] = result.count - 1
                if positions == nil, result.count >= IdentityLedger.indexedFrom {
                    positions = Dictionary(result.indices.map { (result[$0].slot, $0) }, uniquingKeysWith: { first, _ in first })
                }
            }
        }
        for entry in providers {
            switch entry.providerId {
            case "apple.com":
                let anonymized = entry.email.map(relayDomains.isRelayAddress) ?? false
                add(Identity(category: .apple, key: "apple.com", isAnonymized: anonymized))
            case "password":
                let address = entry.email ?? entry.rawId ?? email ?? ""
                add(
                    Identity(
                        category: .email, key: Identity.emailKey(address),
                        isRelayEmail: relayDomains.isRelayAddress(address)))
            case "phone":
                add(Identity(category: .phone, key: Identity.phoneKey(entry.rawId ?? phoneNumber ?? "")))
            case let provider where Identity.isSocial(provider: provider):
                add(Identity(category: .social, key: provider))
            default:
                break
            }
        }
        if let phoneNumber, !phoneNumber.isEmpty {
            add(Identity(category: .phone, key: Identity.phoneKey(phoneNumber)))
        }
        if let email, !email.isEmpty {
            if relayDomains.isRelayAddress(email) {
                add(Identity(category: .apple, key: "apple.com", isAnonymized: true))
            } else if hasPasswordHash {
                add(Identity(category: .email, key: Identity.emailKey(email)))
            }
        }
        return result.sorted { ($0.category.rawValue, $0.key) < ($1.category.rawValue, $1.key) }
    }
}
