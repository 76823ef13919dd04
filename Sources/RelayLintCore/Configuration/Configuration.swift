/// `.relaylint.yml`: how a team tunes the rules for its app.
public struct Configuration: Sendable, Equatable {
    /// Per-rule settings.
    public struct RuleSetting: Sendable, Equatable {
        public var enabled: Bool = true
        public var severity: Severity?
        /// Parameter values, kept as YAML so the rule loader validates them where they are used.
        public var parameters: [String: YAMLTree] = [:]
        public var location: SourceLocation
    }

    public var path: String
    public var sha256: String
    /// Extra rule files or folders, relative to the configuration file.
    public var rulePaths: [String] = []
    /// Log mappings of the team's own (`mappings:`), relative to the configuration file.
    public var mappingPaths: [String] = []
    /// Whether the built-in pack is loaded besides `rulePaths` (`builtin_rules: false` to turn it off).
    public var includesBuiltInRules = true
    public var relayDomains: [String]?
    public var rules: [String: RuleSetting] = [:]
    public var suppressions: [Suppression] = []

    public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }

    /// Applies the per-rule settings to a loaded pack: disables rules, overrides severities.
    /// Throws when a setting names a rule the pack does not have.
    public func apply(to ruleSet: RuleSet) throws(DiagnosticsError) -> RuleSet {
        var problems: [Diagnostic] = []
        for (id, setting) in rules.sorted(by: { $0.key < $1.key }) where ruleSet.rule(id: id) == nil {
            var message = "no rule '\(id)' is loaded"
            if let suggestion = SchemaReader.closest(to: id, in: ruleSet.rules.map(\.id)) { message += "; did you mean '\(suggestion)'?" }
            problems.append(Diagnostic(.error, message, at: setting.location))
        }
        for suppression in suppressions {
            if let rule = suppression.rule, ruleSet.rule(id: rule) == nil {
                problems.append(Diagnostic(.error, "suppression names unknown rule '\(rule)'", at: suppression.location))
            }
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        var result = ruleSet
        result.rules = ruleSet.rules.compactMap { rule in
            guard let setting = rules[rule.id] else { return rule }
            guard setting.enabled else { return nil }
            var copy = rule
            if let severity = setting.severity { copy.severity = severity }
            return copy
        }
        return result
    }

    /// Turns the given rules back on where the configuration turned them off (`--enable`).
    public mutating func enable(_ ids: [String]) {
        for id in ids where rules[id] != nil { rules[id]?.enabled = true }
    }

    /// Parameter values by rule id, for the rule loader.
    public var parameterOverrides: [String: [String: YAMLTree]] { rules.mapValues(\.parameters).filter { !$0.value.isEmpty } }
}
