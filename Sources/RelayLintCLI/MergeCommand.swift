import ArgumentParser
import Foundation
import RelayLintCore

/// `relaylint merge`: combines the JSON reports of `check --shard K/N` jobs into the report a
/// single `check` would have written, and exits as that `check` would have.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the JSON reports of `relaylint check --shard K/N` runs into one report.",
        discussion: """
            Every shard 1…N must be given exactly once, and all must come from the same inputs, \
            rules and options. The result is byte for byte the JSON report of one run over all subjects.
            """)

    @Argument(help: ArgumentHelp("The shard reports (JSON), in any order.", valueName: "shard.json"))
    var reports: [String]

    @Option(help: ArgumentHelp("Write the merged report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp("Exit with 1 when a finding has this severity or higher: error, warning, note or never.", valueName: "severity"))
    var failOn: String = "error"

    func validate() throws {
        if failOn != "never" && Severity(rawValue: failOn) == nil {
            throw ValidationError("--fail-on must be error, warning, note or never; found '\(failOn)'")
        }
    }

    func run() throws {
        var inputs: [(path: String, data: Data)] = []
        for path in reports {
            guard let data = FileManager.default.contents(atPath: path) else {
                StandardError.write("\(StandardError.escaped(path)): error: cannot read the shard report")
                throw ExitCode(ExitStatus.invalidInput)
            }
            inputs.append((path, data))
        }
        let merged: ShardMerger.Merged
        do {
            merged = try ShardMerger.merge(inputs)
        } catch {
            StandardError.write(error.diagnostics)
            throw ExitCode(ExitStatus.invalidInput)
        }
        if let output {
            do {
                try ReportBytes.write(toPath: output, ReportBytes.pieces(of: merged.json))
            } catch {
                StandardError.write("\(StandardError.escaped(output)): error: cannot write report: \(error.localizedDescription)")
                throw ExitCode(ExitStatus.invalidInput)
            }
            StandardError.write(
                "relaylint: merged \(Plural.counted(reports.count, "shard report")) into \(StandardError.escaped(output)) (\(Plural.counted(merged.findingCount, "finding")))"
            )
        } else {
            try StandardOutput.write(merged.json)
        }
        if merged.fails(at: failOn == "never" ? nil : Severity(rawValue: failOn)) { throw ExitCode(ExitStatus.findings) }
    }
}
