import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The SARIF report: valid shape, what code scanning keys on, limits, and escaping.
@Suite struct SARIFReporterTests {
    func decode(_ text: String) throws -> SARIFLog {
        try JSONDecoder().decode(SARIFLog.self, from: Data(text.utf8))
    }

    func render(_ report: LintReport, reporter: SARIFReporter = SARIFReporter()) throws -> (text: String, log: SARIFLog) {
        let text = reporter.render(report, options: ReportOptions())
        return (text, try decode(text))
    }

    @Test func isRegisteredAsSarif() throws {
        let reporter = try #require(ReporterRegistry.reporter(for: "sarif"))
        #expect(reporter.fileExtension == "sarif")
        #expect(reporter is SARIFReporter)
    }

    @Test func headerToolAndDeterminism() throws {
        let report = try CIReportFixture.report(subjects: ["u1"])
        let (text, log) = try render(report)
        #expect(log.schema.hasSuffix("sarif-schema-2.1.0.json"))
        #expect(log.version == "2.1.0")
        #expect(log.runs.count == 1)
        let driver = try #require(log.runs.first).tool.driver
        #expect(driver.name == report.tool.name)
        #expect(driver.version == report.tool.version)
        #expect(driver.semanticVersion == report.tool.version)
        #expect(driver.informationUri == report.tool.informationURI)
        #expect(text.hasPrefix("{\n"))
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains(#""$schema" : "https://"#))
        #expect(!text.contains(#"\/"#), "slashes are not escaped")
        #expect(text == SARIFReporter().render(report, options: ReportOptions()))
    }

    @Test func everyRuleIsListedWithHelp() throws {
        // The whole built-in pack on data where most rules do not fire: all must be listed.
        let report = try CIReportFixture.report(subjects: ["u1"], rulePaths: [Fixtures.rules])
        let log = try render(report).log
        let rules = try #require(log.runs.first).tool.driver.rules
        #expect(rules.map(\.id) == report.rules.map(\.rule.id))
        #expect(report.rules.count >= 5)
        for (descriptor, outcome) in zip(rules, report.rules) {
            let rule = outcome.rule
            #expect(descriptor.name == SARIFReporter.upperCamelCase(rule.id))
            #expect(descriptor.name.first?.isUppercase == true && !descriptor.name.contains("-"))
            #expect(descriptor.shortDescription.text == rule.title)
            #expect(descriptor.fullDescription.text == rule.description)
            #expect(descriptor.help.text.contains(rule.description))
            #expect(descriptor.help.text.contains(rule.rationale))
            for control in rule.controls {
                #expect(descriptor.help.text.contains(control))
                #expect(descriptor.properties.tags.contains(control))
            }
            let markdown = try #require(descriptor.help.markdown)
            for reference in rule.references {
                if let url = reference.url { #expect(markdown.contains("](\(url))"), "\(rule.id): \(markdown)") }
            }
            #expect(descriptor.helpUri == rule.references.first?.url)
            #expect(descriptor.defaultConfiguration.level == rule.severity.rawValue)
            #expect(descriptor.properties.tags.starts(with: ["privacy", "sign-in-with-apple"]))
            #expect(Set(descriptor.properties.tags).count == descriptor.properties.tags.count)
        }
        #expect(SARIFReporter.upperCamelCase("consent-before-email-link") == "ConsentBeforeEmailLink")
    }

    @Test func resultsCarryFingerprintRuleAndLocation() throws {
        let report = try CIReportFixture.report(subjects: ["u1", "u2"])
        let run = try #require(try render(report).log.runs.first)
        #expect(run.results.count == report.findings.count)
        #expect(report.findings.count == 2)
        for (result, finding) in zip(run.results, report.findings) {
            #expect(result.partialFingerprints == ["primaryLocationLineHash": finding.fingerprint])
            #expect(result.ruleId == finding.rule)
            let index = try #require(result.ruleIndex)
            #expect(run.tool.driver.rules[index].id == finding.rule)
            #expect(result.level == finding.severity.rawValue)
            #expect(result.message.text == finding.message)
            let location = try #require(result.locations?.first?.physicalLocation)
            let path = try #require(finding.location?.file)
            // The temporary file is absolute: a file:// URI without a base id.
            #expect(location.artifactLocation.uri == "file://" + path)
            #expect(location.artifactLocation.uriBaseId == nil)
            #expect(location.region?.startLine == finding.location?.line)
            #expect(result.properties.subject == finding.subject)
            #expect(result.properties.app == finding.app)
            #expect(result.properties.event == finding.event)
            #expect(result.properties.time == finding.time?.description)
            let artifact = run.artifacts[try #require(location.artifactLocation.index)]
            #expect(artifact.location.uri == location.artifactLocation.uri)
        }
        #expect(run.artifacts.map(\.hashes) == report.inputs.map { Optional(["sha-256": $0.sha256]) })
        #expect(run.invocations.count == 1 && run.invocations[0].executionSuccessful)
        #expect(run.properties.truncated == false)
    }

    @Test func relativePathsResolveAgainstSourceRoot() throws {
        var report = try CIReportFixture.report(subjects: ["u1"])
        report.findings[0].location = RelayLintCore.SourceLocation(file: "./logs/my events#1%.jsonl", line: 7)
        let result = try #require(try render(report).log.runs.first?.results.first)
        let artifact = try #require(result.locations?.first?.physicalLocation.artifactLocation)
        #expect(artifact.uri == "logs/my%20events%231%25.jsonl")
        #expect(artifact.uriBaseId == "%SRCROOT%")
        #expect(ReportURI.fileReference("c:/x").uri == "c%3A/x")
    }

    @Test func regionIsOmittedForLineZero() throws {
        var report = try CIReportFixture.report(subjects: ["u1", "u2"])
        report.findings[0].location?.line = 0
        report.findings[1].location = nil
        let (text, log) = try render(report)
        let results = try #require(log.runs.first).results
        let first = try #require(results[0].locations?.first?.physicalLocation)
        #expect(first.region == nil)
        // No location at all: the first input file as a whole, still without a region.
        let second = try #require(results[1].locations?.first?.physicalLocation)
        #expect(second.region == nil)
        #expect(second.artifactLocation.index == 0)
        #expect(!text.contains("\"startLine\" : 0"))
    }

    @Test func hostileValuesStayValuesAndMakeNoLinks() throws {
        let report = try CIReportFixture.report(subjects: [CIReportFixture.hostile], eventIDs: ["e<\"'>[y](2)"])
        let (text, log) = try render(report)
        let result = try #require(log.runs.first?.results.first)
        // JSON carries every character exactly…
        #expect(result.properties.subject == CIReportFixture.hostile)
        #expect(result.properties.event == "e<\"'>[y](2)")
        // …and no raw line break ends up inside a JSON string.
        for line in text.split(separator: "\n") where line.contains("pwned") {
            #expect(line.contains(#"\r\n::error::pwned"#))
        }
        // SARIF would read `[x](1)` in a message as a link to related location 1.
        let message = result.message.text
        #expect(!message.contains("[x](1)"))
        #expect(message.contains(#"\[x\](1)"#))
        #expect(message.contains(#"e<"'>\[y\](2)"#))
        #expect(unescapeEmbeddedLinks(message) == report.findings[0].message)
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("[x](1)", #"\[x\](1)"#),
        (#"a\[b](1)"#, #"a\\\[b\](1)"#),
        (#"C:\path"#, #"C:\path"#),
        (#"\\]"#, #"\\\\\]"#),
    ])
    func embeddedLinkEscaping(input: String, escaped: String) {
        #expect(SARIFLog.Message.escapeEmbeddedLinks(input) == escaped)
        #expect(unescapeEmbeddedLinks(escaped) == input)
    }

    @Test func helpMarkdownAndHelpUriFromAHostileRule() throws {
        let rule = """
            id: hostile-rule
            title: "<script>alert(1)</script> *bold* [t](https://evil.example)"
            severity: warning
            description: "First | line\\n# heading\\n- item <img src=x>"
            rationale: "Because _reasons_ `code`"
            references:
              - {title: "Evil [ref]", url: "javascript:alert(1)"}
              - {title: "Spec (draft)", url: "https://example.com/a b(c)"}
            controls: ["Control <1>"]
            when: {type: identity.linked}
            require:
              preceded_by: {type: consent.granted}
            message: "{event.type} {event.id} for {subject}"
            """
        let path = try Fixtures.temporaryFile(named: "hostile-rule.yml", contents: rule)
        let report = try CIReportFixture.report(subjects: ["u1"], rulePaths: [path])
        let descriptor = try #require(try render(report).log.runs.first?.tool.driver.rules.first)
        let markdown = try #require(descriptor.help.markdown)
        #expect(markdown.contains(##"First \| line \# heading - item \<img src=x\>"##), "\(markdown)")
        #expect(markdown.contains(#"Because \_reasons\_ \`code\`"#))
        #expect(!markdown.contains("javascript:alert(1)]") && !markdown.contains("](javascript"))
        #expect(markdown.contains(#"Evil \[ref\] (javascript:alert(1))"#))
        #expect(markdown.contains("[Spec (draft)](https://example.com/a%20b%28c%29)"))
        #expect(markdown.contains(#"Control \<1\>"#))
        // The help link skips the javascript: reference.
        #expect(descriptor.helpUri == "https://example.com/a%20b%28c%29")
        #expect(descriptor.defaultConfiguration.level == "warning")
        #expect(descriptor.properties.problemSeverity == "warning")
    }

    @Test func resultsAreCutAtTheLimitInReportOrderAndTheRunSaysSo() throws {
        let base = try CIReportFixture.report(subjects: ["u1"])
        let report = CIReportFixture.multiplied(base, count: SARIFReporter.maximumResults + 3)
        let run = try #require(SARIFReporter().log(report).runs.first)
        #expect(SARIFReporter.maximumResults == 25_000)
        #expect(run.results.count == 25_000)
        let fingerprints = run.results.map { $0.partialFingerprints["primaryLocationLineHash"] ?? "" }
        let expected = report.findings.prefix(25_000).map(\.fingerprint)
        #expect(fingerprints.count == expected.count)
        let firstDifference = expected.indices.first { $0 >= fingerprints.count || fingerprints[$0] != expected[$0] }
        #expect(firstDifference == nil, "results differ from the first findings in report order at \(firstDifference ?? -1)")
        #expect(run.properties.truncated)
        #expect(run.properties.findings == 25_003)
        #expect(run.properties.results == 25_000)
        #expect(run.properties.truncation?.contains("25003 findings") == true)
        let invocation = try #require(run.invocations.first)
        #expect(invocation.executionSuccessful)
        let notification = try #require(invocation.toolExecutionNotifications?.first)
        #expect(notification.level == "warning")
        #expect(notification.message.text.contains("first 25000"))

        // Exactly at the limit: nothing is cut, nothing said.
        let exact = try #require(SARIFReporter().log(CIReportFixture.multiplied(base, count: 25_000)).runs.first)
        #expect(exact.results.count == 25_000)
        #expect(!exact.properties.truncated)
        #expect(exact.invocations.first?.toolExecutionNotifications == nil)
    }

    @Test func evidenceBecomesRelatedLocations() throws {
        var report = try CIReportFixture.report(subjects: ["u1"])
        let trigger = try #require(report.findings[0].evidence.first)
        var witness = trigger
        witness.role = .witness
        witness.event = "w1"
        witness.note = "does not count"
        witness.location.line = 3
        report.findings[0].evidence = [witness, trigger]
        let result = try #require(try render(report).log.runs.first?.results.first)
        let related = try #require(result.relatedLocations)
        #expect(related.count == 1, "the trigger is the primary location, not a related one")
        #expect(related[0].id == 1)
        #expect(related[0].message?.text == "witness: \(witness.type) w1 at \(witness.time): does not count")
        #expect(related[0].physicalLocation.region?.startLine == 3)
    }

    @Test func suppressedFindingsAreLeftOutBecauseCodeScanningIgnoresSuppressions() throws {
        var report = try CIReportFixture.report(subjects: ["u1", "u2"])
        report.findings[1].suppression = CIReportFixture.suppression(rule: report.findings[1].rule, subject: "u2")
        report = CIReportFixture.withExpiredSuppression(report)
        let run = try #require(try render(report).log.runs.first)
        #expect(run.results.map(\.properties.subject) == ["u1"])
        #expect(run.properties.findings == 1)
        // An expired suppression wants renewing or removing: a warning notification says so.
        let notification = try #require(run.invocations.first?.toolExecutionNotifications?.first)
        #expect(notification.level == "warning")
        #expect(notification.message.text.hasSuffix("expired on 2020-01-01: it no longer applies"))
    }

    /// What a SARIF viewer shows for an escaped message.
    func unescapeEmbeddedLinks(_ text: String) -> String {
        var output = ""
        var escaping = false
        for character in text {
            if !escaping && character == "\\" {
                escaping = true
                continue
            }
            if escaping && !["[", "]", "\\"].contains(character) { output.append("\\") }
            escaping = false
            output.append(character)
        }
        if escaping { output.append("\\") }
        return output
    }
}
