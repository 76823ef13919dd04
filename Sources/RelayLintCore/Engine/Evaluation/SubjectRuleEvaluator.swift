/// Evaluates subject rules over one subject's timeline. Subjects are independent, so many of
/// these run in parallel.
struct SubjectRuleEvaluator {
    let rules: [Rule]
    private(set) var matching: MatcherEvaluation
    /// Whether some matcher tests the exported account's attributes (`exported_account:`).
    private let readsExportedAccounts: Bool
    let context: EvaluationContext
    /// The rules whose trigger can match an event type and the app-rule matchers
    /// (`EvaluationContext.appMatchers`) that can, by type, each in ascending order; and those
    /// for a type no trigger names. Most events concern few rules, looking at a `Rule` costs a
    /// copy, and one lookup per event, with the lists merged beforehand, costs less than two
    /// lookups and a merge per event did (~1.5% of a run's samples).
    private let candidatesByType: [String: Candidates]
    private let candidatesOfOtherTypes: Candidates
    /// Timelines of at least this many steps are searched through a `TimelineSearch`.
    var indexedSearchFrom = TimelineSearch.minimumSteps

    struct Candidates {
        var rules: [Int] = []
        var appMatchers: [Int] = []
    }

    init(rules: [Rule], matching: MatcherEvaluation, context: EvaluationContext) {
        self.rules = rules
        self.matching = matching
        self.context = context
        let (rulesByType, rulesForAnyType) = Self.index(rules.map(\.trigger))
        let (appMatchersByType, appMatchersForAnyType) = Self.index(context.appMatchers)
        candidatesOfOtherTypes = Candidates(rules: rulesForAnyType, appMatchers: appMatchersForAnyType)
        var candidatesByType: [String: Candidates] = [:]
        for type in Set(rulesByType.keys).union(appMatchersByType.keys) {
            candidatesByType[type] = Candidates(
                rules: ((rulesByType[type] ?? []) + rulesForAnyType).sorted(),
                appMatchers: ((appMatchersByType[type] ?? []) + appMatchersForAnyType).sorted())
        }
        self.candidatesByType = candidatesByType
        readsExportedAccounts =
            rules.contains { $0.readsExportedAccount } || context.appMatchers.contains { $0.readsExportedAccount }
    }

    private static func index(_ matchers: [EventMatcher?]) -> ([String: [Int]], [Int]) {
        var byType: [String: [Int]] = [:]
        var anyType: [Int] = []
        for (position, matcher) in matchers.enumerated() {
            guard let matcher else { continue }
            if let types = matcher.referencedTypes {
                for type in types { byType[type, default: []].append(position) }
            } else {
                anyType.append(position)
            }
        }
        return (byType, anyType)
    }

    /// Counters that tell a reviewer how much was checked, per rule.
    struct Tally {
        var triggered = 0
        var violated = 0
        var pending = 0
    }

    struct Result {
        var findings: [Finding] = []
        /// Per rule, in the order of `rules`.
        var tallies: [Tally]
        /// For each app-rule matcher (`EvaluationContext.appMatchers`), the earliest matching step per app.
        var appMatches: [[String: Evidence]]
        /// For each app matcher, how many of the subject's events it matched, per app.
        var appMatchCounts: [[String: Int]]
        var wasEverAnonymized: Bool
    }

    /// Where a requirement is checked from: a firing event, or (for `when: {account: …}`) the
    /// end of the timeline.
    struct Origin {
        /// The firing step's index; `steps.count` for the end of the timeline.
        var index: Int
        var time: Timestamp
        var event: Event?
        /// The state `if:` conditions test.
        var state: SubjectSnapshot
    }

    func evaluate(_ timeline: Timeline) -> Result {
        guard readsExportedAccounts, let account = timeline.account else { return evaluateSteps(timeline) }
        var withAccount = self
        withAccount.matching.account = account
        return withAccount.evaluateSteps(timeline)
    }

