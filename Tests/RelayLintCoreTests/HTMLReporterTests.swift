import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Plot
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The HTML audit report: every input value escaped, nothing loaded from outside the file, all
/// the content a reviewer signs for, and the same bytes on every render.
@Suite struct HTMLReporterTests {
    let reporter = HTMLReporter()

    // MARK: Hostile input

    @Test func hostileValuesAreEscapedEverywhere() throws {
        let report = try AuditReportFixtures.hostileReport()
        #expect(report.findings.count == 1, "the fixture must produce a finding with evidence")
        #expect(report.skipped.count == 1, "the fixture must produce a skipped record")
        #expect(report.suppressions.map(\.status) == [.active, .expired, .stale])
        let html = reporter.render(
            report,
            options: ReportOptions(
                title: "Audit " + AuditReportFixtures.payload,
                reviewer: AuditReportFixtures.payload, date: AuditReportFixtures.payload))
        let lowercased = html.lowercased()
        #expect(!lowercased.contains("<script"))
        #expect(!lowercased.contains("<img"))
        #expect(!lowercased.contains("javascript:alert(1)\""), "no javascript: link")
        #expect(!lowercased.contains("onmouseover=\""))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"), "the rationale's markup stays text")
        // Escaped, not dropped: the reviewer sees what the data holds.
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        // Plot lets entities through; the report does not: `&lt;` in the data reads as `&lt;`.
        #expect(html.contains("&amp;lt;b&amp;gt;"))
        #expect(!html.contains(" &lt;b&gt;"))
        // The quote inside a URL cannot end the href.
        #expect(html.contains("href=\"https://example.com/a&quot;onmouseover=&quot;alert(1)\""))
        // The rejected link is shown as text, so the reviewer still sees it.
        #expect(html.contains("(not linked: "))
        #expect(AuditReportFixtures.workflowCommandLines(html).isEmpty, "\(AuditReportFixtures.workflowCommandLines(html))")
    }

    @Test func hostileReportIsWellFormedAndHasNoActiveContent() throws {
        let html = reporter.render(try AuditReportFixtures.hostileReport(), options: AuditReportFixtures.reviewed)
        let document = try XMLDocument(xmlString: html, options: [])
        var elements: [XMLElement] = []
        func collect(_ node: XMLNode) {
            if let element = node as? XMLElement { elements.append(element) }
            for child in node.children ?? [] { collect(child) }
        }
        collect(try #require(document.rootElement()))
        let names = Set(elements.compactMap(\.name).map { $0.lowercased() })
        #expect(
            names.isDisjoint(with: ["script", "img", "iframe", "object", "embed", "link", "base", "form", "image", "use", "foreignobject"]),
            "\(names)")
        for element in elements {
            for attribute in element.attributes ?? [] {
                let name = attribute.name?.lowercased() ?? ""
                let value = attribute.stringValue ?? ""
                #expect(!name.hasPrefix("on"), "event handler attribute \(name) on \(element.name ?? "")")
                #expect(name != "src" && name != "srcset" && name != "xlink:href", "resource attribute \(name)")
                if name == "href" {
                    #expect(value.hasPrefix("#") || value.hasPrefix("https://") || value.hasPrefix("http://"), "href \(value)")
                }
                if name == "style" { Issue.record("inline style attribute on \(element.name ?? "")") }
            }
        }
        // The hostile subject id survives as text, exactly.
        let text = document.rootElement()?.stringValue ?? ""
        #expect(text.contains("user<script>alert(1)</script>\"'\n::error::pwned &lt;b&gt; | *bold*"))
    }

    // MARK: Self-contained

    @Test func loadsNothingFromOutsideTheFile() throws {
        let html = reporter.render(try AuditReportFixtures.exampleReport(), options: AuditReportFixtures.reviewed)
        let lowercased = html.lowercased()
        for forbidden in ["src=", "<link", "<script", "@import", "url(", "<iframe", "<img", "<object", "xmlns"] {
            #expect(!lowercased.contains(forbidden), "\(forbidden)")
        }
        // Every http(s) URL in the file is the target of a reference link, never a resource.
        var searchStart = lowercased.startIndex
        var links = 0
        while let match = lowercased.range(of: "http", range: searchStart..<lowercased.endIndex) {
            let rest = lowercased[match.lowerBound...]
            if rest.hasPrefix("https://") || rest.hasPrefix("http://") {
                #expect(lowercased[..<match.lowerBound].hasSuffix("href=\""), "\(rest.prefix(80))")
                links += 1
            }
            searchStart = match.upperBound
        }
        #expect(links > 0, "the built-in rules' references are links")
        #expect(html.contains("http-equiv=\"Content-Security-Policy\""))
        #expect(html.contains("default-src &#39;none&#39;"))
        #expect(html.contains("@media print"))
        #expect(html.contains("article.finding, figure, tr,"), "a finding or table row is not split across pages")
        #expect(!html.contains("break-before: page"), "a forced page break leaves the page before it nearly empty")
    }

