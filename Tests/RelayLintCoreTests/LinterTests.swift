import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Reading inputs and evaluating them end to end, through the library API.
@Suite struct LinterTests {
    static let builtIn: RuleSet = try! RuleSet.load(paths: [Fixtures.rules])

    func lint(
        events: [String] = [], accounts: String? = nil, accountsName: String = "accounts.json", manifest: String? = nil,
        skipInvalid: Bool = false, parallelism: Int = 1
    ) throws -> LintReport {
        var eventPaths: [String] = []
        for (index, log) in events.enumerated() {
            eventPaths.append(try Fixtures.temporaryFile(named: "events\(index).jsonl", contents: log))
        }
        let accountPaths = try accounts.map { [try Fixtures.temporaryFile(named: accountsName, contents: $0)] } ?? []
        let manifestPath = try manifest.map { try Fixtures.temporaryFile(named: "manifest.yml", contents: $0) }
        return try Linter.run(
            LintRequest(
                eventPaths: eventPaths, accountPaths: accountPaths, manifestPath: manifestPath,
                rules: Self.builtIn, skipInvalid: skipInvalid, parallelism: parallelism))
    }

    /// Findings of subject rules only: exported accounts make the default app one that creates
    /// accounts, which the app rule judges separately.
    func subjectFindings(_ report: LintReport) -> [Finding] { report.findings.filter { $0.event != nil } }

    /// An app finding without a manifest entry points at the evidence that the app creates
    /// accounts: its first `account.created` (by time), else the export; it pointed at line 1 of
    /// the first log, whatever that line was (audit 6, F2).
    @Test func anAppFindingPointsAtTheAppsFirstAccountCreation() throws {
        let log =
            [
                #"{"id":"c1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"consent.granted","scope":"link.email"}"#,
                #"{"id":"c3","time":"2026-01-03T00:00:00Z","subject":"u3","type":"account.created","provider":"password"}"#,
                #"{"id":"c2","time":"2026-01-02T00:00:00Z","subject":"u2","type":"account.created","provider":"password"}"#,
            ].joined(separator: "\n") + "\n"
        let fromLog = try lint(events: [log]).findings.first { $0.rule == "in-app-deletion-offered" }
        #expect(fromLog?.location?.line == 3)
        #expect(fromLog?.location?.file.hasSuffix("events0.jsonl") == true)

        let export = #"{"users":[{"localId":"u9","email":"x@example.com","createdAt":"1767225600000"}]}"#
        let fromExport = try lint(events: [String(log.split(separator: "\n")[0]) + "\n"], accounts: export).findings.first {
            $0.rule == "in-app-deletion-offered"
        }
        #expect(fromExport?.location?.file.hasSuffix("accounts.json") == true)
        #expect(fromExport?.location?.line == 0)
    }

    func problems(events: String) -> [Diagnostic] {
        do {
            _ = try lint(events: [events])
            return []
        } catch let error as DiagnosticsError {
            return error.diagnostics
        } catch {
            return [Diagnostic(.error, "\(error)", at: RelayLintCore.SourceLocation(file: ""))]
        }
    }

    static let appleSignin =
        #"{"id":"s1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin","provider":"apple.com","email":"a@privaterelay.appleid.com"}"#
    static let emailLink =
        #"{"id":"l1","time":"2026-01-02T00:00:00Z","subject":"u1","type":"identity.linked","kind":"email","value":"jane@example.com"}"#
    static let consent = #"{"id":"c1","time":"2026-01-02T00:00:00Z","subject":"u1","type":"consent.granted","scope":"link.email"}"#

    // MARK: Bad input

