import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The JUnit report: well-formed XML with every value escaped, one suite per rule, counts that
/// dashboards can add up.
@Suite struct JUnitReporterTests {
    func render(_ report: LintReport) -> String { JUnitReporter().render(report, options: ReportOptions()) }

    /// Parses the output as XML: throws when it is not well-formed.
    func parse(_ text: String) throws -> XMLDocument {
        try XMLDocument(xmlString: text, options: [])
    }

    func elements(_ document: XMLDocument, _ xpath: String) throws -> [XMLElement] {
        try document.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    func attribute(_ element: XMLElement, _ name: String) -> String? { element.attribute(forName: name)?.stringValue }

    @Test func isRegisteredAsJunit() throws {
        let reporter = try #require(ReporterRegistry.reporter(for: "junit"))
        #expect(reporter.fileExtension == "junit.xml")
        #expect(reporter is JUnitReporter)
    }

    @Test func oneSuitePerRuleAndOneCasePerFinding() throws {
        var report = try CIReportFixture.report(subjects: ["u1", "u2"], rulePaths: [Fixtures.rules])
        // A second finding of the same rule for u1 is a test case of its own, named by its event:
        // dashboards count one failure per case.
        let emailFindings = report.findings.filter { $0.rule == "consent-before-email-link" }
        #expect(emailFindings.count == 2)
        var again = emailFindings[0]
        again.event = "l9"
        again.fingerprint = "second"
        report.findings.insert(again, at: report.findings.firstIndex(of: emailFindings[0])! + 1)
        if let index = report.rules.firstIndex(where: { $0.rule.id == "consent-before-email-link" }) {
            report.rules[index].checked += 1
            report.rules[index].violated += 1
        }

        let text = render(report)
        let document = try parse(text)
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(attribute(root, "name") == "relaylint")
        let suites = try elements(document, "/testsuites/testsuite")
        #expect(suites.compactMap { attribute($0, "name") } == report.rules.map(\.rule.id))

        let email = try #require(suites.first { attribute($0, "name") == "consent-before-email-link" })
        let cases = try elements(document, "/testsuites/testsuite[@name='consent-before-email-link']/testcase")
        let first = "subject u1, event \(try #require(emailFindings[0].event))"
        #expect(
            cases.compactMap { attribute($0, "name") } == [
                first, "subject u1, event l9", "subject u2, event \(try #require(emailFindings[1].event))",
            ])
        #expect(cases.allSatisfy { attribute($0, "classname") == "relaylint.consent-before-email-link" })
        #expect(cases.allSatisfy { $0.elements(forName: "failure").count == 1 })
        let u1Failures = try elements(
            document, "/testsuites/testsuite[@name='consent-before-email-link']/testcase[@name='\(first)']/failure")
        #expect(u1Failures.count == 1)
        #expect(u1Failures.allSatisfy { attribute($0, "type") == "error" })
        #expect(attribute(u1Failures[0], "message") == emailFindings[0].message)
        let body = u1Failures[0].stringValue ?? ""
        #expect(body.contains("\(emailFindings[0].location!): error: \(emailFindings[0].message) [consent-before-email-link]"))
        #expect(body.contains("evidence:\n  trigger: identity.linked"))
        #expect(body.contains("fingerprint: \(emailFindings[0].fingerprint)"))
        #expect(attribute(email, "tests") == "3")
        #expect(attribute(email, "failures") == "3")

        // A rule without findings passes, in one case that says how much it checked.
        for outcome in report.rules where !report.findings.contains(where: { $0.rule == outcome.rule.id }) && outcome.pending == 0 {
            let names = try elements(document, "/testsuites/testsuite[@name='\(outcome.rule.id)']/testcase").compactMap {
                attribute($0, "name")
            }
            let expected =
                switch outcome.checked {
                case 0: "no \(outcome.rule.scope == .app ? "app" : outcome.rule.trigger == nil ? "account" : "event")s to check"
                case 1: "the 1 checked"
                default: "all \(outcome.checked) checked"
                }
            #expect(names.count == 1 && names[0].hasPrefix(expected), "\(outcome.rule.id): \(names)")
            #expect(try elements(document, "/testsuites/testsuite[@name='\(outcome.rule.id)']//failure").isEmpty)
        }

        // Totals count test cases, so passed = tests - failures - skipped is never negative.
        let allCases = try elements(document, "//testcase")
        let failing = allCases.filter { !$0.elements(forName: "failure").isEmpty }
        let skipped = allCases.filter { !$0.elements(forName: "skipped").isEmpty }
        #expect(attribute(root, "tests") == "\(allCases.count)")
        #expect(attribute(root, "failures") == "\(failing.count)")
        #expect(attribute(root, "skipped") == "\(skipped.count)")
        #expect(attribute(root, "errors") == "0")
        #expect(text == render(report))
        #expect(text.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(!text.contains("timestamp=") && !text.contains("hostname="))
    }