    private func evaluateSteps(_ timeline: Timeline) -> Result {
        var result = Result(
            tallies: Array(repeating: Tally(), count: rules.count),
            appMatches: Array(repeating: [:], count: context.appMatchers.count),
            appMatchCounts: Array(repeating: [:], count: context.appMatchers.count),
            wasEverAnonymized: timeline.wasEverAnonymized)
        let steps = timeline.steps
        let search = steps.count >= indexedSearchFrom ? TimelineSearch(steps: steps, matching: matching) : nil
        for (index, step) in steps.enumerated() {
            let candidates = candidatesByType[step.event.type] ?? candidatesOfOtherTypes
            for ruleIndex in candidates.rules {
                guard let trigger = rules[ruleIndex].trigger, matching.matches(trigger, step) else { continue }
                // Without the declaration the rule needs, the event is counted for its app
                // (below, as an app matcher) instead of checked.
                if let need = rules[ruleIndex].declarationNeed, !matching.appDeclares(need.key, for: step.event) { continue }
                let origin = Origin(index: index, time: step.event.time, event: step.event, state: step.before)
                check(rules[ruleIndex], ruleIndex, from: origin, in: timeline, search: search, into: &result)
            }
            for matcherIndex in candidates.appMatchers where matching.matches(context.appMatchers[matcherIndex], step) {
                if let key = context.appMatcherNeeds[matcherIndex], matching.appDeclares(key, for: step.event) { continue }
                let app = context.app(of: step.event)
                result.appMatchCounts[matcherIndex][app, default: 0] += 1
                if result.appMatches[matcherIndex][app] == nil {
                    result.appMatches[matcherIndex][app] = Evidence(
                        role: .witness, event: step.event.id, type: step.event.type, time: step.event.time,
                        location: step.event.location)
                }
            }
        }
        if let state = timeline.accountState {
            for ruleIndex in rules.indices {
                guard let condition = rules[ruleIndex].accountTrigger, state.satisfies(condition) else { continue }
                let rule = rules[ruleIndex]
                let origin = Origin(index: steps.count, time: context.horizon, event: nil, state: state)
                check(rule, ruleIndex, from: origin, in: timeline, search: search, into: &result)
            }
        }
        return result
    }

    private func check(
        _ rule: Rule, _ ruleIndex: Int, from origin: Origin, in timeline: Timeline, search: TimelineSearch?, into result: inout Result
    ) {
        result.tallies[ruleIndex].triggered += 1
        let place = search.map { Place(search: $0, slot: ruleIndex << 16) }
        switch verdict(rule.requirement, from: origin, in: timeline.steps, place: place) {
        case .satisfied: break
        case .pending: result.tallies[ruleIndex].pending += 1
        case .violated(let failure):
            result.tallies[ruleIndex].violated += 1
            result.findings.append(finding(rule, failure, from: origin, in: timeline))
        }
    }

    // MARK: Requirements

    /// A long timeline's indexes and the slot of the requirement being decided in them (see
    /// `TimelineSearch`).
    struct Place {
        let search: TimelineSearch
        let slot: Int

        /// The slots of a requirement's parts, numbered in pre-order.
        func parts(_ requirements: [Requirement]) -> [Place] {
            var next = slot + 1
            return requirements.map { requirement in
                defer { next += requirement.nodeCount }
                return Place(search: search, slot: next)
            }
        }
    }

    func verdict(_ requirement: Requirement, from origin: Origin, in steps: [Timeline.Step], place: Place? = nil) -> RequirementVerdict {
        switch requirement {
        case .temporal(let temporal):
            return verdict(temporal, from: origin, in: steps, place: place)
        case .all(let requirements):
            var sawPending = false
            let places = place?.parts(requirements)
            for (number, inner) in requirements.enumerated() {
                switch verdict(inner, from: origin, in: steps, place: places?[number]) {
                case .violated(let failure): return .violated(failure)
                case .pending: sawPending = true
                case .satisfied: break
                }
            }
            return sawPending ? .pending : .satisfied
        case .any(let requirements):
            var failures: [RequirementFailure] = []
            var sawPending = false
            let places = place?.parts(requirements)
            for (number, inner) in requirements.enumerated() {
                switch verdict(inner, from: origin, in: steps, place: places?[number]) {
                case .satisfied: return .satisfied
                case .pending: sawPending = true
                case .violated(let failure): failures.append(failure)
                }
            }
            if sawPending { return .pending }
            return .violated(
                RequirementFailure(
                    expected: failures.map(\.expected).joined(separator: "; or "),
                    evidence: failures.flatMap(\.evidence), witness: failures.lazy.compactMap(\.witness).first))
        case .conditional(let condition, let inner):
            return origin.state.satisfies(condition)
                ? verdict(inner, from: origin, in: steps, place: place.map { Place(search: $0.search, slot: $0.slot + 1) }) : .satisfied
        case .exists(let matcher):
            if case .some(let first) = place?.search.firstMatch(slot: place!.slot, of: matcher) {
                if first != nil { return .satisfied }
            } else if steps.contains(where: { matching.matches(matcher, $0, trigger: origin.event) }) {
                return .satisfied
            }
            return .violated(RequirementFailure(expected: "at least one " + matcher.summary + " in the subject's log", evidence: []))
        case .absent(let matcher):
            let first: Int?
            if case .some(let known) = place?.search.firstMatch(slot: place!.slot, of: matcher) {
                first = known
            } else {
                first = steps.firstIndex(where: { matching.matches(matcher, $0, trigger: origin.event) })
            }
            guard let found = first else { return .satisfied }
            return .violated(
                RequirementFailure(
                    expected: "no " + matcher.summary + " in the subject's log",
                    evidence: [(found, .witness, "found, but the rule forbids it")], witness: found))
        case .never:
            return .violated(RequirementFailure(expected: "no event of this kind", evidence: []))
        case .manifest:
            // App-only; the loader rejects it in subject rules.
            return .satisfied
        }
    }

