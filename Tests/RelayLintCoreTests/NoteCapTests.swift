import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A report lists the first 400 data-quality notes and says how many more there were: an export
/// of a thousand accounts exported twice gave 400 notes and nothing about the other 590.
@Suite struct NoteCapTests {
    @Test func notesPastTheCapAreCountedInANoteOfTheirOwn() throws {
        let users = (0..<1_000).map { #"{"localId": "u\#($0 % 10)"}"# }.joined(separator: ",\n")
        let accounts = try Fixtures.temporaryFile(named: "accounts.json", contents: #"{"users": [\#(users)]}"#)
        let events = try Fixtures.temporaryFile(
            named: "events.jsonl", contents: #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"# + "\n")
        let request = LintRequest(
            eventPaths: [events], accountPaths: [accounts], manifestPath: nil, rules: try RuleSet.load(paths: [Fixtures.rules]))
        let report = try Linter.run(request)
        let exportedTwice = report.notes.filter { $0.message.contains("was already exported") }
        #expect(exportedTwice.count == DatasetBuilder.noteLimit * 2)
        #expect(report.notes.last?.message == "590 more data-quality notes are not listed: a run lists its first 400")
        #expect(report.notes.last.flatMap(DatasetBuilder.unlistedNotes(in:)) == 590)
        #expect(report.inputs.first?.duplicates == 990)
        // The other formats count the notes the JSON report does not list either.
        let text = TextReporter().render(report, options: ReportOptions(parallelism: 1))
        #expect(text.contains("data-quality notes (990)"), "\(text.suffix(600))")
        #expect(text.contains("… 970 more; the JSON report lists 380 of them"), "\(text.suffix(600))")
        for reporter in [MarkdownReporter(), HTMLReporter()] as [any Reporter] {
            let audit = reporter.render(report, options: ReportOptions(parallelism: 1))
            #expect(audit.contains("the JSON report (--format json) lists 200 of them"), "\(reporter.identifier)")
        }
        let sarif = SARIFReporter().render(report, options: ReportOptions(parallelism: 1))
        #expect(sarif.contains("more data-quality notes; the JSON report lists"), "\(sarif.suffix(800))")
    }
}
