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

    /// Every instant RFC 3339 can write that falls in years 1 to 9999 in UTC is a time, whatever
    /// its offset; the rest are out of range, an input error that says so, not a crash.
    @Test(arguments: [
        ("9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999999999Z"), ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ("1677-09-21T00:12:44Z", "1677-09-21T00:12:44Z"), ("1677-09-21T00:12:43.145224191Z", "1677-09-21T00:12:43.145224191Z"),
        ("2262-04-11T23:47:16.854775808Z", "2262-04-11T23:47:16.854775808Z"), ("0001-01-01T00:00:00-01:00", "0001-01-01T01:00:00Z"),
        ("9999-12-31T23:59:59+23:59", "9999-12-31T00:00:59Z"), ("1600-02-29T12:00:00Z", "1600-02-29T12:00:00Z"),
        ("0000-12-31T23:30:00-01:00", "0001-01-01T00:30:00Z"),
    ])
    func everyYearRFC3339CanWriteIsATime(time: String, utc: String) throws {
        #expect(try #require(Timestamp(rfc3339: time)).description == utc)
    }

    /// An offset that carries the range's first or last day past it in UTC is out of range: the
    /// report would print "10000-01-01T…Z" or "0000-12-31T…Z", which is no RFC 3339 time (and
    /// which `--data-end` refused when `split` wrote it).
    @Test(arguments: [
        "0000-01-01T00:00:00Z", "0000-12-31T23:59:59.999999999Z", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-23:59",
    ])
    func timesOutsideYears1To9999InUTCAreOutOfRange(time: String) {
        #expect(Timestamp(rfc3339: time) == nil)
        #expect(Timestamp.parse(rfc3339: time) == .outOfRange)
    }

    /// The per-day histogram and the reports took an early year apart with an overflow trap.
    @Test(arguments: ["1677-09-21T00:12:44Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z"])
    func eventsFarFromTodayAreLintedNotACrash(time: String) throws {
        let report = try lint([
            #"{"id":"e0","time":"2026-01-01T00:00:00Z","subject":"u0","type":"signin"}"#,
            #"{"id":"e1","time":"\#(time)","subject":"u1","type":"signin"}"#,
        ])
        #expect(report.summary.events == 2)
        let day = String(time.prefix(10))
        #expect(report.eventsPerDay.contains { $0.day == day && $0.count == 1 }, "\(report.eventsPerDay)")
        for reporter in ReporterRegistry.all {
            let rendered = reporter.render(report, options: ReportOptions(parallelism: 1))
            #expect(!rendered.isEmpty, "\(reporter.identifier)")
        }
    }

    @Test(arguments: [
        ("-62135596800000", "0001-01-01T00:00:00Z"), ("253402300799999.999999", "9999-12-31T23:59:59.999999999Z"),
        ("-9223372036854.775808", "1677-09-21T00:12:43.145224192Z"), ("1e-400", "1970-01-01T00:00:00Z"),
        ("-1e-400", "1970-01-01T00:00:00Z"), ("1.7672256e12", "2026-01-01T00:00:00Z"),
        ("17672256000000000000e-7", "2026-01-01T00:00:00Z"), ("1.7672256000001234567e12", "2026-01-01T00:00:00.000123456Z"),
        ("0.0000015", "1970-01-01T00:00:00.000000001Z"), ("1.5e-6", "1970-01-01T00:00:00.000000001Z"),
        ("-0.0000015", "1969-12-31T23:59:59.999999999Z"), ("-15E-7", "1969-12-31T23:59:59.999999999Z"),
    ])
    func epochMillisecondsCoverTheSameYears(text: String, utc: String) throws {
        let number = JSONNumber(text: text, value: Double(text) ?? .nan)
        #expect(try #require(Timestamp(epochMilliseconds: number)).description == utc)
    }

    /// `1e400` and `1e-400` are both decided by their exact decimal value, as the contract's
    /// "a JSON number of epoch milliseconds" reads: the one is out of range, the other a tiny
    /// number that rounds to the epoch (a double made the first infinite and the second zero).
    @Test(arguments: ["-62135596800001", "253402300800000", "1e400", "-1e400", "1e99999999999999999999", "2.534023008e14"])
    func epochMillisecondsOutsideTheYearsAreOutOfRange(text: String) {
        #expect(Timestamp(epochMilliseconds: JSONNumber(text: text, value: Double(text) ?? .nan)) == nil)
    }

    @Test(arguments: [
        (#""time":"0000-06-01T00:00:00Z""#, "out of range"), (#""time":1e400"#, "out of range"),
        (#""time":-62135596800001"#, "out of range"),
    ])
    func timesOutOfRangeAreInputErrorsThatSaySo(time: String, message: String) throws {
        let line = #"{"id":"e1",\#(time),"subject":"u1","type":"signin"}"#
        let log = try Fixtures.temporaryFile(named: "events.jsonl", contents: line + "\n")
        #expect {
            try Linter.run(LintRequest(eventPaths: [log], rules: Self.builtIn, parallelism: 1))
        } throws: { error in
            let diagnostics = (error as? DiagnosticsError)?.diagnostics ?? []
            return diagnostics.count == 1 && diagnostics[0].message.contains(message) && diagnostics[0].location.line == 1
        }
    }

    @Test func instantsAtTheEndsOfTheRangeDoNotOverflowWindows() throws {
        let report = try lint([
            #"{"id":"e1","time":-62135596800000,"subject":"u1","type":"signin","provider":"apple.com","is_private_email":true}"#,
            #"{"id":"e2","time":253402300799999,"subject":"u1","type":"identity.linked","kind":"email","value":"j@example.com"}"#,
            #"{"id":"e3","time":253402300799999,"subject":"u1","type":"account.deletion_requested","channel":"in_app"}"#,
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

    /// Each clause of §2.4's "Identities from events" stands on its own: a link that says two
    /// things names both identities, and a social provider is a social identity only under
    /// `kind: provider`.
    @Test(arguments: [
        (
            #""kind":"phone","provider":"password","value":"+15555550100","email":"j@example.com""#,
            ["consent-before-email-link", "consent-before-phone-link"]
        ),
        (#""kind":"email","provider":"phone","value":"+15555550100""#, ["consent-before-email-link", "consent-before-phone-link"]),
        (#""kind":"provider","provider":"google.com""#, ["consent-before-social-link"]),
        (#""provider":"google.com""#, []),
        (#""kind":"email","provider":"google.com","value":"j@example.com""#, ["consent-before-email-link"]),
    ])
    func aLinkNamesEachIdentityItsFieldsGive(fields: String, fired: [String]) throws {
        let report = try lint([
            #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u1","type":"account.created","provider":"apple.com","email":"a1@privaterelay.appleid.com"}"#,
            #"{"id":"l","time":"2026-01-02T00:00:00Z","subject":"u1","type":"identity.linked","# + fields + "}",
        ])
        #expect(report.findings.filter { $0.event == "l" }.map(\.rule).sorted() == fired)
    }

    /// In a link that names an email and a phone identity, `value` is the number of a `kind:
    /// phone` link and the address is in `email`: the export's address is matched to the link
    /// by it, and exists from the link on, not from the account's creation (which made the
    /// earlier Apple link a link "the other way round" onto an address it did not yet hold).
    @Test func aLinkOfTwoIdentitiesMatchesTheExportByEach() throws {
        let export =
            #"{"users":[{"localId":"u1","email":"j@example.com","passwordHash":"x","createdAt":"1767225600000","providerUserInfo":[{"providerId":"password","rawId":"j@example.com","email":"j@example.com"}]}]}"#
        let report = try lint(
            [
                #"{"id":"ap","time":"2026-01-05T00:00:00Z","subject":"u1","type":"identity.linked","kind":"provider","provider":"apple.com","email":"a@privaterelay.appleid.com"}"#,
                #"{"id":"l","time":"2026-01-06T00:00:00Z","subject":"u1","type":"identity.linked","kind":"phone","provider":"password","value":"+15555550100","email":"j@example.com"}"#,
            ], accounts: export)
        let fired = report.findings.filter { $0.event != nil }.map { "\($0.rule) \($0.event!)" }.sorted()
        #expect(fired == ["consent-before-email-link l", "consent-before-phone-link l"])
    }

    /// Another event's id is shown in a finding's evidence (and notes) to 256 characters: one
    /// long consent id cited by every finding made a report of gigabytes from a log of
    /// kilobytes. The firing event's own id stays whole.
    @Test func aLongIdCitedByManyFindingsIsShortenedInTheirEvidence() throws {
        let granted = String(repeating: "G", count: 3_000)
        let withdrawn = String(repeating: "W", count: 3_000)
        let trigger = String(repeating: "L", count: 3_000)
        let report = try lint([
            #"{"id":"c","time":"2026-01-01T00:00:00Z","subject":"s","type":"account.created","provider":"apple.com","email":"r@privaterelay.appleid.com"}"#,
            #"{"id":"\#(granted)","time":"2026-01-02T00:00:00Z","subject":"s","type":"consent.granted","scope":"link.email"}"#,
            #"{"id":"\#(withdrawn)","time":"2026-01-03T00:00:00Z","subject":"s","type":"consent.withdrawn","scope":"link.email"}"#,
            #"{"id":"\#(trigger)","time":"2026-01-04T00:00:00Z","subject":"s","type":"identity.linked","kind":"email"}"#,
        ])
        let finding = try #require(report.findings.first { $0.rule == "consent-before-email-link" })
        #expect(finding.event == trigger)
        let shown = finding.evidence.map { "\($0.role) \($0.event.count) \($0.note?.count ?? 0)" }
        #expect(shown == ["witness 257 289", "interruption 257 28", "trigger 3000 14"], "\(shown)")
    }

    /// An empty bundle id names no app: the data is app-less, of the app `"app"` (§2.4, §5),
    /// on the fast path and the strict one (an escape in the id takes the line off the fast one).
    @Test(arguments: ["a", #"\u0061"#])
    func anEmptyAppIsNoApp(id: String) throws {
        let created = #"{"id":"\#(id)","time":"2026-01-01T00:00:00Z","subject":"u1","type":"account.created","provider":"apple.com""#
        let empty = try lint([created + #","app":""}"#])
        let none = try lint([created + "}"])
        #expect(empty.apps.map(\.bundleId) == ["app"])
        #expect(empty.findings.map(\.subject) == ["app"])
        #expect(empty.findings.map(\.fingerprint) == none.findings.map(\.fingerprint))
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
        // 2^53 + 1 has no Double of its own: both texts parse to the value 2^53, and still differ.
        #expect(
            JSONNumber(text: "9007199254740993", value: 9_007_199_254_740_992)
                != JSONNumber(text: "9007199254740992", value: 9_007_199_254_740_992))
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
