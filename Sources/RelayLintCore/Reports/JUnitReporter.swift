/// JUnit XML, for the test dashboards of GitLab, Jenkins and GitHub test-report actions: every
/// rule is a test suite, so a run shows which rules pass and which fail, and for whom.
///
/// A rule's suite holds one failing test case per finding, named by its subject (or app) and
/// event, whose `<failure>` body is the message, the place in the log and the evidence
/// timeline; then one passing case for the checks that complied (or for a rule that had nothing
/// to check), and a skipped case for checks still pending (a window reaching past the end of the
/// data). Findings a suppression accepts are a skipped case of their own, since they do not fail
/// the run; an expired suppression, a problem to fix, is a failure of type warning in a
/// `suppressions` suite (the exit code does not count it). Counts
/// in `tests`/`failures`/`skipped` are of test cases, as dashboards expect, so
/// "passed" is never negative. Durations are written as `0` (some parsers need the attribute)
/// and there are no timestamps or host names: the same inputs give the same bytes.
public struct JUnitReporter: Reporter {
    /// Invalid records listed in the body of the skipped-records case; the JSON report has all.
    static let maximumListedRecords = 100

    public init() {}
    public var identifier: String { "junit" }
    public var fileExtension: String { "junit.xml" }
    public var summary: String { "JUnit XML, one test suite per rule, for CI test dashboards" }

    /// One `<testcase>` before it is written.
    struct TestCase {
        enum Outcome {
            case passed
            case failed(Finding)
            case skipped(message: String, body: String?)
            /// A failure that is not a finding: an expired suppression.
            case expired(message: String, body: String)
        }

        var name: String
        var classname: String
        var outcome: Outcome
    }

    /// One `<testsuite>` before it is written.
    struct TestSuite {
        var name: String
        var properties: [(name: String, value: String)]
        var cases: [TestCase]

        var failures: Int {
            cases.filter {
                switch $0.outcome {
                case .failed, .expired: true
                case .passed, .skipped: false
                }
            }.count
        }
        var skipped: Int { cases.filter { if case .skipped = $0.outcome { true } else { false } }.count }
    }

