/// The invalid records met while reading: the first `limit` listed with their place and
/// reason, the rest only counted. A run that goes on past them (`--skip-invalid`) kept a
/// diagnostic for every bad line: 4 MB of `x` lines took 850 MB and gave a 470 MB report.
struct InvalidRecordList {
    /// How many are listed; the others are counted in `unlisted`.
    let limit: Int
    private(set) var listed: [Diagnostic] = []
    private(set) var unlisted = 0
    /// Where the first record not listed is: the note that counts them points there.
    private(set) var firstUnlisted: SourceLocation?

    init(limit: Int = .max) { self.limit = limit }

    /// All invalid records met, listed or not.
    var count: Int { listed.count + unlisted }
    var isEmpty: Bool { count == 0 }
    /// How many more may be listed.
    var room: Int { max(0, limit - listed.count) }

    mutating func append(_ diagnostic: Diagnostic) {
        if listed.count < limit {
            listed.append(diagnostic)
        } else {
            if unlisted == 0 { firstUnlisted = diagnostic.location }
            unlisted += 1
        }
    }

    /// Counts the records a reader met past the room it was given, without listing them.
    mutating func addUnlisted(from other: InvalidRecordList) {
        guard other.unlisted > 0 else { return }
        if unlisted == 0 { firstUnlisted = other.firstUnlisted }
        unlisted += other.unlisted
    }

    /// Forgets every record met.
    mutating func removeAll() {
        listed = []
        unlisted = 0
        firstUnlisted = nil
    }

    /// The listed records, then, when some were not listed, a note that says how many more
    /// there were, at the first of them: what a report's `skipped` holds.
    var reported: [Diagnostic] {
        guard unlisted > 0 else { return listed }
        return listed + [InvalidRecordList.unlistedNote(unlisted, at: firstUnlisted ?? SourceLocation(file: ""))]
    }

    /// The entry that ends a report's `skipped` when more records were skipped than listed. A
    /// note, where the records listed are errors: nothing else tells them apart when a report or
    /// a partial is read back.
    static func unlistedNote(_ count: Int, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            .note, count == 1 ? "1" + singleEnding : "\(count)" + pluralEnding, at: location)
    }

    /// The count an `unlistedNote` gives; nil for a record listed.
    static func unlistedCount(in entry: Diagnostic) -> Int? {
        guard entry.severity == .note else { return nil }
        if entry.message == "1" + singleEnding { return 1 }
        guard entry.message.hasSuffix(pluralEnding) else { return nil }
        return Int(entry.message.dropLast(pluralEnding.count))
    }

    private static let singleEnding = " more invalid record was skipped and is not listed"
    private static let pluralEnding = " more invalid records were skipped and are not listed"

    /// The records of a report's `skipped` that are listed (without the note), and how many were
    /// skipped in all.
    static func split(_ skipped: [Diagnostic]) -> (listed: [Diagnostic], count: Int) {
        var listed: [Diagnostic] = []
        var count = 0
        for entry in skipped {
            let unlisted = unlistedCount(in: entry)
            if unlisted == nil { listed.append(entry) }
            // Saturated: a forged report's count must not stop the process.
            let (sum, overflow) = count.addingReportingOverflow(unlisted ?? 1)
            count = overflow ? .max : sum
        }
        return (listed, count)
    }
}
