/// Selects events of a subject's timeline: by type, by field values, and by the subject's state
/// just before and after the event. All parts that are present must hold.
public struct EventMatcher: Sendable, Equatable {
    /// Accepted event types; empty means any type.
    public var types: [String] = []
    public var fields: [FieldCondition] = []
    /// Identity facets the event must add (facets the subject did not hold before).
    public var adds: IdentityFacets = []
    /// Identity facets of the identity the event links or signs in with, whether or not the
    /// subject already held it: every link is an act of association (contract §2.4).
    public var links: IdentityFacets = []
    /// Identity facets the event must remove.
    public var removes: IdentityFacets = []
    public var before: StateCondition? = nil
    public var after: StateCondition? = nil
    /// At least one of these must match (when not empty).
    public var anyOf: [EventMatcher] = []
    /// All of these must match.
    public var allOf: [EventMatcher] = []
    /// None of these may match.
    public var noneOf: [EventMatcher] = []
    /// Declarations the manifest entry of the event's app must have (`app_manifest:`).
    public var appManifest: [String: JSONValue] = [:]
    /// Tests on the attributes of the subject's exported account (`exported_account:`), as the
    /// export shows them when it was taken: `disabled`, `email`, `phone_number`,
    /// `custom_claims` and `custom_claims.NAME`. A subject the export lacks has no attributes.
    public var exportedAccount: [FieldCondition] = []

    public init() {}

    /// Every event type the matcher can accept, or nil when it accepts any type. The engine keeps
    /// only events some rule can look at.
    var referencedTypes: Set<String>? {
        var result: Set<String>? = types.isEmpty ? nil : Set(types)
        if !anyOf.isEmpty {
            var union: Set<String> = []
            for matcher in anyOf {
                guard let types = matcher.referencedTypes else { return result }
                union.formUnion(types)
            }
            result = result.map { $0.intersection(union) } ?? union
        }
        for matcher in allOf {
            if let types = matcher.referencedTypes { result = result.map { $0.intersection(types) } ?? types }
        }
        return result
    }

    /// Whether matching needs the subject's state around the event (identity changes, `before`,
    /// `after`), rather than the event alone.
    var readsSubjectState: Bool {
        !adds.isEmpty || !links.isEmpty || !removes.isEmpty || before != nil || after != nil
            || (anyOf + allOf + noneOf).contains { $0.readsSubjectState }
    }

    /// Whether the matcher, or one inside it, tests the exported account's attributes.
    var readsExportedAccount: Bool {
        !exportedAccount.isEmpty || (anyOf + allOf + noneOf).contains { $0.readsExportedAccount }
    }

    /// A short description for messages: `consent.granted where scope = link.email`.
    public var summary: String {
        var parts: [String] = []
        if !types.isEmpty { parts.append(types.count == 1 ? types[0] : "one of " + types.joined(separator: ", ")) }
        if !fields.isEmpty { parts.append("where " + fields.map(\.summary).joined(separator: " and ")) }
        if !adds.isEmpty { parts.append("adding " + adds.names.joined(separator: "/")) }
        if !links.isEmpty { parts.append("linking " + links.names.joined(separator: "/")) }
        if !removes.isEmpty { parts.append("removing " + removes.names.joined(separator: "/")) }
        if let before { parts.append("when before it " + before.summary) }
        if let after { parts.append("when after it " + after.summary) }
        if !exportedAccount.isEmpty {
            parts.append("when the exported account has " + exportedAccount.map(\.summary).joined(separator: " and "))
        }
        if !anyOf.isEmpty { parts.append("(" + anyOf.map(\.summary).joined(separator: ") or (") + ")") }
        if !allOf.isEmpty { parts.append(allOf.map(\.summary).joined(separator: " and ")) }
        if !noneOf.isEmpty { parts.append("not (" + noneOf.map(\.summary).joined(separator: ") nor (") + ")") }
        if !appManifest.isEmpty {
            parts.append(
                "in an app whose manifest declares "
                    + appManifest.keys.sorted().map { "\($0): \(appManifest[$0]!.displayText)" }.joined(separator: ", "))
        }
        return parts.isEmpty ? "any event" : parts.joined(separator: " ")
    }
}

