import Foundation

/// Reading a JSON report back (`--baseline`, `explain --report`): what is wrong with one that is
/// not relaylint's, said in a line rather than as Foundation's decoding error, which printed its
/// whole coding path and debug description.
extension JSONReportDocument {
    /// The report at `path`, or a diagnostic at the file saying why it is not one.
    static func read(_ data: Data, path: String, hint: String = "") throws(DiagnosticsError) -> JSONReportDocument {
        do {
            return try JSONDecoder().decode(JSONReportDocument.self, from: data)
        } catch {
            throw DiagnosticsError([
                Diagnostic(.error, "not a relaylint JSON report (version 1): \(reason(error))\(hint)", at: SourceLocation(file: path))
            ])
        }
    }

    /// What a decoding error says, in a few words: the member missing or of the wrong kind, and
    /// where (`findings[3].rule`).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "it cannot be read" }
        func place(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .keyNotFound(let key, let context): return "'\(place(context, key))' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "'\(place(context))' is not of the report's kind"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "it is not JSON" : "'\(place(context))' is invalid"
        @unknown default: return "it cannot be read"
        }
    }
}
