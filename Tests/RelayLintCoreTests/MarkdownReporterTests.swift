import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The Markdown audit report: every input value escaped so no table breaks and no markup, link
/// or line of its own comes from the data; the same content as the HTML report; the same bytes
/// on every render.
@Suite struct MarkdownReporterTests {
    let reporter = MarkdownReporter()

    /// Indices of the characters of `line` that are not escaped by a backslash (an odd number
    /// of backslashes before a character escapes it).
    static func unescaped(_ target: Character, in line: String) -> Int {
        var count = 0
        var backslashes = 0
        for character in line {
            if character == target && backslashes % 2 == 0 { count += 1 }
            backslashes = character == "\\" ? backslashes + 1 : 0
        }
        return count
    }

    /// The tables of a Markdown text: runs of lines that start with `|`.
    static func tables(_ markdown: String) -> [[String]] {
        var tables: [[String]] = []
        var current: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("|") {
                current.append(line)
            } else if !current.isEmpty {
                tables.append(current)
                current = []
            }
        }
        if !current.isEmpty { tables.append(current) }
        return tables
    }

    // MARK: Hostile input

    @Test func hostileValuesCannotBreakTablesOrAddMarkup() throws {
        let report = try AuditReportFixtures.hostileReport()
        #expect(report.findings.count == 1)
        let payload = AuditReportFixtures.payload
        let markdown = reporter.render(report, options: ReportOptions(title: "Audit " + payload, reviewer: payload, date: payload))
        // Every table keeps its column count in every row.
        let tables = Self.tables(markdown)
        #expect(tables.count >= 8)
        for table in tables {
            let columns = Self.unescaped("|", in: table[0])
            for row in table {
                #expect(Self.unescaped("|", in: row) == columns, "row breaks its table: \(row)")
                #expect(row.hasSuffix("|"), "row does not end its table: \(row)")
            }
        }
        for line in markdown.split(separator: "\n").map(String.init) {
            // The only raw angle brackets are the report's own <br>.
            let withoutBreaks = line.replacingOccurrences(of: "<br>", with: "")
            #expect(Self.unescaped("<", in: withoutBreaks) == 0, "raw < in: \(line)")
            #expect(Self.unescaped(">", in: withoutBreaks) == 0, "raw > in: \(line)")
            #expect(Self.unescaped("`", in: line) == 0, "raw backtick in: \(line)")
            // The only raw brackets are those of the report's own reference links.
            let ownLink = line.hasPrefix("- [") && line.contains("](https://")
            #expect(Self.unescaped("[", in: line) == (ownLink ? 1 : 0), "raw [ in: \(line)")
            #expect(Self.unescaped("]", in: line) == (ownLink ? 1 : 0), "raw ] in: \(line)")
        }
        #expect(!markdown.contains("\n#" + " Title"), "a value cannot become a heading")
        #expect(!markdown.contains("[Evil reference"), "a javascript: reference is not a link")
        #expect(AuditReportFixtures.workflowCommandLines(markdown).isEmpty, "\(AuditReportFixtures.workflowCommandLines(markdown))")
        // Escaped, not dropped.
        #expect(
            markdown.contains(
                ##"\<script\>alert(1)\</script\>"'<br>::error::pwned \&lt;b\&gt; \| \*bold\* \_u\_ \`tick\` \[x\](javascript:alert(1)) \# \~s\~ \$m\$"##
            ))
        // The https reference is a link, its quote percent-encoded; the javascript: one is text.
        #expect(markdown.contains("- [Quoted reference](https://example.com/a%22onmouseover=%22alert%281%29)"))
        #expect(markdown.contains(#"- Evil reference \<script\>alert(1)\</script\> (not linked: javascript:alert(1))"#))
    }

    @Test func unmaskedReportSaysSo() throws {
        let markdown = reporter.render(try AuditReportFixtures.hostileReport(showPII: true), options: ReportOptions())
        #expect(markdown.contains("shown unmasked (--show-pii)"))
    }

    /// A rule's trigger, requirement and parameters are masked as its findings' `expected` is: a
    /// parameter may list people's addresses, shown whole beside the masked finding.
    @Test func aRulesRequirementAndParametersAreMaskedAsItsFindingsAre() throws {
        let rules = try RuleSet.load(paths: [try Fixtures.temporaryFile(named: "vip.yml", contents: Fixtures.ruleListingAddresses)])
        let log = try Fixtures.temporaryFile(
            named: "mail.jsonl",
            contents: #"{"id":"m1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"email.sent","to":"boss.person@gmail.com"}"# + "\n")
        for showPII in [false, true] {
            let report = try Linter.run(LintRequest(eventPaths: [log], rules: rules, showPII: showPII, parallelism: 1))
            // Markdown breaks a shown address's autolink with an invisible character.
            let markdown = reporter.render(report, options: ReportOptions()).replacingOccurrences(of: "&#8203;", with: "")
            for text in [markdown, HTMLReporter().render(report, options: ReportOptions())] {
                for address in ["vip.customer@gmail.com", "boss.person@gmail.com", "+14155550251"] {
                    #expect(text.contains(address) == showPII, "\(address), --show-pii \(showPII)")
                }
                if !showPII { #expect(text.contains("v•••@gmail.com") && text.contains("b•••@gmail.com")) }
            }
        }
    }

    // MARK: Content

    @Test func showsTheSameContentAsTheHTMLReport() throws {
        let report = try AuditReportFixtures.exampleReport()
        let markdown = reporter.render(report, options: AuditReportFixtures.reviewed)
        for heading in [
            "## Scope", "### Rule pack", "### Apps", "## Executive summary", "### Findings by rule and severity",
            "### Coverage", "## Rules", "## Data-quality notes (2)", "## Invalid records skipped",
        ] {
            #expect(markdown.contains("\n\(heading)\n"), "\(heading)")
        }
        #expect(markdown.contains("| **Reviewer** | Example Reviewer |"))
        #expect(markdown.contains("| **Date** | 2026-07-01 |"))
        for input in report.inputs {
            #expect(markdown.contains(input.sha256))
            #expect(markdown.contains(MarkdownEscaping.inline(input.path)))
        }
        #expect(markdown.contains("9 links of an email address to an anonymized Apple ID checked, 5 with prior consent, 4 in violation"))
        #expect(markdown.contains("2 apps that create accounts checked, 1 offering in-app deletion, 1 in violation"))
        #expect(markdown.contains("| Anonymized subjects | \(report.summary.anonymizedSubjects) |"))
        #expect(markdown.contains("| consent-before-email-link | 9 | 4 | 5 | 0 | 44.4 % |"))
        for (index, outcome) in report.rules.enumerated() {
            #expect(markdown.contains("### \(index + 1). " + MarkdownEscaping.inline(outcome.rule.title) + "\n"))
        }
        #expect(markdown.components(separatedBy: "\n##### Finding ").count - 1 == report.findings.count)
        #expect(markdown.contains("does not count: evt-0035 lies in between"))
        #expect(markdown.contains("| Week starting | Events |"))
        #expect(markdown.contains("**Personal data:** masked"))
        // The suppressed finding is marked, and the register lists the suppression.
        #expect(markdown.contains("; 1 suppressed** |"))
        #expect(markdown.contains(", suppressed\n\n**Message:**"))
        #expect(
            markdown.contains(
                "**Suppressed:** accepted by p•••@example.com until 2026-12-31 (.relaylint.yml:16:5): Consent from j•••@example.com recorded in the CRM"
            ))
        #expect(!markdown.contains("jane.doe@example.com"))
        #expect(markdown.contains("\n## Suppressions (1)\n"))
        #expect(
            markdown.contains("| consent-before-phone-link for \(AuditReportFixtures.suppressedSubject) | active: 1 finding accepted |"))
    }

    @Test func longListsAreCutOtherRulesFindingsAreKeptAndNoEventsIsSaid() throws {
        let markdown = reporter.render(try AuditReportFixtures.edgeCaseReport(), options: ReportOptions())
        #expect(markdown.contains("| note number \(AuditReportContent.listLimit) |"))
        #expect(!markdown.contains("| note number \(AuditReportContent.listLimit + 1) |"))
        #expect(markdown.contains("… and 5 more, listed in the JSON report"))
        #expect(markdown.contains("### Findings of other rules"))
        #expect(markdown.contains("| Fingerprint | ghost-fingerprint |"))
        #expect(markdown.contains("| ghost-rule | (not described in this report) | 1 | 0 | 0 | **1** |"))
        #expect(markdown.contains("No events were read."))
    }

    @Test func missingReviewerAndDateSayNotGiven() throws {
        let markdown = reporter.render(try AuditReportFixtures.exampleReport(), options: ReportOptions())
        #expect(markdown.contains("| **Reviewer** | *not given* |"))
        #expect(markdown.contains("| Field | Value |"))
        #expect(markdown.contains("| **Date** | *not given* |"))
    }

    /// A reviewer who signs with an address is masked like a suppression's author, in both
    /// audit reports, and so is a title naming the person the audit is for; `--show-pii` shows
    /// them.
    @Test func aReviewerAddressIsMaskedInTheAuditReports() throws {
        var options = ReportOptions(reviewer: "jane.doe@example.com", date: "2026-07-01")
        let report = try AuditReportFixtures.exampleReport()
        options.title = "Audit for jane.doe@example.com"
        for reporter in [MarkdownReporter(), HTMLReporter()] as [any Reporter] {
            let text = reporter.render(report, options: options)
            #expect(text.contains("Audit for j•••@example.com"), "\(reporter.identifier)")
        }
        try checkReviewer(options)
    }

    private func checkReviewer(_ options: ReportOptions) throws {
        let report = try AuditReportFixtures.exampleReport()
        for reporter in [MarkdownReporter(), HTMLReporter()] as [any Reporter] {
            let text = reporter.render(report, options: options)
            #expect(text.contains("j•••@example.com"), "\(reporter.identifier)")
            #expect(!text.contains("jane.doe"), "\(reporter.identifier)")
        }
        var shown = report
        shown.showsPII = true
        #expect(reporter.render(shown, options: options).contains("jane.doe@"))
    }

    @Test func rendersTheSameBytesTwice() throws {
        let first = reporter.render(try AuditReportFixtures.exampleReport(), options: AuditReportFixtures.reviewed)
        let second = reporter.render(try AuditReportFixtures.exampleReport(), options: AuditReportFixtures.reviewed)
        #expect(first == second)
    }

    @Test func isRegisteredAsMarkdown() throws {
        let registered = try #require(ReporterRegistry.reporter(for: "markdown"))
        #expect(registered.fileExtension == "md")
        #expect(registered is MarkdownReporter)
    }

    // MARK: Escaping

    @Test(arguments: [
        ("plain text 1.0", "plain text 1.0"),
        ("a|b", #"a\|b"#),
        (#"back\slash"#, #"back\\slash"#),
        ("*_`<>[]#&~$", ##"\*\_\`\<\>\[\]\#\&\~\$"##),
        ("one\ntwo\r\nthree\u{2028}four", "one<br>two<br>three<br>four"),
        ("esc\u{1B}", "esc&#x1B;"),
        ("hi @octocat and @org/team", "hi @&#8203;octocat and @&#8203;org/team"),
        ("see https://evil.example/x, HTTP://y, ftp://z", "see https&#8203;://evil.example/x, HTTP&#8203;://y, ftp&#8203;://z"),
        ("www.evil.example and WWW.x", "www&#8203;.evil.example and WWW&#8203;.x"),
        ("jane@example.com j•••@example.com", "jane@&#8203;example.com j•••@example.com"),
        ("a:b awww.x e@ @ 1.0 user_1", "a:b awww.x e@ @ 1.0 user\\_1"),
    ])
    func inlineEscaping(input: String, expected: String) {
        #expect(MarkdownEscaping.inline(input) == expected)
    }

    @Test func mentionsAndURLsFromTheInputsDoNotReachTheReport() throws {
        let report = try CIReportFixture.report(subjects: ["@octocat see https://evil.example"])
        let markdown = reporter.render(report, options: ReportOptions())
        #expect(!markdown.contains("@octocat"))
        #expect(!markdown.contains("https://evil"))
        #expect(markdown.contains("@&#8203;octocat see https&#8203;://evil.example"))
    }

    @Test func linksOnlyToHTTP() {
        #expect(MarkdownEscaping.link(title: "a [b]", url: "https://x.example/p?q=(1) <2>") == nil, "a space makes it unlinkable")
        #expect(
            MarkdownEscaping.link(title: "a [b]", url: "https://x.example/p?q=(1)<2>")
                == #"[a \[b\]](https://x.example/p?q=%281%29%3C2%3E)"#)
        #expect(MarkdownEscaping.link(title: "t", url: "https://x.example/é") == "[t](https://x.example/%C3%A9)")
        #expect(MarkdownEscaping.link(title: "t", url: "javascript:alert(1)") == nil)
    }

    @Test func tableRowsAlwaysHaveTheHeaderWidth() {
        var table = MarkdownTable(["a", "b|c"], numeric: [1])
        table.add(["1"])
        table.add(["1", "2", "3"])
        #expect(table.lines == ["| a | b\\|c |", "|---|---:|", "| 1 |   |", "| 1 | 2 |"])
    }
}
