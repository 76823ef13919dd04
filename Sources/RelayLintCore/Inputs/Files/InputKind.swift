/// What an input file is, for the report's scope section.
public enum InputKind: String, Sendable, Hashable, Codable {
    case events
    case accounts
    case manifest
    case rules
    case config
    /// `--subject-map`: Apple user ids and the accounts that hold them.
    case subjectMap = "subject-map"
    /// `--apple-keys`: the key set Apple's signed notifications are checked against.
    case keys
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
    /// For a log read through a mapping: the mapping's name; nil for relaylint's own format.
    public var format: String?
    /// For a log read through a mapping: the events its records gave.
    public var eventsMade: Int?
    /// For a log read through a mapping: the records skipped on purpose, by reason.
    public var skippedRecords: [SkippedRecords] = []
    /// Signed tokens read (Apple notifications), and how many had their signature checked.
    public var signedTokens: Int?
    public var verifiedSignatures: Int?

    /// Records of one log skipped for one reason (and detail, such as a method and its code).
    public struct SkippedRecords: Sendable, Hashable, Codable {
        public var reason: String
        public var detail: String?
        public var count: Int

        /// The detail of the records skipped for a reason whose details are not listed one by
        /// one, past the first `InputLimits.listedSkipDetails` of an input.
        public static let unlistedDetails = "other details, not listed"

        public init(reason: String, detail: String?, count: Int) {
            self.reason = reason
            self.detail = detail
            self.count = count
        }
    }

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

extension InputFileSummary {
    /// A log or an account export that held no record at all: the run checked nothing from it.
    public var readNothing: Bool { (kind == .events || kind == .accounts) && records == 0 }
}
