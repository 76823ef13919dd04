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
        for (number, (fields, line)) in CSVText.rows(of: String(decoding: bytes, as: UTF8.self)).enumerated() {
            let cells = fields.map(\.trimmingWhitespace)
            if cells.allSatisfy(\.isEmpty) { continue }
            if number == 0, cells.map({ $0.lowercased() }) == ["apple_sub", "subject"] { continue }
            guard cells.count == 2, !cells[0].isEmpty, !cells[1].isEmpty else {
                problems.append(
                    Diagnostic(
                        .error,
                        "expected a row 'apple_sub,subject' (two non-empty cells), found \(cells.count) cell\(cells.count == 1 ? "" : "s")",
                        at: SourceLocation(file: path, line: line)))
                continue
            }
            index.add(appleID: cells[0], subject: cells[1])
            rows += 1
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        var summary = InputFileSummary(path: path, kind: .subjectMap, sha256: file.sha256, records: rows)
        summary.format = "subject-map"
        return summary
    }
}
