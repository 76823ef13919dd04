/// What must be true around a firing event (subject rules) or for an app (app rules).
public indirect enum Requirement: Sendable, Equatable {
    /// A temporal requirement over the subject's timeline.
    case temporal(TemporalRequirement)
    /// Every requirement must hold.
    case all([Requirement])
    /// At least one requirement must hold.
    case any([Requirement])
    /// App rules: at least one event of the app matches.
    case exists(EventMatcher)
    /// App rules: no event of the app matches.
    case absent(EventMatcher)
    /// App rules: the app's manifest entry declares these values.
    case manifest([String: JSONValue])
    /// The inner requirement applies only when the subject's state satisfies the condition
    /// (`if:`); otherwise it holds.
    case conditional(StateCondition, Requirement)
    /// Never holds: every firing event is a finding (a rule without `require`).
    case never

    /// The matchers this requirement looks at.
    var matchers: [EventMatcher] {
        switch self {
        case .temporal(let temporal): [temporal.witness] + [temporal.boundary, temporal.interruption].compactMap { $0 }
        case .all(let requirements), .any(let requirements): requirements.flatMap(\.matchers)
        case .exists(let matcher), .absent(let matcher): [matcher]
        case .conditional(_, let inner): inner.matchers
        case .manifest, .never: []
        }
    }
}

/// "Preceded by", "followed by", and their negations, with a window, a boundary and an
/// interruption.
public struct TemporalRequirement: Sendable, Equatable {
    public enum Direction: String, Sendable, Equatable {
        case before
        case after
    }

    public var direction: Direction
    /// True for `preceded_by`/`followed_by` (a witness must exist); false for the `not_` forms
    /// (no witness may exist).
    public var mustExist: Bool
    /// The event looked for.
    public var witness: EventMatcher
    /// How far from the firing event the witness may be.
    public var within: RuleDuration?
    /// `since_last` / `until_next`: the search stops at the nearest event matching this.
    public var boundary: EventMatcher?
    /// `without`: a witness counts only if no event matching this lies between it and the firing
    /// event.
    public var interruption: EventMatcher?

    public init(
        direction: Direction, mustExist: Bool, witness: EventMatcher, within: RuleDuration? = nil,
        boundary: EventMatcher? = nil, interruption: EventMatcher? = nil
    ) {
        self.direction = direction
        self.mustExist = mustExist
        self.witness = witness
        self.within = within
        self.boundary = boundary
        self.interruption = interruption
    }

    /// The YAML key this requirement was written with.
    public var keyword: String {
        switch (direction, mustExist) {
        case (.before, true): "preceded_by"
        case (.after, true): "followed_by"
        case (.before, false): "not_preceded_by"
        case (.after, false): "not_followed_by"
        }
    }

    /// What was expected, for a finding's evidence.
    public var summary: String {
        var text: String
        switch (direction, mustExist) {
        case (.before, true): text = "an earlier " + witness.summary
        case (.after, true): text = "a later " + witness.summary
        case (.before, false): text = "no earlier " + witness.summary
        case (.after, false): text = "no later " + witness.summary
        }
        if let within { text += " within \(within.text)" }
        if let boundary { text += direction == .before ? " since the last " + boundary.summary : " before the next " + boundary.summary }
        if let interruption { text += ", with no " + interruption.summary + " in between" }
        return text
    }
}
