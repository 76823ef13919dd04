import Foundation

/// Reading a JSON report back (`--baseline`, `explain --report`): what is wrong with one that is
/// not relaylint's, said in a line rather than as Foundation's decoding error, which printed its
/// whole coding path and debug description.
extension JSONReportDocument {
    /// The report at `path`, or a diagnostic at the file saying why it is not one.
    static func read(_ data: Data, path: String, hint: String = "") throws(DiagnosticsError) -> JSONReportDocument {
        // A shard's report reaches here mapped, whatever its size.
        guard data.count <= InputLimits.reportBytes else {
            throw DiagnosticsError([
                Diagnostic(
                    .error,
                    "stopped reading: more than \(InputLimits.describe(InputLimits.reportBytes)), the cap on a JSON report read back",
                    at: SourceLocation(file: path))
            ])
        }
        try JSONValueCount.check(data, path: path, kind: "a JSON report")
        do {
            let document = try JSONDecoder().decode(JSONReportDocument.self, from: data)
            // Another version's fields may mean other things: read as version 1, a baseline of
            // another version silently matched or missed findings.
            guard document.version == 1 else {
                throw DiagnosticsError([
                    Diagnostic(
                        .error, "not a relaylint JSON report (version 1): its version is \(document.version)\(hint)",
                        at: SourceLocation(file: path))
                ])
            }
            if let problem = document.firstValueOfAnotherKind() {
                throw DiagnosticsError([
                    Diagnostic(.error, "not a relaylint JSON report (version 1): \(problem)\(hint)", at: SourceLocation(file: path))
                ])
            }
            return document
        } catch let error as DiagnosticsError {
            throw error
        } catch {
            var location = SourceLocation(file: path)
            var why = reason(error)
            if case .dataCorrupted(let context) = error as? DecodingError, context.codingPath.isEmpty,
                let syntax = syntaxError(in: data)
            {
                // Foundation says no more than that the data is not JSON; relaylint's parser says
                // where and why.
                location = SourceLocation(file: path, line: syntax.line, column: syntax.column)
                why = "it is not JSON: \(syntax.reason)"
            } else if let count = notAWholeCount(error, in: data) {
                why = count
            } else if let kind = otherKind(of: data) {
                // It says what to give instead, as the hint would.
                throw DiagnosticsError([Diagnostic(.error, "not a relaylint JSON report (version 1): \(kind)", at: location)])
            }
            throw DiagnosticsError([Diagnostic(.error, "not a relaylint JSON report (version 1): \(why)\(hint)", at: location)])
        }
    }

    /// What a JSON file that is not a relaylint report is, told from its first bytes: a SARIF
    /// log or a partition's partial was refused as "'version' must be a number" or "'inputs' is
    /// missing", which said nothing of what to give instead.
    private static func otherKind(of data: Data) -> String? {
        let head = String(decoding: data.prefix(1 << 16), as: UTF8.self)
        if (head.contains("\"$schema\"") && head.lowercased().contains("sarif")) || head.contains("\"runs\"") {
            return "it is a SARIF log; give the JSON report of the same run (--format json, or --report json=FILE)"
        }
        if head.contains("\"partition\"") && head.contains("\"evaluation\"") {
            return "it is a partition's partial; give the JSON report relaylint merge writes from all the partials"
        }
        return nil
    }

    /// The first finding's severity that is none, or time that is no time (its own or its
    /// evidence's), as a reason: decoded as strings, they passed, and `explain` printed them as
    /// they were, an address written there included. The value is not quoted.
    private func firstValueOfAnotherKind() -> String? {
        for (index, finding) in findings.enumerated() {
            if Severity(rawValue: finding.severity) == nil {
                return "'findings[\(index)].severity' is not a severity (\(Severity.allCases.map(\.rawValue).joined(separator: ", ")))"
            }
            if let time = finding.time, Timestamp(rfc3339: time) == nil { return "'findings[\(index)].time' is not an RFC 3339 time" }
            for (item, evidence) in finding.evidence.enumerated() where Timestamp(rfc3339: evidence.time) == nil {
                return "'findings[\(index)].evidence[\(item)].time' is not an RFC 3339 time"
            }
        }
        return nil
    }

    /// Where and why `data` is not JSON, or nil when relaylint's parser reads it.
    private static func syntaxError(in data: Data) -> (line: Int, column: Int, reason: String)? {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            // Skipped, not built: a report may be of a gigabyte.
            var parser = JSONParser(bytes: bytes)
            do throws(JSONParser.SyntaxError) {
                parser.skipWhitespace()
                try parser.skipValue(depth: 0)
                parser.skipWhitespace()
                if !parser.isAtEnd { throw parser.error("unexpected text after the JSON value") }
                return nil
            } catch {
                let place = FileBytes.lineAndColumn(of: error.offset, in: bytes)
                return (place.line, place.column, error.reason)
            }
        }
    }

    /// What a member of `type` is, in a report's words: "a string", "a number".
    private static func kind(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("String") { return "a string" }
        if name.hasPrefix("Int") || name.hasPrefix("UInt") || name.hasPrefix("Double") { return "a number" }
        if name.hasPrefix("Bool") { return "true or false" }
        if name.hasPrefix("Array") { return "a list" }
        if name.hasPrefix("Dictionary") { return "an object" }
        return "of the report's kind"
    }

    /// What a decoding error says, in a few words: the member missing or of the wrong kind, and
    /// where (`findings[3].rule`).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "it cannot be read" }
        switch error {
        case .keyNotFound(let key, let context): return "'\(place(context, key))' is missing"
        case .typeMismatch(let type, let context): return "'\(place(context))' must be \(kind(type))"
        case .valueNotFound(let type, let context): return "'\(place(context))' must be \(kind(type)), not null"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "it is not JSON" : "'\(place(context))' is invalid"
        @unknown default: return "it cannot be read"
        }
    }

    /// Where a decoding error stands, as a report's reader names a member: `findings[3].rule`.
    static func place(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
        let keys = context.codingPath + (last.map { [$0] } ?? [])
        let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        return text.hasPrefix(".") ? String(text.dropFirst()) : text
    }
}
