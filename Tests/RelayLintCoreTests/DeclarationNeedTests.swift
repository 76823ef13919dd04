import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// `needs_declaration`: a rule that would fire on every event because the app declares nothing
/// reports the missing declaration once per app, with the rest as a count; declared apps are
/// checked per event. relay-mail-from-registered-sender uses it for `relay_senders`.
@Suite struct DeclarationNeedTests {
    static let rule = "relay-mail-from-registered-sender"

    /// `mails` relay mails from an unregistered sender, one subject each, half for each app.
    func lint(manifest: String?, mails: Int = 40, shard: Shard? = nil) throws -> LintReport {
        let lines = (0..<mails).map { index in
            let app = index % 2 == 0 ? "com.example.notes" : "com.example.recipes"
            return #"{"id":"m\#(index)","time":"2026-01-01T00:00:\#(String(format: "%02d", index % 60))Z","subject":"u\#(index)","#
                + #""app":"\#(app)","type":"email.sent","to":"u\#(index)@privaterelay.appleid.com","from":"hello@mailer.example.net"}"#
        }
        let log = try Fixtures.temporaryFile(named: "events.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let manifestPath = try manifest.map { try Fixtures.temporaryFile(named: "manifest.yml", contents: $0) }
        var request = LintRequest(
            eventPaths: [log], manifestPath: manifestPath, rules: try RuleSet.load(paths: [Fixtures.path("Rules/\(Self.rule).yml")]),
            parallelism: 2)
        request.shard = shard
        return try Linter.run(request)
    }

    @Test func anAppWithoutDeclaredSendersGetsOneFindingWithTheCount() throws {
        let report = try lint(manifest: "apps:\n  - bundle_id: com.example.notes\n  - bundle_id: com.example.recipes\n")
        #expect(report.findings.map(\.subject) == ["com.example.notes", "com.example.recipes"])
        let finding = try #require(report.findings.first)
        #expect(finding.event == nil && finding.time == nil)
        #expect(
            finding.message
                == "com.example.notes sends mail to relay addresses but declares no relay_senders in the manifest, so no sender can be checked (mails to relay addresses: 20)"
        )
        #expect(finding.location?.file.hasSuffix("manifest.yml") == true)
        #expect(finding.evidence.first?.note == "the first of 20 events the rule fired on for this app")
        #expect(finding.expected == "the app's manifest entry declares relay_senders")
        let outcome = try #require(report.rules.first)
        #expect(outcome.checked == 2 && outcome.violated == 2)
    }

    @Test func declaredSendersAreCheckedPerMailAsBefore() throws {
        let report = try lint(
            manifest: """
                apps:
                  - {bundle_id: com.example.notes, relay_senders: [example.com]}
                  - bundle_id: com.example.recipes
                """)
        let notes = report.findings.filter { $0.app == "com.example.notes" }
        #expect(notes.count == 20)
        #expect(notes.allSatisfy { $0.event != nil && $0.message.contains("is not a registered relay sender of com.example.notes") })
        #expect(report.findings.filter { $0.app == "com.example.recipes" }.map(\.event) == [nil])
    }

    @Test func withoutAManifestTheDataWithoutAnAppIsNamed() throws {
        let report = try lint(manifest: nil)
        // Events name their apps, so each app gets its finding; none is called "app app".
        #expect(report.findings.count == 2)
        #expect(report.findings.allSatisfy { $0.message.hasSuffix("(mails to relay addresses: 20)") })
    }

    @Test func shardsAddUpToTheSameFindingOnce() throws {
        let manifest = "apps:\n  - bundle_id: com.example.notes\n  - bundle_id: com.example.recipes\n"
        let whole = try lint(manifest: manifest)
        let first = try lint(manifest: manifest, shard: Shard(index: 1, count: 2))
        let second = try lint(manifest: manifest, shard: Shard(index: 2, count: 2))
        #expect(first.findings.map(\.message) == whole.findings.map(\.message))
        #expect(second.findings.isEmpty)
    }

    @Test func theLoaderPointsAtMistakes() throws {
        let text = """
            id: needs-on-an-app-rule
            severity: warning
            scope: app
            needs_declaration: {manifest: relay_senders, message: "{app} {subject}"}
            message: m
            """
        let loaded = RuleLoader.load(text: text, path: "r.yml", sha256: "")
        #expect(
            loaded.diagnostics.map(\.message) == ["'needs_declaration' needs a subject rule fired by events ('when:' an event matcher)"])
        let badPlaceholder = RuleLoader.load(
            text: """
                id: bad-placeholder
                severity: warning
                when: {type: email.sent}
                needs_declaration: {manifest: relay_senders, message: "{subject} sent {count}"}
                message: m
                """, path: "r.yml", sha256: "")
        #expect(
            badPlaceholder.diagnostics.map(\.description) == [
                "r.yml:4:55: error: unknown placeholder '{subject}' in message (use {app}, {rule} or {count})"
            ])
    }
}
