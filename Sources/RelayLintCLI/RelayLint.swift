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
        subcommands: [CheckCommand.self, MergeCommand.self, RulesCommand.self, ExplainCommand.self],
        defaultSubcommand: nil
    )

    /// Replaces ArgumentParser's default so that usage errors exit with 2, as the contract says,
    /// instead of 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardError.write(fullMessage(for: error))
                Foundation.exit(ExitStatus.invalidInput)
            }
            exit(withError: error)
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
    static func write(_ text: String) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Prints diagnostics compiler-style, at most `limit` of them, then how many were left out.
    static func write(_ diagnostics: [Diagnostic], limit: Int = 50) {
        for diagnostic in diagnostics.prefix(limit) { write(diagnostic.description) }
        if diagnostics.count > limit { write("… and \(diagnostics.count - limit) more problems") }
    }
}

/// Writes to standard output.
enum StandardOutput {
    static func write(_ text: String) {
        write { produce in
            var text = text
            text.withUTF8 { produce(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Writes what `produce` hands over, piece by piece, as it comes.
    static func write(_ produce: ((UnsafeRawBufferPointer) -> Void) -> Void) {
        produce { bytes in ReportFile.withData(bytes) { FileHandle.standardOutput.write($0) } }
    }

    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}

/// Writes reports as they are made: a JSON report of 300k findings is 384 MB, which a
/// `String` and then a `Data` copy of it held twice over.
enum ReportFile {
    /// Creates or replaces the file at `path` with what `produce` hands over, piece by piece.
    static func write(toPath path: String, _ produce: ((UnsafeRawBufferPointer) -> Void) -> Void) throws {
        let url = URL(fileURLWithPath: path)
        try Data().write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var failure: (any Error)?
        produce { bytes in
            guard failure == nil else { return }
            do { try withData(bytes) { try handle.write(contentsOf: $0) } } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The bytes as `Data`, without copying them, for the length of `body`.
    static func withData<Result>(_ bytes: UnsafeRawBufferPointer, _ body: (Data) throws -> Result) rethrows -> Result {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return try body(Data()) }
        return try body(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none))
    }
}
