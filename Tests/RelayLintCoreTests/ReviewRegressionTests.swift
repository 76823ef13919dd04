import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Cases a contract review found; each pins the behaviour the contract asks for.
@Suite struct ReviewRegressionTests {
    static let builtIn: RuleSet = try! RuleSet.load(paths: [Fixtures.rules])

    func lint(_ lines: [String], accounts: String? = nil) throws -> LintReport {
        let log = try Fixtures.temporaryFile(named: "events.jsonl", contents: lines.joined(separator: "\n"))
        let export = try accounts.map { [try Fixtures.temporaryFile(named: "accounts.json", contents: $0)] } ?? []
        return try Linter.run(LintRequest(eventPaths: [log], accountPaths: export, rules: Self.builtIn, parallelism: 1))
    }

    @Test(arguments: ["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"])
    func yearsOutsideTheRepresentableRangeAreInvalidNotACrash(time: String) {
        #expect(Timestamp(rfc3339: time) == nil)
    }

    @Test func instantsAtTheEndsOfTheRangeDoNotOverflowWindows() throws {
        let report = try lint([
            #"{"id":"e1","time":-8999999999999,"subject":"u1","type":"signin","provider":"apple.com","is_private_email":true}"#,
            #"{"id":"e2","time":8999999999999,"subject":"u1","type":"identity.linked","kind":"email","value":"j@example.com"}"#,
            #"{"id":"e3","time":8999999999999,"subject":"u1","type":"account.deletion_requested","channel":"in_app"}"#,
        ])
        #expect(report.findings.map(\.event).contains("e2"))
    }

    @Test func hugeDurationsAreInvalidNotACrash() {
        #expect(RuleDuration("999999w") == nil)
        #expect(RuleDuration("99999d") != nil)
    }

    @Test func anExportIdentityLinkedInTheLogKeepsWhatTheExportKnows() throws {
        let export =
            #"{"users":[{"localId":"u1","email":"x@privaterelay.appleid.com","phoneNumber":"+15555550123","createdAt":"1767225600000","providerUserInfo":[{"providerId":"apple.com","rawId":"001.a","email":"x@privaterelay.appleid.com"}]}]}"#
        let report = try lint(
            [
                #"{"id":"e1","time":"2026-01-05T00:00:00Z","subject":"u1","type":"identity.linked","kind":"provider","provider":"apple.com"}"#,
                #"{"id":"e2","time":"2026-01-06T00:00:00Z","subject":"u1","type":"identity.linked","kind":"email","value":"j@example.com"}"#,
            ], accounts: export)
        let fired = Set(report.findings.filter { $0.event != nil }.map { "\($0.rule) \($0.event!)" })
        #expect(fired == ["consent-before-phone-link e1", "consent-before-email-link e2"])
        #expect(report.summary.anonymizedSubjects == 1)
    }

    @Test func anExactRepeatOfAReusedIdIsADuplicateAndFingerprintsStayDistinct() throws {
        let report = try lint([
            #"{"id":"s","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin","provider":"apple.com"}"#,
            #"{"id":"d","time":"2026-01-02T00:00:00Z","subject":"u1","type":"account.deleted"}"#,
            #"{"id":"d","time":"2026-01-03T00:00:00Z","subject":"u1","type":"account.deleted"}"#,
            #"{"type":"account.deleted","subject":"u1","time":"2026-01-03T00:00:00Z","id":"d"}"#,
        ])
        #expect(report.summary.events == 3)
        #expect(report.summary.duplicates == 1)
        let fingerprints = report.findings.filter { $0.rule == "token-revoked-before-deletion" }.map(\.fingerprint)
        #expect(fingerprints.count == 2)
        #expect(Set(fingerprints).count == 2)
    }

    @Test func numbersEqualOnlyWhenTheirDecimalValuesAre() throws {
        #expect(
            JSONNumber(text: "1767225600000.00001", value: 1767225600000.00001)
                != JSONNumber(text: "1767225600000.00002", value: 1767225600000.00002))
        #expect(
            JSONNumber(text: "9007199254740993", value: 9007199254740993) != JSONNumber(text: "9007199254740992", value: 9007199254740992))
        #expect(JSONNumber(text: "10e-1", value: 1) == JSONNumber(text: "1.000", value: 1))
        #expect(JSONNumber(text: "-0.0", value: 0) == JSONNumber(text: "0", value: 0))
        let report = try lint([
            #"{"id":"e1","time":1767225600000.00001,"subject":"u1","type":"signin"}"#,
            #"{"id":"e1","time":1767225600000.00002,"subject":"u1","type":"signin"}"#,
        ])
        #expect(report.summary.duplicates == 0)
    }

    @Test func emptyStringsAreStringsAsTheContractAsks() throws {
        let report = try lint([#"{"id":"","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"#])
        #expect(report.summary.events == 1)
    }

    @Test func phoneFieldsAreMaskedWhateverTheirFormat() {
        let masker = PIIMasker()
        #expect(masker.maskPhoneField("0612345678") == "••••••••78")
        #expect(masker.maskPhoneField("555-555-0123") == "••••••••23")
        #expect(PIIMasker(isEnabled: false).maskPhoneField("0612345678") == "0612345678")
    }

    @Test func aManifestStaysValidWhenTheRuleReadingItIsOff() throws {
        let manifest = try Fixtures.temporaryFile(named: "apps.yml", contents: "apps: [{bundle_id: a, relay_senders: [example.com]}]")
        let onlyOne = try RuleSet.load(paths: [Fixtures.path("Rules/token-revoked-before-deletion.yml")])
        let log = try Fixtures.temporaryFile(
            named: "e.jsonl", contents: #"{"id":"e","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"#)
        let report = try Linter.run(LintRequest(eventPaths: [log], manifestPath: manifest, rules: onlyOne))
        #expect(report.summary.events == 1)
    }
}
