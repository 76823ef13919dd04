/// Everything read from the inputs, grouped by subject: the events some rule can look at, the
/// exported account, and what the run must account for.
struct Dataset {
    struct Subject {
        var events: [Event] = []
        var account: AccountRecord?
        /// The app of the subject's earliest event of any type, and of its earliest
        /// `account.created`, for placing an exported account in an app (contract §2.4).
        var firstEvent: (time: Timestamp, sequence: UInt64, app: String?)?
        var firstCreation: (time: Timestamp, sequence: UInt64, app: String?)?
    }

    var subjects: [String: Subject] = [:]
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
    /// Events per UTC day number, for the report's charts.
    var eventsPerDay: [Int64: Int] = [:]
    /// Apps that hold an `account.created` event.
    var appsCreatingAccounts: Set<String> = []
    var appsSeen: Set<String> = []

    /// The app that app-less data belongs to: the manifest's only app, else `"app"`.
    var defaultApp: String {
        if let entries = manifest?.entries, entries.count == 1 { return entries[0].bundleId }
        return "app"
    }

    /// The app an exported account belongs to.
    func app(ofAccountOf subject: Subject) -> String {
        if let creation = subject.firstCreation { return creation.app ?? defaultApp }
        if let first = subject.firstEvent { return first.app ?? defaultApp }
        return defaultApp
    }
}
