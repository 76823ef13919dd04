import ArgumentParser
import Foundation
import RelayLintCore

/// `relaylint rules`: list, validate and test rule packs.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List, validate or test rules (the built-in pack, or your own with --rules).",
        subcommands: [List.self, Validate.self, Test.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the rules with their severity, scope and title.")
        @OptionGroup var rules: RuleOptions

        @Option(
            help: ArgumentHelp(
                "text (a table) or json (every rule's id, title, severity, scope, description, references, parameters and file).",
                valueName: "format"))
        var format: ListFormat = .text

        @Flag(
            name: .customLong("show-pii"),
            help: "Show the email addresses and phone numbers rule parameters list unmasked (json; masked by default, as in reports).")
        var showPII = false

        func run() throws {
            let ruleSet = try rules.load()
            if format == .json {
                try StandardOutput.write(RuleCatalog(ruleSet, masker: PIIMasker(isEnabled: !showPII)).json)
                return
            }
            let width = ruleSet.rules.map(\.id.count).max() ?? 0
            for rule in ruleSet.rules {
                let id = rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
                let severity = rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                let scope = rule.scope.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                try StandardOutput.writeLines("\(id)  \(severity)  \(scope)  \(rule.title)")
            }
        }
    }

    enum ListFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    enum TestFormat: String, ExpressibleByArgument, CaseIterable {
        case text, junit
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Check rule files for unknown keys, wrong types, bad durations and severities, missing examples, and examples whose events are not valid input or whose 'fires' names nothing of the example."
        )
        @OptionGroup var rules: RuleOptions

        func run() throws {
            let ruleSet = try rules.load()
            // Fields and placeholders no event type declares: the built-in vocabulary, plus what
            // the mappings in use (built-in and configured) produce.
            do {
                var vocabulary = try EventVocabulary.builtIn()
                let configured = try rules.configuration()?.mappingPaths ?? []
                for mapping in try MappingSet.load(userPaths: configured).mappings { vocabulary.add(mapping) }
                // Masked and escaped as every diagnostic: a field name is the rule's own text,
                // which may quote an address or hold a line break.
                StandardError.write(ruleSet.rules.flatMap(vocabulary.warnings(for:)), limit: .max)
            } catch let error as DiagnosticsError {
                StandardError.write(error.diagnostics)
                throw ExitCode(ExitStatus.invalidInput)
            }
            // Examples as written: `rules test` runs them, but an example event that is not valid
            // input or a `fires` that names nothing of the example is a mistake in the file.
            let exampleProblems = ruleSet.rules.flatMap { $0.examples.flatMap(RuleExampleRunner.problems(in:)) }
            if !exampleProblems.isEmpty {
                StandardError.write(exampleProblems)
                throw ExitCode(ExitStatus.invalidInput)
            }
            let withoutExamples = ruleSet.rules.filter { $0.examples.isEmpty }
            for rule in withoutExamples {
                StandardError.write(
                    "\(StandardError.escaped("\(rule.location)")): warning: rule '\(StandardError.escaped(rule.id))' has no examples; add some so 'rules test' can check it"
                )
            }
            let rules = Plural.counted(ruleSet.rules.count, "rule")
            let files = Plural.counted(ruleSet.files.count, "file")
            try StandardOutput.writeLines("\(rules) in \(files) \(ruleSet.rules.count == 1 ? "is" : "are") valid")
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the examples every rule carries and compare what fires with what the example expects.",
            discussion:
                "Exit codes: 0 all examples pass, 1 some fail, 2 the rules are invalid (an example's own data too, as `rules validate` says). Addresses and phone numbers in the output are masked unless --show-pii is given."
        )
        @OptionGroup var rules: RuleOptions

        @Flag(name: .customLong("show-pii"), help: "Show email addresses and phone numbers in failures unmasked (masked by default).")
        var showPII = false

        @Option(
            help: ArgumentHelp(
                "text (PASS/FAIL lines, timelines of failures) or junit (JUnit XML for CI test dashboards, one suite per rule).",
                valueName: "format"))
        var format: TestFormat = .text

        func run() throws {
            let ruleSet = try rules.load(configuration: try rules.configuration(), applyingParameters: false)
            // Examples are often records pasted from a production log, and this output lands in
            // CI logs: masked as `mappings test` masks its failures.
            let masker = PIIMasker(isEnabled: !showPII)
            let outcomes = RuleExampleRunner.run(ruleSet).map { $0.masked(by: masker) }
            // An example whose own data is invalid makes the rule file invalid, as `rules
            // validate` says: exit 2, after every outcome is printed.
            let status = outcomes.contains { !$0.problems.isEmpty } ? ExitStatus.invalidInput : ExitStatus.findings
            if format == .junit {
                try StandardOutput.write(RuleExampleJUnit.render(outcomes, rules: ruleSet))
                if outcomes.contains(where: { !$0.passed }) { throw ExitCode(status) }
                return
            }
            var failed = 0
            for outcome in outcomes {
                if outcome.passed {
                    try StandardOutput.writeLines("PASS \(outcome.rule): \(outcome.example)")
                    continue
                }
                failed += 1
                try StandardOutput.writeLines("FAIL \(outcome.rule): \(outcome.example)")
                try StandardOutput.writeLines("  \(outcome.location): example")
                for problem in outcome.problems { try StandardOutput.writeLines("  \(problem)") }
                if outcome.problems.isEmpty {
                    try StandardOutput.writeLines("  expected to fire: [\(outcome.expected.joined(separator: ", "))]")
                    try StandardOutput.writeLines("  fired:            [\(outcome.actual.joined(separator: ", "))]")
                }
                try StandardOutput.writeLines("  timeline:")
                for line in outcome.timeline { try StandardOutput.writeLines("    \(line)") }
            }
            let rulesWithout = ruleSet.rules.filter { $0.examples.isEmpty }.map(\.id)
            if !rulesWithout.isEmpty { try StandardOutput.writeLines("rules without examples: \(rulesWithout.joined(separator: ", "))") }
            try StandardOutput.writeLines("\(outcomes.count - failed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode(status) }
        }
    }
}
