import Foundation

/// Reads the CSV variant of `firebase auth:export` (FORMATS §1.4): no header, a trailing comma on
/// every line, 28 columns from CLIs before 15.19 and 52 from newer ones. A header row that names
/// the columns is skipped (and noted), a byte order mark too; a row with invalid UTF-8 is invalid.
/// Rows are split by `CSVText`.
struct FirebaseCSVExportReader {
    let path: String

    /// Provider columns: (first 0-based column, provider id). Each block is rawId, email,
    /// displayName, photoUrl.
    static let providerBlocks: [(Int, String)] = [
        (7, "google.com"), (11, "facebook.com"), (15, "twitter.com"), (19, "github.com"),
        (28, "apple.com"), (32, "microsoft.com"), (36, "gc.apple.com"), (40, "playgames.google.com"),
        (44, "linkedin.com"), (48, "yahoo.com"),
    ]

    /// The accounts, the invalid rows (the first `listLimit` listed, the others counted), the
    /// rows read (accounts and invalid ones), and the line of a header row that was skipped.
    /// Reading stops at the `invalidLimit`th invalid row: a file of nothing else (15M lines of
    /// `x`) held a diagnostic a row, 4 GB for 30 MB, before the run stopped at the cap anyway.
    func read(
        data: Data, invalidLimit: Int = .max, listLimit: Int = .max
    ) -> (accounts: [AccountRecord], invalid: InvalidRecordList, records: Int, header: Int?) {
        // Invalid UTF-8 would be decoded as U+FFFD, and two distinct uids would become one.
        let invalidUTF8 = CSVText.invalidUTF8(in: data)
        let text = String(decoding: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data, as: UTF8.self)
        var accounts: [AccountRecord] = []
        var invalid = InvalidRecordList(limit: listLimit)
        var records = 0
        var header: Int? = nil
        // Where each line starts, worked out the first time a row is read again as a legacy
        // exporter wrote it (`LegacyCSVRow`).
        var lineStarts: [String.Index]? = nil
        func rawText(lines: ClosedRange<Int>) -> String {
            if lineStarts == nil {
                // Line feeds found as bytes: as a `Character`, a CRLF is one "\r\n" that a search
                // for "\n" passes over, and a file whose line ends changed (or that had CRLF
                // only) gave a row the text of another, and lost an account without a word.
                var starts = [text.startIndex]
                var index = text.utf8.startIndex
                while let newline = text.utf8[index...].firstIndex(of: 0x0A) {
                    index = text.utf8.index(after: newline)
                    starts.append(index)
                }
                lineStarts = starts
            }
            let starts = lineStarts!
            let first = min(lines.lowerBound, starts.count) - 1
            let end = lines.upperBound < starts.count ? text.index(before: starts[lines.upperBound]) : text.endIndex
            return String(text[starts[first]..<end])
        }
        var badLines = invalidUTF8.makeIterator()
        var nextBad = badLines.next()
        // A row is read once the next one starts: its invalid bytes are those up to that line.
        var waiting: (fields: [String], fieldCount: Int, line: Int)? = nil
        // Rows where text followed the closing quote of a name's quoted field.
        var strayTextRows: Set<Int> = []
        struct EnoughInvalidRows: Error {}
        func take(_ row: (fields: [String], fieldCount: Int, line: Int), lastLine: Int) throws(EnoughInvalidRows) {
            guard invalid.count < invalidLimit else { throw EnoughInvalidRows() }
            var badByte: (line: Int, column: Int)? = nil
            while let bad = nextBad, bad.line <= lastLine {
                if badByte == nil, bad.line >= row.line { badByte = bad }
                nextBad = badLines.next()
            }
            if row.fieldCount == 1, row.fields[0].allSatisfy(\.isWhitespace), badByte == nil { return }
            if records == 0, header == nil, badByte == nil, FirebaseCSVExportReader.isHeader(row.fields) {
                header = row.line
                return
            }
            records += 1
            if let badByte {
                invalid.append(
                    Diagnostic(
                        .error, "invalid UTF-8: the export must be UTF-8 text",
                        at: SourceLocation(file: path, line: badByte.line, column: badByte.column)))
                return
            }
            let location = SourceLocation(file: path, line: row.line)
            // A row over several lines is a quoted field with line breaks, or a legacy name's
            // bare quote that opened a field running on over the rows after it: when the row
            // gives no account, or text followed that field's closing quote in a name's column,
            // each line is read as a row of its own. The row's text is taken only then, or for a
            // legacy reading: most rows are read from their fields alone.
            let raw = { rawText(lines: row.line...max(row.line, lastLine)) }
            /// The row's text, when it has more than one line that is not blank.
            func textRunOn() -> String? {
                let text = raw()
                return CSVLines(text).dropFirst().contains { !$0.allSatisfy(\.isWhitespace) } ? text : nil
            }
            if strayTextRows.contains(row.line), let text = textRunOn() {
                try takeEachLine(of: text, from: row.line)
                return
            }
            switch reading(fields: row.fields, fieldCount: row.fieldCount, raw: raw, location: location) {
            case .success(let account): accounts.append(account)
            case .failure(let problem):
                if let text = textRunOn() {
                    try takeEachLine(of: text, from: row.line)
                } else {
                    invalid.append(Diagnostic(.error, problem.reason, at: location))
                }
            }
        }
        /// Each line of a row that ran on, read as a row of its own: one at a time, as a quote
        /// that never closes makes a row of the rest of the file (a list of its 50 million lines
        /// took gigabytes).
        func takeEachLine(of text: String, from first: Int) throws(EnoughInvalidRows) {
            records -= 1
            for (offset, line) in CSVLines(text).enumerated() where !line.allSatisfy(\.isWhitespace) {
                guard invalid.count < invalidLimit else { throw EnoughInvalidRows() }
                records += 1
                let location = SourceLocation(file: path, line: first + offset)
                var fields: [String] = []
                var fieldCount = 0
                CSVText.forEachRow(of: String(line), maxFields: 54) { rowFields, count, _ in
                    if fieldCount == 0 { (fields, fieldCount) = (rowFields, count) }
                }
                switch reading(fields: fields, fieldCount: fieldCount, raw: { String(line) }, location: location) {
                case .success(let account): accounts.append(account)
                case .failure(let problem): invalid.append(Diagnostic(.error, problem.reason, at: location))
                }
            }
        }
        /// The account of a row's fields, or of a legacy exporter's reading of its text (`raw`),
        /// or the fields' problem.
        func reading(
            fields: [String], fieldCount: Int, raw: () -> String, location: SourceLocation
        ) -> Result<AccountRecord, InputProblem> {
            let strict = account(from: fields, fieldCount: fieldCount, location: location)
            // A column count or claims a legacy exporter's quoting explains: read as it wrote them.
            guard case .failure(let problem) = strict,
                problem.reason.hasPrefix("expected 28 or 52 columns") || problem.reason.hasPrefix("column 28 (custom claims)")
            else { return strict }
            for reading in LegacyCSVRow.readings(of: raw()) {
                if case .success(let account) = account(from: reading, location: location) { return .success(account) }
            }
            return strict
        }
        do {
            let strayText: (Int, Int) -> Void = { line, field in
                if LegacyCSVRow.nameColumns.contains(field) { strayTextRows.insert(line) }
            }
            try CSVText.forEachRow(of: text, maxFields: 54, strayText: strayText) { fields, fieldCount, line in
                if let row = waiting { try take(row, lastLine: line - 1) }
                waiting = (fields, fieldCount, line)
            }
            if let row = waiting { try take(row, lastLine: Int.max) }
        } catch {
            // The caller stops at the cap: what follows is not read.
        }
        return (accounts, invalid, records, header)
    }