    @Test(arguments: [
        ("{\"id\":\"a\",", 1, "invalid JSON"),
        (#"{"id":"a","time":"2026-01-01T00:00:00Z","type":"signin"}"#, 1, "missing required field 'subject'"),
        (#"{"id":"a","time":"2026-01-01 00:00:00Z","subject":"u","type":"signin"}"#, 1, "not an RFC 3339 timestamp"),
        (#"{"id":"a","time":"1767225600000","subject":"u","type":"signin"}"#, 1, "not an RFC 3339 timestamp"),
        // Of the form, but no such day or time: said, rather than the form it already has.
        (
            #"{"id":"a","time":"2026-02-29T10:00:00Z","subject":"u","type":"signin"}"#, 1,
            "no such day or time: '2026-02-29T10:00:00Z' (2026-02 has 28 days)"
        ),
        (#"{"id":"a","time":"2026-03-01T24:00:00Z","subject":"u","type":"signin"}"#, 1, "from 00:00:00 to 23:59:59, without leap seconds"),
        // Malformed too (no zone): told the form.
        (#"{"id":"a","time":"2026-02-29T10:00:00","subject":"u","type":"signin"}"#, 1, "not an RFC 3339 timestamp"),
        (#"{"id":7,"time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"#, 1, "'id' must be a string"),
        (#"["not","an","object"]"#, 1, "expected a JSON object"),
    ])
    func badRecordsNameTheFileAndLine(line: String, lineNumber: Int, message: String) {
        let found = problems(events: line + "\n")
        #expect(found.count == 1)
        #expect(found.first?.message.contains(message) == true, "\(found)")
        #expect(found.first?.location.line == lineNumber)
        #expect(found.first?.location.file.hasSuffix("events0.jsonl") == true)
    }

    /// `"type":"account.deleted", …, "type":"signin"` is not a sign-in: a repeated key is
    /// invalid input at the repeated key, in a log and in an account export.
    @Test func aRepeatedKeyIsInvalidInputNamingTheKey() throws {
        let line = #"{"id":"e1","type":"account.deleted","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"#
        let found = problems(events: "\n" + line + "\n")
        #expect(found.count == 1)
        #expect(found.first?.location.line == 2)
        #expect(found.first?.location.column == 82)
        #expect(found.first?.message.contains("duplicate key 'type'") == true, "\(found)")
        let export = """
            {"users": [
              {"localId": "u1", "email": "a@privaterelay.appleid.com"},
              {"localId": "u2", "disabled": false, "localId": "u1"}
            ]}
            """
        #expect {
            try lint(accounts: export)
        } throws: { error in
            let diagnostics = (error as? DiagnosticsError)?.diagnostics ?? []
            return diagnostics.count == 1 && diagnostics[0].location.line == 3 && diagnostics[0].location.column == 40
                && diagnostics[0].message.contains("duplicate key 'localId'")
        }
    }

    /// An event of many fields is read as any other, and a key repeated among them is found: past
    /// a few dozen keys they are checked through a set, not pair by pair (a line of 400,000 keys
    /// took minutes).
    @Test(.timeLimit(.minutes(1))) func anEventOfManyFieldsIsReadAndItsRepeatedKeyFound() throws {
        let fields = (0..<50_000).map { #""k\#($0)":"v""# }
        let head = #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin","#
        let report = try lint(events: [head + fields.joined(separator: ",") + "}\n"])
        #expect(report.summary.events == 1)
        let repeated = head + fields.joined(separator: ",") + #","k49999":"w"}"#
        let found = problems(events: repeated + "\n")
        #expect(found.count == 1)
        #expect(found.first?.message.contains("duplicate key 'k49999'") == true, "\(found)")
    }

    @Test func syntaxErrorsCarryAColumn() {
        let found = problems(events: "\n  \n" + #"{"id": "a", "time": tru}"# + "\n")
        #expect(found.first?.location.line == 3)
        #expect(found.first?.location.column == 21)
    }

    @Test func skipInvalidCountsAndListsBadLinesAndGoesOn() throws {
        let report = try lint(events: [Self.appleSignin + "\nnot json\n" + Self.emailLink + "\n"], skipInvalid: true)
        #expect(report.skipped.count == 1)
        #expect(report.skipped.first?.location.line == 2)
        #expect(report.inputs.first?.records == 3)
        #expect(report.inputs.first?.invalid == 1)
        #expect(report.findings.map(\.event) == ["l1"])
    }

    @Test func blankLinesAreSkippedAndACRLFFileReadsTheSame() throws {
        let report = try lint(events: [Self.appleSignin + "\r\n \t\r\n\r\n" + Self.emailLink + "\r\n"])
        #expect(report.summary.events == 2)
        #expect(report.findings.first?.location?.line == 4)
    }

    /// A partition written by `split` keeps other partitions' lines as empty ones: they are not
    /// records, and the lines after them keep their numbers.
    @Test func emptyLinesCountOnlyTowardLineNumbers() throws {
        let gap = String(repeating: "\n", count: 300)
        let report = try lint(events: [gap + Self.appleSignin + "\r\n" + gap + Self.emailLink + gap])
        #expect(report.inputs.first?.records == 2)
        #expect(report.findings.first?.location?.line == 602)
    }

    // MARK: Order and duplicates

    @Test func unsortedInputIsOrderedByTime() throws {
        let report = try lint(events: [Self.emailLink + "\n" + Self.appleSignin + "\n"])
        #expect(report.findings.map(\.event) == ["l1"])
    }

    @Test func equalTimesAreOrderedByInputOrderAcrossFiles() throws {
        let consentFirst = try lint(events: [Self.appleSignin + "\n" + Self.consent, Self.emailLink])
        #expect(consentFirst.findings.isEmpty)
        let linkFirst = try lint(events: [Self.appleSignin + "\n" + Self.emailLink, Self.consent])
        #expect(linkFirst.findings.map(\.event) == ["l1"])
    }

    @Test func exactDuplicatesAreCountedOnceAndReusedIdsAreNoted() throws {
        let reordered =
            #"{ "subject":"u1", "value":"jane@example.com", "kind":"email","type":"identity.linked","time":"2026-01-02T00:00:00Z","id":"l1" }"#
        let reused = #"{"id":"s1","time":"2026-01-05T00:00:00Z","subject":"u1","type":"signin","provider":"google.com"}"#
        let report = try lint(events: [[Self.appleSignin, Self.emailLink, reordered, reused].joined(separator: "\n")])
        #expect(report.summary.duplicates == 1)
        #expect(report.summary.events == 3)
        #expect(report.findings.count == 1)
        let note = try #require(report.notes.first { $0.message.contains("'s1' was already used") })
        // Both places are named: the first use (line 1) and the reuse (line 4).
        #expect(note.message.contains("events0.jsonl:1 with different content"))
        #expect(note.location.line == 4)
    }

    // MARK: Export and log together

    @Test func anOldExportsRelayEmailMakesTheSubjectAnonymized() throws {
        let export =
            #"{"users": [{"localId": "u1", "email": "A@PRIVATERELAY.APPLEID.COM", "createdAt": "1767225600000", "providerUserInfo": []}]}"#
        let report = try lint(events: [Self.emailLink], accounts: export)
        #expect(subjectFindings(report).map(\.event) == ["l1"])
        #expect(report.summary.anonymizedSubjects == 1)
    }

    @Test func anExportIdentityTheLogAddsExistsOnlyFromThatEvent() throws {
        // The export lists Google; the log links it: before that link the subject held no social identity.
        let export =
            #"{"users": [{"localId": "u1", "email": "a@privaterelay.appleid.com", "createdAt": "1767225600000", "providerUserInfo": [{"providerId": "google.com", "rawId": "1"}]}]}"#
        let link =
            #"{"id":"g1","time":"2026-01-03T00:00:00Z","subject":"u1","type":"identity.linked","kind":"provider","provider":"google.com"}"#
        let report = try lint(events: [link], accounts: export)
        #expect(subjectFindings(report).map(\.rule) == ["consent-before-social-link"])
    }

    @Test func exportIdentitiesExistAtCreatedAtBeforeEventsOfTheSameInstant() throws {
        let export = #"{"users": [{"localId": "u1", "phoneNumber": "+15555550100", "createdAt": "1767225600000"}]}"#
        let link =
            #"{"id":"a1","time":1767225600000,"subject":"u1","type":"identity.linked","provider":"apple.com","is_private_email":"true"}"#
        let report = try lint(events: [link], accounts: export)
        #expect(subjectFindings(report).map(\.rule) == ["consent-before-phone-link"])
    }

    @Test func aDeletedAccountMissingFromTheExportIsJudgedFromTheLog() throws {
        let created =
            #"{"id":"c","time":"2026-01-01T00:00:00Z","subject":"gone","type":"account.created","provider":"apple.com","email":"g@privaterelay.appleid.com"}"#
        let deleted = #"{"id":"d","time":"2026-02-01T00:00:00Z","subject":"gone","type":"account.deleted","initiator":"user"}"#
        let export = #"{"users": [{"localId": "other", "email": "o@example.com"}]}"#
        let report = try lint(events: [created + "\n" + deleted], accounts: export)
        #expect(subjectFindings(report).map(\.rule) == ["token-revoked-before-deletion"])
        #expect(subjectFindings(report).first?.subject == "gone")
    }

    @Test func csvExportsOfBothWidthsAreRead() throws {
        let old = "u1,a@privaterelay.appleid.com,true,,,\"Doe, Jane\",,,,,,,,,,,,,,,,,,1767225600000,1767225600000,,false,,\n"
        var newer = Array(repeating: "", count: 52)
        newer[0] = "u2"
        newer[1] = "b@example.com"
        newer[2] = "false"
        newer[23] = "1767225600000"
        newer[28] = "001.abc.1"
        newer[29] = "b@privaterelay.appleid.com"
        let csv = old + newer.joined(separator: ",") + ",\n"
        let links = [
            #"{"id":"l1","time":"2026-01-02T00:00:00Z","subject":"u1","type":"identity.linked","kind":"phone","value":"+15555550100"}"#,
            #"{"id":"l2","time":"2026-01-02T00:00:00Z","subject":"u2","type":"identity.linked","kind":"phone","value":"+15555550101"}"#,
        ]
        let report = try lint(events: [links.joined(separator: "\n")], accounts: csv, accountsName: "accounts.csv")
        #expect(report.summary.accounts == 2)
        #expect(subjectFindings(report).map(\.event) == ["l1", "l2"])
    }

    @Test func aCSVRowWithTheWrongWidthIsAnErrorOnItsLine() throws {
        let good = "u0," + Array(repeating: "", count: 27).joined(separator: ",") + ",\n"
        let error = #expect(throws: DiagnosticsError.self) {
            try lint(accounts: good + "u1,a@example.com,true\n", accountsName: "accounts.csv")
        }
        #expect(error?.diagnostics.map(\.location.line) == [2])
        #expect(error?.diagnostics.first?.message.contains("expected 28 or 52 columns") == true)
    }

    /// A row far wider than any export is counted, not kept field by field (a line of millions
    /// of commas was millions of strings), and named with its width.
    @Test func aCSVRowOfManyFieldsIsAnErrorThatCountsThem() throws {
        let wide = "u1" + String(repeating: ",", count: 99_999) + "\n"
        let error = #expect(throws: DiagnosticsError.self) {
            try lint(accounts: wide, accountsName: "accounts.csv")
        }
        #expect(error?.diagnostics.first?.message.contains("found 100000 fields") == true)
    }

    /// One row of a 28-column CSV export, with its trailing comma.
    static func csvRow(_ uid: String, email: String = "") -> String {
        "\(uid),\(email)," + Array(repeating: "", count: 26).joined(separator: ",") + ",\n"
    }

    @Test func invalidUTF8InACSVExportIsAnErrorAtItsLineAndColumn() throws {
        // "u\xFF" and "u\xFE" both decoded as "u\u{FFFD}": two accounts became one.
        var bytes = Data(Self.csvRow("ok").utf8)
        bytes += Data("u".utf8) + Data([0xFF]) + Data(Self.csvRow("", email: "a@example.com").utf8)
        bytes += Data("u".utf8) + Data([0xFE]) + Data(Self.csvRow("").utf8)
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("accounts.csv")
        try bytes.write(to: path)
        let request = LintRequest(accountPaths: [path.path], rules: Self.builtIn, parallelism: 1)
        let error = try #require(throws: DiagnosticsError.self) { try Linter.run(request) }
        #expect(error.diagnostics.map(\.location) == [2, 3].map { RelayLintCore.SourceLocation(file: path.path, line: $0, column: 2) })
        #expect(error.diagnostics.allSatisfy { $0.message.contains("invalid UTF-8") })
        var skipping = request
        skipping.skipInvalid = true
        let report = try Linter.run(skipping)
        #expect(report.summary.accounts == 1)
        #expect(report.skipped.count == 2)
    }

    @Test func aCSVHeaderRowIsSkippedAndNoted() throws {
        for header in ["localId,email,emailVerified", "UID,Email,Email Verified"] {
            let csv = header + Array(repeating: ",x", count: 26).joined() + ",\n" + Self.csvRow("u1") + Self.csvRow("u2")
            let report = try lint(accounts: csv, accountsName: "accounts.csv")
            #expect(report.summary.accounts == 2)
            #expect(report.inputs.first?.records == 2)
            #expect(report.notes.contains { $0.message.hasPrefix("header row skipped") && $0.location.line == 1 }, "\(report.notes)")
        }
        // Only the first row can be a header.
        let error = try #require(throws: DiagnosticsError.self) {
            try lint(accounts: Self.csvRow("u1") + "localId,email\n", accountsName: "accounts.csv")
        }
        #expect(error.diagnostics.map(\.location.line) == [2])
    }

    @Test func aJSONExportMayStartWithAByteOrderMark() throws {
        let report = try lint(accounts: "\u{FEFF}" + #"{"users": [{"localId": "u1"}]}"#)
        #expect(report.summary.accounts == 1)
        let array = try lint(accounts: "\u{FEFF}" + #"[{"localId": "u1"}, {"localId": "u2"}]"#)
        #expect(array.summary.accounts == 2)
        let csv = try lint(accounts: "\u{FEFF}" + Self.csvRow("u1"), accountsName: "accounts.csv")
        #expect(csv.summary.accounts == 1)
    }

    @Test func anInputWithoutRecordsIsAWarningInEveryReport() throws {
        let report = try lint(events: ["", "\n  \n\t\n"], accounts: "", accountsName: "accounts.csv")
        let paths = report.inputs.map(\.path)
        #expect(report.inputsReadNothing.map(\.path) == paths)
        #expect(report.notes.prefix(3).map(\.message) == paths.map(LintReport.nothingReadMessage))
        #expect(report.notes.prefix(3).allSatisfy { $0.severity == .warning })
        for reporter in ReporterRegistry.all {
            let text = reporter.render(report, options: ReportOptions(parallelism: 1))
            #expect(text.contains("no records were read from"), "\(reporter.identifier)")
        }
        #expect(GitHubReporter().stepSummary(report).contains("no records were read from"))
        let read = try lint(events: [Self.emailLink])
        #expect(read.inputsReadNothing.isEmpty)
        #expect(read.notes.isEmpty)
    }

    @Test func exportUsersCarryTheirLineNumbers() throws {
        let export = "{\"users\": [\n{\n  \"localId\": \"u1\"\n},\n{\n  \"localId\": 5\n}]}"
        do {
            _ = try lint(accounts: export)
            Issue.record("expected an error")
        } catch let error as DiagnosticsError {
            #expect(error.diagnostics.map(\.location.line) == [5])
        }
    }

    // MARK: Apps

    @Test func appLessDataBelongsToTheManifestsOnlyApp() throws {
        let created = #"{"id":"c","time":"2026-01-01T00:00:00Z","subject":"u1","type":"account.created","provider":"google.com"}"#
        let report = try lint(events: [created], manifest: "apps: [{bundle_id: com.example.only}]")
        #expect(report.findings.map(\.subject) == ["com.example.only"])
        #expect(report.findings.first?.location?.file.hasSuffix("manifest.yml") == true)
    }

    @Test func aManifestTypoIsCaught() {
        #expect(throws: DiagnosticsError.self) {
            try lint(events: [Self.appleSignin], manifest: "apps: [{bundle_id: a, in_app_deletoin: true}]")
        }
    }

    /// A quoted flag is a string: the message says so, where "found 'true'" read as if `true`
    /// itself were refused.
    @Test func aQuotedFlagInTheManifestIsToldAsAString() throws {
        let error = #expect(throws: DiagnosticsError.self) {
            try lint(events: [Self.appleSignin], manifest: #"apps: [{bundle_id: a, in_app_deletion: "true"}]"#)
        }
        #expect(
            error?.diagnostics.first?.message
                == "'in_app_deletion' must be true or false, found the string 'true' (write it without quotes)",
            "\(String(describing: error?.diagnostics))")
    }

    /// An entry's problems come in the file's order, every run (its keys were read in a
    /// dictionary's order, which changes from run to run).
    @Test func aManifestsProblemsComeInTheFilesOrder() throws {
        let manifest = """
            apps:
              - bundle_id: a
                in_app_deletion: "yes"
                creates_accounts: 1
                relay_senders: [""]
            """
        let error = #expect(throws: DiagnosticsError.self) { try lint(events: [Self.appleSignin], manifest: manifest) }
        let lines = error?.diagnostics.map(\.location.line) ?? []
        #expect(lines == [3, 4, 5], "\(String(describing: error?.diagnostics))")
    }

    // MARK: Determinism and masking

    @Test func theReportDoesNotDependOnThreads() throws {
        var lines: [String] = []
        for subject in 0..<300 {
            lines.append(
                #"{"id":"s\#(subject)","time":"2026-01-01T00:00:00Z","subject":"u\#(subject)","type":"signin","provider":"apple.com","is_private_email":true}"#
            )
            lines.append(
                #"{"id":"l\#(subject)","time":"2026-01-02T00:00:00Z","subject":"u\#(subject)","type":"identity.linked","kind":"phone","value":"+1555555\#(subject)"}"#
            )
        }
        // Lines for both parse paths and for the sequential steps after them: exact duplicates
        // (one reordered), a reused id, blank lines, an escaped string, an invalid line.
        lines += Array(lines[0..<20])
        lines.append(
            #"{"subject":"u1","id":"s1","type":"signin","time":"2026-01-01T00:00:00Z","is_private_email":true,"provider":"apple.com"}"#)
        lines.append(#"{"id":"s2","time":"2026-01-03T00:00:00Z","subject":"u2","type":"signin","provider":"google.com"}"#)
        lines.append("   ")
        lines.append(#"{"id":"e\u0031","time":"2026-01-03T00:00:00Z","subject":"u9","type":"signin","provider":"x\"y"}"#)
        lines.append(#"{"id":"bad","time":"yesterday","subject":"u9","type":"signin"}"#)
        let path = try Fixtures.temporaryFile(named: "many.jsonl", contents: lines.joined(separator: "\n"))
        let single = try Linter.run(LintRequest(eventPaths: [path], rules: Self.builtIn, skipInvalid: true, parallelism: 1))
        let parallel = try Linter.run(LintRequest(eventPaths: [path], rules: Self.builtIn, skipInvalid: true, parallelism: 4))
        #expect(single.findings.count == 300)
        #expect(single.summary.duplicates == 21)
        #expect(single.skipped.count == 1, "\(single.skipped)")
        #expect(single.notes.contains { $0.message.contains("'s2' was already used") })
        #expect(single == parallel)
    }

    @Test func messagesMaskPIIUnlessAskedNotTo() throws {
        let rules = try RuleSet.load(paths: [
            try Fixtures.temporaryFile(
                named: "r.yml",
                contents: """
                    id: show-value
                    severity: note
                    when: {type: identity.linked}
                    require: {preceded_by: {type: never}}
                    message: "linked {event.value}"
                    """)
        ])
        let path = try Fixtures.temporaryFile(named: "e.jsonl", contents: Self.emailLink)
        let masked = try Linter.run(LintRequest(eventPaths: [path], rules: rules))
        #expect(masked.findings.first?.message == "linked j•••@example.com")
        let shown = try Linter.run(LintRequest(eventPaths: [path], rules: rules, showPII: true))
        #expect(shown.findings.first?.message == "linked jane@example.com")
    }

    @Test func addressesAndNumbersInFreeTextAreMaskedInEveryFormat() throws {
        let custom = try Fixtures.temporaryFile(
            named: "note.yml",
            contents: """
                id: show-note
                severity: note
                when: {type: support.contact}
                require: {preceded_by: {type: never}}
                message: "contact {event.note}"
                """)
        let rules = try RuleSet.load(paths: [custom, Fixtures.path("Rules/relay-mail-from-registered-sender.yml")])
        let manifest = try Fixtures.temporaryFile(named: "apps.yml", contents: "apps: [{bundle_id: app, relay_senders: [ok.example]}]")
        let notes = ["call +1 415 555 0188", "or 415-555-0199 today", "mail JOHN+tag@Example.COM, ok"]
        var lines = notes.enumerated().map { index, note in
            #"{"id":"n\#(index)","time":"2026-01-01T00:00:0\#(index)Z","subject":"u","type":"support.contact","note":"\#(note)"}"#
        }
        lines.append(
            #"{"id":"m","time":"2026-01-02T00:00:00Z","subject":"u","type":"email.sent","to":"x@privaterelay.appleid.com","from":"jane.doe@example.com (Jane)"}"#
        )
        let path = try Fixtures.temporaryFile(named: "e.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let report = try Linter.run(LintRequest(eventPaths: [path], manifestPath: manifest, rules: rules, parallelism: 1))
        let messages = report.findings.map(\.message)
        #expect(messages.contains("contact call +1••••••••88"), "\(messages)")
        #expect(messages.contains("contact or ••••••••99 today"), "\(messages)")
        #expect(messages.contains("contact mail J•••@Example.COM, ok"), "\(messages)")
        #expect(messages.contains { $0.contains("comes from j•••@example.com (Jane), which is not") }, "\(messages)")
        for reporter in ReporterRegistry.all {
            let text = reporter.render(report, options: ReportOptions(parallelism: 1))
            for secret in ["555 0188", "555-0199", "JOHN+tag", "jane.doe", "john+tag"] {
                #expect(!text.contains(secret), "\(reporter.identifier) shows \(secret)")
            }
        }
    }

    /// Findings sort by the whole subject id (contract §2.4): two subjects whose ids mask alike
    /// keep their findings apart, in the order `--show-pii` shows.
    @Test func subjectsThatMaskAlikeKeepTheirFindingsTogether() throws {
        let manifest = try Fixtures.temporaryFile(
            named: "apps.yml", contents: "apps: [{bundle_id: com.t.app, creates_accounts: true, in_app_deletion: true}]")
        let created = #""type":"account.created","provider":"apple.com","is_private_email":true}"#
        let linked = #""type":"identity.linked","kind":"phone","value":"+1"}"#
        let log = try Fixtures.temporaryFile(
            named: "e.jsonl",
            contents: [
                #"{"id":"a1","time":"2026-01-01T10:00:00Z","subject":"jane@example.com","# + created,
                #"{"id":"a2","time":"2026-01-01T10:00:00Z","subject":"john@example.com","# + created,
                #"{"id":"j1","time":"2026-01-02T10:00:00Z","subject":"jane@example.com","# + linked,
                #"{"id":"k1","time":"2026-01-03T10:00:00Z","subject":"john@example.com","# + linked,
                #"{"id":"j2","time":"2026-01-04T10:00:00Z","subject":"jane@example.com","# + linked,
            ].joined(separator: "\n") + "\n")
        var request = LintRequest(eventPaths: [log], manifestPath: manifest, rules: Self.builtIn, parallelism: 1)
        let masked = try Linter.run(request)
        request.showPII = true
        let shown = try Linter.run(request)
        let consent = { (report: LintReport) in report.findings.filter { $0.rule == "consent-before-phone-link" }.compactMap(\.event) }
        #expect(consent(shown) == ["j1", "j2", "k1"])
        #expect(consent(masked) == ["j1", "j2", "k1"])
        #expect(masked.findings.map(\.fingerprint) == shown.findings.map(\.fingerprint))
    }

    @Test func inputProblemsQuotingAValueAreMasked() throws {
        let log = try Fixtures.temporaryFile(
            named: "e.jsonl", contents: #"{"id":"a","time":"secret.person@example.com","subject":"u","type":"signin"}"# + "\n")
        let export = try Fixtures.temporaryFile(
            named: "accounts.json", contents: #"{"users":[{"localId":"x","createdAt":"secret.person@example.com"}]}"#)
        let rules = try RuleSet.load(paths: [CIReportFixture.emailRule])
        var request = LintRequest(eventPaths: [log], accountPaths: [export], rules: rules)
        let error = try #require(throws: DiagnosticsError.self) { try Linter.run(request) }
        #expect(error.diagnostics.count == 2)
        #expect(error.diagnostics.allSatisfy { $0.message.contains("'s•••@example.com'") }, "\(error)")
        #expect(!error.description.contains("secret.person"))
        request.skipInvalid = true
        let report = try Linter.run(request)
        #expect(report.skipped.count == 2)
        #expect(!report.skipped.description.contains("secret.person"))
        request.showPII = true
        #expect(try Linter.run(request).skipped.allSatisfy { $0.message.contains("secret.person@example.com") })
    }

    @Test func idsHoldingAnAddressAndJustificationsAreMaskedButStillMatch() throws {
        let subject = "jane@example.com"
        let report = try CIReportFixture.report(subjects: [subject, "+1 415 555 0188"], eventIDs: ["l-bob@example.com", "l2"])
        #expect(report.findings.map(\.subject) == ["+1••••••••88", "j•••@example.com"])
        let finding = try #require(report.findings.last)
        #expect(finding.event == "l•••@example.com")
        #expect(finding.evidence.map(\.event).contains("l•••@example.com"))
        #expect(finding.message.contains("of j•••@example.com"), "\(finding.message)")
        // The fingerprint is made from the whole ids.
        #expect(
            finding.fingerprint
                == Fingerprint.of(
                    rule: finding.rule, subject: subject, event: "l-bob@example.com",
                    discriminator: nil))

        // A suppression names the whole subject id; its justification is masked in every report.
        let log = try Fixtures.temporaryFile(
            named: "e.jsonl",
            contents: [
                #"{"id":"s","time":"2026-01-01T00:00:00Z","subject":"jane@example.com","app":"bob@example.com","type":"signin","provider":"apple.com","email":"a@privaterelay.appleid.com"}"#,
                #"{"id":"l","time":"2026-01-02T00:00:00Z","subject":"jane@example.com","type":"identity.linked","kind":"email","value":"x@example.com"}"#,
            ].joined(separator: "\n"))
        var request = LintRequest(eventPaths: [log], rules: try RuleSet.load(paths: [CIReportFixture.emailRule]), parallelism: 1)
        request.suppressions = [
            Suppression(
                rule: "consent-before-email-link", subject: subject,
                justification: "agreed by mail from joe@example.com, call +1 415 555 0188",
                author: "privacy team <dpo@example.com>", expires: "2099-01-01",
                location: RelayLintCore.SourceLocation(file: ".relaylint.yml", line: 4)),
            // A fingerprint pasted wrong (an address) matches nothing and is listed masked.
            Suppression(
                fingerprint: "kim@example.com", justification: "pasted wrong", author: "a", expires: "2099-01-01",
                location: RelayLintCore.SourceLocation(file: ".relaylint.yml", line: 9)),
        ]
        let suppressed = try Linter.run(request)
        #expect(suppressed.findings.count == 1)
        #expect(suppressed.findings[0].isSuppressed)
        #expect(suppressed.suppressions.map(\.status).first == .active)
        for reporter in ReporterRegistry.all {
            let text = reporter.render(suppressed, options: ReportOptions(parallelism: 1))
            for secret in ["joe@", "555 0188", "jane@", "bob@", "dpo@", "kim@"] {
                #expect(!text.contains(secret), "\(reporter.identifier) shows \(secret)")
            }
        }
        request.showPII = true
        let shown = try Linter.run(request)
        #expect(shown.findings[0].subject == subject)
        #expect(shown.suppressions[0].suppression.justification.contains("joe@example.com"))
        #expect(shown.suppressions[0].suppression.author.contains("dpo@example.com"))
    }

    /// Many findings share their place in the order: those keep the order they came in.
    @Test func findingsAreSortedInReportOrderInPlace() {
        var generator = SplitMix64(seed: 7)
        let findings = (0..<2_000).map { (number: Int) -> Finding in
            let rule = number % 2 == 0 ? "r-a" : "r-b"
            let event: String? = number % 3 == 0 ? nil : "e\(number % 4)"
            let time: Timestamp? = number % 5 == 0 ? nil : Timestamp(nanoseconds: Int64(number % 3))
            return Finding(
                rule: rule, severity: .error, subject: "u\(number % 5)", app: "app", event: event, time: time,
                message: "\(number)", fingerprint: "f\(number % 2)", location: nil, expected: "", evidence: [])
        }
        var shuffled = findings.shuffled(using: &generator)
        // Stable by construction: equal findings by their place in the input.
        let expected = shuffled.indices.sorted { a, b in
            if Finding.reportOrder(shuffled[a], shuffled[b]) { return true }
            return !Finding.reportOrder(shuffled[b], shuffled[a]) && a < b
        }.map { shuffled[$0].message }
        Linter.sortInReportOrder(&shuffled)
        #expect(shuffled.map(\.message) == expected)
    }

    @Test func aSuppressedFindingKeepsItsSuppressionThroughJSON() throws {
        let suppression = Suppression(
            fingerprint: "f1", justification: "accepted", author: "a@example.com", expires: "2030-01-01",
            location: SourceLocation(file: "relaylint.yml", line: 3))
        var finding = Finding(
            rule: "r", severity: .error, subject: "u1", app: "app", event: "e1", time: nil, message: "m", fingerprint: "f1",
            location: nil, expected: "x", evidence: [])
        let plain = String(decoding: try JSONEncoder().encode(finding), as: UTF8.self)
        #expect(!plain.contains("suppression") && !finding.isSuppressed)
        finding.suppression = suppression
        let data = try JSONEncoder().encode(finding)
        #expect(String(decoding: data, as: UTF8.self).contains(#""suppression":{"#))
        let decoded = try JSONDecoder().decode(Finding.self, from: data)
        #expect(decoded == finding && decoded.suppression == suppression && decoded.isSuppressed)
    }

    /// An event's type is text from the log when a mapping reads it from a record (`type: {path:
    /// action}`): masked in the evidence as an id is, where JSON and Markdown showed it whole.
    @Test func anEvidenceTypeIsMaskedLikeAnyTextFromTheLog() throws {
        let time = try #require(Timestamp(rfc3339: "2026-01-02T00:00:00Z"))
        var findings = [Self.finding(of: "u1", event: "e1", type: "mail to jane.doe@example.com", at: time)]
        var shown = findings
        Linter.maskPersonalData(in: &findings, masker: PIIMasker())
        #expect(findings[0].evidence[0].type == "mail to j•••@example.com")
        Linter.maskPersonalData(in: &shown, masker: PIIMasker(isEnabled: false))
        #expect(shown[0].evidence[0].type == "mail to jane.doe@example.com")
    }

    /// An event id made of a subject id that is a phone number shows the subject in it masked
    /// as the subject is: the finding's `event` and its evidence printed the number whole while
    /// its subject and message hid it (audit 9, F1).
    @Test func anEventIdHoldingItsSubjectMasksTheSubjectAsTheSubjectIs() throws {
        let time = try #require(Timestamp(rfc3339: "2026-01-02T00:00:00Z"))
        let subject = "(0161) 496 0000"
        var findings = [Self.finding(of: subject, event: "m-\(subject)", type: "email.sent", at: time)]
        findings[0].message = "mail m-\(subject) sent"
        var shown = findings
        Linter.maskPersonalData(in: &findings, masker: PIIMasker())
        #expect(findings[0].subject == "•••••••••00")
        #expect(findings[0].message == "mail m-•••••••••00 sent")
        #expect(findings[0].event == "m-•••••••••00")
        #expect(findings[0].evidence[0].event == "m-•••••••••00")
        Linter.maskPersonalData(in: &shown, masker: PIIMasker(isEnabled: false))
        #expect(shown[0].event == "m-\(subject)" && shown[0].evidence[0].event == "m-\(subject)")
    }

    /// An app finding cites the first mail of another subject: the subject in that mail's id is
    /// masked as that subject is, in every format.
    @Test func anAppFindingMasksTheSubjectInTheEventItCites() throws {
        let rules = try RuleSet.load(paths: [Fixtures.path("Rules/relay-mail-from-registered-sender.yml")])
        let manifest = try Fixtures.temporaryFile(named: "apps.yml", contents: "apps: [{bundle_id: app}]")
        let mail =
            #"{"id":"m-(0161) 496 0000","time":"2026-01-02T00:00:00Z","subject":"(0161) 496 0000","type":"email.sent","to":"a@privaterelay.appleid.com","from":"x@example.com"}"#
        let path = try Fixtures.temporaryFile(named: "e.jsonl", contents: mail + "\n")
        let report = try Linter.run(LintRequest(eventPaths: [path], manifestPath: manifest, rules: rules, parallelism: 1))
        let finding = try #require(report.findings.first)
        #expect(finding.evidence.map(\.event) == ["m-•••••••••00"])
        for reporter in ReporterRegistry.all {
            let text = reporter.render(report, options: ReportOptions(parallelism: 1))
            #expect(!text.contains("496 0000"), "\(reporter.identifier) shows the number")
        }
        let shown = try Linter.run(LintRequest(eventPaths: [path], manifestPath: manifest, rules: rules, showPII: true, parallelism: 1))
        #expect(shown.findings.first?.evidence.map(\.event) == ["m-(0161) 496 0000"])
        #expect(shown.findings.first?.fingerprint == finding.fingerprint)
    }

    /// The subjects app findings cite are kept for those findings only: a subject's own finding
    /// whose event id is one an app finding cites of another subject keeps its own (hostile 16, F2).
    @Test func aCitedSubjectIsKeptForTheAppFindingOnly() throws {
        let time = try #require(Timestamp(rfc3339: "2026-01-02T00:00:00Z"))
        let subject = "(0161) 496 0000"
        var findings = [
            Self.finding(of: subject, event: nil, evidence: "x-\(subject)", at: time, fingerprint: "own"),
            Self.finding(of: "app", event: nil, evidence: "y-\(subject)", at: time, fingerprint: "app-level"),
        ]
        let cited = ["x-\(subject)": "someone-else", "y-\(subject)": subject]
        Linter.maskPersonalData(in: &findings, masker: PIIMasker(), citedSubjects: (cited, ["app-level"]))
        // The subject's own finding keeps its own subject, not the one an app finding cites.
        #expect(findings[0].evidence[0].event == "x-•••••••••00")
        // The app finding keeps the subject it cites, whose number free text would show whole.
        #expect(PIIMasker().mask("y-\(subject)") == "y-\(subject)")
        #expect(findings[1].evidence[0].event == "y-•••••••••00")
    }

    /// A finding of rule `r` with one piece of evidence, its trigger (`evidence`, or the finding's
    /// own event), to test what masking does to its values.
    static func finding(
        of subject: String, event: String?, evidence: String? = nil, type: String = "t", at time: Timestamp, fingerprint: String = "f1"
    ) -> Finding {
        Finding(
            rule: "r", severity: .error, subject: subject, app: "app", event: event, time: time, message: "m", fingerprint: fingerprint,
            location: nil, expected: "x",
            evidence: [
                Evidence(
                    role: .trigger, event: evidence ?? event ?? "", type: type, time: time,
                    location: RelayLintCore.SourceLocation(file: "log.jsonl", line: 1))
            ])
    }

    @Test func fingerprintsAreStableAndDistinct() throws {
        let first = try lint(events: [Self.appleSignin + "\n" + Self.emailLink])
        let second = try lint(events: ["\n" + Self.emailLink + "\n" + Self.appleSignin])
        #expect(first.findings.map(\.fingerprint) == second.findings.map(\.fingerprint))
        #expect(Fingerprint.of(rule: "a", subject: "b", event: "c") != Fingerprint.of(rule: "a", subject: "b", event: "d"))
    }

    /// Events that come close to the witness (of its type, failing its other conditions) are
    /// shown as evidence, the nearest three of them.
    @Test func theNearestThreeNearMissesAreEvidence() throws {
        var lines = [
            #"{"id":"e0","time":"2026-04-01T10:00:00Z","subject":"u4","type":"account.created","provider":"apple.com","email":"d4@privaterelay.appleid.com"}"#
        ]
        for minute in 1...5 {
            lines.append(
                #"{"id":"r\#(minute)","time":"2026-05-01T10:0\#(minute):00Z","subject":"u4","type":"token.revoked","provider":"apple.com","status":"failed"}"#
            )
        }
        lines.append(#"{"id":"d","time":"2026-05-01T11:00:00Z","subject":"u4","type":"account.deleted","initiator":"user"}"#)
        let report = try lint(events: [lines.joined(separator: "\n")])
        let finding = try #require(report.findings.first { $0.rule == "token-revoked-before-deletion" })
        let nearMisses = finding.evidence.filter { $0.note?.hasPrefix("does not count: not ") == true }
        #expect(nearMisses.map(\.event) == ["r3", "r4", "r5"])
    }
}

/// A seeded generator, so that a shuffled test input is the same in every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
