/// What an input file is, for the report's scope section.
public enum InputKind: String, Sendable, Hashable, Codable {
    case events
    case accounts
    case manifest
    case rules
    case config
}

/// One file the run read, with the fingerprint a reviewer needs to know exactly what was checked.
public struct InputFileSummary: Sendable, Hashable, Codable {
    public var path: String
    public var kind: InputKind
    /// Hex SHA-256 of the file's bytes.
    public var sha256: String
    /// Records read: non-blank log lines, exported accounts, manifest apps, rules.
    public var records: Int
    /// Records rejected as invalid (only with `--skip-invalid`; otherwise the run stops).
    public var invalid: Int
    /// Log records that repeated an earlier event exactly.
    public var duplicates: Int
    /// Earliest and latest event time in the file, for the audit scope.
    public var firstTime: Timestamp?
    public var lastTime: Timestamp?

    public init(
        path: String, kind: InputKind, sha256: String, records: Int, invalid: Int = 0, duplicates: Int = 0,
        firstTime: Timestamp? = nil, lastTime: Timestamp? = nil
    ) {
        self.path = path
        self.kind = kind
        self.sha256 = sha256
        self.records = records
        self.invalid = invalid
        self.duplicates = duplicates
        self.firstTime = firstTime
        self.lastTime = lastTime
    }
}
