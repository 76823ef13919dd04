/// The readings of an account-export row that firebase-tools wrote in a way strict CSV reading
/// gets wrong (FORMATS of the export, "Quoting"), tried when the strict reading gives no account:
/// the column count is fixed, so the reading that restores it, and gives a valid account, is the
/// row the exporter meant.
///
/// - Custom claims from current versions: quotes already escaped by a backslash are not doubled
///   (`"{""nick"":""say \"hi\"""}"`).
/// - Custom claims from 8.13 to 11.25.1: not quoted at all, so their commas split them.
/// - Display names before 15.19: quoted only when they hold a comma, with inner quotes left bare
///   (`"Bob "B", Jr"`), so their commas split them too.
enum LegacyCSVRow {
    /// The columns (0-based) of display names, top-level and providers', whose commas an
    /// exporter before 15.19 quoted without escaping the name's own quotes.
    static let nameColumns = [5, 9, 13, 17, 21, 30, 34, 38, 42, 46, 50]
    /// The custom claims' column.
    static let claimsColumn = 27

    /// The readings of `raw` (one row's text) to try, in order.
    static func readings(of raw: String) -> [[String]] {
        var readings: [[String]] = []
        CSVText.forEachRow(of: raw, maxFields: 1000, backslashEscapesQuotes: true) { fields, _, _ in readings.append(fields) }
        guard readings.count == 1 else { return [] }
        // A name split by its commas: read strictly, then joined again (its bare quotes may be
        // lost, which no rule reads).
        var strict: [[String]] = []
        CSVText.forEachRow(of: raw, maxFields: 1000) { fields, _, _ in strict.append(fields) }
        if strict.count == 1, let fields = strict.first {
            readings += joinings(of: fields, at: nameColumns)
        }
        // Claims split by their commas: no field is quoted (claims were not, and a name with a
        // comma would be), so the row is split at every comma and the claims joined again.
        let line = raw.hasSuffix("\r\n") ? raw.dropLast(2) : raw.hasSuffix("\n") ? raw.dropLast() : raw[...]
        if !line.contains("\n") {
            readings += joinings(of: line.split(separator: ",", omittingEmptySubsequences: false).map(String.init), at: [claimsColumn])
        }
        return readings
    }

    /// `fields` with the surplus over a 28- or 52-column row (and its trailing comma) joined back
    /// into one of `columns`, one reading per column.
    private static func joinings(of fields: [String], at columns: [Int]) -> [[String]] {
        var readings: [[String]] = []
        for expected in [29, 53] where fields.count > expected {
            let extra = fields.count - expected
            for column in columns where column + extra < fields.count {
                var joined = Array(fields[..<column])
                joined.append(fields[column...(column + extra)].joined(separator: ","))
                joined.append(contentsOf: fields[(column + extra + 1)...])
                readings.append(joined)
            }
        }
        return readings
    }
}
