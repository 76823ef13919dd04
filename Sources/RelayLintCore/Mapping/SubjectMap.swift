import Foundation

/// `--subject-map`: a CSV file of `apple_sub,subject` rows, for accounts whose Apple user id
/// neither the export nor the logs show (an old export, a deleted account). A first row that
/// reads `apple_sub,subject` is a header.
enum SubjectMap {
    static func load(path: String, into index: inout AppleAccountIndex) throws(DiagnosticsError) -> InputFileSummary {
        let file: (data: [UInt8], sha256: String)
        do {
            let read = try FileBytes.read(path: path, limit: InputLimits.largeDocumentBytes, kind: "a subject map")
            file = (Array(read.data), read.sha256)
        } catch {
            throw DiagnosticsError(error.diagnostics)
        }
        var problems: [Diagnostic] = []
        var rows = 0
        let text = String(decoding: file.data, as: UTF8.self)
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.allSatisfy(\.isWhitespace) { continue }
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if offset == 0, cells == ["apple_sub", "subject"] { continue }
            guard cells.count == 2, !cells[0].isEmpty, !cells[1].isEmpty else {
                problems.append(
                    Diagnostic(
                        .error,
                        "expected a row 'apple_sub,subject' (two non-empty cells), found \(cells.count) cell\(cells.count == 1 ? "" : "s")",
                        at: SourceLocation(file: path, line: offset + 1)))
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
