@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// GitHub Actions annotations and the step summary: escaping, the per-level cap, the size limit.
@Suite struct GitHubReporterTests {
    func render(_ report: LintReport) -> String { GitHubReporter().render(report, options: ReportOptions()) }

    func lines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    @Test func isRegisteredAsGithub() throws {
        let reporter = try #require(ReporterRegistry.reporter(for: "github"))
        #expect(reporter.fileExtension == "github.txt")
        #expect(reporter is GitHubReporter)
    }

    @Test func oneAnnotationPerFindingWithFileLineAndTitle() throws {
        let report = try CIReportFixture.report(subjects: ["u1"])
        let finding = try #require(report.findings.first)
        let location = try #require(finding.location)
        let title = try #require(report.rules.first).rule.title
        let output = lines(render(report))
        #expect(
            output == [
                "::error file=\(location.file),line=\(location.line),title=consent-before-email-link%3A \(title)::\(finding.message)",
                "relaylint: 1 finding (1 error); all shown as annotations",
                "",
            ])
    }

    @Test func hostileValuesCannotBreakOutOfTheCommand() throws {
        let report = try CIReportFixture.report(subjects: [CIReportFixture.hostile])
        var withPath = report
        withPath.findings[0].location = RelayLintCore.SourceLocation(file: "logs/a,b:c%\n::warning::x.jsonl", line: 2)
        let output = lines(render(withPath))
        #expect(output.count == 3, "one annotation, the summary, the final newline: \(output)")
        let annotation = output[0]
        #expect(
            annotation.hasPrefix("::error file=logs/a%2Cb%3Ac%25%0A%3A%3Awarning%3A%3Ax.jsonl,line=2,title=consent-before-email-link%3A "))
        #expect(!annotation.contains("\r"))
        #expect(annotation.contains("<script>alert(\"x\")</script> 'q' %0D%0A::error::pwned %250A 100%25 [x](1)"))
        // Exactly one `::` that ends the properties, before the message.
        let message = try #require(annotation.split(separator: "::", maxSplits: 2, omittingEmptySubsequences: false).last)
        #expect(message.hasPrefix("identity.linked"))
        #expect(!output[1].hasPrefix("::"))
    }

    @Test(arguments: [
        ("100%", "100%25", "100%25"),
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("x::y", "x::y", "x%3A%3Ay"),
        ("a,b", "a,b", "a%2Cb"),
        (":\u{301}", ":\u{301}", "%3A\u{301}"),
        ("%0A", "%250A", "%250A"),
    ])
    func escaping(value: String, data: String, property: String) {
        #expect(GitHubReporter.escapeData(value) == data)
        #expect(GitHubReporter.escapeProperty(value) == property)
    }

    @Test(arguments: [
        ("esc\u{1B}[31m", #"esc\u{1B}[31m"#, #"esc\u{1B}[31m"#),
        ("bel\u{7}nul\u{0}tab\t", #"bel\u{7}nul\u{0}tab\t"#, #"bel\u{7}nul\u{0}tab\t"#),
        ("nel\u{85}del\u{7F}", #"nel\u{85}del\u{7F}"#, #"nel\u{85}del\u{7F}"#),
        ("ls\u{2028}rlo\u{202E}", #"ls\u{2028}rlo\u{202E}"#, #"ls\u{2028}rlo\u{202E}"#),
    ])
    func controlCharactersAreEscaped(value: String, data: String, property: String) {
        #expect(GitHubReporter.escapeData(value) == data)
        #expect(GitHubReporter.escapeProperty(value) == property)
    }

    @Test func anAnnotationCarriesNoControlCharacter() throws {
        let report = try CIReportFixture.report(subjects: ["u\u{1B}]8;;https://evil.example\u{7}x\u{85}::error::y"])
        let output = render(report)
        #expect(!output.unicodeScalars.contains { TerminalEscaping.isEscaped($0) && $0 != "\n" }, "\(output)")
        #expect(lines(output).count == 3)
    }

    @Test func stepSummaryNeutralisesMentionsAndBareURLs() throws {
        let report = try CIReportFixture.report(
            subjects: ["@octocat https://evil.example/x www.evil.example @github/security"], eventIDs: ["e@admins"])
        let summary = GitHubReporter().stepSummary(report)
        for raw in ["@octocat", "https://", "www.evil", "@github/security"] { #expect(!summary.contains(raw), "\(raw)") }
        #expect(summary.contains("@&#8203;octocat https&#8203;://evil.example/x www&#8203;.evil.example @&#8203;github/security"))
        // An @ inside a word is no mention, but would make an email autolink (the id, which
        // reads as an address on a private network, is masked as one).
        #expect(summary.contains("e•••@&#8203;admins"))
    }

    @Test func atMostTenAnnotationsPerLevelThenOneSummaryLine() throws {
        let base = try CIReportFixture.report(subjects: ["u1"])
        // 12 errors, 3 warnings and 11 notes, interleaved in report order.
        var severities: [Severity] = []
        for index in 0..<26 {
            severities.append(index < 22 ? [.error, .note][index % 2] : index < 25 ? .warning : .error)
        }
        var report = CIReportFixture.multiplied(base, count: 26)
        for index in report.findings.indices { report.findings[index].severity = severities[index] }
        #expect(severities.filter { $0 == .error }.count == 12 && severities.filter { $0 == .note }.count == 11)

        let output = lines(render(report))
        #expect(output.last == "")
        let annotations = output.dropLast(2)
        #expect(annotations.filter { $0.hasPrefix("::error ") }.count == 10)
        #expect(annotations.filter { $0.hasPrefix("::warning ") }.count == 3)
        #expect(annotations.filter { $0.hasPrefix("::notice ") }.count == 10)
        #expect(annotations.count == 23)
        // The first ten of each level, in report order.
        let errors = report.findings.filter { $0.severity == .error }
        let shownErrors = annotations.filter { $0.hasPrefix("::error ") }
        for (annotation, finding) in zip(shownErrors, errors) {
            #expect(annotation.contains(",line=\(finding.location!.line),"))
        }
        #expect(!annotations.contains { $0.contains(",line=\(errors[10].location!.line),") })
        #expect(
            output[output.count - 2]
                == "relaylint: 26 findings (12 errors, 3 warnings, 11 notes); 23 shown as annotations (GitHub shows 10 per level), see the full report"
        )
    }

    @Test func lineIsLeftOutWhenUnknownAndFileWhenThereIsNoLocation() throws {
        var report = try CIReportFixture.report(subjects: ["u1", "u2"])
        report.findings[0].location?.line = 0
        report.findings[1].location = nil
        let output = lines(render(report))
        #expect(output[0].hasPrefix("::error file=") && !output[0].contains(",line="))
        #expect(output[1].hasPrefix("::error title=consent-before-email-link%3A "))
    }

    @Test func suppressedFindingsGetNoAnnotation() throws {
        var report = try CIReportFixture.report(subjects: ["u1", "u2"])
        report.findings[1].suppression = CIReportFixture.suppression(rule: report.findings[1].rule, subject: "u2")
        let output = lines(render(report))
        #expect(output.filter { $0.hasPrefix("::") }.count == 1)
        #expect(output[1] == "relaylint: 1 finding (1 error); all shown as annotations; 1 suppressed")
    }

    @Test func anExpiredSuppressionIsNamedInTheSummaryLine() throws {
        var report = CIReportFixture.withExpiredSuppression(try CIReportFixture.report(subjects: ["u1"]))
        report.findings = []
        #expect(render(report) == "relaylint: no findings in 1 subject and 2 events; 1 expired suppression (no longer applied)\n")
        #expect(GitHubReporter().stepSummary(report).contains("**1 suppression expired** and no longer applies: renew or remove it."))
    }

    @Test func noFindingsIsOneLine() throws {
        var report = try CIReportFixture.report(subjects: ["u1"])
        report.findings = []
        #expect(render(report) == "relaylint: no findings in 1 subject and 2 events\n")
    }

    // MARK: Step summary

    @Test func stepSummaryEscapesMarkdownInValues() throws {
        let report = try CIReportFixture.report(subjects: [CIReportFixture.hostile + " <img src=x>"], eventIDs: ["e|*_`<>[]#"])
        let summary = GitHubReporter().stepSummary(report)
        #expect(summary.hasPrefix("## relaylint: 1 finding (1 error)\n"))
        let row = try #require(lines(summary).first { $0.contains("pwned") })
        #expect(row.hasPrefix("| error | consent-before-email-link | "))
        #expect(
            row.contains(##"\<script\>alert("x")\</script\> 'q' ::error::pwned %0A 100% \[x\](1) \|\*\_\`\# \\ \<img src=x\>"##), "\(row)")
        #expect(row.contains(##"e\|\*\_\`\<\>\[\]\#"##))
        #expect(!row.contains("<script>") && !row.contains("\r"))
        // Every `|` that is not a cell border is escaped: 7 cells, 8 borders.
        var borders = 0
        var previous: Character = " "
        for character in row {
            if character == "|" && previous != "\\" { borders += 1 }
            previous = previous == "\\" && character == "\\" ? " " : character
        }
        #expect(borders == 8)
    }

    @Test(arguments: [
        ("plain text", "plain text"),
        ("a|b", #"a\|b"#),
        ("*b* _i_ `c`", #"\*b\* \_i\_ \`c\`"#),
        ("<b>[x](y)</b>", #"\<b\>\[x\](y)\</b\>"#),
        ("# h", ##"\# h"##),
        ("line\nbreak\r\n", "line break"),
        ("- item", #"\- item"#),
        ("12. item", #"12\. item"#),
        (#"back\slash"#, #"back\\slash"#),
        ("  1) x", #"1\) x"#),
    ])
    func markdownEscaping(value: String, escaped: String) {
        #expect(GitHubMarkdown.escape(value) == escaped)
    }

    @Test func stepSummaryListsRulesAndFindings() throws {
        let report = try CIReportFixture.report(subjects: ["u1", "u2"], rulePaths: [Fixtures.rules])
        let summary = GitHubReporter().stepSummary(report)
        for outcome in report.rules { #expect(summary.contains("| \(GitHubMarkdown.escape(outcome.rule.id)): ")) }
        let findingRows = lines(summary).filter { $0.hasPrefix("| error |") || $0.hasPrefix("| warning |") || $0.hasPrefix("| note |") }
        #expect(findingRows.count == report.findings.count)
        #expect(!summary.contains("Truncated"))
    }

    @Test func stepSummaryStaysUnderTheLimitAndSaysWhatItLeftOut() throws {
        let base = try CIReportFixture.report(subjects: ["u1"])
        var report = CIReportFixture.multiplied(base, count: 6_000)
        for index in report.findings.indices { report.findings[index].message = String(repeating: "m", count: 250) + "\(index)" }
        let summary = GitHubReporter().stepSummary(report)
        #expect(summary.utf8.count < 1_048_576)
        #expect(summary.utf8.count > 900_000)
        let rows = lines(summary).filter { $0.hasPrefix("| error |") }.count
        #expect(rows > 1_000 && rows < 6_000)
        #expect(
            summary.hasSuffix(
                "_Truncated: \(6_000 - rows) findings not shown, to keep this summary under GitHub's 1 MiB limit; see the full report._\n"))

        let small = GitHubStepSummary(byteLimit: 3_000).render(report)
        #expect(small.utf8.count <= 3_000)
        #expect(small.contains("_Truncated: "))

        // One huge id is cut, not allowed to fill the summary.
        var huge = base
        huge.findings[0].subject = String(repeating: "x", count: 2_000_000)
        let cut = GitHubReporter().stepSummary(huge)
        #expect(cut.utf8.count < 10_000)
        #expect(cut.contains("xxx…"))
    }
}
