import ArgumentParser
import RelayLintCore

/// `--rules`, shared by every command that loads rules.
struct RuleOptions: ParsableArguments {
    @Option(name: .customLong("rules"), help: ArgumentHelp(
        "A rule file or a folder of rule files (.yml, .yaml); repeat for several. Default: the built-in pack.",
        valueName: "path"))
    var paths: [String] = []

    /// Loads the rules, printing every problem and exiting with 2 when they are invalid.
    func load() throws -> RuleSet {
        do {
            return paths.isEmpty ? try RuleSet.builtIn() : try RuleSet.load(paths: paths)
        } catch {
            StandardError.write(error.diagnostics)
            throw ExitCode(ExitStatus.invalidInput)
        }
    }
}
