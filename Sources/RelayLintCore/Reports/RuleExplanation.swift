/// The plain-text explanation of a rule that `relaylint explain` prints.
public struct RuleExplanation: Sendable {
    public let rule: Rule
    /// Masks what the configuration may set: what the rule fires on, requires, its message and
    /// its parameters' values (a parameter may list people's addresses), as the audit reports mask
    /// them beside the findings.
    let masker: PIIMasker

    public init(rule: Rule, masker: PIIMasker = PIIMasker()) {
        self.rule = rule
        self.masker = masker
    }

    public var text: String {
        var lines: [String] = []
        lines.append("\(rule.id): \(rule.title)")
        lines.append("severity: \(rule.severity.rawValue), scope: \(rule.scope.rawValue), defined at \(rule.location)")
        if !rule.controls.isEmpty { lines.append("controls: \(rule.controls.joined(separator: "; "))") }
        lines.append("")
        if !rule.description.isEmpty { lines += ["What it checks:"] + Self.indented(rule.description) + [""] }
        switch rule.scope {
        case .subject:
            if let trigger = rule.trigger { lines.append("Fires on: " + masker.mask(trigger.summary)) }
            if let account = rule.accountTrigger { lines.append("Fires on: each exported account where " + masker.mask(account.summary)) }
        case .app:
            var applies = "every app"
            if let creates = rule.appCondition?.createsAccounts {
                applies += creates ? " that creates accounts" : " that creates no accounts"
            }
            lines.append("Applies to: " + applies)
        }
        lines.append("Requires: " + masker.mask(Self.summary(of: rule.requirement)))
        // Parameters are filled into the message as it is loaded (`{params.owners}`).
        lines.append("Message: " + masker.mask(rule.message.source))
        if !rule.parameters.isEmpty {
            lines.append("Parameters (set them under rules.\(rule.id).params in .relaylint.yml):")
            for parameter in rule.parameters {
                let current = parameter.value == parameter.defaultValue ? "" : " (configured: \(parameter.value.displayText))"
                lines.append(masker.mask("  \(parameter.name): default \(parameter.defaultValue.displayText)\(current)"))
            }
        }
        lines.append("")
        if !rule.rationale.isEmpty { lines += ["Why:"] + Self.indented(rule.rationale) + [""] }
        if !rule.references.isEmpty {
            lines.append("References:")
            for reference in rule.references { lines.append("  - \(reference.title)" + (reference.url.map { " <\($0)>" } ?? "")) }
            lines.append("")
        }
        if !rule.examples.isEmpty {
            lines.append("Examples (run them with `relaylint rules test`):")
            for example in rule.examples {
                let verdict = example.expectedFirings.isEmpty ? "passes" : "fires on " + example.expectedFirings.joined(separator: ", ")
                lines.append("  - \(example.name): \(verdict)")
            }
        }
        // A rule file is the author's: each line is escaped, so that none of its values can start
        // a line of its own or move a terminal's cursor (`TerminalEscaping`).
        return lines.map(TerminalEscaping.escape).joined(separator: "\n") + "\n"
    }

    /// A text of several lines (a literal block), each indented.
    private static func indented(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
    }

    static func summary(of requirement: Requirement) -> String {
        switch requirement {
        case .temporal(let temporal): temporal.summary
        case .all(let inner): inner.map(summary(of:)).joined(separator: "; and ")
        case .any(let inner): inner.map(summary(of:)).joined(separator: "; or ")
        case .exists(let matcher): "at least one " + matcher.summary
        case .absent(let matcher): "no " + matcher.summary
        case .manifest(let declarations):
            "the manifest declares " + declarations.keys.sorted().map { "\($0): \(declarations[$0]!.displayText)" }.joined(separator: ", ")
        case .conditional(let condition, let inner): "if \(condition.summary): " + summary(of: inner)
        case .never: "nothing: every such event is reported"
        }
    }
}
