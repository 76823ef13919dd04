/// Whether the commands' `validate()` checks are held back: `RelayLint.usageError(before:)`
/// parses the arguments a second time without them, to tell a mistyped option before a
/// command's own complaint about what is missing.
enum ArgumentChecks {
    /// Set only on the main thread, before anything else runs, while the arguments are parsed
    /// a second time.
    nonisolated(unsafe) static var areHeldBack = false
}
