import Foundation

/// What a file found where a failed run was to write is, as far as the run removes it: one of
/// relaylint's own reports, or a partial of `check --partition`, which an earlier run left and
/// which would stand for inputs that now have no result. Anything else (a log or an export named
/// by mistake, a partial `merge` was to read, another tool's file) is not the run's to remove:
/// every file there was removed, whatever it held.
///
/// Told by what each format writes and no other file holds: the generator in HTML, the suite's
/// name in JUnit, the tool's row in Markdown, the tool's name in JSON and SARIF, the summary
/// line that ends a text or GitHub report.
enum EarlierOutput: Equatable {
    case report
    case partial

    /// What it is called in the messages of a failed run.
    var noun: String { self == .report ? "report" : "partial" }

    /// Reads at most this much of a file's start and end: every mark lies there.
    private static let span = 1 << 20

    /// What the file at `path` is; nil for a file relaylint did not write (an empty file
    /// included), or one that cannot be read.
    init?(contentsOf path: String) {
        // Read, not mapped: a mapped file cut short meanwhile would end the process (SIGBUS).
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0, (try? handle.seek(toOffset: 0)) != nil,
            let start = try? handle.read(upToCount: Self.span), (try? handle.seek(toOffset: size - min(size, UInt64(Self.span)))) != nil,
            let end = try? handle.read(upToCount: Self.span)
        else { return nil }
        let head = String(decoding: start, as: UTF8.self)
        let tail = String(decoding: end, as: UTF8.self)
        if let kind = Self.kind(head: head, tail: tail) { self = kind } else { return nil }
    }

    static func kind(head: String, tail: String) -> EarlierOutput? {
        // A partial: one compact JSON object ending with the tool that wrote it.
        if head.hasPrefix("{\""), head.contains("\"evaluation\":"), tail.contains("\"name\":\"relaylint\"") { return .partial }
        let pretty = "\"name\" : \"relaylint\""
        // JSON: the tool comes last but for the version; SARIF: the driver, after the results.
        if head.hasPrefix("{"), tail.contains("\"tool\" : {"), tail.contains(pretty) { return .report }
        if head.hasPrefix("{"), head.contains("\"$schema\" : \"https://docs.oasis-open.org/sarif"),
            head.contains(pretty) || tail.contains(pretty)
        {
            return .report
        }
        if head.contains("<meta name=\"generator\" content=\"relaylint") { return .report }
        if head.hasPrefix("<?xml"), head.contains("<testsuites name=\"relaylint\"") { return .report }
        if head.contains("| **Tool** | relaylint ") { return .report }
        let last = tail.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        if last.hasPrefix("relaylint: ") { return .report }
        return isTextSummary(last) ? .report : nil
    }

    /// The line a text report ends with: "no findings in 3 subjects, 9 events, 2 accounts; 12
    /// rules" or "2 findings (1 error, 1 warning, 0 notes) in …".
    private static func isTextSummary(_ line: String) -> Bool {
        let pattern =
            #"^(no findings|[0-9]+ findings? \([^)]*\)) in [0-9]+ subjects?, [0-9]+ events?, [0-9]+ accounts?; [0-9]+ rules?(;.*)?$"#
        return line.range(of: pattern, options: .regularExpression) != nil
    }
}
