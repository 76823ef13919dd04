/// The identities a subject holds at a point of its timeline, and the transitions events make
/// (contract §2.3 and §2.4). This is the engine's only domain knowledge: what the log's identity
/// vocabulary means. Which transitions matter for compliance is left to the rules.
struct IdentityLedger {
    /// In the order added. A subject holds a handful of identities, so a list searched from the
    /// front beats a dictionary, which hashed the key string for every change (~2% of a run).
    private(set) var identities: [Identity] = [] {
        didSet { snapshot.facets = identities.reduce(into: []) { $0.formUnion($1.facets) } }
    }
    var isDeleted: Bool { snapshot.isDeleted }

    /// The state as rule conditions see it. Kept as the identities change rather than worked out
    /// when asked: a timeline asks twice per event, and most events change nothing.
    private(set) var snapshot = SubjectSnapshot(facets: [], isDeleted: false)

    /// Adds an identity unless the subject holds it; an anonymized `apple.com` identity makes a
    /// held one anonymized. Returns the facets added.
    @discardableResult
    mutating func add(_ identity: Identity) -> IdentityFacets {
        if let index = position(of: identity) {
            guard identity.isAnonymized, !identities[index].isAnonymized else { return [] }
            identities[index].isAnonymized = true
            return .anonymizedApple
        }
        identities.append(identity)
        return identity.facets
    }

    /// Removes an identity; an email unlink without an address removes every email identity.
    /// Returns the facets removed.
    @discardableResult
    mutating func remove(_ identity: Identity) -> IdentityFacets {
        if let index = position(of: identity) { return identities.remove(at: index).facets }
        guard identity.key.isEmpty else { return [] }
        var removed: IdentityFacets = []
        identities.removeAll { existing in
            guard existing.category == identity.category else { return false }
            removed.formUnion(existing.facets)
            return true
        }
        return removed
    }

    mutating func markDeleted(_ deleted: Bool) { snapshot.isDeleted = deleted }

    /// Where the identity with the same slot (category and key) is held.
    private func position(of identity: Identity) -> Int? {
        identities.firstIndex { $0.hasSameSlot(as: identity) }
    }
}

/// A subject's state just before or after one event, compact enough to keep per event.
public struct SubjectSnapshot: Sendable, Hashable {
    public var facets: IdentityFacets
    public var isDeleted: Bool

    public var isAnonymized: Bool { facets.contains(.anonymizedApple) }

    func satisfies(_ condition: StateCondition) -> Bool {
        if let anonymized = condition.anonymized, anonymized != isAnonymized { return false }
        if let deleted = condition.deleted, deleted != isDeleted { return false }
        for required in condition.holds where facets.isDisjoint(with: required) { return false }
        return facets.isDisjoint(with: condition.lacks)
    }
}

extension Identity {
    /// The facets holding this identity gives a subject.
    var facets: IdentityFacets {
        switch category {
        case .email: isRelayEmail ? .relayEmail : .email
        case .phone: .phone
        case .social: .social
        case .apple: isAnonymized ? [.apple, .anonymizedApple] : .apple
        }
    }
}
