import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Rules read what the export says of an account beyond its identities (`exported_account:`):
/// whether it is disabled and its custom claims, read from both export formats, kept through the
/// packed dataset, and validated where the rule names them.
@Suite struct ExportedAccountAttributesTests {
    static let rule = """
        id: no-mail-to-disabled
        severity: warning
        when:
          type: email.sent
          any:
            - exported_account: {disabled: true}
            - exported_account: {custom_claims.siwa.state: consent-revoked}
        message: "mail {event.id} to {subject}"
        """

    func findings(accounts: String, accountsName: String = "accounts.json", subjects: [String]) throws -> [String] {
        let loaded = RuleLoader.load(text: Self.rule, path: "rule.yml", sha256: "")
        #expect(loaded.diagnostics.isEmpty)
        let rules = RuleSet(rules: loaded.rules, files: [])
        let log = subjects.enumerated().map { index, subject in
            #"{"id":"m\#(index)","time":"2026-02-01T09:00:00Z","subject":"\#(subject)","type":"email.sent","to":"x@example.com"}"#
        }
        let events = try Fixtures.temporaryFile(named: "mail.jsonl", contents: log.joined(separator: "\n") + "\n")
        let export = try Fixtures.temporaryFile(named: accountsName, contents: accounts)
        let report = try Linter.run(LintRequest(eventPaths: [events], accountPaths: [export], rules: rules, parallelism: 1))
        return report.findings.filter { $0.rule == "no-mail-to-disabled" }.map(\.subject).sorted()
    }

    @Test func aDisabledAccountAndOneWhoseClaimsSaySoFireInAJSONExport() throws {
        let export = """
            {"users": [
              {"localId": "off", "disabled": true},
              {"localId": "on", "disabled": false, "customAttributes": "{\\"siwa\\":{\\"state\\":\\"active\\"}}"},
              {"localId": "revoked", "customAttributes": "{\\"siwa\\":{\\"state\\":\\"consent-revoked\\"}}"},
              {"localId": "plain"}
            ]}
            """
        #expect(try findings(accounts: export, subjects: ["off", "on", "revoked", "plain", "not-exported"]) == ["off", "revoked"])
    }

    @Test func aCSVExportGivesTheSameAttributesQuotedOrBackslashEscaped() throws {
        func row(_ uid: String, disabled: String, claims: String) -> String {
            var cells = Array(repeating: "", count: 28)
            cells[0] = uid
            cells[26] = disabled
            cells[27] = claims
            return cells.joined(separator: ",") + ",\n"
        }
        let csv =
            row("off", disabled: "true", claims: "")
            + row("revoked", disabled: "false", claims: #""{""siwa"":{""state"":""consent-revoked""}}""#)
            + row("legacy", disabled: "", claims: #""{\""siwa\"":{\""state\"":\""consent-revoked\""}}""#)
            + row("on", disabled: "false", claims: #""{""siwa"":{""state"":""active""}}""#)
        #expect(
            try findings(accounts: csv, accountsName: "accounts.csv", subjects: ["off", "revoked", "legacy", "on"])
                == ["legacy", "off", "revoked"])
    }

    @Test(arguments: [
        (#""customAttributes": "{not json""#, "'customAttributes' is not JSON"),
        (#""customAttributes": "[1]""#, "'customAttributes' must hold a JSON object, found an array"),
        (#""customAttributes": 7"#, "'customAttributes' must be a JSON object in a string, found a number"),
    ])
    func claimsThatAreNotAJSONObjectAreInvalidAtTheirLine(member: String, message: String) throws {
        let export = "{\"users\": [\n{\"localId\": \"ok\"},\n{\"localId\": \"bad\", \(member)}\n]}\n"
        let error = #expect(throws: DiagnosticsError.self) { try findings(accounts: export, subjects: []) }
        #expect(error?.diagnostics.first?.location.line == 3)
        #expect(error?.diagnostics.first?.message.contains(message) == true, "\(error?.diagnostics.first?.message ?? "")")
    }

    @Test func claimsComeBackFromThePackedDataset() {
        let account = AccountRecord(
            localId: "u1", disabled: true, customClaims: .object(["siwa": .object(["state": .string("consent-revoked")])]),
            location: SourceLocation(file: "accounts.json", line: 2))
        var arena = PackedArena()
        let position = StoredAccount.pack(account).withUnsafeBufferPointer { arena.append($0) }
        let back = StoredAccount.unpack(at: position, in: arena)
        #expect(back == account)
        #expect(back?.attribute("custom_claims.siwa.state") == .string("consent-revoked"))
        #expect(back?.attribute("custom_claims.siwa.other") == nil)
        #expect(back?.attribute("disabled") == .bool(true))
    }

    /// A witness comparing the exported account with the firing event (`same_as:`) is decided
    /// alike on a long timeline, searched through its index, and on a short one, walked.
    @Test func aWitnessComparingTheAccountWithTheFiringEventIsFoundOnALongTimeline() throws {
        let rule = """
            id: mail-to-the-exported-address
            severity: warning
            when: {type: email.sent}
            require:
              preceded_by: {type: signin, exported_account: {email: {same_as: event.to}}}
            message: "mail {event.id}"
            """
        let loaded = RuleLoader.load(text: rule, path: "rule.yml", sha256: "")
        #expect(loaded.diagnostics.isEmpty)
        var lines = [#"{"id":"s","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin","provider":"apple.com"}"#]
        for number in 0..<600 {
            let to = number % 3 == 0 ? "other@example.com" : "a1@example.com"
            lines.append(#"{"id":"m\#(number)","time":"2026-01-02T00:00:00Z","subject":"u1","type":"email.sent","to":"\#(to)"}"#)
        }
        let events = try Fixtures.temporaryFile(named: "long.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let export = try Fixtures.temporaryFile(
            named: "accounts.json", contents: #"{"users": [{"localId": "u1", "email": "a1@example.com"}]}"#)
        var request = LintRequest(
            eventPaths: [events], accountPaths: [export], rules: RuleSet(rules: loaded.rules, files: []), parallelism: 1)
        request.indexedSearchFrom = .max
        let walked = try Linter.run(request).findings.filter { $0.rule == "mail-to-the-exported-address" }
        request.indexedSearchFrom = 0
        let indexed = try Linter.run(request).findings.filter { $0.rule == "mail-to-the-exported-address" }
        #expect(walked.count == 200)
        #expect(indexed == walked)
    }

    @Test func anUnknownAttributeIsAnErrorAtItsKeyWithASuggestion() {
        let marked = MarkedText(
            """
            id: custom-rule
            severity: warning
            when:
              type: email.sent
              exported_account: {1️⃣disabeld: true}
            message: "x"
            """)
        let found = RuleLoader.load(text: marked.text, path: "rule.yml", sha256: "").diagnostics
        #expect(found.count == 1)
        #expect(found.first?.location.description == "rule.yml:\(marked.position("1️⃣"))")
        #expect(found.first?.message.contains("unknown account attribute 'disabeld'") == true)
        #expect(found.first?.message.contains("did you mean 'disabled'?") == true)
    }
}
