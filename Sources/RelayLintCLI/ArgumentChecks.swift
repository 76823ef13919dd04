import ArgumentParser
import RelayLintCore

/// Whether the commands' `validate()` checks are held back: `RelayLint.usageError(before:)`
/// parses the arguments a second time without them, to tell a mistyped option before a
/// command's own complaint about what is missing.
enum ArgumentChecks {
    /// Set only on the main thread, before anything else runs, while the arguments are parsed
    /// a second time.
    nonisolated(unsafe) static var areHeldBack = false
}

extension ArgumentChecks {
    /// Refuses an option's value that is not a day, YYYY-MM-DD (`--as-of`, `--date`). The value
    /// is quoted masked and with control characters made visible, as errors quote input.
    static func requireDay(_ value: String?, option: String) throws {
        guard let value, value.count != 10 || Timestamp(rfc3339: value + "T00:00:00Z") == nil else { return }
        throw ValidationError(
            "\(option) must be a date YYYY-MM-DD, e.g. 2026-07-01; found '\(StandardError.escaped(PIIMasker().mask(value)))'")
    }
}
