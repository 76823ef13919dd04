/// Everything read from the inputs, grouped by subject: the events some rule can look at, the
/// exported account, and what the run must account for.
///
/// The boundary between the ingest step (`Ingest/`) and the evaluation (`Evaluation/`):
/// `DatasetBuilder.finish()` hands it over, and it is all the evaluation (`Linter.subjectPass`)
/// knows of the inputs. No reader, log format or mapping crosses it, only what they read: the
/// subjects' events and accounts packed in `storage` (`Storage/`), the names they refer to, and
/// the counts and notes the report shows. So reading can change (a new log format, spilling to a
/// temporary file) without the evaluation changing, and a rule example's few events go through
/// the same evaluation as a log's millions (`RuleExampleRunner`). The evaluation takes it over
/// (`consuming`) and lets go of each part once it is done with it, so that nothing read is held
/// twice.
struct Dataset {
    /// Kept small (64 bytes, no references): millions of these live in `subjects` at once.
    struct Subject {
        /// The events some rule can look at, packed in the subject's partition of `storage`
        /// until the subject is evaluated.
        var events = StoredEvents()
        /// The position of the exported account's record in the subject's partition of
        /// `storage`; -1 for none.
        var accountPosition = -1
        /// The app of the subject's earliest event of any type, and of its earliest
        /// `account.created`, for placing an exported account in an app (contract §2.4).
        var firstEvent: EventPosition?
        var firstCreation: EventPosition?

        var hasAccount: Bool { accountPosition >= 0 }
    }

    /// Where an event stands in input order, and its app (24 bytes: two of these are in every
    /// entry of the subject table).
    struct EventPosition {
        var time: Timestamp
        var sequence: UInt64
        /// The app's index in `names`; -1 when the event names no app.
        var app: Int32

        func precedes(_ other: EventPosition) -> Bool { (time, sequence) < (other.time, other.sequence) }
    }

    var subjects = SubjectTable()
    /// The subjects' packed events and accounts, in partitions by subject.
    var storage = PartitionedArena()
    /// The types, apps, field names and files of the stored events, by the index they hold.
    var names: [String] = []
    /// What tells apart the events of an id used with different contents, by sequence number.
    var discriminators: [UInt64: String] = [:]
    /// The sequence numbers of exact duplicates: stored with their subject, they are left out
    /// when it is evaluated.
    var duplicates: Set<UInt64> = []
    var manifest: AppManifest?
    var inputs: [InputFileSummary] = []
    /// Bad records skipped with `--skip-invalid`.
    var skipped: [Diagnostic] = []
    /// Data-quality notes: duplicates, reused ids, look-alike relay domains.
    var notes: [Diagnostic] = []
    var eventCount = 0
    var duplicateCount = 0
    var earliest: Timestamp?
    var latest: Timestamp?
    /// Where the first event at `latest` was read: a `--data-end` before it is refused there.
    var latestLocation: SourceLocation?
    /// Events per UTC day number, for the report's charts.
    var eventsPerDay: [Int64: Int] = [:]
    /// Apps that hold an `account.created` event.
    var appsCreatingAccounts: Set<String> = []
    var appsSeen: Set<String> = []
    /// Exported accounts with a relay address, and exported `apple.com` entries (see
    /// `DatasetBuilder.noteOldExport`).
    var relayAccountsExported = 0
    var appleEntriesExported = 0

    /// The app that app-less data belongs to: the manifest's only app, else `"app"`.
    var defaultApp: String { Dataset.defaultApp(manifest: manifest) }

    static func defaultApp(manifest: AppManifest?) -> String {
        if let entries = manifest?.entries, entries.count == 1 { return entries[0].bundleId }
        return UnnamedApp.id
    }

    /// The app an exported account belongs to.
    func app(ofAccountOf subject: Subject) -> String {
        guard let position = subject.firstCreation ?? subject.firstEvent, position.app >= 0 else { return defaultApp }
        return names[Int(position.app)]
    }
}
