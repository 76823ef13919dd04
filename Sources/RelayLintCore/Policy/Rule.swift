/// One compliance policy, loaded from YAML. The engine interprets it; it knows no rule by id.
public struct Rule: Sendable, Equatable, Identifiable {
    /// Whether a rule looks at each subject's timeline or at each app as a whole.
    public enum Scope: String, Sendable, Equatable {
        case subject
        case app
    }

    /// A document the rule's requirement comes from.
    public struct Reference: Sendable, Equatable, Codable {
        public var title: String
        public var url: String?
    }

    /// The apps an app rule applies to.
    public struct AppCondition: Sendable, Equatable {
        /// Required value of "the app creates accounts" (contract §2.4), when set.
        public var createsAccounts: Bool?
        /// Manifest declarations the app must have for the rule to apply.
        public var manifest: [String: JSONValue] = [:]
    }

    /// Kebab-case, stable: reports, suppressions and pipelines refer to it.
    public var id: String
    public var title: String
    public var severity: Severity
    public var scope: Scope
    public var description: String
    public var rationale: String
    public var references: [Reference]
    /// Requirements the rule checks, such as `App Store Review Guideline 5.1.1(v)`.
    public var controls: [String]
    /// A rule parameter with its default and the value in force (after configuration).
    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var defaultValue: JSONValue
        public var value: JSONValue
    }

    /// Subject rules: the events that fire the rule.
    public var trigger: EventMatcher?
    /// Subject rules fired by the exported account instead of an event (`when: {account: …}`):
    /// once per exported account whose export identities satisfy the condition.
    public var accountTrigger: StateCondition?
    /// How audit reports count what the rule checked (`coverage:`), e.g. "9 links to an
    /// anonymized Apple ID checked, 5 with prior consent".
    public struct Coverage: Sendable, Equatable {
        /// What one check is, in the plural: `links to an anonymized Apple ID`.
        public var unit: String
        /// What a compliant check is: `with prior consent`.
        public var compliant: String
    }

    public var coverage: Coverage?
    /// Tunable values (`params:`), substituted where the rule writes `$params.NAME`.
    public var parameters: [Parameter]
    /// App rules: the apps the rule applies to.
    public var appCondition: AppCondition?
    public var requirement: Requirement
    public var message: MessageTemplate
    public var examples: [RuleExample]
    /// Where the rule's `id` is written.
    public var location: SourceLocation
    /// Where each placeholder of its `message` is written (`event.too`), for a warning about
    /// it: a message over several lines (`>-`) was told at its first.
    public var placeholderLocations: [String: SourceLocation] = [:]
    /// The SHA-256 of the rule's file.
    public var fileSHA256: String

    /// A manifest declaration a subject rule cannot check without (`needs_declaration:`), such
    /// as the registered relay senders. For an app whose manifest entry lacks it, the rule
    /// reports the missing declaration once, with the number of events it fired on, instead of
    /// one finding per event (tens of thousands on a real log); apps that declare it are checked
    /// per event.
    public struct DeclarationNeed: Sendable, Equatable {
        /// The manifest key, e.g. `relay_senders`.
        public var key: String
        /// The message of the app's finding; `{app}`, `{rule}` and `{count}` (the events).
        public var message: MessageTemplate
    }

    public var declarationNeed: DeclarationNeed? = nil
}

extension Rule {
    /// Whether the rule tests the exported account's attributes anywhere (`exported_account:`).
    var readsExportedAccount: Bool {
        (trigger?.readsExportedAccount ?? false) || requirement.matchers.contains { $0.readsExportedAccount }
    }
}
