/// The identities a subject holds at a point of its timeline, and the transitions events make
/// (contract §2.3 and §2.4). This is the engine's only domain knowledge: what the log's identity
/// vocabulary means. Which transitions matter for compliance is left to the rules.
struct IdentityLedger {
    /// In no particular order (a removal moves the last one into the gap). A subject holds a
    /// handful of identities, so a list searched from the front beats a dictionary, which hashed
    /// the key string for every change (~2% of a run); past `indexedFrom` identities the list
    /// gets an index by slot, since a subject that links thousands of addresses made every
    /// change search them all (50k links took minutes).
    private(set) var identities: [Identity] = []
    /// Where each slot is held, once there are `indexedFrom` identities.
    private var positions: [Slot: Int]? = nil
    /// How many held identities give each facet bit: the snapshot's facets are those counted,
    /// kept up to date per change instead of a union over every identity.
    private var facetCounts = SIMD8<Int32>()

    static let indexedFrom = 32

    /// An identity's category and key.
    private struct Slot: Hashable {
        var category: IdentityCategory
        var key: String

        init(_ identity: Identity) {
            category = identity.category
            key = identity.key
        }
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
            count(identities[index].facets, by: -1)
            identities[index].isAnonymized = true
            count(identities[index].facets, by: 1)
            return .anonymizedApple
        }
        identities.append(identity)
        positions?[Slot(identity)] = identities.count - 1
        if positions == nil, identities.count >= Self.indexedFrom {
            positions = Dictionary(identities.indices.map { (Slot(identities[$0]), $0) }, uniquingKeysWith: { first, _ in first })
        }
        count(identity.facets, by: 1)
        return identity.facets
    }

    /// Removes an identity; an email unlink without an address removes every email identity.
    /// Returns the facets removed.
    @discardableResult
    mutating func remove(_ identity: Identity) -> IdentityFacets {
        if let index = position(of: identity) { return remove(at: index) }
        guard identity.key.isEmpty else { return [] }
        var removed: IdentityFacets = []
        var index = identities.count - 1
        while index >= 0 {
            if identities[index].category == identity.category { removed.formUnion(remove(at: index)) }
            index -= 1
        }
        return removed
    }

    mutating func markDeleted(_ deleted: Bool) { snapshot.isDeleted = deleted }

    /// Removes the identity at `index`, moving the last one into its place.
    private mutating func remove(at index: Int) -> IdentityFacets {
        let removed = identities[index]
        positions?[Slot(removed)] = nil
        let last = identities.count - 1
        if index != last {
            identities[index] = identities[last]
            positions?[Slot(identities[index])] = index
        }
        identities.removeLast()
        count(removed.facets, by: -1)
        return removed.facets
    }

    private mutating func count(_ facets: IdentityFacets, by change: Int32) {
        for bit in 0..<8 where facets.rawValue & (1 << bit) != 0 { facetCounts[bit] &+= change }
        var held: IdentityFacets = []
        for bit in 0..<8 where facetCounts[bit] > 0 { held.insert(IdentityFacets(rawValue: 1 << bit)) }
        snapshot.facets = held
    }

    /// Where the identity with the same slot (category and key) is held.
    private func position(of identity: Identity) -> Int? {
        if let positions { return positions[Slot(identity)] }
        return identities.firstIndex { $0.hasSameSlot(as: identity) }
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
