import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Reports for the audit-format tests: one run over the checked-in examples, and one whose
/// every input value is hostile (markup, quotes, line breaks, CI workflow commands, entities,
/// Markdown syntax), including the path of the log file and the texts of a custom rule.
enum AuditReportFixtures {
    /// What an attacker puts into ids, paths and rule texts.
    static let payload = "<script>alert(1)</script>\"'\n::error::pwned &lt;b&gt; | *bold* _u_ `tick` [x](javascript:alert(1)) # ~s~ $m$"

    static let hostileRule = """
        id: hostile-rule
        title: "Title <script>alert(1)</script> \\" ' | *t* [x](javascript:alert(1))\\n::warning::rule"
        severity: error
        description: "Description <script>alert(1)</script>\\n::error::description | end"
        rationale: "Rationale <img src=x onerror=alert(1)> &amp; ' \\""
        references:
          - title: "Evil reference <script>alert(1)</script>"
            url: "javascript:alert(1)"
          - title: "Quoted reference"
            url: "https://example.com/a\\"onmouseover=\\"alert(1)"
        controls:
          - "Control <script>alert(1)</script> | x"
        when: {type: identity.linked}
        require:
          preceded_by: {type: consent.granted}
        message: "hostile link {event.id} for {subject} <script>alert(1)</script>"
        """

    /// A log line as JSON, with every string value escaped for JSON.
    static func jsonLine(_ fields: [(String, String)]) -> String {
        let members = fields.map { key, value in
            let data = try! JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])
            let array = String(decoding: data, as: UTF8.self)
            return "\"\(key)\":" + array.dropFirst().dropLast()
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A report whose subject ids, event ids, app, log path, rule texts, message, skipped record
    /// and suppressions (one active, one expired, one stale) all carry `payload`.
    static func hostileReport(showPII: Bool = false) throws -> LintReport {
        let base = try Fixtures.temporaryDirectory().appendingPathComponent("relaylint-hostile-\(UUID().uuidString)")
        // The folder and file names together spell `<script>alert(1)</script>` around a `/`.
        let folder = base.appendingPathComponent("<script>alert(1)<")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("script>\"'\n::error::log | *x*.jsonl")
        let subject = "user" + payload
        let lines = [
            jsonLine([
                ("id", "s" + payload), ("time", "2026-01-01T00:00:00Z"), ("subject", subject), ("type", "signin"),
                ("provider", "apple.com"), ("app", "com.evil" + payload),
            ]),
            jsonLine([
                ("id", "e" + payload), ("time", "2026-01-02T00:00:00Z"), ("subject", subject), ("type", "identity.linked"),
                ("kind", "email"), ("app", "com.evil" + payload),
            ]),
            // Invalid (a bad time), skipped with --skip-invalid: its diagnostic names the hostile path.
            jsonLine([("id", "bad" + payload), ("time", "yesterday" + payload), ("subject", subject), ("type", "signin")]),
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
        let rules = try RuleSet.load(paths: [try Fixtures.temporaryFile(named: "hostile-rule.yml", contents: hostileRule)])
        var request = LintRequest(eventPaths: [log.path], rules: rules, skipInvalid: true, showPII: showPII, parallelism: 1)
        let place = RelayLintCore.SourceLocation(file: "config" + payload, line: 3)
        request.suppressions = [
            Suppression(
                rule: "hostile-rule", justification: "Why " + payload, author: "Author " + payload, expires: "2099-12-31",
                location: place),
            Suppression(
                rule: "hostile-rule", subject: subject, justification: "Old " + payload, author: payload, expires: "2000-01-01",
                location: place),
            Suppression(
                fingerprint: "gone" + payload, justification: "Stale " + payload, author: payload, expires: "2099-12-31",
                location: place),
        ]
        request.asOfDay = "2026-07-01"
        return try Linter.run(request)
    }

    /// The subject of the example finding that `exampleReport` suppresses.
    static let suppressedSubject = "Yz4uJoHgkb7jjRw8CmnqbGSkbZ0z"

    /// The report on `Examples/` with the built-in rules, one finding suppressed.
    static func exampleReport() throws -> LintReport {
        let rules = try RuleSet.load(paths: [Fixtures.rules])
        var request = LintRequest(
            eventPaths: [Fixtures.path("Examples/events.jsonl")], accountPaths: [Fixtures.path("Examples/accounts.json")],
            manifestPath: Fixtures.path("Examples/manifest.yml"), rules: rules, parallelism: 1)
        request.suppressions = [
            Suppression(
                rule: "consent-before-phone-link", subject: suppressedSubject,
                justification: "Consent from jane.doe@example.com recorded in the CRM",
                author: "privacy@example.com", expires: "2026-12-31",
                location: RelayLintCore.SourceLocation(file: ".relaylint.yml", line: 16, column: 5))
        ]
        request.asOfDay = "2026-07-01"
        return try Linter.run(request)
    }

    static let reviewed = ReportOptions(reviewer: "Example Reviewer", date: "2026-07-01")

    /// The example report changed at its edges: more notes than the reports list, a finding of
    /// a rule the report does not describe, and no events at all.
    static func edgeCaseReport() throws -> LintReport {
        var report = try exampleReport()
        report.notes = (1...(AuditReportContent.listLimit + 5)).map {
            Diagnostic(.note, "note number \($0)", at: RelayLintCore.SourceLocation(file: "events.jsonl", line: $0))
        }
        var ghost = try #require(report.findings.first)
        ghost.rule = "ghost-rule"
        ghost.fingerprint = "ghost-fingerprint"
        report.findings.append(ghost)
        report.eventsPerDay = []
        report.earliest = nil
        report.latest = nil
        return report
    }

    /// Lines of `text` that, with leading whitespace removed, start a GitHub Actions workflow
    /// command: a report printed to a CI log must never contain one that came from the inputs.
    static func workflowCommandLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).hasPrefix("::") }
            .map(String.init)
    }
}