/// A test on one field of an event.
public struct FieldCondition: Sendable, Equatable {
    public enum Test: Sendable, Equatable {
        /// The field equals one of the values (a single value is a one-element list).
        case oneOf([JSONValue])
        /// The field is absent or equals none of the values.
        case noneOf([JSONValue])
        case exists(Bool)
        /// The field is (or is not) a relay address.
        case relayAddress(Bool)
        /// The field names (or does not name) a social provider.
        case socialProvider(Bool)
        /// The field equals (trimmed, case-insensitively) a field of the firing event
        /// (`same_as: event.to`): ties a witness to the event it is looked for around.
        case sameAs(String)
        /// The field's value, or its email domain, is listed under this key of the app's manifest
        /// entry (`in_manifest: relay_senders`).
        case listedInManifest(String)
    }

    public var field: String
    public var test: Test { didSet { values = Self.values(of: test) } }
    /// A long `in:` or `not_in:` list's values as a set.
    private(set) var values: EquivalentValues?
    /// Where the rule names the field, for a warning about it (`EventVocabulary`); not part of
    /// what the condition is.
    public var location: SourceLocation?

    public init(field: String, test: Test, location: SourceLocation? = nil) {
        self.field = field
        self.test = test
        self.location = location
        values = Self.values(of: test)
    }

    public static func == (lhs: FieldCondition, rhs: FieldCondition) -> Bool { lhs.field == rhs.field && lhs.test == rhs.test }

    private static func values(of test: Test) -> EquivalentValues? {
        switch test {
        case .oneOf(let values), .noneOf(let values): EquivalentValues(values)
        default: nil
        }
    }

    var summary: String {
        switch test {
        case .oneOf(let values) where values.count == 1: "\(field) = \(Self.shown(values[0]))"
        case .oneOf(let values): "\(field) in [\(Self.shown(values))]"
        case .noneOf(let values): "\(field) not in [\(Self.shown(values))]"
        case .exists(let flag): flag ? "\(field) is present" : "\(field) is absent"
        case .relayAddress(let flag): flag ? "\(field) is a relay address" : "\(field) is not a relay address"
        case .socialProvider(let flag): flag ? "\(field) is a social provider" : "\(field) is not a social provider"
        case .sameAs(let other): "\(field) = the firing event's \(other)"
        case .listedInManifest(let key): "\(field) listed in the app manifest's \(key)"
        }
    }

    /// The values a summary lists: the first `listedValues`, then how many more, each value to
    /// `MessageTemplate.longestValue` scalars. The summary is every finding's `expected`.
    private static func shown(_ values: [JSONValue]) -> String {
        let listed = values.prefix(listedValues).map(shown).joined(separator: ", ")
        return values.count > listedValues ? listed + ", … (\(values.count - listedValues) more)" : listed
    }

    private static func shown(_ value: JSONValue) -> String { value.displayText.shortened(to: MessageTemplate.longestValue) }

    private static let listedValues = 20
}

/// A condition on the subject's state at a point of its timeline.
public struct StateCondition: Sendable, Equatable {
    /// Required anonymization state, when set.
    public var anonymized: Bool? = nil
    /// Facets the subject must hold (all of them; `pii` means at least one PII facet).
    public var holds: [IdentityFacets] = []
    /// Facets the subject must not hold.
    public var lacks: IdentityFacets = []
    /// Required deletion state (after an `account.deleted`), when set.
    public var deleted: Bool? = nil

    public init() {}

    var summary: String {
        var parts: [String] = []
        if let anonymized { parts.append(anonymized ? "the subject is anonymized" : "the subject is not anonymized") }
        if !holds.isEmpty {
            parts.append("it holds " + holds.map { $0 == .pii ? "pii" : $0.names.joined(separator: "/") }.joined(separator: " and "))
        }
        if !lacks.isEmpty { parts.append("it lacks " + lacks.names.joined(separator: "/")) }
        if let deleted { parts.append(deleted ? "the account is deleted" : "the account is not deleted") }
        return parts.joined(separator: ", ")
    }
}
