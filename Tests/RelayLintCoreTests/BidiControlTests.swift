@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A bidi override or isolate in a value (a subject id `acct-\u{202E}txt.exe`, shown as
/// `acct-exe.txt`) is printed visibly in every report a person reads, as in the text report: the
/// HTML, Markdown and JUnit reports and the step summary carried it raw.
@Suite struct BidiControlTests {
    @Test func everyReportAPersonReadsShowsBidiControlsVisibly() throws {
        let log = try Fixtures.temporaryFile(
            named: "bidi.jsonl",
            contents: [
                #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"acct-\u202Etxt.exe","type":"account.created","provider":"apple.com","email":"x@privaterelay.appleid.com"}"#,
                #"{"id":"e2\u2066","time":"2026-01-02T00:00:00Z","subject":"acct-\u202Etxt.exe","type":"identity.linked","kind":"provider","provider":"google.com"}"#,
            ].joined(separator: "\n") + "\n")
        let report = try Linter.run(LintRequest(eventPaths: [log], rules: try RuleSet.load(paths: [Fixtures.rules])))
        #expect(!report.findings.isEmpty)
        var outputs = ReporterRegistry.all.filter { !["json", "sarif"].contains($0.identifier) }.map {
            ($0.identifier, $0.render(report, options: ReportOptions(parallelism: 1)))
        }
        outputs.append(("step summary", GitHubStepSummary().render(report)))
        for (format, output) in outputs {
            #expect(!output.unicodeScalars.contains { BidiControls.contains($0) }, "\(format)")
            #expect(output.contains("\\u{202E}"), "\(format)")
        }
    }
}