    /// Scans from the origin towards the past (`before`) or the future (`after`). On a long
    /// timeline the scan jumps over the steps that cannot change its course (`TimelineSearch`):
    /// those that are no witness, interruption, boundary or near miss and lie inside the window.
    func verdict(
        _ requirement: TemporalRequirement, from origin: Origin, in steps: [Timeline.Step], place: Place? = nil
    ) -> RequirementVerdict {
        let step = requirement.direction == .before ? -1 : 1
        var failure = RequirementFailure(expected: "", evidence: [])
        // The summary is text for the report, built only for a violation: most verdicts hold,
        // and building it for each took 4% of a run.
        func violation() -> RequirementVerdict {
            failure.expected = requirement.summary
            return .violated(failure)
        }
        // The witness's types, worked out at the first event that is not a witness (most
        // verdicts find theirs first): made for every verdict, they were 4% of the rules' time.
        var nearMissTypes: Set<String>?
        var nearMisses = 0
        func matches(_ matcher: EventMatcher, _ index: Int) -> Bool { matching.matches(matcher, steps[index], trigger: origin.event) }
        var cursor = origin.index + step
        let lists = place.flatMap { $0.search.lists(slot: $0.slot, for: requirement) }
        // Lists of the firing event's values, for a requirement whose steps are filed by them;
        // made only then (a list of lists for every verdict was a fifth of a rule's time).
        let candidates = lists.flatMap { $0.byValue.isEmpty ? nil : $0.candidates(for: origin.event) }
        let windowEdge =
            lists == nil
            ? nil
            : requirement.within.flatMap { within in
                place!.search.windowEdge(from: cursor, by: step, origin: origin.time, window: UInt64(within.nanoseconds))
            }
        while cursor >= 0, cursor < steps.count {
            if let lists {
                // The nearest step that can change the scan's course; none: the scan runs out.
                func nearer(_ a: Int?, _ b: Int?) -> Int? {
                    guard let a, let b else { return a ?? b }
                    return step > 0 ? min(a, b) : max(a, b)
                }
                let stopper =
                    candidates.map { TimelineSearch.nearest(in: $0.stoppers, from: cursor, by: step) }
                    ?? TimelineSearch.nearest(in: lists.stoppers, from: cursor, by: step)
                var next = nearer(stopper, windowEdge)
                if requirement.mustExist, nearMisses < 3 {
                    next = nearer(next, TimelineSearch.nearest(in: lists.witnessTypes, from: cursor, by: step))
                }
                guard let next else { break }
                cursor = next
            }
            let candidate = steps[cursor]
            if let within = requirement.within, origin.time.distance(to: candidate.event.time) > UInt64(within.nanoseconds) {
                guard requirement.mustExist else { return .satisfied }
                noteSkippedWitness(
                    requirement, from: cursor, by: step, in: steps, origin: origin, lists: lists, into: &failure,
                    note: "outside the \(within.text) window")
                return violation()
            }
            let isWitness = matches(requirement.witness, cursor)
            // Events of the right type that fail the witness's other conditions (a failed
            // revocation, consent for another scope) show the reviewer what came close.
            if !isWitness, requirement.mustExist, nearMisses < 3 {
                let types = nearMissTypes ?? requirement.witness.referencedTypes ?? []
                nearMissTypes = types
                if types.contains(candidate.event.type) {
                    nearMisses += 1
                    failure.evidence.append((cursor, .witness, "does not count: not " + requirement.witness.summary))
                }
            }
            if isWitness {
                if requirement.mustExist { return .satisfied }
                failure.evidence.append((cursor, .witness, "found, but the rule forbids it"))
                failure.witness = cursor
                return violation()
            }
            if let interruption = requirement.interruption, matches(interruption, cursor) {
                guard requirement.mustExist else { return .satisfied }
                failure.evidence.append((cursor, .interruption, "breaks off any earlier match"))
                noteSkippedWitness(
                    requirement, from: cursor + step, by: step, in: steps, origin: origin, lists: lists, into: &failure,
                    note: "does not count: \(Evidence.shown(candidate.event.id)) lies in between")
                return violation()
            }
            if let boundary = requirement.boundary, matches(boundary, cursor) {
                guard requirement.mustExist else { return .satisfied }
                failure.evidence.append(
                    (
                        cursor, .boundary,
                        requirement.direction == .before ? "the search starts after this event" : "the search ends at this event"
                    ))
                noteSkippedWitness(
                    requirement, from: cursor + step, by: step, in: steps, origin: origin, lists: lists, into: &failure,
                    note: "does not count: it lies beyond \(Evidence.shown(candidate.event.id))")
                return violation()
            }
            cursor += step
        }
        guard requirement.mustExist else { return .satisfied }
        if requirement.direction == .after, let within = requirement.within, origin.time <= context.horizon,
            origin.time.distance(to: context.horizon) < UInt64(within.nanoseconds)
        {
            return .pending
        }
        return violation()
    }

