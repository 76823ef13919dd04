import Foundation

/// `--subject-map`: a CSV file of `apple_sub,subject` rows, for accounts whose Apple user id
/// neither the export nor the logs show (an old export, a deleted account). A first row that
/// reads `apple_sub,subject` is a header.
///
/// Read as the account export's CSV is (`CSVText`): a spreadsheet saves such a file with CRLF line
/// ends, quoted cells or a byte order mark, and a cell misread there would join Apple's
/// notifications to a subject that does not exist, or to none, without a word.
///
/// Its rows are reviewed by hand, so there is no `--skip-invalid` for it; past
/// `InputLimits.invalidRecords` bad rows it stops, as a log does, instead of holding a
/// diagnostic a row (15M lines of `x`, 30 MB, took 4 GB before failing).
enum SubjectMap {
    /// The longest Apple user id a row may give.
    static let longestAppleID = 1024

    /// Reads the map into `index`, which holds nothing else yet: a conflict between two rows is
    /// found there rather than in a second table of every row (twice the map's memory).
    static func load(
        path: String, into index: inout AppleAccountIndex, invalidLimit: Int = InputLimits.invalidRecords
    ) throws(DiagnosticsError) -> InputFileSummary {
        precondition(index.isEmpty, "the subject map is read before any other input")
        var file: (data: Data, sha256: String)
        do {
            let read = try FileBytes.read(path: path, limit: InputLimits.subjectMapBytes, kind: "a subject map")
            file = (read.data, read.sha256)
        } catch {
            throw DiagnosticsError(error.diagnostics)
        }
        var problems: [Diagnostic] = []
        /// Which problems are conflicts, with their Apple user id: the line that gave the id its
        /// subject is looked up once the rows are read.
        var conflicts: [(problem: Int, appleID: String)] = []
        struct EnoughProblems: Error {}
        var stopped = false
        for bad in CSVText.invalidUTF8(in: file.data) {
            problems.append(
                Diagnostic(
                    .error, "invalid UTF-8: the subject map must be UTF-8 text",
                    at: SourceLocation(file: path, line: bad.line, column: bad.column)))
            if problems.count >= invalidLimit {
                stopped = true
                break
            }
        }
        guard problems.isEmpty else { throw stopping(problems, stopped: stopped) }
        let text = String(decoding: file.data.starts(with: [0xEF, 0xBB, 0xBF]) ? file.data.dropFirst(3) : file.data[...], as: UTF8.self)
        // The text is all that is read from now on: the bytes go before the index grows.
        file.data = Data()
        var rows = 0
        // Rows with text after a quoted cell's closing quote (`"001.abc.1"x`): not CSV, and the
        // cell was read as another id, which joined nothing, without a word.
        var strayTextLines: Set<Int> = []
        // A quote that never closes: the rest of the file was read as its cell.
        var unclosedQuoteLine: Int?
        var headerSeen = false
        do {
            try CSVText.forEachRow(
                of: text, maxFields: 3, crEndsRows: true, strayText: { line, _ in strayTextLines.insert(line) },
                spaceAfterQuoteIsStray: false, unclosedQuote: { unclosedQuoteLine = $0 }
            ) {
                fields, fieldCount, line in
                let cells = fields.map(\.trimmingWhitespace)
                // An empty row, or a spreadsheet's row of empty cells (`,`).
                if fieldCount <= cells.count, cells.allSatisfy(\.isEmpty) { return }
                let isHeader = cells.map({ $0.lowercased() }) == ["apple_sub", "subject"]
                if rows == 0, problems.isEmpty, !headerSeen, isHeader {
                    headerSeen = true
                    return
                }
                var problem: String? = nil
                if let open = unclosedQuoteLine {
                    problems.append(
                        Diagnostic(
                            .error,
                            "a quoted cell opens here and never closes: the rest of the file was read as that cell; close the quote",
                            at: SourceLocation(file: path, line: open)))
                    return
                }
                if isHeader {
                    problem = "the header 'apple_sub,subject' again: it is read only as the first row"
                } else if strayTextLines.contains(line) {
                    problem = "text after the closing quote of a quoted cell: quote the whole cell, or none of it"
                }
                if let problem {
                    problems.append(Diagnostic(.error, problem, at: SourceLocation(file: path, line: line)))
                    if problems.count >= invalidLimit { throw EnoughProblems() }
                    return
                }
                // The header of a map written the other way round: read as a row, it joined nothing.
                if rows == 0, problems.isEmpty, cells.map({ $0.lowercased() }) == ["subject", "apple_sub"] {
                    problems.append(
                        Diagnostic(
                            .error, "the columns are the other way round: each row is 'apple_sub,subject', the Apple user id first",
                            at: SourceLocation(file: path, line: line)))
                    return
                }
                guard fieldCount == 2, !cells[0].isEmpty, !cells[1].isEmpty else {
                    problems.append(
                        Diagnostic(
                            .error,
                            "expected a row 'apple_sub,subject' (two non-empty cells), found \(fieldCount) cell\(fieldCount == 1 ? "" : "s")",
                            at: SourceLocation(file: path, line: line)))
                    if problems.count >= invalidLimit { throw EnoughProblems() }
                    return
                }
                // Apple's user ids are some 44 characters (`001437.<32 hex digits>.1204`): a cell of
                // megabytes is no id, and a 600 MB one was kept as one.
                if cells[0].utf8.count > SubjectMap.longestAppleID {
                    problems.append(
                        Diagnostic(
                            .error,
                            "an Apple user id of more than \(SubjectMap.longestAppleID) bytes: Apple's are some 44 characters (001437.<hex>.1204)",
                            at: SourceLocation(file: path, line: line)))
                    if problems.count >= invalidLimit { throw EnoughProblems() }
                    return
                }
                if let problem = SubjectID.problem(with: cells[1], what: "the subject") {
                    problems.append(Diagnostic(.error, problem, at: SourceLocation(file: path, line: line)))
                    if problems.count >= invalidLimit { throw EnoughProblems() }
                    return
                }
                // The map is the reviewer's own statement of who is who: one Apple user id given two
                // subjects is a mistake to fix, not an id to leave unjoined.
                if let earlier = index.soleHolder(of: cells[0]) {
                    guard earlier == cells[1] else {
                        conflicts.append((problems.count, cells[0]))
                        problems.append(
                            Diagnostic(
                                .error, "this Apple user id is mapped to another subject", at: SourceLocation(file: path, line: line)))
                        if problems.count >= invalidLimit { throw EnoughProblems() }
                        return
                    }
                } else {
                    index.add(appleID: cells[0], subject: cells[1])
                }
                rows += 1
            }
        } catch {
            stopped = true
        }
        if !conflicts.isEmpty {
            let lines = firstLines(of: Set(conflicts.map(\.appleID)), in: text)
            for conflict in conflicts {
                guard let line = lines[conflict.appleID] else { continue }
                problems[conflict.problem].message += " on line \(line)"
            }
        }
        guard problems.isEmpty else { throw stopping(problems, stopped: stopped) }
        var summary = InputFileSummary(path: path, kind: .subjectMap, sha256: file.sha256, records: rows)
        summary.format = "subject-map"
        return summary
    }

    /// The problems, led by why reading stopped when it stopped at the cap.
    private static func stopping(_ problems: [Diagnostic], stopped: Bool) -> DiagnosticsError {
        guard stopped, let last = problems.last else { return DiagnosticsError(problems) }
        return DiagnosticsError(
            [Diagnostic(.error, InputLimits.stoppedAfterInvalid(problems.count, skippable: false), at: last.location)] + problems)
    }

    /// The line of the first row that gives each of `appleIDs` a subject, read again for the
    /// messages: a conflict is rare, and a table of every row's line cost as much as the map.
    private static func firstLines(of appleIDs: Set<String>, in text: String) -> [String: Int] {
        var found: [String: Int] = [:]
        struct AllFound: Error {}
        try? CSVText.forEachRow(of: text, maxFields: 3, crEndsRows: true) { fields, fieldCount, line in
            guard fieldCount == 2, !fields[1].trimmingWhitespace.isEmpty else { return }
            let appleID = fields[0].trimmingWhitespace
            guard appleIDs.contains(appleID), found[appleID] == nil else { return }
            found[appleID] = line
            if found.count == appleIDs.count { throw AllFound() }
        }
        return found
    }
}
