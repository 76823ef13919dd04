/// Indexes of one long timeline's steps, so that a temporal requirement finds the steps that can
/// decide it without walking past every other one.
///
/// A requirement is checked from every firing event, and a search walked step by step from the
/// event until a witness, an interruption, a boundary or the window's edge: with no witness in
/// the log, each search walked the whole timeline, and one subject with 50k firing
/// `identity.linked` events took 90 s (50k × 50k steps). For a requirement whose matchers do not
/// depend on the firing event (no `same_as`), whether a step matches does not depend on where
/// the search started: the steps that match (and those of the witness's types, near misses in
/// the evidence) are listed once per timeline, and a search jumps between them by binary search.
/// A matcher that compares with the firing event (`same_as:`) lists the steps it may match for
/// some firing event, and the search checks each it lands on: 20k mails of one subject each
/// looking back for a notification about their address no longer walk past every earlier mail.
/// Where every `same_as:` test stands outside a `not:` (the built-in rules' do), those steps are
/// also filed by the value they compare, so that a search checks only the steps whose value is
/// the firing event's: 10k mails of one subject each looking back past 10k notifications about
/// other addresses took 40 s when each mail checked every notification.
/// The verdict and its evidence are the ones the walk gives; short timelines keep the walk.
final class TimelineSearch {
    /// Timelines shorter than this are walked: listing their steps would cost more than it saves.
    static let minimumSteps = 256

    /// The steps that matter to one requirement, in timeline order.
    struct Lists {
        /// Steps the witness matches.
        var witnesses: [Int] = []
        /// Steps the witness, the interruption or the boundary matches: a search stops at the
        /// first of them.
        var stoppers: [Int] = []
        /// Steps of the witness's types (near misses when the witness does not match them).
        var witnessTypes: [Int] = []
        /// Whether the lists hold exactly the steps that match; false when they hold those that
        /// may match for some firing event, which the search checks one by one.
        var exact = true
        /// With `byValue`, `witnesses` and `stoppers` hold the steps that match whatever the
        /// firing event (every `same_as:` test taken to fail), and each of these the steps that
        /// may match besides, by the value of one test's field.
        var byValue: [ValueIndex] = []

        /// The steps that may match for one `same_as:` test: those whose field (`Identity.emailKey`
        /// of its text) is the firing event's `triggerField`.
        struct ValueIndex {
            let field: String
            let inExportedAccount: Bool
            let triggerField: String
            var witnesses: [String: [Int]] = [:]
            var stoppers: [String: [Int]] = [:]
        }

        /// The lists a search from `trigger` looks in: those of every firing event, and the
        /// steps filed under the trigger's values.
        func candidates(for trigger: Event?) -> (witnesses: [[Int]], stoppers: [[Int]]) {
            var witnesses = [self.witnesses]
            var stoppers = [self.stoppers]
            for index in byValue {
                guard let text = trigger?.value(of: index.triggerField)?.displayText else { continue }
                let key = Identity.emailKey(text)
                if let listed = index.witnesses[key] { witnesses.append(listed) }
                if let listed = index.stoppers[key] { stoppers.append(listed) }
            }
            return (witnesses, stoppers)
        }
    }

    let steps: [Timeline.Step]
    let matching: MatcherEvaluation
    private var lists: [Int: Lists?] = [:]
    private var firstMatches: [Int: Int?] = [:]

    init(steps: [Timeline.Step], matching: MatcherEvaluation) {
        self.steps = steps
        self.matching = matching
    }

    /// The lists of the requirement at `slot`.
    func lists(slot: Int, for requirement: TemporalRequirement) -> Lists? {
        if let known = lists[slot] { return known }
        let matchers = [requirement.witness] + [requirement.interruption, requirement.boundary].compactMap { $0 }
        var result = Lists()
        result.exact = !matchers.contains(where: \.comparesWithTrigger)
        let matching = self.matching
        let exact = result.exact
        // The tests compared with the firing event, when none stands inside a `not:` (where a
        // value that differs could make a step match).
        let sameAsTests = matchers.map { $0.sameAsTests(positive: true) }
        let indexed = !exact && sameAsTests.allSatisfy { $0.allSatisfy(\.positive) }
        if indexed {
            var seen: Set<[String]> = []
            for test in sameAsTests.joined() where seen.insert([test.field, test.triggerField, "\(test.inExportedAccount)"]).inserted {
                result.byValue.append(
                    Lists.ValueIndex(field: test.field, inExportedAccount: test.inExportedAccount, triggerField: test.triggerField))
            }
        }
        func test(_ matcher: EventMatcher, _ step: Timeline.Step) -> Bool {
            exact ? matching.matches(matcher, step) : indexed ? matching.mustMatch(matcher, step) : matching.mayMatch(matcher, step)
        }
        // A step that may match but need not is filed under each test's value.
        func file(_ index: Int, asWitness: Bool, asStopper: Bool) {
            let event = steps[index].event
            for place in result.byValue.indices {
                // The test's names only: a copy of the whole index made each append copy its lists.
                let (field, inExportedAccount) = (result.byValue[place].field, result.byValue[place].inExportedAccount)
                let value = inExportedAccount ? matching.account?.attribute(field) : event.value(of: field)
                guard let text = value?.displayText else { continue }
                let key = Identity.emailKey(text)
                if asWitness { result.byValue[place].witnesses[key, default: []].append(index) }
                if asStopper { result.byValue[place].stoppers[key, default: []].append(index) }
            }
        }
        let types = requirement.witness.referencedTypes ?? []
        for index in steps.indices {
            let step = steps[index]
            let isWitness = test(requirement.witness, step)
            if isWitness { result.witnesses.append(index) }
            let isStopper =
                isWitness || requirement.interruption.map({ test($0, step) }) == true
                || requirement.boundary.map({ test($0, step) }) == true
            if isStopper { result.stoppers.append(index) }
            if indexed {
                let mayBeWitness = !isWitness && matching.mayMatch(requirement.witness, step)
                let mayStop = !isStopper && (mayBeWitness || matchers.dropFirst().contains { matching.mayMatch($0, step) })
                if mayBeWitness || mayStop { file(index, asWitness: mayBeWitness, asStopper: mayStop) }
            }
            if types.contains(step.event.type) { result.witnessTypes.append(index) }
        }
        lists[slot] = result
        return result
    }

