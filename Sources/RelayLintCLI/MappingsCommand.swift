import ArgumentParser
import Foundation
import RelayLintCore

/// `relaylint mappings`: list, validate and test the log mappings (built-in and the team's own).
struct MappingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mappings",
        abstract: "List, validate or test log mappings: how Cloud Logging entries, Apple notifications and your own logs become events.",
        subcommands: [List.self, Validate.self, Test.self])

    /// `--mapping` and `--config`, shared by the subcommands.
    struct Options: ParsableArguments {
        @Option(
            name: .customLong("mapping"),
            help: ArgumentHelp(
                "A mapping file or a folder of them; repeatable. The built-in mappings are always included.", valueName: "path"))
        var paths: [String] = []

        @Option(
            name: .customLong("config"),
            help: ArgumentHelp("Configuration file whose `mappings:` are included. Default: .relaylint.yml, if any.", valueName: "file"))
        var configPath: String?

        func validate() throws {
            guard !ArgumentChecks.areHeldBack else { return }
            try ClosedStandardInput.refuse(paths + [configPath])
        }

        func load() throws -> MappingSet {
            var configured: [String] = []
            if let path = ConfigurationLoader.locate(explicit: configPath, workingDirectory: FileManager.default.currentDirectoryPath) {
                do {
                    configured = try ConfigurationLoader.load(located: path, given: configPath != nil).mappingPaths
                } catch {
                    StandardError.write(error.diagnostics)
                    throw ExitCode(ExitStatus.invalidInput)
                }
            }
            do {
                return try MappingSet.load(userPaths: paths + configured)
            } catch {
                StandardError.write(error.diagnostics)
                throw ExitCode(ExitStatus.invalidInput)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the mappings, in the order a log's format is recognised.")
        @OptionGroup var options: Options

        func run() throws {
            let set = try options.load()
            let width = set.mappings.map(\.id.count).max() ?? 0
            try StandardOutput.writeLines(
                "\("relaylint".padding(toLength: max(width, 16), withPad: " ", startingAt: 0))  relaylint's own JSON Lines events")
            for mapping in set.mappings {
                try StandardOutput.writeLines(
                    "\(mapping.id.padding(toLength: max(width, 16), withPad: " ", startingAt: 0))  \(mapping.title)  (\(mapping.location.file))"
                )
            }
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check mapping files for unknown keys, wrong types, unknown $names and bad patterns (all problems at once).")
        @OptionGroup var options: Options

        func run() throws {
            let set = try options.load()
            for mapping in set.mappings where mapping.exampleCount == 0 {
                StandardError.write(
                    "\(mapping.location): warning: mapping '\(mapping.id)' has no examples; add some so 'mappings test' can check it")
            }
            let count = set.mappings.count
            let own = count - set.builtInCount
            try StandardOutput.writeLines(
                "\(count) mapping\(count == 1 ? " is" : "s are") valid (\(own) of yours, \(set.builtInCount) built in)")
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Run the examples every mapping carries: each record must give the expected events, or be skipped or invalid as expected.",
            discussion: "Exit codes: 0 all examples pass, 1 some fail, 2 a mapping is invalid.")
        @OptionGroup var options: Options

        /// Examples are often records pasted from a production log, and this output lands in CI
        /// logs: addresses and numbers are masked in it as in a report.
        @Flag(name: .customLong("show-pii"), help: "Show email addresses and phone numbers in failures unmasked (masked by default).")
        var showPII = false

        func run() throws {
            let results = try options.load().runExamples()
            let masker = PIIMasker(isEnabled: !showPII)
            var failed = 0
            for result in results {
                if let problem = result.problem {
                    failed += 1
                    var shown = masker.maskText(problem)
                    // Two addresses may mask alike (`jane@` and `john@example.com`).
                    if shown != problem { shown += " (addresses and numbers masked: --show-pii shows them)" }
                    try StandardOutput.writeLines(
                        "FAIL \(result.mapping): \(masker.maskText(result.example))", "  \(result.location): \(shown)")
                } else {
                    try StandardOutput.writeLines("PASS \(result.mapping): \(masker.maskText(result.example))")
                }
                if let warning = result.warning { try StandardOutput.writeLines("  \(result.location): warning: \(warning)") }
            }
            try StandardOutput.writeLines("\(results.count - failed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode(ExitStatus.findings) }
        }
    }
}
