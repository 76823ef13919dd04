import Foundation

/// `--subject-map`: a CSV file of `apple_sub,subject` rows, for accounts whose Apple user id
/// neither the export nor the logs show (an old export, a deleted account). A first row that
/// reads `apple_sub,subject` is a header.
///
/// Read as the account export's CSV is (`CSVText`): a spreadsheet saves such a file with CRLF line
/// ends, quoted cells or a byte order mark, and a cell misread there would join Apple's
/// notifications to a subject that does not exist, or to none, without a word.
enum SubjectMap {
    static func load(path: String, into index: inout AppleAccountIndex) throws(DiagnosticsError) -> InputFileSummary {
        let file: (data: Data, sha256: String)
        do {
            let read = try FileBytes.read(path: path, limit: InputLimits.largeDocumentBytes, kind: "a subject map")
            file = (read.data, read.sha256)
        } catch {
            throw DiagnosticsError(error.diagnostics)
        }
        var problems: [Diagnostic] = []
        for bad in CSVText.invalidUTF8(in: file.data) {
            problems.append(
                Diagnostic(
                    .error, "invalid UTF-8: the subject map must be UTF-8 text",
                    at: SourceLocation(file: path, line: bad.line, column: bad.column)))
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        let bytes = file.data.starts(with: [0xEF, 0xBB, 0xBF]) ? file.data.dropFirst(3) : file.data[...]
        var rows = 0
        var rowOfID: [String: (subject: String, line: Int)] = [:]
        CSVText.forEachRow(of: String(decoding: bytes, as: UTF8.self), maxFields: 3, crEndsRows: true) { fields, fieldCount, line in
            let cells = fields.map(\.trimmingWhitespace)
            // An empty row, or a spreadsheet's row of empty cells (`,`).
            if fieldCount <= cells.count, cells.allSatisfy(\.isEmpty) { return }
            if rows == 0, problems.isEmpty, cells.map({ $0.lowercased() }) == ["apple_sub", "subject"] { return }
            guard fieldCount == 2, !cells[0].isEmpty, !cells[1].isEmpty else {
                problems.append(
                    Diagnostic(
                        .error,
                        "expected a row 'apple_sub,subject' (two non-empty cells), found \(fieldCount) cell\(fieldCount == 1 ? "" : "s")",
                        at: SourceLocation(file: path, line: line)))
                return
            }
            // The map is the reviewer's own statement of who is who: one Apple user id given two
            // subjects is a mistake to fix, not an id to leave unjoined.
            if let earlier = rowOfID[cells[0]], earlier.subject != cells[1] {
                problems.append(
                    Diagnostic(
                        .error, "this Apple user id is mapped to another subject on line \(earlier.line)",
                        at: SourceLocation(file: path, line: line)))
                return
            }
            rowOfID[cells[0]] = (cells[1], line)
            index.add(appleID: cells[0], subject: cells[1])
            rows += 1
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        var summary = InputFileSummary(path: path, kind: .subjectMap, sha256: file.sha256, records: rows)
        summary.format = "subject-map"
        return summary
    }
}