    /// The first step the matcher at `slot` matches (nil: none), or `.none` when it compares
    /// with the firing event and must be asked per search.
    func firstMatch(slot: Int, of matcher: EventMatcher) -> Int?? {
        guard !matcher.comparesWithTrigger else { return .none }
        if let known = firstMatches[slot] { return .some(known) }
        let found = steps.firstIndex { matching.matches(matcher, $0) }
        firstMatches[slot] = .some(found)
        return .some(found)
    }

    /// The nearest step of any of the lists from `cursor` on (itself included) in the direction
    /// of `step` (+1 or -1), or nil.
    static func nearest(in lists: [[Int]], from cursor: Int, by step: Int) -> Int? {
        var found: Int?
        for list in lists {
            guard let near = nearest(in: list, from: cursor, by: step) else { continue }
            found = found.map { step > 0 ? min($0, near) : max($0, near) } ?? near
        }
        return found
    }

    /// The nearest listed step from `cursor` on (itself included) in the direction of `step`
    /// (+1 or -1), or nil.
    static func nearest(in list: [Int], from cursor: Int, by step: Int) -> Int? {
        // The first element not below the cursor.
        let low = list.partitioningIndex { $0 >= cursor }
        if step > 0 { return low < list.count ? list[low] : nil }
        if low < list.count, list[low] == cursor { return cursor }
        return low > 0 ? list[low - 1] : nil
    }

    /// The nearest step from `cursor` on in the direction of `step` that lies more than `window`
    /// from `origin`'s time, or nil: steps are in time order, so the distance grows with each step.
    func windowEdge(from cursor: Int, by step: Int, origin: Timestamp, window: UInt64) -> Int? {
        func outside(_ index: Int) -> Bool { origin.distance(to: steps[index].event.time) > window }
        if step > 0 {
            let edge = (cursor..<steps.count).partitioningIndex(where: outside)
            return edge < steps.count ? edge : nil
        }
        // Going back: the largest index at most `cursor` that is outside.
        let inside = (0..<(cursor + 1)).partitioningIndex { !outside($0) }
        return inside > 0 ? inside - 1 : nil
    }
}

extension EventMatcher {
    /// Its `same_as:` tests, in and out of `not:` (`positive` false inside an odd number of them).
    func sameAsTests(positive: Bool) -> [(field: String, triggerField: String, inExportedAccount: Bool, positive: Bool)] {
        var tests: [(field: String, triggerField: String, inExportedAccount: Bool, positive: Bool)] = []
        for (conditions, inAccount) in [(fields, false), (exportedAccount, true)] {
            for condition in conditions {
                if case .sameAs(let other) = condition.test { tests.append((condition.field, other, inAccount, positive)) }
            }
        }
        for inner in anyOf + allOf { tests += inner.sameAsTests(positive: positive) }
        for inner in noneOf { tests += inner.sameAsTests(positive: !positive) }
        return tests
    }

    /// Whether the matcher compares a field with the firing event's (`same_as`), so that whether
    /// it matches a step depends on the search.
    var comparesWithTrigger: Bool {
        (fields + exportedAccount).contains { if case .sameAs = $0.test { true } else { false } }
            || (anyOf + allOf + noneOf).contains(where: \.comparesWithTrigger)
    }
}

extension Requirement {
    /// Nodes in this requirement's tree: the slots of its parts are numbered in pre-order, so a
    /// part keeps its number whichever parts a verdict looks at.
    var nodeCount: Int {
        switch self {
        case .all(let requirements), .any(let requirements): 1 + requirements.reduce(0) { $0 + $1.nodeCount }
        case .conditional(_, let inner): 1 + inner.nodeCount
        case .temporal, .exists, .absent, .manifest, .never: 1
        }
    }
}
