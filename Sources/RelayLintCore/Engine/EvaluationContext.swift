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
    /// The event matchers app rules test (`exists`, `absent`), in `AppRuleEvaluator` order.
    var appMatchers: [EventMatcher]

    func app(of event: Event) -> String { event.app ?? defaultApp }

    /// How messages name an app: its bundle id, or what the data without an app is.
    func readableName(ofApp app: String) -> String {
        app == UnnamedApp.id ? UnnamedApp.readableName(hasManifest: hasManifest) : app
    }

    func severity(of rule: Rule) -> Severity { rule.severity }

    /// The matchers of app requirements in a fixed traversal order, shared by the subject pass
    /// (which records matches) and the app pass (which reads them).
    static func appMatchers(of requirement: Requirement) -> [EventMatcher] {
        switch requirement {
        case .exists(let matcher), .absent(let matcher): [matcher]
        case .all(let requirements), .any(let requirements): requirements.flatMap(appMatchers(of:))
        case .conditional(_, let inner): appMatchers(of: inner)
        case .temporal, .manifest, .never: []
        }
    }
}
