import ArgumentParser
import RelayLintCore

/// `relaylint explain RULE-ID`: what a rule checks, why, and where the requirement comes from.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Explain a rule: what it checks, why, its references and examples.")

    @Argument(help: ArgumentHelp("The rule id, e.g. consent-before-email-link.", valueName: "rule-id"))
    var ruleID: String

    @OptionGroup var rules: RuleOptions

    func run() throws {
        let ruleSet = try rules.load()
        guard let rule = ruleSet.rule(id: ruleID) else {
            StandardError.write("error: no rule '\(ruleID)'; known rules: \(ruleSet.rules.map(\.id).joined(separator: ", "))")
            throw ExitCode(ExitStatus.invalidInput)
        }
        StandardOutput.write(RuleExplanation(rule: rule).text)
    }
}
