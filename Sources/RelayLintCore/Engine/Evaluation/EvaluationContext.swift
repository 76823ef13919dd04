/// What every rule evaluation of one run shares.
struct EvaluationContext: Sendable {
    var relayDomains: RelayDomains
    var masker: PIIMasker
    /// The end of the data: a `followed_by … within` window that reaches past it is pending.
    var horizon: Timestamp
    /// The app of events without an `app` field (contract §2.4, "Apps").
    var defaultApp: String
    /// Whether a manifest was given, for the hint in the name of the app without a name.
    var hasManifest = false
    /// The event matchers app rules test (`exists`, `absent`), in `AppRuleEvaluator` order;
    /// then the triggers of subject rules with `needs_declaration`, whose events are counted per
    /// app that lacks the declaration (`DeclarationNeedEvaluator`).
    var appMatchers: [EventMatcher]
    /// For each app matcher, the declaration its app must lack for a match to count: nil for the
    /// app rules' matchers, the `needs_declaration` key for a subject rule's trigger.
    var appMatcherNeeds: [String?]

    func app(of event: Event) -> String { event.app ?? defaultApp }

    /// How messages name an app: its bundle id, or what the data without an app is.
    func readableName(ofApp app: String) -> String {
        app == UnnamedApp.id ? UnnamedApp.readableName(hasManifest: hasManifest) : app
    }

    func severity(of rule: Rule) -> Severity { rule.severity }

    /// The matchers of app requirements in a fixed traversal order, shared by the subject pass
    /// (which records matches) and the app pass (which reads them).
    /// The app matchers of a run: the app rules' (in `AppRuleEvaluator` order), then the
    /// triggers of the subject rules that need a declaration, with what each needs.
    static func appMatchers(appRules: [Rule], subjectRules: [Rule]) -> (matchers: [EventMatcher], needs: [String?]) {
        let ofAppRules = appRules.flatMap { appMatchers(of: $0.requirement) }
        let needing = subjectRules.compactMap { rule in rule.declarationNeed.flatMap { need in rule.trigger.map { ($0, need.key) } } }
        // Last, with app rules: each app's first account creation, where its findings point.
        let creation = appRules.isEmpty ? [] : [accountCreation]
        return (
            ofAppRules + needing.map(\.0) + creation,
            Array(repeating: nil, count: ofAppRules.count) + needing.map(\.1) + creation.map { _ in nil }
        )
    }

    /// Each app's first `account.created`, from the app matches of a run of `appRules`
    /// (`appMatchers`, where its matcher comes last).
    static func firstAccountCreations(in matches: [[String: Evidence]], appRules: [Rule]) -> [String: Evidence] {
        appRules.isEmpty ? [:] : matches.last ?? [:]
    }

    /// The app matcher of an app's first `account.created`, the evidence that it creates
    /// accounts: an app finding pointed at line 1 of the first log, whatever that line was.
    static let accountCreation: EventMatcher = {
        var matcher = EventMatcher()
        matcher.types = ["account.created"]
        return matcher
    }()

    static func appMatchers(of requirement: Requirement) -> [EventMatcher] {
        switch requirement {
        case .exists(let matcher), .absent(let matcher): [matcher]
        case .all(let requirements), .any(let requirements): requirements.flatMap(appMatchers(of:))
        case .conditional(_, let inner): appMatchers(of: inner)
        case .temporal, .manifest, .never: []
        }
    }
}