    /// Records the nearest witness beyond the point where the search stopped, so the evidence
    /// shows what came close.
    private func noteSkippedWitness(
        _ requirement: TemporalRequirement, from start: Int, by step: Int, in steps: [Timeline.Step], origin: Origin,
        lists: TimelineSearch.Lists?, into failure: inout RequirementFailure, note: String
    ) {
        if let lists {
            var cursor = start
            // Listed steps that may be witnesses are checked against the firing event.
            let filed = lists.byValue.isEmpty ? nil : lists.candidates(for: origin.event).witnesses
            func nearestWitness(from cursor: Int) -> Int? {
                filed.map { TimelineSearch.nearest(in: $0, from: cursor, by: step) }
                    ?? TimelineSearch.nearest(in: lists.witnesses, from: cursor, by: step)
            }
            while cursor >= 0, cursor < steps.count, let found = nearestWitness(from: cursor) {
                if lists.exact || matching.matches(requirement.witness, steps[found], trigger: origin.event) {
                    failure.evidence.append((found, .witness, note))
                    failure.witness = failure.witness ?? found
                    return
                }
                cursor = found + step
            }
            return
        }
        var cursor = start
        while cursor >= 0, cursor < steps.count {
            if matching.matches(requirement.witness, steps[cursor], trigger: origin.event) {
                failure.evidence.append((cursor, .witness, note))
                failure.witness = failure.witness ?? cursor
                return
            }
            cursor += step
        }
    }

    // MARK: Findings

    /// Phone numbers in any format are masked when they come from a phone field.
    static func isPhoneField(_ field: String, of event: Event) -> Bool {
        // Named as a phone number (`phone`, `mobile`, `contact_phone`, `msisdn`, `phone_e164`).
        if PIIMasker.namesPhoneNumber(field) { return true }
        return field == "value" && (event.string("kind") == "phone" || event.string("provider") == "phone")
    }

    private func finding(_ rule: Rule, _ failure: RequirementFailure, from origin: Origin, in timeline: Timeline) -> Finding {
        let steps = timeline.steps
        let event = origin.event
        let app = event.map(context.app(of:)) ?? timeline.accountApp ?? context.defaultApp
        let witness = failure.witness.map { steps[$0].event }
        let message = rule.message.render(masker: context.masker, subject: timeline.subject) { name in
            switch name {
            case "subject": return timeline.subject
            case "app": return context.readableName(ofApp: app)
            case "rule": return rule.id
            case "expected": return failure.expected
            default:
                let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
                let source = parts[0] == "event" ? event : witness
                guard let source, let text = source.value(of: parts[1])?.displayText else { return nil }
                return Self.isPhoneField(parts[1], of: source) ? context.masker.maskPhoneField(text) : text
            }
        }
        var items = failure.evidence
        if event != nil { items.append((origin.index, .trigger, "fires the rule")) }
        let evidence = items.sorted { $0.index < $1.index }.map { item in
            let id = steps[item.index].event.id
            return Evidence(
                role: item.role, event: item.role == .trigger ? id : Evidence.shown(id), type: steps[item.index].event.type,
                time: steps[item.index].event.time, location: steps[item.index].event.location, note: item.note)
        }
        return Finding(
            rule: rule.id, severity: context.severity(of: rule), subject: timeline.subject, app: app, event: event?.id,
            time: event?.time ?? timeline.account?.createdAt,
            message: message,
            fingerprint: Fingerprint.of(rule: rule.id, subject: timeline.subject, event: event?.id, discriminator: event?.discriminator),
            location: event?.location ?? timeline.account?.location, expected: failure.expected, evidence: evidence)
    }
}
