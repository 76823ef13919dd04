import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The JSON report is written by `PrettyJSONWriter`, not `JSONEncoder`; its bytes were fixed by
/// the encoder, so the two must agree on every report shape: empty and full containers, absent
/// and null members, suppressions of every kind, shards, and strings that need escaping.
@Suite struct JSONReportWriterTests {
    func encoderText(_ document: JSONReportDocument) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    func expectAgreement(_ report: LintReport, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let document = JSONReportDocument(report)
        let written = JSONReporter.text(of: document)
        let encoded = try encoderText(document)
        #expect(written == encoded, "first difference at line \(firstDifferentLine(written, encoded))", sourceLocation: sourceLocation)
    }

    func firstDifferentLine(_ left: String, _ right: String) -> String {
        let (a, b) = (
            left.split(separator: "\n", omittingEmptySubsequences: false), right.split(separator: "\n", omittingEmptySubsequences: false)
        )
        for index in 0..<max(a.count, b.count) where index >= a.count || index >= b.count || a[index] != b[index] {
            return "\(index + 1): \(index < a.count ? String(a[index]) : "<end>") | \(index < b.count ? String(b[index]) : "<end>")"
        }
        return "none"
    }

    @Test func agreesWithTheEncoderOnTheExamplesReport() throws {
        let text = try String(contentsOfFile: Fixtures.path("Examples/reports/report.json"), encoding: .utf8)
        let document = try JSONDecoder().decode(JSONReportDocument.self, from: Data(text.utf8))
        #expect(!document.findings.isEmpty && !document.notes.isEmpty && !document.suppressions.isEmpty)
        #expect(JSONReporter.text(of: document) == text)
        #expect(try encoderText(document) == text)
    }

    /// Written as it is made (handed over a mebibyte at a time, the findings rendered on any
    /// number of threads) the report is the same bytes as rendered whole; 3,000 findings make
    /// several pieces, and 12 batches of findings in three windows of two threads or in one of seven.
    @Test(arguments: [1, 2, 7])
    func aReportWrittenInPiecesIsTheRenderedReport(parallelism: Int) throws {
        let report = CIReportFixture.multiplied(try CIReportFixture.report(subjects: ["u1"]), count: 3_000)
        var pieces: [[UInt8]] = []
        JSONReporter().write(report, options: ReportOptions(parallelism: parallelism)) { pieces.append(Array($0)) }
        #expect(pieces.count > 2)
        expectSameBytes(Array(pieces.joined()), JSONReporter().render(report, options: ReportOptions()))
    }

    /// Findings rendered on several threads are the serial writer's bytes at every batch boundary
    /// (batches of 256) and whatever the number of threads.
    @Test(arguments: [1, 255, 256, 257, 513])
    func findingsOnThreadsAreTheSerialBytesAtEveryCount(count: Int) throws {
        let report = CIReportFixture.multiplied(try CIReportFixture.report(subjects: ["u1"]), count: count)
        let rendered = JSONReporter().render(report, options: ReportOptions())
        for parallelism in [2, 3, 64] {
            var pieces: [[UInt8]] = []
            JSONReporter().write(report, options: ReportOptions(parallelism: parallelism)) { pieces.append(Array($0)) }
            expectSameBytes(Array(pieces.joined()), rendered)
        }
    }

    /// Compared byte for byte (`String ==` would take canonically equivalent text as equal),
    /// reported by the first line that differs rather than megabytes of text.
    func expectSameBytes(_ written: [UInt8], _ rendered: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let same = written == Array(rendered.utf8)
        #expect(
            same, "first difference at line \(firstDifferentLine(String(decoding: written, as: UTF8.self), rendered))",
            sourceLocation: sourceLocation)
    }

    @Test func agreesWithTheEncoderOnHostileValuesSuppressionsAndSkippedRecords() throws {
        let report = try AuditReportFixtures.hostileReport()
        #expect(!report.skipped.isEmpty && report.suppressions.count == 3)
        try expectAgreement(report)
    }

    @Test func agreesWithTheEncoderOnControlCharactersUnicodeAndAbsentMembers() throws {
        var report = try CIReportFixture.report(subjects: ["u1", "u2"])
        report.findings[0].message = "ctl \u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1b}\u{1f} del \u{7f} ls \u{2028} é 😀 \\ \" / end"
        report.findings[0].subject = "\u{1f}"
        report.findings[1].event = nil
        report.findings[1].time = nil
        report.findings[1].location = nil
        report.findings[1].evidence = []
        report.notes = []
        report = CIReportFixture.withExpiredSuppression(report)
        report.shard = Shard(index: 2, count: 3)
        try expectAgreement(report)
    }

    @Test func agreesWithTheEncoderOnAReportWithoutFindings() throws {
        var report = try CIReportFixture.report(subjects: ["u1"])
        report.findings = []
        report.inputs = []
        try expectAgreement(report)
    }
}