    /// A first row that names the columns (`localId,email,…` or `UID,Email,…`), as a
    /// spreadsheet or a script may add: Firebase writes none, and as an account it would be a
    /// subject called `localId`.
    static func isHeader(_ fields: [String]) -> Bool {
        guard fields.count >= 2 else { return false }
        let first = fields[0].trimmingWhitespace.lowercased()
        let second = fields[1].trimmingWhitespace.lowercased()
        return ["localid", "uid", "local_id", "user_id", "userid"].contains(first) && ["email", "e-mail", "mail"].contains(second)
    }

    /// - Parameter fieldCount: the fields the row has, of which `rawFields` may hold only the first.
    func account(from rawFields: [String], fieldCount: Int? = nil, location: SourceLocation) -> Result<AccountRecord, InputProblem> {
        var fields = rawFields
        // The exporter ends every line with an extra comma: one empty field more than the columns.
        if fields.count == 29 || fields.count == 53, fields.last == "" { fields.removeLast() }
        guard fields.count == 28 || fields.count == 52, fieldCount ?? rawFields.count == rawFields.count else {
            return .failure(
                InputProblem(
                    "expected 28 or 52 columns (Firebase CSV export, plus a trailing comma), found \(fieldCount ?? rawFields.count) fields")
            )
        }
        let localId = fields[0]
        guard !localId.isEmpty else { return .failure(InputProblem("column 1 (UID) is empty")) }
        if let problem = SubjectID.problem(with: localId, what: "column 1 (UID)") { return .failure(InputProblem(problem)) }
        func cell(_ index: Int) -> String? { index < fields.count && !fields[index].isEmpty ? fields[index] : nil }
        var createdAt: Timestamp? = nil
        if let text = cell(23) {
            guard let value = Double(text) else {
                return .failure(InputProblem("column 24 (createdAt) must be epoch milliseconds, found '\(text)'"))
            }
            guard let parsed = Timestamp(epochMilliseconds: JSONNumber(text: text, value: value)) else {
                return .failure(
                    InputProblem("column 24 (createdAt) is out of range: '\(text)' (epoch milliseconds from year 1 to year 9999)"))
            }
            createdAt = parsed
        }
        var providers: [AccountRecord.ProviderEntry] = []
        for (column, providerId) in FirebaseCSVExportReader.providerBlocks where column + 3 < fields.count {
            if let rawId = cell(column) {
                providers.append(AccountRecord.ProviderEntry(providerId: providerId, rawId: rawId, email: cell(column + 1)))
            }
        }
        let claims: JSONValue?
        switch CustomClaims.parse(cell(27).map(JSONValue.string), what: "column 28 (custom claims)") {
        case .success(let parsed): claims = parsed
        case .failure(let problem): return .failure(problem)
        }
        return .success(
            AccountRecord(
                localId: localId, email: cell(1), phoneNumber: cell(25), hasPasswordHash: cell(3) != nil,
                disabled: cell(26)?.lowercased() == "true", createdAt: createdAt, providers: providers, customClaims: claims,
                location: location))
    }
}
