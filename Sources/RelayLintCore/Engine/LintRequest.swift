import Foundation

/// What to check and how: the inputs of one `relaylint check` run.
public struct LintRequest: Sendable {
    public var eventPaths: [String]
    /// How logs other than relaylint's own become events (the built-in mappings and the team's);
    /// each `--events` file is recognised from its content.
    public var mappings: [LogMapping] = []
    /// The format each `--events` file is read as (`--events-format`): `relaylint` or a
    /// mapping's id, by position; nil or `auto` recognises it from its content. One name
    /// applies to every file.
    public var eventFormats: [String] = []

    /// What is wrong with the `--events-format` names (unknown ones, with the known ones and a
    /// "did you mean"), to be told before any input is read.
    public var eventFormatProblems: [String] {
        eventFormats.compactMap { EventLogFormat.unknownNameMessage($0, mappings: mappings) }
    }
    /// Apple's public keys (`--apple-keys`): every signed notification is checked against them.
    public var appleKeys: SigningKeySet?
    /// `--subject-map`: Apple user ids and the accounts that hold them.
    public var subjectMapPath: String?
    public var accountPaths: [String]
    public var manifestPath: String?
    public var rules: RuleSet
    public var relayDomains: RelayDomains
    /// Count and list bad records instead of stopping (`--skip-invalid`).
    public var skipInvalid: Bool
    /// Show emails and phone numbers unmasked (`--show-pii`).
    public var showPII: Bool
    public var toolVersion: String
    /// Threads for the subject pass; the report does not depend on it.
    public var parallelism: Int
    /// Accepted findings (from configuration); empty with `--no-suppressions`.
    public var suppressions: [Suppression] = []
    /// Fingerprints of an earlier report (`--baseline`): those findings are left out.
    public var baselineFingerprints: Set<String> = []
    /// The review day, `YYYY-MM-DD`, for suppression expiry; the library never reads the clock.
    public var asOfDay: String?
    /// Inputs to list in the report besides the data (the configuration file).
    public var extraInputs: [InputFileSummary] = []
    /// Called now and then while the logs are read (on the reading thread), for a progress
    /// display; the library itself never prints.
    public var progress: (@Sendable (LintProgress) -> Void)?
    /// Evaluate only this slice of the subjects (`--shard K/N`); `ShardMerger` adds the slices up.
    public var shard: Shard?
    /// The partition the inputs hold (`--partition K/N`): they hold only its subjects (another
    /// subject is an error), and the run stops at `PartialEvaluation` for `PartitionMerger`.
    public var partition: Shard?
    /// The end of the whole data (`--data-end`), when the inputs are a part of it: windows still
    /// open at it are pending, as in a run over all the data. Nil: the latest event read.
    public var dataEnd: Timestamp?
    /// Inputs (logs and exports together) larger than this many bytes are read into a temporary
    /// file, in partitions by subject, and evaluated a partition at a time, so that memory holds
    /// one partition's events instead of all of them; so are inputs with a pipe among them, whose
    /// size is not known before it is read. 0 spills any input, `Int.max` none. The report does
    /// not depend on it.
    var spillThreshold = 128 << 20
    /// Where the temporary file goes; the system's (`TMPDIR`) when nil. When no file can be made
    /// there, the run keeps everything in memory.
    var temporaryDirectory: String?
    /// Whether the manifest may declare keys no loaded rule reads: `init`, which loads the
    /// built-in rules only, keeps a team's declarations for rules of its own.
    var acceptsEveryManifestKey = false
    /// How a spilling run lays out its partitions; derived from the input size when nil (tests
    /// set it, to spill small inputs in many small chunks).
    var spillLayout: PartitionedArena.Layout?
    /// Timelines of at least this many steps are searched through indexes (`TimelineSearch`);
    /// shorter ones are walked. The report does not depend on it (tests compare both).
    var indexedSearchFrom = TimelineSearch.minimumSteps

    public init(
        eventPaths: [String] = [], accountPaths: [String] = [], manifestPath: String? = nil, rules: RuleSet,
        relayDomains: RelayDomains = RelayDomains(), skipInvalid: Bool = false, showPII: Bool = false,
        toolVersion: String = RelayLintVersion.current, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.eventPaths = eventPaths
        self.accountPaths = accountPaths
        self.manifestPath = manifestPath
        self.rules = rules
        self.relayDomains = relayDomains
        self.skipInvalid = skipInvalid
        self.showPII = showPII
        self.toolVersion = toolVersion
        self.parallelism = max(1, parallelism)
    }
}
