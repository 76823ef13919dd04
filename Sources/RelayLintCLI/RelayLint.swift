import ArgumentParser
import Foundation
import RelayLintCore

/// The `relaylint` command: a thin shell over `RelayLintCore` that parses arguments, writes
/// output and maps outcomes to the contract's exit codes (0 clean, 1 findings, 2 bad input).
@main
struct RelayLint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relaylint",
        abstract: "Check that an app handles anonymized Apple IDs (Hide My Email) the way Apple requires.",
        discussion: """
            relaylint evaluates compliance policies written in YAML against a Firebase Auth export \
            and the app's action log, and reports every violation with its evidence.

            Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it, \
            2 bad usage, unreadable or invalid input, or invalid rules.
            """,
        version: RelayLintVersion.current,
        subcommands: [
            CheckCommand.self, InitCommand.self, SplitCommand.self, MergeCommand.self, RulesCommand.self, MappingsCommand.self,
            ExplainCommand.self,
        ],
        defaultSubcommand: nil
    )

    /// Replaces ArgumentParser's default so that usage errors exit with 2, as the contract says,
    /// instead of 64.
    static func main() {
        ClosedStandardInput.check()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardError.write(fullMessage(for: usageError(before: error)))
                Foundation.exit(ExitStatus.invalidInput)
            }
            exit(withError: error)
        }
    }

    /// ArgumentParser runs a command's `validate()` before it looks for arguments it does not
    /// know, so `check --event x.jsonl` said "nothing to check" rather than that `--event` is
    /// no option. The arguments are parsed again with the commands' checks held back: an error
    /// then is the command line's own, and is told first.
    private static func usageError(before validationError: any Error) -> any Error {
        ArgumentChecks.areHeldBack = true
        defer { ArgumentChecks.areHeldBack = false }
        do {
            _ = try parseAsRoot()
            return validationError
        } catch {
            return error
        }
    }
}

/// The contract's exit codes.
enum ExitStatus {
    static let clean: Int32 = 0
    static let findings: Int32 = 1
    static let invalidInput: Int32 = 2
}

/// Writes to standard error, for diagnostics and progress.
enum StandardError {
    /// Never fails: when standard error itself cannot be written (a full disk behind
    /// `2> file`) there is nowhere left to say so, and the exit code still tells.
    static func write(_ text: String) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        writeRaw(line)
    }

    /// A value from the inputs or the command line (a path, an id) as it may stand in a line.
    static func escaped(_ value: String) -> String { TerminalEscaping.escape(value) }

    /// The text as it is, for the progress line; errors are dropped as above.
    static func writeRaw(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// Prints diagnostics compiler-style, at most `limit` of them, then how many were left out.
    /// Each is one line: the values and file names they quote are escaped (`TerminalEscaping`),
    /// so an input cannot forge a line of its own (a CI annotation) or a terminal sequence. An
    /// address or a phone number a message quotes from an input (a configuration's value, a
    /// mapping's constant, a rule id mistyped) is masked: standard error goes to CI logs, which
    /// are read as widely as the reports.
    static func write(_ diagnostics: [Diagnostic], limit: Int = 50) {
        let masker = PIIMasker()
        for var diagnostic in diagnostics.prefix(limit) {
            diagnostic.message = masker.mask(diagnostic.message)
            write(escaped(diagnostic.description))
        }
        if diagnostics.count > limit { write("… and \(diagnostics.count - limit) more problems") }
    }
}

/// Writes to standard output.
enum StandardOutput {
    static func write(_ text: String) throws(ExitCode) { try write(ReportBytes.pieces(of: text)) }

    /// Writes lines for a person to read whose values come from rule, mapping, configuration or
    /// report files (titles, example names, problems): each line is escaped whole
    /// (`TerminalEscaping`), so a value cannot break its line to forge one of its own (a CI
    /// annotation) or move the cursor.
    static func writeLines(_ lines: String...) throws(ExitCode) { try writeLines(lines) }

    static func writeLines(_ lines: [String]) throws(ExitCode) {
        try write(lines.map { TerminalEscaping.escape($0) + "\n" }.joined())
    }

    /// Writes what `produce` hands over, piece by piece, as it comes. When standard output
    /// cannot take it (`> /dev/full`, a full disk, a closed descriptor) the rest is skipped and
    /// the command ends with exit code 2 and a message: a pipeline must not take a truncated
    /// report for a clean run.
    static func write(_ produce: ReportBytes.Producer) throws(ExitCode) {
        var failure: (any Error)?
        produce { bytes in
            guard failure == nil else { return }
            do { try ReportBytes.withData(bytes) { try FileHandle.standardOutput.write(contentsOf: $0) } } catch { failure = error }
        }
        if let failure {
            StandardError.write("relaylint: error: cannot write to standard output: \(failure.localizedDescription)")
            throw ExitCode(ExitStatus.invalidInput)
        }
    }

    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
