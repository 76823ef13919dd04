/// Decides whether a timeline step matches an `EventMatcher`.
struct MatcherEvaluation {
    let relayDomains: RelayDomains

    func matches(_ matcher: EventMatcher, _ step: Timeline.Step) -> Bool {
        let event = step.event
        if !matcher.types.isEmpty, !matcher.types.contains(event.type) { return false }
        for condition in matcher.fields where !matches(condition, event.value(of: condition.field)) { return false }
        if !matcher.adds.isEmpty, !step.added.isSuperset(of: matcher.adds) { return false }
        if !matcher.removes.isEmpty, !step.removed.isSuperset(of: matcher.removes) { return false }
        if let before = matcher.before, !step.before.satisfies(before) { return false }
        if let after = matcher.after, !step.after.satisfies(after) { return false }
        if !matcher.anyOf.isEmpty, !matcher.anyOf.contains(where: { matches($0, step) }) { return false }
        for inner in matcher.allOf where !matches(inner, step) { return false }
        for inner in matcher.noneOf where matches(inner, step) { return false }
        return true
    }

    func matches(_ condition: FieldCondition, _ value: JSONValue?) -> Bool {
        switch condition.test {
        case .oneOf(let expected):
            guard let value else { return false }
            return expected.contains { MatcherEvaluation.equivalent($0, value) }
        case .noneOf(let excluded):
            guard let value else { return true }
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
        }
    }

    /// Equality as a rule author means it: a YAML `true` matches JSON `true` and the string
    /// `"true"` in any case (Apple's tokens deliver booleans as strings); numbers match by value,
    /// also when the log wrote them as strings.
    static func equivalent(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        if expected == actual { return true }
        switch (expected, actual) {
        case (.bool(let flag), .string(let text)): return text.lowercased() == (flag ? "true" : "false")
        case (.number(let number), .string(let text)): return Double(text) == number.value
        case (.string(let text), .number(let number)): return Double(text) == number.value
        default: return false
        }
    }
}