    public func render(_ report: LintReport, options: ReportOptions) -> String {
        let suites = self.suites(report)
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append(
            "<testsuites"
                + Self.attributes([
                    ("name", "relaylint"), ("tests", "\(suites.reduce(0) { $0 + $1.cases.count })"),
                    ("failures", "\(suites.reduce(0) { $0 + $1.failures })"), ("errors", "0"),
                    ("skipped", "\(suites.reduce(0) { $0 + $1.skipped })"), ("time", "0"),
                ]) + ">")
        for suite in suites {
            lines.append(
                "  <testsuite"
                    + Self.attributes([
                        ("name", suite.name), ("tests", "\(suite.cases.count)"), ("failures", "\(suite.failures)"), ("errors", "0"),
                        ("skipped", "\(suite.skipped)"), ("time", "0"),
                    ]) + ">")
            if !suite.properties.isEmpty {
                lines.append("    <properties>")
                for property in suite.properties {
                    lines.append("      <property" + Self.attributes([("name", property.name), ("value", property.value)]) + "/>")
                }
                lines.append("    </properties>")
            }
            for testCase in suite.cases {
                let open = "    <testcase" + Self.attributes([("name", testCase.name), ("classname", testCase.classname), ("time", "0")])
                switch testCase.outcome {
                case .passed:
                    lines.append(open + "/>")
                case .skipped(let message, let body):
                    lines.append(open + ">")
                    if let body {
                        lines.append("      <skipped" + Self.attributes([("message", message)]) + ">" + Self.text(body) + "</skipped>")
                    } else {
                        lines.append("      <skipped" + Self.attributes([("message", message)]) + "/>")
                    }
                    lines.append("    </testcase>")
                case .failed(let finding):
                    lines.append(open + ">")
                    lines.append(
                        "      <failure" + Self.attributes([("message", finding.message), ("type", finding.severity.rawValue)]) + ">"
                            + Self.text(Self.body(of: finding)) + "</failure>")
                    lines.append("    </testcase>")
                case .expired(let message, let body):
                    lines.append(open + ">")
                    lines.append(
                        "      <failure" + Self.attributes([("message", message), ("type", "warning")]) + ">" + Self.text(body)
                            + "</failure>"
                    )
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The suites of a report: the rules in report order, then (defensively) any rule that has
    /// findings but is not among the report's rules, then expired suppressions, then the records
    /// `--skip-invalid` skipped.
    func suites(_ report: LintReport) -> [TestSuite] {
        var byRule: [String: [Finding]] = [:]
        var ruleOrder: [String] = []
        for finding in report.findings {
            if byRule[finding.rule] == nil { ruleOrder.append(finding.rule) }
            byRule[finding.rule, default: []].append(finding)
        }
        var suites: [TestSuite] = []
        var listed: Set<String> = []
        for outcome in report.rules where !listed.contains(outcome.rule.id) {
            listed.insert(outcome.rule.id)
            suites.append(suite(for: outcome, findings: byRule[outcome.rule.id] ?? []))
        }
        for rule in ruleOrder where !listed.contains(rule) {
            suites.append(TestSuite(name: rule, properties: [], cases: findingCases(byRule[rule] ?? [], rule: rule, scope: nil)))
        }
        if !report.expiredSuppressions.isEmpty {
            // An expired suppression is a problem to fix, as a warning finding is: a failure of
            // type warning here (the exit code does not count it).
            suites.append(
                TestSuite(
                    name: "suppressions", properties: [],
                    cases: report.expiredSuppressions.map { outcome in
                        let suppression = outcome.suppression
                        let message =
                            "suppression of \(suppression.reportTarget) expired on \(suppression.expires): "
                            + "it no longer applies"
                        let body =
                            "\(suppression.location): warning: \(message)\n\(suppression.justification) "
                            + "(\(suppression.author), until \(suppression.expires))"
                        return TestCase(
                            name: "suppression at \(suppression.location)", classname: "relaylint.suppressions",
                            outcome: .expired(message: message, body: body))
                    }))
        }
        let empty = report.inputsReadNothing
        if !empty.isEmpty {
            suites.append(
                TestSuite(
                    name: "inputs", properties: [],
                    cases: empty.map { input in
                        TestCase(
                            name: LintReport.nothingReadMessage(input.path), classname: "relaylint.inputs",
                            outcome: .skipped(message: "the input held no record; nothing from it was checked", body: nil))
                    }))
        }
        if !report.skipped.isEmpty {
            let (listed, count) = AuditReportContent.invalidRecords(of: report)
            let shown = listed.prefix(Self.maximumListedRecords)
            var body = shown.map(\.description).joined(separator: "\n")
            if let more = AuditReportContent.remainder(of: count, shown: shown.count, listed: listed.count) { body += "\n… " + more }
            suites.append(
                TestSuite(
                    name: "input-records", properties: [],
                    cases: [
                        TestCase(
                            name: "\(count) invalid record\(count == 1 ? "" : "s") skipped", classname: "relaylint.input-records",
                            outcome: .skipped(
                                message: "invalid records were skipped (--skip-invalid); their data was not checked", body: body))
                    ]))
        }
        return suites
    }

    func suite(for outcome: LintReport.RuleOutcome, findings: [Finding]) -> TestSuite {
        let rule = outcome.rule
        let classname = "relaylint." + rule.id
        let noun = rule.scope == .app ? "app" : rule.trigger == nil && rule.accountTrigger != nil ? "account" : "event"
        var cases = findingCases(findings, rule: rule.id, scope: rule.scope)
        let complied = max(0, outcome.checked - findings.count - outcome.pending)
        if complied > 0 {
            let name: String
            if !findings.isEmpty || outcome.pending > 0 {
                name = "\(complied) other checked \(noun)\(complied == 1 ? " complies" : "s comply")"
            } else {
                name = complied == 1 ? "the 1 checked \(noun) complies" : "all \(complied) checked \(noun)s comply"
            }
            cases.append(TestCase(name: name, classname: classname, outcome: .passed))
        }
        if outcome.pending > 0 {
            cases.append(
                TestCase(
                    name: "\(outcome.pending) check\(outcome.pending == 1 ? "" : "s") pending", classname: classname,
                    outcome: .skipped(message: "the rule's window reaches past the end of the data; not decided yet", body: nil)))
        }
        if outcome.checked == 0 && findings.isEmpty {
            // The rule ran and nothing in the data called for it: it passes, as a linter's
            // rule does on code it has nothing to say about.
            cases.append(TestCase(name: "no \(noun)s to check", classname: classname, outcome: .passed))
        }
        var properties = [(name: "title", value: rule.title), (name: "severity", value: rule.severity.rawValue)]
        properties += rule.controls.map { (name: "control", value: $0) }
        return TestSuite(name: rule.id, properties: properties, cases: cases)
    }

    /// One failing case per finding, in report order, which sorts by subject: dashboards count
    /// test cases, and show one failure of each (several `<failure>`s in one case were counted
    /// as one). A case is named by its subject (or app) and the event that triggered the finding;
    /// a finding a suppression accepts is a skipped case, since it does not fail the run.
    func findingCases(_ findings: [Finding], rule: String, scope: Rule.Scope?) -> [TestCase] {
        var cases: [TestCase] = []
        var uses: [String: Int] = [:]
        for finding in findings {
            var name = (scope == .app ? "app " : "subject ") + finding.subject + (finding.event.map { ", event \($0)" } ?? "")
            if finding.suppression != nil { name += " (suppressed)" }
            // Two findings of one subject and event (or of none), which rules of a user's own may
            // give: numbered, so that every case has a name of its own.
            uses[name, default: 0] += 1
            if let use = uses[name], use > 1 { name += " (\(use))" }
            if let suppression = finding.suppression {
                cases.append(
                    TestCase(
                        name: name, classname: "relaylint." + rule,
                        outcome: .skipped(
                            message: "accepted: \(suppression.justification) (\(suppression.author), until \(suppression.expires))",
                            body: Self.body(of: finding))))
            } else {
                cases.append(TestCase(name: name, classname: "relaylint." + rule, outcome: .failed(finding)))
            }
        }
        return cases
    }

    /// What a failure shows when expanded: the compiler-style line editors link, the facts, and
    /// the evidence in timeline order.
    static func body(of finding: Finding) -> String {
        var lines: [String] = []
        let place = finding.location.map { "\($0): " } ?? ""
        lines.append("\(place)\(finding.severity.rawValue): \(finding.message) [\(finding.rule)]")
        lines.append("subject: \(finding.subject)")
        lines.append("app: \(finding.app)")
        if let event = finding.event { lines.append("event: \(event)" + (finding.time.map { " at \($0)" } ?? "")) }
        lines.append("expected: \(finding.expected)")
        if !finding.evidence.isEmpty {
            lines.append("evidence:")
            for item in finding.evidence {
                lines.append(
                    "  \(item.role.rawValue): \(item.type) \(item.event) at \(item.time) (\(item.location))"
                        + (item.note.map { ": \($0)" } ?? ""))
            }
        }
        lines.append("fingerprint: \(finding.fingerprint)")
        return lines.joined(separator: "\n")
    }

    // MARK: XML

    /// ` name="value"` pairs, each value escaped for a double-quoted attribute.
    static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(attribute($0.1))\"" }.joined()
    }

    /// Character data: markup characters become entities, characters XML 1.0 cannot hold become
    /// U+FFFD. Dropped, they joined what they stood between: `jane\u{0}@example.com`, which the
    /// masker leaves as no address, came out as an address no one had masked. A carriage return is written as a reference, which a parser keeps as it is.
    static func text(_ value: String) -> String {
        escape(value) { scalar in
            switch scalar {
            case "\r": "&#13;"
            default: nil
            }
        }
    }

    /// An attribute value between double quotes. Line breaks and tabs are written as references:
    /// a parser would turn them into spaces otherwise (attribute-value normalization).
    static func attribute(_ value: String) -> String {
        escape(value) { scalar in
            switch scalar {
            case "\n": "&#10;"
            case "\r": "&#13;"
            case "\t": "&#9;"
            default: nil
            }
        }
    }

    /// Written as UTF-8 bytes, and a value that needs nothing given back as it is: appended to a
    /// `String` a scalar at a time, escaping was half the time a report of thousands of findings
    /// took to write.
    private static func escape(_ value: String, special: (Unicode.Scalar) -> String?) -> String {
        if value.utf8.allSatisfy(isPlainASCII) { return value }
        var output: [UInt8] = []
        output.reserveCapacity(value.utf8.count + 16)
        for scalar in value.unicodeScalars {
            if let replacement = special(scalar) ?? (BidiControls.contains(scalar) ? BidiControls.visible(scalar) : nil) {
                output.append(contentsOf: replacement.utf8)
                continue
            }
            switch scalar {
            case "&": output.append(contentsOf: "&amp;".utf8)
            case "<": output.append(contentsOf: "&lt;".utf8)
            case ">": output.append(contentsOf: "&gt;".utf8)
            case "\"": output.append(contentsOf: "&quot;".utf8)
            case "'": output.append(contentsOf: "&apos;".utf8)
            default: UTF8.encode(isXMLCharacter(scalar) ? scalar : "\u{FFFD}") { output.append($0) }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A byte of a value that is written as it is wherever it stands: printable ASCII but the
    /// markup characters.
    private static func isPlainASCII(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): false
        default: (0x20...0x7E).contains(byte)
        }
    }

    /// XML 1.0's `Char` production; Swift strings never hold surrogates.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
