import Foundation

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

    /// The most commas a split name or claims value may add to a row: Firebase caps custom
    /// claims at 1,000 bytes, and a display name holds a few.
    static let mostSplitCommas = 1_024

    /// The readings of `raw` (one row's text) to try, in order.
    static func readings(of raw: String) -> [[String]] {
        var readings: [[String]] = []
        CSVText.forEachRow(of: raw, maxFields: 1000, backslashEscapesQuotes: true) { fields, _, _ in readings.append(fields) }
        guard readings.count == 1 else { return [] }
        // A name or claims split by their commas: the row split at every comma, and the one
        // column that opens and closes as such a value (a quote, a brace) joined again. A row of
        // stray commas has no such column and stays invalid.
        // By scalars: "\r\n", or a comma and a combining mark, is one Character.
        // The line ends found from the end, one step each: dropped one at a time, each drop
        // counted the line again, and a row of 40,000 carriage returns took 1.5 s.
        let scalars = raw.unicodeScalars
        var end = scalars.endIndex
        while end > scalars.startIndex, case let before = scalars.index(before: end), scalars[before] == "\n" || scalars[before] == "\r" {
            end = before
        }
        let line = scalars[..<end]
        guard !line.contains("\n") else { return readings }
        // A row of more commas than any split value adds is no legacy row: split and joined again
        // at every name column, a line of 15M commas took a minute and 757 MB.
        guard line.count(where: { $0 == "," }) <= 52 + mostSplitCommas else { return readings }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
        // A name that starts with a bare quote and holds no comma (`"Bob the builder`): no quote
        // closes it, and the commas split the row into its columns as they stand. Only then: one
        // field opens a quote it does not close, in a name's column, and none closes one it did
        // not open (`"A, B, C"` split is a quoted name with commas, in a row short of columns).
        if fields.count == 29 || fields.count == 53 {
            let opening = fields.indices.filter { fields[$0].hasPrefix("\"") && !(fields[$0].count >= 2 && fields[$0].hasSuffix("\"")) }
            let closing = fields.indices.filter { fields[$0].hasSuffix("\"") && !fields[$0].hasPrefix("\"") }
            if opening.count == 1, nameColumns.contains(opening[0]), closing.isEmpty { readings.append(fields.map(unquoted)) }
        }
        for expected in [29, 53] where fields.count > expected {
            let extra = fields.count - expected
            for column in nameColumns + [claimsColumn] where column + extra < fields.count {
                let value = fields[column...(column + extra)].joined(separator: ",")
                let whole =
                    column == claimsColumn
                    ? value.hasPrefix("{") && value.hasSuffix("}") : value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
                guard whole else { continue }
                readings.append((fields[..<column] + [value] + fields[(column + extra + 1)...]).map(unquoted))
            }
        }
        return readings
    }

    /// A field as CSV reads it once split: a quoted one without its quotes, doubled ones halved
    /// (a legacy name's bare inner quotes stay as they are).
    private static func unquoted(_ field: String) -> String {
        guard field.count >= 2, field.hasPrefix("\""), field.hasSuffix("\"") else { return field }
        return String(field.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }
}
