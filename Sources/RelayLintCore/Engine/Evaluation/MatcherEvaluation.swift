/// Decides whether a timeline step matches an `EventMatcher`.
struct MatcherEvaluation: Sendable {
    let relayDomains: RelayDomains
    /// For `app_manifest:` and `in_manifest:` tests.
    let manifest: AppManifest?
    let defaultApp: String
    /// The exported account of the subject whose timeline is evaluated, for `exported_account:`.
    var account: AccountRecord? = nil

    init(relayDomains: RelayDomains, manifest: AppManifest? = nil, defaultApp: String = "app") {
        self.relayDomains = relayDomains
        self.manifest = manifest
        self.defaultApp = defaultApp
    }

    /// - Parameter trigger: the firing event, for `same_as:` tests of witnesses.
    func matches(_ matcher: EventMatcher, _ step: Timeline.Step, trigger: Event? = nil) -> Bool {
        matches(matcher, step, trigger: trigger, sameAs: nil)
    }

    /// Whether the matcher may match the step for some firing event: each `same_as:` test is
    /// taken to hold (to fail inside a `not:`), so the steps it accepts include those
    /// `matches(_:_:trigger:)` accepts for any trigger. A search lists them once per timeline.
    func mayMatch(_ matcher: EventMatcher, _ step: Timeline.Step) -> Bool {
        matches(matcher, step, trigger: nil, sameAs: true)
    }

    /// Whether the matcher matches the step for every firing event: each `same_as:` test is
    /// taken to fail (to hold inside a `not:`).
    func mustMatch(_ matcher: EventMatcher, _ step: Timeline.Step) -> Bool {
        matches(matcher, step, trigger: nil, sameAs: false)
    }

    /// - Parameter sameAs: the outcome of every `same_as:` test; nil compares with `trigger`.
    private func matches(_ matcher: EventMatcher, _ step: Timeline.Step, trigger: Event?, sameAs: Bool?) -> Bool {
        let event = step.event
        if !matcher.types.isEmpty, !matcher.types.contains(event.type) { return false }
        for condition in matcher.fields
        where !matches(condition, value: event.value(of: condition.field), in: event, trigger: trigger, sameAs: sameAs) {
            return false
        }
        for condition in matcher.exportedAccount
        where !matches(condition, value: account?.attribute(condition.field), in: event, trigger: trigger, sameAs: sameAs) {
            return false
        }
        if !matcher.adds.isEmpty, !step.added.isSuperset(of: matcher.adds) { return false }
        if !matcher.links.isEmpty, !step.linked.isSuperset(of: matcher.links) { return false }
        if !matcher.removes.isEmpty, !step.removed.isSuperset(of: matcher.removes) { return false }
        if let before = matcher.before, !step.before.satisfies(before) { return false }
        if let after = matcher.after, !step.after.satisfies(after) { return false }
        if !matcher.appManifest.isEmpty {
            let declarations = manifestEntry(of: event)?.declarations ?? [:]
            for (key, value) in matcher.appManifest {
                guard let declared = declarations[key], MatcherEvaluation.equivalent(value, declared) else { return false }
            }
        }
        if !matcher.anyOf.isEmpty, !matcher.anyOf.contains(where: { matches($0, step, trigger: trigger, sameAs: sameAs) }) {
            return false
        }
        for inner in matcher.allOf where !matches(inner, step, trigger: trigger, sameAs: sameAs) { return false }
        // Under a `not:` a test taken to hold must be taken to fail, and the other way round.
        for inner in matcher.noneOf where matches(inner, step, trigger: trigger, sameAs: sameAs.map { !$0 }) { return false }
        return true
    }

    func matches(_ condition: FieldCondition, in event: Event, trigger: Event?) -> Bool {
        matches(condition, value: event.value(of: condition.field), in: event, trigger: trigger)
    }

    /// Whether `value` (a field of `event`, or an attribute of its subject's exported account)
    /// passes the test.
    func matches(_ condition: FieldCondition, value: JSONValue?, in event: Event, trigger: Event?, sameAs: Bool? = nil) -> Bool {
        switch condition.test {
        case .oneOf(let expected):
            guard let value else { return false }
            if let values = condition.values { return values.contains(value) }
            return expected.contains { MatcherEvaluation.equivalent($0, value) }
        case .noneOf(let excluded):
            guard let value else { return true }
            if let values = condition.values { return !values.contains(value) }
            return !excluded.contains { MatcherEvaluation.equivalent($0, value) }
        case .exists(let flag):
            let present = value != nil && value != .null
            return present == flag
        case .relayAddress(let flag):
            let isRelay = value?.stringValue.map(relayDomains.isRelayAddress) ?? false
            return isRelay == flag
        case .socialProvider(let flag):
            let isSocial = value?.stringValue.map(Identity.isSocial(provider:)) ?? false
            return isSocial == flag
        case .sameAs(let field):
            if let sameAs { return sameAs }
            guard let mine = value?.displayText, let theirs = trigger?.value(of: field)?.displayText else { return false }
            return Identity.emailKey(mine) == Identity.emailKey(theirs)
        case .listedInManifest(let key):
            guard let text = value?.stringValue, let listed = manifestEntry(of: event)?.listed[key] else { return false }
            if listed.contains(Identity.emailKey(text)) { return true }
            guard let domain = RelayDomains.domain(of: text) else { return false }
            return listed.contains(domain) || listed.contains("@" + domain)
        }
    }

    /// Whether the event's app has `key` in its manifest entry (`needs_declaration:`).
    func appDeclares(_ key: String, for event: Event) -> Bool {
        manifestEntry(of: event)?.declarations[key] != nil
    }

    private func manifestEntry(of event: Event) -> AppManifest.Entry? {
        manifest?.entry(for: event.app ?? defaultApp)
    }

    /// Equality as a rule author means it: a YAML `true` matches JSON `true` and the string
    /// `"true"` in any case (Apple's tokens deliver booleans as strings); numbers match by value,
    /// also when the log wrote them as strings.
    static func equivalent(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        if expected == actual { return true }
        switch (expected, actual) {
        case (.bool(let flag), .string(let text)): return text.lowercased() == (flag ? "true" : "false")
        case (.number(let number), .string(let text)): return JSONNumber.value(written: text) == number.value
        case (.string(let text), .number(let number)): return JSONNumber.value(written: text) == number.value
        default: return false
        }
    }
}
