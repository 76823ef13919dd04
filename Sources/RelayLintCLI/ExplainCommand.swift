import ArgumentParser
import RelayLintCore

/// `relaylint explain`: what a rule checks and why, or one finding's evidence from a report.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a rule (description, rationale, references, parameters, examples), or a finding of a JSON report.",
        discussion: """
            Examples:
              relaylint explain consent-before-email-link
              relaylint explain 6cbe9909f1ba --report report.json
            """)

    @Argument(
        help: ArgumentHelp(
            "A rule id, or a finding's fingerprint (or its first characters) with --report.", valueName: "rule-id|fingerprint"))
    var subject: String

    @Option(help: ArgumentHelp("A JSON report (--format json) to look the fingerprint up in.", valueName: "report.json"))
    var report: String?

    @Flag(
        name: .customLong("show-pii"),
        help: ArgumentHelp(
            "Show email addresses and phone numbers unmasked (masked by default, as in reports): a finding's, or those a rule's configured parameters list."
        ))
    var showPII = false

    @OptionGroup var rules: RuleOptions

    func run() throws {
        if let report {
            guard !subject.isEmpty else {
                // Every fingerprint starts with "": the first finding was shown.
                StandardError.write("error: give a finding's fingerprint, or its first characters, to explain")
                throw ExitCode(ExitStatus.invalidInput)
            }
            do {
                guard
                    let text = try FindingExplanation.text(
                        fingerprint: subject, reportPath: report, masker: PIIMasker(isEnabled: !showPII))
                else {
                    StandardError.write(
                        "error: no finding with fingerprint '\(StandardError.escaped(subject))' in \(StandardError.escaped(report))")
                    throw ExitCode(ExitStatus.invalidInput)
                }
                try StandardOutput.write(text)
                return
            } catch let error as DiagnosticsError {
                StandardError.write(error.diagnostics)
                throw ExitCode(ExitStatus.invalidInput)
            }
        }
        let ruleSet = try rules.load()
        guard let rule = ruleSet.rule(id: subject) else {
            StandardError.write(
                "error: no rule '\(StandardError.escaped(subject))'; known rules: \(ruleSet.rules.map(\.id).joined(separator: ", "))")
            throw ExitCode(ExitStatus.invalidInput)
        }
        try StandardOutput.write(RuleExplanation(rule: rule, masker: PIIMasker(isEnabled: !showPII)).text)
    }
}
