/// A problem with one of the tool's own inputs (a rule file, a log line, an export record),
/// as opposed to a `Finding` about the app's behaviour.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public var severity: Severity
    public var message: String
    public var location: SourceLocation

    public init(_ severity: Severity, _ message: String, at location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// `path:line:col: error: message`, as compilers print it.
    /// `file:line:column: severity: message`, as compilers print them; without a file (a
    /// problem of a whole set of inputs, such as partials missing from a merge) no place is
    /// printed, where an empty one printed a bare ": error:".
    public var description: String {
        let place = location.description
        return (place.isEmpty ? "" : place + ": ") + "\(severity.rawValue): \(message)"
    }
}

/// Diagnostics that stopped an operation; thrown by loaders so the caller sees every problem.
public struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    /// Whether every error is a bad record that `--skip-invalid` would pass over, so that a
    /// command line can say the option reads on; false when one is a file refused at a place,
    /// a manifest, rule or option problem, which the option does not pass.
    public var onlySkippableRecords: Bool

    public init(_ diagnostics: [Diagnostic], onlySkippableRecords: Bool = false) {
        self.diagnostics = diagnostics
        self.onlySkippableRecords = onlySkippableRecords
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
