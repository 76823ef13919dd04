/// The invalid records met while reading: the first `limit` listed with their place and
/// reason, the rest only counted. A run that goes on past them (`--skip-invalid`) kept a
/// diagnostic for every bad line: 4 MB of `x` lines took 850 MB and gave a 470 MB report.
struct InvalidRecordList {
    /// How many are listed; the others are counted in `unlisted`.
    let limit: Int
    private(set) var listed: [Diagnostic] = []
    private(set) var unlisted = 0

    init(limit: Int = .max) { self.limit = limit }

    /// A list a reader made within the room it was given.
    init(listed: [Diagnostic], unlisted: Int) {
        limit = listed.count
        self.listed = listed
        self.unlisted = unlisted
    }

    /// All invalid records met, listed or not.
    var count: Int { listed.count + unlisted }
    var isEmpty: Bool { count == 0 }
    /// How many more may be listed.
    var room: Int { max(0, limit - listed.count) }

    mutating func append(_ diagnostic: Diagnostic) {
        if listed.count < limit { listed.append(diagnostic) } else { unlisted += 1 }
    }

    /// Counts records met past the room a reader was given, without listing them.
    mutating func addUnlisted(_ count: Int) { unlisted += count }

    /// Forgets every record met.
    mutating func removeAll() {
        listed = []
        unlisted = 0
    }
}