    // MARK: Content

    @Test func showsScopeSummaryRulesAndCoverage() throws {
        let report = try AuditReportFixtures.exampleReport()
        let html = reporter.render(report, options: AuditReportFixtures.reviewed)
        for heading in [
            "Scope", "Rule pack", "Apps", "Executive summary", "Findings by rule and severity", "Coverage",
            "Data-quality notes (2)", "Invalid records skipped", "Personal data",
        ] {
            #expect(html.contains(">\(heading)</"), "\(heading)")
        }
        #expect(html.contains("<td>Example Reviewer</td>"))
        #expect(html.contains("<td>2026-07-01</td>"))
        #expect(html.contains("relaylint \(report.tool.version)"))
        for input in report.inputs {
            #expect(html.contains(input.sha256))
            #expect(html.contains(input.path))
        }
        #expect(html.contains(report.rulePackSHA256))
        #expect(html.contains("2026-01-03T11:29:15Z"), "the log's first event time")
        // Coverage pinned by Examples/README.md.
        #expect(html.contains("9 links of an email address to an anonymized Apple ID checked, 5 with prior consent, 4 in violation"))
        #expect(html.contains("7 deletions of accounts with an Apple ID checked, 3 with a prior token revocation, 4 in violation"))
        #expect(html.contains("2 apps that create accounts checked, 1 offering in-app deletion, 1 in violation"))
        #expect(html.contains("<span class=\"value\">\(report.summary.anonymizedSubjects)</span>"))
        // One section per rule, in order, each with its id.
        var position = html.startIndex
        for (index, outcome) in report.rules.enumerated() {
            let anchor = try #require(
                html.range(of: "<section class=\"rule\" id=\"rule-\(index + 1)\">", range: position..<html.endIndex),
                "section of \(outcome.rule.id)")
            #expect(html[anchor.upperBound...].prefix(2000).contains("<code>\(outcome.rule.id)</code>"))
            position = anchor.upperBound
        }
        // Every finding with its evidence rows.
        #expect(html.components(separatedBy: "<article class=\"finding ").count - 1 == report.findings.count)
        #expect(html.contains("Finding 2 of 4"))
        #expect(html.contains("does not count: evt-0035 lies in between"))
        #expect(html.contains("<tr class=\"trigger\">"))
        // Two charts.
        #expect(html.components(separatedBy: "<svg class=\"chart\"").count - 1 == 2)
        #expect(html.contains("masked: email addresses and phone numbers are shortened"))
    }

    @Test func suppressedFindingsAreMarkedAndTheRegisterIsListed() throws {
        let report = try AuditReportFixtures.exampleReport()
        let suppressed = try #require(report.findings.first { $0.suppression != nil })
        #expect(suppressed.subject == AuditReportFixtures.suppressedSubject)
        let html = reporter.render(report, options: AuditReportFixtures.reviewed)
        #expect(html.contains("; 1 suppressed</strong>"), "the result counts active findings and names the suppressed")
        #expect(html.contains("<article class=\"finding error suppressed\">"))
        // The justification and the author's address are masked like the messages (contract: every
        // email in a report); the author still reads as the team that answers for it.
        #expect(!html.contains("privacy@example.com"))
        #expect(
            html.contains(
                "accepted by p•••@example.com until 2026-12-31 (.relaylint.yml:16:5): Consent from j•••@example.com recorded in the CRM")
        )
        #expect(!html.contains("jane.doe@example.com"))
        #expect(html.contains("<h2>Suppressions (1)</h2>"))
        #expect(html.contains("<span class=\"badge pass\">active</span> 1 finding accepted"))
        #expect(html.contains("<span class=\"value\">1</span>\n      <span class=\"label\">suppressed finding</span>"))
        let hostile = reporter.render(try AuditReportFixtures.hostileReport(), options: ReportOptions())
        #expect(hostile.contains("<span class=\"badge warning\">expired</span> after 2000-01-01: no longer applied"))
        #expect(hostile.contains("<span class=\"badge warning\">stale</span> matches no finding any more"))
        #expect(hostile.contains("Why &lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    @Test func longListsAreCutOtherRulesFindingsAreKeptAndNoEventsIsSaid() throws {
        let report = try AuditReportFixtures.edgeCaseReport()
        let html = reporter.render(report, options: ReportOptions())
        #expect(html.contains("note number \(AuditReportContent.listLimit)<"))
        #expect(!html.contains("note number \(AuditReportContent.listLimit + 1)<"))
        #expect(html.contains("… and 5 more, listed in the JSON report"))
        #expect(html.contains("<section class=\"rule\" id=\"other-findings\">"))
        #expect(html.contains("ghost-fingerprint"))
        #expect(html.contains("(not described in this report)"))
        #expect(html.contains("No events were read."))
        #expect(html.contains(">no events</text>"))
    }

    @Test func missingReviewerAndDateSayNotGiven() throws {
        let html = reporter.render(try AuditReportFixtures.exampleReport(), options: ReportOptions())
        #expect(html.contains("<span class=\"muted\">not given</span>"))
        #expect(html.contains("Reviewer: not given"))
        #expect(html.contains("Date: not given"))
    }

    @Test func unmaskedReportSaysSo() throws {
        let html = reporter.render(try AuditReportFixtures.hostileReport(showPII: true), options: ReportOptions())
        #expect(html.contains("shown unmasked (--show-pii)"))
        #expect(!html.contains("masked: email addresses"))
    }

    @Test func rendersTheSameBytesTwice() throws {
        let first = reporter.render(try AuditReportFixtures.exampleReport(), options: AuditReportFixtures.reviewed)
        let second = reporter.render(try AuditReportFixtures.exampleReport(), options: AuditReportFixtures.reviewed)
        #expect(first == second)
        let hostileFirst = reporter.render(try AuditReportFixtures.hostileReport(), options: ReportOptions())
        let hostileSecond = reporter.render(try AuditReportFixtures.hostileReport(), options: ReportOptions())
        // The temporary folder differs between the two runs; everything else must not.
        func withoutTemporaryFolder(_ text: String) -> String {
            text.replacingOccurrences(of: #"relaylint-hostile-[0-9A-F-]+"#, with: "X", options: .regularExpression)
                .replacingOccurrences(of: #"relaylint-tests-[0-9A-F-]+"#, with: "X", options: .regularExpression)
        }
        #expect(withoutTemporaryFolder(hostileFirst) == withoutTemporaryFolder(hostileSecond))
    }

    /// The reporter writes each list of findings apart from the rest of the document, a batch
    /// at a time and on several threads, into the place of an empty element standing for it:
    /// the bytes are those of the document rendered whole, line breaks inside values, findings
    /// of rules the report does not describe, and lists of several batches included.
    @Test func findingsWrittenApartGiveTheBytesOfTheWholeDocument() throws {
        var many = try AuditReportFixtures.exampleReport()
        many.findings = Array(repeating: many.findings, count: 40).flatMap { $0 }
        let reports = [
            try AuditReportFixtures.exampleReport(), try AuditReportFixtures.hostileReport(),
            try AuditReportFixtures.edgeCaseReport(), many,
        ]
        for report in reports {
            for parallelism in [1, 3] {
                let options = ReportOptions(parallelism: parallelism)
                let whole =
                    HTMLReport(content: AuditReportContent(report: report, options: options)).document()
                    .render(indentedBy: .spaces(1)) + "\n"
                let written = reporter.render(report, options: options)
                #expect(written == whole, "\(report.findings.count) findings on \(parallelism) threads")
            }
        }
        let largest = HTMLReport(content: AuditReportContent(report: many, options: ReportOptions())).findingLists.map(\.findings.count)
            .max()
        #expect((largest ?? 0) > 64 * 2, "one list spans several batches")
    }

    @Test func isRegisteredAsHTML() throws {
        let registered = try #require(ReporterRegistry.reporter(for: "html"))
        #expect(registered.fileExtension == "html")
        #expect(registered is HTMLReporter)
    }

    // MARK: Escaping

    @Test(arguments: [
        ("a<b>&c", "a&lt;b&gt;&amp;c"),
        ("plain ASCII: ids, times, paths/a.jsonl:3", "plain ASCII: ids, times, paths/a.jsonl:3"),
        // A `<` that a combining mark follows is one character with it: escaped all the same.
        ("<\u{0338}b>", "&lt;\u{0338}b&gt;"),
        ("&lt;", "&amp;lt;"),
        ("line\nbreak", "line&#xA;break"),
        ("cr\r\nlf", "cr&#xD;&#xA;lf"),
        ("esc\u{1B}[31m", "esc&#x1B;[31m"),
        ("sep\u{2028}x", "sep&#x2028;x"),
        ("tab\tok", "tab\tok"),
    ])
    func textEscaping(input: String, expected: String) {
        #expect(HTMLEscaping.text(input) == expected)
    }

    @Test func attributeEscaping() {
        #expect(HTMLEscaping.attribute(#"a"b'c<d>e&f"#) == "a&quot;b&#39;c&lt;d&gt;e&amp;f")
        #expect(HTMLEscaping.attribute("x\ny") == "x&#xA;y")
    }

    @Test(arguments: [
        ("https://example.com/a", true), ("HTTP://example.com", true), ("javascript:alert(1)", false),
        (" javascript:alert(1)", false), ("JavaScript:alert(1)", false), ("data:text/html,x", false),
        ("vbscript:x", false), ("//example.com", false), ("https://exa mple.com", false), ("https://x\n.com", false),
    ])
    func onlyHTTPLinksAreMade(url: String, linked: Bool) {
        #expect((HTMLEscaping.linkableURL(url) != nil) == linked)
    }
}
