import Foundation
@testable import RelayLintCore
import RelayLintTestSupport

/// Small real reports for the CI reporters' tests (SARIF, JUnit, GitHub), made by running the
/// linter on temporary files, with values an attacker could put into a log.
enum CIReportFixture {
    /// Markup of every kind the reports must neutralize: HTML, both quotes, a line break that
    /// would start a workflow command, `%` escapes, a SARIF embedded link and Markdown.
    static let hostile = "<script>alert(\"x\")</script> 'q' \r\n::error::pwned %0A 100% [x](1) |*_`# \\"

    /// The built-in rule whose message names the subject and the firing event's id.
    static var emailRule: String { Fixtures.path("Rules/consent-before-email-link.yml") }

    /// One `consent-before-email-link` finding per subject: an Apple relay sign-in, then an
    /// email link without consent. `eventIDs` name the links (default `l0`, `l1`, …).
    static func report(subjects: [String], eventIDs: [String]? = nil, rulePaths: [String]? = nil) throws -> LintReport {
        var lines: [String] = []
        for (index, subject) in subjects.enumerated() {
            lines.append(
                try json([
                    "id": "s\(index)", "time": "2026-01-01T00:00:\(String(format: "%02d", index % 60))Z", "subject": subject,
                    "type": "signin", "provider": "apple.com", "email": "a\(index)@privaterelay.appleid.com",
                ]))
            lines.append(
                try json([
                    "id": eventIDs?[index] ?? "l\(index)", "time": "2026-01-02T00:00:00Z", "subject": subject,
                    "type": "identity.linked", "kind": "email", "value": "jane\(index)@example.com",
                ]))
        }
        let events = try Fixtures.temporaryFile(named: "events.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let rules = try RuleSet.load(paths: rulePaths ?? [emailRule])
        return try Linter.run(LintRequest(eventPaths: [events], rules: rules, parallelism: 1))
    }

    /// `count` copies of the report's first finding, each its own (subject, event, fingerprint),
    /// with severities taken in turn from `severities`: for limits that need many findings.
    static func multiplied(_ report: LintReport, count: Int, severities: [Severity] = [.error]) -> LintReport {
        var report = report
        let base = report.findings[0]
        report.findings = (0..<count).map { index in
            var finding = base
            finding.subject = "subject-\(String(format: "%05d", index))"
            finding.event = "event-\(index)"
            finding.fingerprint = "fingerprint-\(index)"
            finding.severity = severities[index % severities.count]
            finding.location = RelayLintCore.SourceLocation(file: base.location?.file ?? "events.jsonl", line: index + 1)
            return finding
        }
        return report
    }

    /// A suppression of `rule` for `subject`, written at line 4 of `.relaylint.yml`.
    static func suppression(rule: String, subject: String, expires: String = "2099-01-01") -> Suppression {
        Suppression(
            rule: rule, subject: subject, justification: "ticket <42>", author: "a@example.com", expires: expires,
            location: RelayLintCore.SourceLocation(file: ".relaylint.yml", line: 4))
    }

    /// The report with one expired suppression in its register: it applies no more.
    static func withExpiredSuppression(_ report: LintReport) -> LintReport {
        var report = report
        report.suppressions.append(
            SuppressionOutcome(
                suppression: suppression(rule: "consent-before-email-link", subject: "gone", expires: "2020-01-01"), status: .expired,
                matched: 0))
        return report
    }

    private static func json(_ object: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(object), as: UTF8.self)
    }
}