    /// Two findings of one subject and event (a rule of a user's own may give them) are two
    /// cases of names of their own.
    @Test func findingsOfOneSubjectAndEventAreNumbered() throws {
        var report = try CIReportFixture.report(subjects: ["u1"])
        var again = report.findings[0]
        again.fingerprint = "second"
        report.findings.append(again)
        let document = try parse(render(report))
        let names = try elements(document, "//testcase[failure]").compactMap { attribute($0, "name") }
        #expect(names == ["subject u1, event l0", "subject u1, event l0 (2)"])
    }

    @Test func passingCaseCountsTheChecksThatComplied() throws {
        var report = try CIReportFixture.report(subjects: ["u1"])
        report.rules[0].checked = 5
        let document = try parse(render(report))
        let names = try elements(document, "//testcase").compactMap { attribute($0, "name") }
        #expect(names == ["subject u1, event l0", "4 other checked events comply"])
        report.findings = []
        report.rules[0].violated = 0
        let clean = try parse(render(report))
        #expect(try elements(clean, "//testcase").compactMap { attribute($0, "name") } == ["all 5 checked events comply"])
        #expect(attribute(try #require(clean.rootElement()), "failures") == "0")
    }

    @Test func hostileValuesAreEscapedInAttributesAndText() throws {
        let eventID = "e<\"'&>]]>"
        let report = try CIReportFixture.report(subjects: [CIReportFixture.hostile], eventIDs: [eventID])
        let finding = try #require(report.findings.first)
        let text = render(report)
        #expect(!text.contains("<script>"))
        #expect(text.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &apos;q&apos;"))
        #expect(text.contains("e&lt;&quot;&apos;&amp;&gt;]]&gt;"))
        // A line break in an attribute is a reference, or a parser would make it a space.
        #expect(text.contains("&#13;&#10;::error::pwned"))

        let document = try parse(text)
        let testCase = try #require(try elements(document, "//testcase").first)
        #expect(attribute(testCase, "name") == "subject " + CIReportFixture.hostile + ", event " + eventID)
        let failure = try #require(testCase.elements(forName: "failure").first)
        #expect(attribute(failure, "message") == finding.message)
        #expect(failure.stringValue?.contains("subject: " + CIReportFixture.hostile) == true)
        #expect(failure.stringValue?.contains(eventID) == true)
    }

    /// Replaced, not dropped: dropped, they joined what they stood between into an address the
    /// masker had not seen as one.
    @Test func charactersXMLCannotHoldAreReplaced() throws {
        let subject = "u\u{0}\u{1}\u{8}\u{B}\u{C}\u{1F}\u{FFFE}\u{FFFF}-end\u{1F600}"
        let report = try CIReportFixture.report(subjects: [subject])
        let text = render(report)
        for scalar in text.unicodeScalars {
            #expect(JUnitReporter.isXMLCharacter(scalar), "U+\(String(scalar.value, radix: 16)) in the output")
        }
        let document = try parse(text)
        let testCase = try #require(try elements(document, "//testcase").first)
        #expect(attribute(testCase, "name") == "subject u" + String(repeating: "\u{FFFD}", count: 8) + "-end\u{1F600}, event l0")
        #expect(JUnitReporter.text("jane\u{0}@example.com") == "jane\u{FFFD}@example.com")
        #expect(JUnitReporter.attribute("a\tb\nc") == "a&#9;b&#10;c")
        #expect(JUnitReporter.text("a\tb\nc\r") == "a\tb\nc&#13;")
    }

    @Test func suppressedFindingsAreSkippedNotFailed() throws {
        var report = try CIReportFixture.report(subjects: ["u1", "u2"])
        report.findings[1].suppression = CIReportFixture.suppression(rule: report.findings[1].rule, subject: "u2")
        let document = try parse(render(report))
        let cases = try elements(document, "//testcase")
        #expect(cases.compactMap { attribute($0, "name") } == ["subject u1, event l0", "subject u2, event l1 (suppressed)"])
        #expect(cases[1].elements(forName: "failure").isEmpty)
        let skipped = try #require(cases[1].elements(forName: "skipped").first)
        #expect(attribute(skipped, "message")?.contains("ticket <42>") == true)
        #expect(attribute(try #require(document.rootElement()), "failures") == "1")
    }

    /// A failure of type warning: a problem to fix, as a warning finding is.
    @Test func anExpiredSuppressionIsAFailureOfTypeWarning() throws {
        let report = CIReportFixture.withExpiredSuppression(try CIReportFixture.report(subjects: ["u1"]))
        let document = try parse(render(report))
        let failures = try elements(document, "/testsuites/testsuite[@name='suppressions']/testcase/failure")
        #expect(failures.count == 1)
        #expect(
            attribute(try #require(failures.first), "message")
                == "suppression of consent-before-email-link for gone expired on 2020-01-01: it no longer applies")
        #expect(attribute(try #require(failures.first), "type") == "warning")
        #expect(attribute(try #require(document.rootElement()), "failures") == "2")
    }
}