/// A JSON report read back (`--baseline`, `explain --report`) that is not relaylint's is told in
/// a line: what is missing or wrong, and where; Foundation's decoding error printed its debug
/// description.
@Suite struct JSONReportReadingTests {
    @Test(arguments: [
        (#"{"version":1,"findings":[]}"#, "'tool' is missing")
    ])
    func aFileThatIsNoReportSaysWhy(text: String, reason: String) throws {
        try expectRefused(text, reason: reason)
    }

    /// A SARIF log or a partition's partial is told for what it is, with what to give instead:
    /// it was "'version' must be a number" or "'inputs' is missing" (hostile 11).
    @Test(arguments: [
        (
            #"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[]}"#,
            "it is a SARIF log; give the JSON report of the same run (--format json, or --report json=FILE)"
        ),
        (
            #"{"evaluation":{},"partition":"1/2","version":1}"#,
            "it is a partition's partial; give the JSON report relaylint merge writes from all the partials"
        ),
    ])
    func aReportOfAnotherKindIsToldForWhatItIs(text: String, reason: String) throws {
        let path = try Fixtures.temporaryFile(named: "report.json", contents: text)
        let error = #expect(throws: DiagnosticsError.self) { try Baseline.fingerprints(ofReport: path) }
        #expect(error?.diagnostics.map(\.description) == ["\(path): error: not a relaylint JSON report (version 1): \(reason)"])
    }

    /// A count that is not a whole number is named with its place: Foundation called the report
    /// "not valid JSON", with none.
    @Test func aCountThatIsNotAWholeNumberIsNamed() throws {
        var report = try CIReportFixture.report(subjects: ["u1"])
        report.inputs = []
        let text = JSONReporter().render(report, options: ReportOptions(color: false))
        let written = try #require(text.range(of: #""subjects" : 1"#))
        try expectRefused(
            text.replacingCharacters(in: written, with: #""subjects" : 1.5"#),
            reason: "'summary.subjects' is 1.5, not a count (a whole number below 2^63)")
    }

    /// Another version's fields may mean other things: a report of version 2 (or 0) is refused,
    /// where it was read as version 1.
    @Test(arguments: ["0", "2", "99"])
    func aReportOfAnotherVersionIsRefused(version: String) throws {
        var report = try CIReportFixture.report(subjects: ["u1"])
        report.inputs = []
        let text = JSONReporter().render(report, options: ReportOptions(color: false))
        let written = try #require(text.range(of: #""version" : 1"#))
        try expectRefused(text.replacingCharacters(in: written, with: #""version" : "# + version), reason: "its version is \(version)")
    }

    private func expectRefused(_ text: String, reason: String) throws {
        let path = try Fixtures.temporaryFile(named: "report.json", contents: text)
        #expect {
            try Baseline.fingerprints(ofReport: path)
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.map(\.description)
                == ["\(path): error: not a relaylint JSON report (version 1): \(reason); produce one with --format json"]
        }
    }

    /// JSON that Foundation refuses is placed by relaylint's parser: Foundation says only that it
    /// is not JSON, also for a report nested past its limit.
    @Test(arguments: [
        ("x", ":1:1: error: not a relaylint JSON report (version 1): it is not JSON: unexpected character 'x', expected a value"),
        ("{\"version\":\n 1,,}", ":2:4: error: not a relaylint JSON report (version 1): it is not JSON: expected a string key"),
        (
            String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600),
            ":1:2561: error: not a relaylint JSON report (version 1): it is not JSON: nesting deeper than 512 levels"
        ),
    ])
    func whereAReportIsNotJSONIsNamed(text: String, message: String) throws {
        let path = try Fixtures.temporaryFile(named: "report.json", contents: text)
        #expect {
            try Baseline.fingerprints(ofReport: path)
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.first?.description.hasPrefix(path + message) ?? false
        }
    }

    /// A severity that is none, or a time that is no time, is refused as any member of the wrong
    /// kind is: read as strings, they passed, and `explain` printed them as written.
    @Test(arguments: [
        (
            #""severity" : "error""#, #""severity" : "jane.doe@example.com""#,
            "'findings[0].severity' is not a severity (note, warning, error)"
        ),
        (#""time" : "2026-01-22T13:05:39.249Z""#, #""time" : "+1 415 555 0142""#, "'findings[0].time' is not an RFC 3339 time"),
    ])
    func aSeverityOrTimeOfAnotherKindIsRefused(written: String, replacement: String, reason: String) throws {
        let report = try String(contentsOfFile: Fixtures.path("Examples/reports/report.json"), encoding: .utf8)
        guard let range = report.range(of: written) else {
            Issue.record("the example report has no \(written)")
            return
        }
        let broken = report.replacingCharacters(in: range, with: replacement)
        let path = try Fixtures.temporaryFile(named: "broken.json", contents: broken)
        #expect {
            try Baseline.fingerprints(ofReport: path)
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.first?.message.contains(reason) == true
        }
        #expect(throws: DiagnosticsError.self) { try FindingExplanation.text(fingerprint: "x", reportPath: path) }
    }

    @Test func aFindingOfTheWrongKindIsNamedByItsPlace() throws {
        let report = try String(contentsOfFile: Fixtures.path("Examples/reports/report.json"), encoding: .utf8)
        let broken = report.replacingOccurrences(of: #""rule" : "consent-before-email-link""#, with: #""rule" : 7"#)
        #expect(broken != report)
        let path = try Fixtures.temporaryFile(named: "broken.json", contents: broken)
        #expect {
            try FindingExplanation.text(fingerprint: "x", reportPath: path)
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.first?.message.contains("'findings[1].rule' must be a string") == true
        }
    }
}
