import ArgumentParser
import Foundation
import RelayLintCore

/// `--rules` and `--config`, shared by every command that loads rules.
struct RuleOptions: ParsableArguments {
    @Option(
        name: .customLong("rules"),
        help: ArgumentHelp(
            "A rule file or a folder of rule files (.yml, .yaml), or 'builtin' for the built-in pack; repeat for several (--rules builtin --rules mine/ adds yours to it). Default: the built-in pack.",
            valueName: "path"))
    var paths: [String] = []

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Configuration file (rule settings, parameters, suppressions). Default: .relaylint.yml in the working directory, if any.",
            valueName: "file"))
    var configPath: String?

    /// Run for every command that takes these options (`rules validate --rules /dev/stdin <&-`
    /// said "rule file is empty").
    func validate() throws {
        guard !ArgumentChecks.areHeldBack else { return }
        try ClosedStandardInput.refuse(paths + [configPath])
    }

    /// The configuration file in force: `--config`, else `.relaylint.yml` in the working directory.
    var configurationFile: String? {
        ConfigurationLoader.locate(explicit: configPath, workingDirectory: FileManager.default.currentDirectoryPath)
    }

    /// The configuration in force, if any; exits with 2 when it is invalid.
    func configuration() throws -> Configuration? {
        guard let path = configurationFile else { return nil }
        do {
            return try ConfigurationLoader.load(located: path, given: configPath != nil)
        } catch {
            StandardError.write(error.diagnostics)
            throw ExitCode(ExitStatus.invalidInput)
        }
    }

    /// Loads the rules with the configuration applied, printing every problem and exiting with 2
    /// when they are invalid.
    /// - Parameters:
    ///   - applyingParameters: false for `rules test`, whose examples are written for the defaults.
    ///   - selection: `--enable` and `--disable`, applied over the configuration.
    func load(configuration: Configuration?, applyingParameters: Bool = true, selection: RuleSelection? = nil) throws -> RuleSet {
        var configuration = configuration
        if let selection { configuration?.enable(selection.enabled) }
        do throws(DiagnosticsError) {
            var sources = paths.map(RuleSource.init(argument:))
            if sources.isEmpty, configuration?.includesBuiltInRules ?? true { sources = [.builtIn] }
            sources += (configuration?.rulePaths ?? []).map(RuleSource.path)
            let overrides = applyingParameters ? configuration?.parameterOverrides ?? [:] : [:]
            let ruleSet = try RuleSet.load(sources: sources, parameterOverrides: overrides)
            if let selection {
                let unknown =
                    ruleSet.unknownRules(selection.enabled, givenWith: "--enable")
                    + ruleSet.unknownRules(selection.disabled, givenWith: "--disable")
                guard unknown.isEmpty else { throw DiagnosticsError(unknown) }
            }
            let configured = try configuration?.apply(to: ruleSet) ?? ruleSet
            return configured.removing(Set(selection?.disabled ?? []))
        } catch {
            StandardError.write(error.diagnostics)
            throw ExitCode(ExitStatus.invalidInput)
        }
    }

    func load() throws -> RuleSet { try load(configuration: try configuration()) }
}
