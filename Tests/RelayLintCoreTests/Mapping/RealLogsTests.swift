import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The example story given in the real formats (Cloud Logging entries, signed Apple
/// notifications, the backend's log through its mapping) gives the same findings as the same
/// story in relaylint's own format, and every record of the original files is accounted for.
@Suite struct RealLogsTests {
    static let realLogs = "Examples/real-logs/"

    static func request(events: [String], mapping: Bool = true) throws -> LintRequest {
        var request = LintRequest(
            eventPaths: events.map(Fixtures.path), accountPaths: [Fixtures.path("Examples/accounts.json")],
            manifestPath: Fixtures.path("Examples/manifest.yml"), rules: try RuleSet.load(paths: [Fixtures.rules]))
        // The story has two apps: Cloud Logging is read through the example's copy of the built-in
        // mapping that takes each entry's app from its user agent.
        let userMappings = mapping ? ["backend-mapping.yml", "cloud-logging-by-app.yml"].map { Fixtures.path(realLogs + $0) } : []
        request.mappings = try MappingSet.load(userPaths: userMappings).mappings
        return request
    }

    static let realFiles = ["backend.jsonl", "identity-platform.jsonl", "audit-logs.json", "apple-notifications.jsonl"].map {
        realLogs + $0
    }

    static func findingKeys(_ report: LintReport) -> [String] {
        report.findings.map { "\($0.rule) \($0.subject) \($0.event ?? "-") \($0.time?.description ?? "-") \($0.message)" }
    }

    @Test func theRealFormatsGiveTheNativeLogsFindings() throws {
        let native = try Linter.run(try Self.request(events: ["Examples/events.jsonl"], mapping: false))
        var real = try Self.request(events: Self.realFiles)
        real.appleKeys = try SigningKeySet.load(path: Fixtures.path(Self.realLogs + "apple-keys.json"))
        let report = try Linter.run(real)
        #expect(!native.findings.isEmpty)
        #expect(Self.findingKeys(report) == Self.findingKeys(native))
        // Evidence points at the original files.
        let files = Set(report.findings.filter { $0.event != nil }.compactMap(\.location?.file))
        #expect(!files.isEmpty)
        #expect(files.isSubset(of: Set(Self.realFiles.map(Fixtures.path) + [Fixtures.path("Examples/accounts.json")])))
    }

    /// The example's copy of the Cloud Logging mapping is the built-in one but for the app: every
    /// record of the built-in mapping's examples gives the same outcome through both, once the
    /// copy's app is set aside. (The story's checks read Cloud Logging through the copy only.)
    @Test func theExampleCopyMapsAsTheBuiltInMappingButForTheApp() throws {
        let builtIn = try #require(try MappingSet.load(userPaths: []).mappings.first { $0.id == "google-cloud-logging" })
        let copy = try #require(
            try MappingSet.load(userPaths: [Fixtures.path(Self.realLogs + "cloud-logging-by-app.yml")]).mappings.first {
                $0.id == "cloud-logging-by-app"
            })
        let original = RecordMapper(mapping: builtIn, tokens: TokenReader(keys: nil))
        let copied = RecordMapper(mapping: copy, tokens: TokenReader(keys: nil))
        var apps = 0
        for example in builtIn.examples {
            var outcome = copied.map(example.record)
            if case .events(var events) = outcome {
                for index in events.indices where events[index].app != nil {
                    apps += 1
                    events[index].app = nil
                }
                outcome = .events(events)
            }
            #expect(outcome == original.map(example.record), "\(example.name)")
        }
        #expect(apps > 0, "no example's user agent named an app")
    }

    /// A team with one app whose backend log names no app: the built-in mapping gives Identity
    /// Platform's entries no app either, though their user agent names the bundle id, so the
    /// backend's in-app deletion request counts for the app that makes the accounts. (With the app
    /// taken from the user agent, the sign-ups were `com.example.notes`'s and the request
    /// `app`'s, and `in-app-deletion-offered` fired for an app that offers deletion.)
    @Test func logsWithoutAnAppShareTheDefaultApp() throws {
        let signUp =
            #"{"insertId":"a1","timestamp":"2026-03-01T10:00:00Z","jsonPayload":{"methodName":"google.cloud.identitytoolkit.v1.AuthenticationService.SignUp","#
            + #""requestMetadata":{"callerSuppliedUserAgent":"FirebaseAuth.iOS/11.6.0 com.example.notes/4.2.1 iPhone/18.4.1"},"#
            + #""request":{"email":"ann@example.com"},"response":{"localId":"u1","email":"ann@example.com"}}}"#
        let backend = """
            mapping: notes-backend
            recognize: {path: action, is: string}
            defaults: {id: {path: rid}, time: {path: ts}, subject: {path: uid}}
            events:
              - when: {path: action, equals: deletion_requested}
                type: account.deletion_requested
                fields: {channel: in_app}
            """
        var request = LintRequest(
            eventPaths: [
                try Fixtures.temporaryFile(
                    named: "backend.jsonl", contents: #"{"ts":"2026-03-02T10:00:00Z","rid":"r1","uid":"u1","action":"deletion_requested"}"#),
                try Fixtures.temporaryFile(named: "cloud.jsonl", contents: signUp),
            ],
            accountPaths: [], manifestPath: nil, rules: try RuleSet.load(paths: [Fixtures.rules]))
        request.mappings = try MappingSet.load(userPaths: [try Fixtures.temporaryFile(named: "backend.yml", contents: backend)]).mappings
        let report = try Linter.run(request)
        #expect(report.inputs.map { $0.eventsMade ?? 0 } == [1, 1])
        #expect(report.findings.isEmpty, "\(report.findings.map { "\($0.rule) \($0.subject)" })")
    }

    /// A notification's `aud` names the Sign in with Apple client (here a web Services ID), not
    /// the app that made the account: an account known only from the export, whose first event is
    /// a notification, stays with the manifest's only app. (With `aud` as the app, the account
    /// went to an app the manifest does not list, which then "offered no deletion".)
    @Test func aNotificationBelongsToTheDefaultApp() throws {
        let export = """
            {"users":[{"localId":"u1","email":"u1@privaterelay.appleid.com","createdAt":"1772323200000",
            "providerUserInfo":[{"providerId":"apple.com","rawId":"A1","email":"u1@privaterelay.appleid.com"}]}]}
            """
        let notification =
            #"{"iss":"https://appleid.apple.com","aud":"com.mycompany.web","iat":1772359500,"jti":"j1","#
            + #""events":"{\"type\":\"email-disabled\",\"sub\":\"A1\",\"event_time\":1772359500000}"}"#
        var request = LintRequest(
            eventPaths: [try Fixtures.temporaryFile(named: "apple.jsonl", contents: notification)],
            accountPaths: [try Fixtures.temporaryFile(named: "export.json", contents: export)],
            manifestPath: try Fixtures.temporaryFile(
                named: "manifest.yml", contents: "apps: [{bundle_id: com.mycompany.ios, creates_accounts: true, in_app_deletion: true}]\n"),
            rules: try RuleSet.load(paths: [Fixtures.rules]))
        request.mappings = try MappingSet.load(userPaths: []).mappings
        let report = try Linter.run(request)
        #expect(report.inputs.first { $0.kind == .events }?.eventsMade == 1)
        #expect(report.findings.isEmpty, "\(report.findings.map { "\($0.rule) \($0.subject)" })")
    }

    /// Apple user ids are indexed only when a log may be joined by them: logs that are files are
    /// recognised first. Apple's notifications on a pipe are recognised in their turn and still
    /// joined as from a file.
    @Test func notificationsOnAPipeAreJoinedAsFromAFile() throws {
        let fromFile = try Linter.run(try Self.request(events: Self.realFiles))
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("notifications.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let notifications = Fixtures.path(Self.realLogs + "apple-notifications.jsonl")
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(FileManager.default.contents(atPath: notifications) ?? Data())
                try? handle.close()
            }
        }
        writer.start()
        var request = try Self.request(events: Array(Self.realFiles.dropLast()))
        request.eventPaths.append(fifo)
        let fromPipe = try Linter.run(request)
        #expect(!fromFile.findings.isEmpty)
        #expect(Self.findingKeys(fromPipe) == Self.findingKeys(fromFile))
        let noAccount = { (report: LintReport) in
            report.inputs.last?.skippedRecords.first { $0.reason == AppleAccountIndex.noAccount }?.count
        }
        #expect(noAccount(fromPipe) == noAccount(fromFile))
    }

    /// A skipped record's detail comes from the record (here the backend log's `action`), so it
    /// is masked like any value a report shows (contract §6).
    @Test func skippedRecordDetailsAreMasked() throws {
        let log = try Fixtures.temporaryFile(
            named: "backend.jsonl",
            contents:
                #"{"ts":"2026-01-08T09:14:40Z","request_id":"r1","uid":"u1","app":"com.sparrownotes.app","action":"jane.doe@example.com"}"#
                + "\n")
        var request = try Self.request(events: [])
        request.eventPaths = [log]
        let masked = try Linter.run(request)
        #expect(masked.inputs.last?.skippedRecords.map(\.detail) == ["j•••@example.com"])
        for reporter in ReporterRegistry.all {
            #expect(!reporter.render(masked, options: ReportOptions(parallelism: 1)).contains("jane.doe"), "\(reporter.identifier)")
        }
        request.showPII = true
        #expect(try Linter.run(request).inputs.last?.skippedRecords.map(\.detail) == ["jane.doe@example.com"])
    }

    /// One id of a batch deletion that names no account (null, or empty) leaves the entry's
    /// other deletions in place, with a note; an entry none of whose events names an account is
    /// skipped as naming no subject. A null among the ids dropped every deletion of the entry,
    /// and an empty localId became an account of its own.
    @Test func anIdThatNamesNoAccountLeavesTheEntrysOtherEventsInPlace() throws {
        let entry = { (id: String, method: String, request: String) in
            #"{"insertId":"\#(id)","timestamp":"2026-01-05T00:00:00Z","protoPayload":{"@type":"type.googleapis.com/google.cloud.audit.AuditLog","#
                + #""methodName":"google.cloud.identitytoolkit.v1.AccountManagementService.\#(method)","request":\#(request)}}"#
        }
        let log = try Fixtures.temporaryFile(
            named: "audit.jsonl",
            contents: [
                entry("b1", "BatchDeleteAccounts", #"{"localIds":["u1",null,"","u2"]}"#),
                entry("d1", "DeleteAccount", #"{"localId":""}"#),
            ].joined(separator: "\n") + "\n")
        var request = try Self.request(events: [])
        request.eventPaths = [log]
        let report = try Linter.run(request)
        let input = try #require(report.inputs.last)
        #expect(input.records == 2 && input.eventsMade == 2)
        #expect(input.skippedRecords == [.init(reason: RecordMapper.noSubject, detail: nil, count: 1)])
        let leftOut = report.notes.filter { $0.message.contains("named no account") }
        #expect(leftOut.count == 1)
        #expect(leftOut.first?.message.hasPrefix("1 record of 'cloud-logging-by-app' gave events, but 2 more events of it") == true)
        #expect(leftOut.first?.location.line == 1)
    }

    /// A relaylint event or an Apple notification among Cloud Logging entries is not of the
    /// file's format: it is skipped as the contract says ("not an account change"), and a note
    /// says what it is, at its line, so the evidence it holds is not lost without a word. Another
    /// service's entry in a sink is of the file's format (an entry), and gets no note.
    @Test func aRecordOfAnotherFormatInALogIsSkippedWithANoteSayingWhatItIs() throws {
        let cloud = try String(contentsOfFile: Fixtures.path(Self.realLogs + "identity-platform.jsonl"), encoding: .utf8)
            .split(separator: "\n").prefix(2)
        let native = #"{"id":"n1","time":"2026-01-05T00:00:00Z","subject":"u1","type":"token.revoked","provider":"apple.com"}"#
        let notification = try String(contentsOfFile: Fixtures.path(Self.realLogs + "apple-notifications.jsonl"), encoding: .utf8)
            .split(separator: "\n")[0]
        let otherService = #"{"insertId":"r1","timestamp":"2026-01-05T00:00:00Z","jsonPayload":{"message":"GET /"}}"#
        let log = try Fixtures.temporaryFile(
            named: "sink.jsonl",
            contents: ([cloud[0], Substring(native), notification, Substring(otherService), Substring(native), cloud[1]]).joined(
                separator: "\n")
                + "\n")
        var request = try Self.request(events: [])
        request.eventPaths = [log]
        let report = try Linter.run(request)
        let input = try #require(report.inputs.last)
        #expect(input.records == 6)
        let notes = report.notes.filter { $0.message.contains("the file's format") }
        #expect(notes.map(\.location.line) == [2, 3])
        #expect(
            notes.first?.message
                == "2 records are relaylint events, not of 'cloud-logging-by-app', the file's format: skipped as 'not an account change', "
                + "so no rule saw them; give them to --events in a file of their own")
        #expect(notes.last?.message.hasPrefix("1 record is of 'apple-notifications', not of 'cloud-logging-by-app'") == true)
    }

    /// A record that holds none of the keys the file's format recognises its records by is of
    /// no format at all: skipped under the format's reason, as before, and now told in a note at
    /// its line (audit 6, F4). Another service's entry holds `insertId`, and gets none.
    @Test func aRecordOfNoFormatInALogIsSkippedWithANote() throws {
        let cloud = try String(contentsOfFile: Fixtures.path(Self.realLogs + "identity-platform.jsonl"), encoding: .utf8)
            .split(separator: "\n")[0]
        let unknown = #"{"ts":"2026-02-01T00:00:00Z","rid":"r9","user":"u1","action":"deletion_requested"}"#
        let otherService = #"{"insertId":"r1","timestamp":"2026-01-05T00:00:00Z","jsonPayload":{"message":"GET /"}}"#
        let log = try Fixtures.temporaryFile(
            named: "sink.jsonl", contents: [String(cloud), otherService, unknown, unknown].joined(separator: "\n") + "\n")
        var request = try Self.request(events: [])
        request.eventPaths = [log]
        let report = try Linter.run(request)
        let notes = report.notes.filter { $0.message.contains("the file's format") }
        #expect(notes.map(\.location.line) == [3])
        #expect(
            notes.first?.message
                == "2 records are of no format relaylint reads (holding none of the keys 'cloud-logging-by-app' recognises its records "
                + "by), not of 'cloud-logging-by-app', the file's format: skipped as 'not an account change', so no rule saw them; if "
                + "they are of a log of your own, give them to --events in a file of their own with a mapping (--mapping)")
        #expect(report.inputs.last?.records == 4)
    }

    /// A notification log is read after every other input, but its notes and invalid records
    /// are listed where it was given, by line, as a merge of partitions lists them: they came
    /// after those of the logs given after it.
    @Test func notesAndInvalidRecordsOfANotificationLogReadLastStayInInputOrder() throws {
        let cloud = try String(contentsOfFile: Fixtures.path(Self.realLogs + "identity-platform.jsonl"), encoding: .utf8)
            .split(separator: "\n")[0]
        let notification = try String(contentsOfFile: Fixtures.path(Self.realLogs + "apple-notifications.jsonl"), encoding: .utf8)
            .split(separator: "\n")[0]
        let native = #"{"id":"n1","time":"2026-01-05T00:00:00Z","subject":"u1","type":"token.revoked","provider":"apple.com"}"#
        let claims =
            #"{"iss":"https://appleid.apple.com","aud":"x","iat":1,"jti":"z1","#
            + #""events":{"type":"email-disabled","sub":"nobody","event_time":1}}"#
        let notifications = try Fixtures.temporaryFile(
            named: "notifications.jsonl",
            contents: [String(notification), "{broken", String(cloud), claims].joined(separator: "\n") + "\n")
        let sink = try Fixtures.temporaryFile(
            named: "sink.jsonl", contents: [String(cloud), native, "{broken"].joined(separator: "\n") + "\n")
        var request = try Self.request(events: [])
        request.eventPaths = [notifications, sink]
        request.skipInvalid = true
        let report = try Linter.run(request)
        let logNotes = report.notes.map(\.location).filter { [notifications, sink].contains($0.file) }
        #expect(logNotes == logNotes.sorted { ($0.file == sink ? 1 : 0, $0.line) < ($1.file == sink ? 1 : 0, $1.line) })
        #expect(logNotes.first?.file == notifications && logNotes.last?.file == sink)
        #expect(report.skipped.map(\.location.file) == [notifications, sink])
        #expect(report.skipped.map(\.location.line) == [2, 3])
    }

    /// With Apple's keys given, a notification given as decoded claims carries nothing to
    /// verify: it is read (the contract accepts the form) and the report warns that it was not
    /// verified, instead of counting only the signatures that were.
    @Test func decodedClaimsReadWithAppleKeysAreNotedAsUnverified() throws {
        let claims =
            #"{"iss":"https://appleid.apple.com","aud":"com.sparrownotes.app","iat":1,"jti":"n2","#
            + #""events":{"type":"consent-revoked","sub":"001.a","event_time":1772236800000}}"#
        let notifications = Fixtures.path(Self.realLogs + "apple-notifications.jsonl")
        let mixed = try Fixtures.temporaryFile(
            named: "notifications.jsonl", contents: (try String(contentsOfFile: notifications, encoding: .utf8)) + claims + "\n")
        var request = try Self.request(events: [])
        request.eventPaths = [mixed]
        request.appleKeys = try SigningKeySet.load(path: Fixtures.path(Self.realLogs + "apple-keys.json"))
        let report = try Linter.run(request)
        let input = try #require(report.inputs.first { $0.format == "apple-notifications" })
        #expect(input.verifiedSignatures == input.signedTokens && (input.signedTokens ?? 0) > 0)
        #expect(input.records == (input.signedTokens ?? 0) + 1)
        #expect(
            report.notes.contains {
                $0.severity == .warning && $0.message.hasPrefix("1 record of 'apple-notifications' carried no signed token")
            })
        request.eventPaths = [notifications]
        #expect(!(try Linter.run(request)).notes.contains { $0.message.contains("carried no signed token") })
        // A log of decoded claims only says none was verified, rather than nothing.
        request.eventPaths = [try Fixtures.temporaryFile(named: "claims.jsonl", contents: claims + "\n")]
        let claimsOnly = try #require(try Linter.run(request).inputs.first { $0.format == "apple-notifications" })
        #expect(claimsOnly.signedTokens == 0 && claimsOnly.verifiedSignatures == 0)
    }

    @Test func everyRecordIsAccountedForAndSignaturesAreCounted() throws {
        var request = try Self.request(events: Self.realFiles)
        request.appleKeys = try SigningKeySet.load(path: Fixtures.path(Self.realLogs + "apple-keys.json"))
        let report = try Linter.run(request)
        for input in report.inputs where input.kind == .events {
            let skipped = input.skippedRecords.reduce(0) { $0 + $1.count }
            // Each record gave events or was skipped (the audit log has no record giving several).
            #expect(input.format != nil)
            #expect((input.eventsMade ?? 0) + skipped >= input.records - input.invalid, "\(input.path)")
        }
        let cloud = try #require(report.inputs.first { $0.path.hasSuffix("identity-platform.jsonl") })
        #expect(cloud.format == "cloud-logging-by-app")
        #expect(cloud.skippedRecords.contains { $0.reason == "failed call" && $0.detail == "SignInWithPassword code 3" })
        let apple = try #require(report.inputs.first { $0.path.hasSuffix("apple-notifications.jsonl") })
        #expect(apple.signedTokens == 5 && apple.verifiedSignatures == 5)
        #expect(report.inputs.contains { $0.kind == .keys })
    }

    @Test func withoutKeysTheReportSaysSignaturesWereNotChecked() throws {
        let report = try Linter.run(try Self.request(events: Self.realFiles))
        let apple = try #require(report.inputs.first { $0.path.hasSuffix("apple-notifications.jsonl") })
        #expect(apple.signedTokens == 5 && apple.verifiedSignatures == nil)
        #expect(report.notes.contains { $0.message.contains("signatures of 5 signed tokens were not checked") })
    }

    @Test func aTamperedNotificationIsInvalidWhenKeysAreGiven() throws {
        let original = try String(contentsOfFile: Fixtures.path(Self.realLogs + "apple-notifications.jsonl"), encoding: .utf8)
        var lines = original.split(separator: "\n").map(String.init)
        // Another event type in the payload, the signature kept: the signature no longer covers it.
        var parts = try #require(try JSONParser.parseDocument(lines[0]).objectValue?["payload"]?.stringValue).split(separator: ".")
        var claims = Data(try #require(SignedToken.base64URLDecode(parts[1])))
        claims = Data(String(decoding: claims, as: UTF8.self).replacingOccurrences(of: "email-", with: "email_").utf8)
        parts[1] = Substring(
            claims.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: ""))
        lines[0] = "{\"payload\":\"\(parts.joined(separator: "."))\"}"
        let path = try Fixtures.temporaryFile(named: "tampered.jsonl", contents: lines.joined(separator: "\n") + "\n")
        var request = try Self.request(events: [])
        request.eventPaths = [path]
        request.appleKeys = try SigningKeySet.load(path: Fixtures.path(Self.realLogs + "apple-keys.json"))
        #expect {
            try Linter.run(request)
        } throws: { error in
            let diagnostics = (error as? DiagnosticsError)?.diagnostics ?? []
            return diagnostics.count == 1 && diagnostics[0].location.line == 1
                && diagnostics[0].message.hasPrefix("the token's signature does not verify with key")
        }
        request.skipInvalid = true
        let report = try Linter.run(request)
        #expect(report.skipped.count == 1)
        #expect(report.inputs[2].verifiedSignatures == 4)
    }

    @Test func aNotificationNoAccountHoldsIsSkippedWithANoteAndJoinedThroughTheSubjectMap() throws {
        let claims =
            #"{"iss":"https://appleid.apple.com","aud":"com.sparrownotes.app","jti":"n-1","events":{"type":"consent-revoked","sub":"001437.nobody.1204","event_time":1773181867481}}"#
        let path = try Fixtures.temporaryFile(named: "claims.jsonl", contents: claims + "\n")
        var request = try Self.request(events: [])
        request.eventPaths = [path]
        let unjoined = try Linter.run(request)
        #expect(unjoined.summary.events == 0)
        #expect(unjoined.inputs.last?.skippedRecords == [.init(reason: "no account for the Apple user id", detail: nil, count: 1)])
        #expect(unjoined.notes.contains { $0.message.hasPrefix("1 Apple notification could not be joined to an account") })

        request.subjectMapPath = try Fixtures.temporaryFile(named: "map.csv", contents: "apple_sub,subject\n001437.nobody.1204,u-9\n")
        let joined = try Linter.run(request)
        #expect(joined.summary.events == 1)
        #expect(joined.inputs.contains { $0.kind == .subjectMap && $0.records == 1 })
    }

    /// A subject map whose header names the columns the other way round is refused at that
    /// line: read as a row, it joined nothing and said only that notifications went unjoined.
    @Test func aSubjectMapWithItsColumnsReversedIsRefused() throws {
        var request = try Self.request(events: [])
        request.eventPaths = [Fixtures.path(Self.realLogs + "apple-notifications.jsonl")]
        request.subjectMapPath = try Fixtures.temporaryFile(
            named: "map.csv", contents: "subject,apple_sub\nh986jXVzcJaAF9mILnxg5bX59wxD,001437.nobody.1204\n")
        #expect {
            try Linter.run(request)
        } throws: { error in
            let diagnostics = (error as? DiagnosticsError)?.diagnostics ?? []
            return diagnostics.contains { $0.location.line == 1 && $0.message.contains("the columns are the other way round") }
        }
    }

    /// Text after a quoted cell's closing quote, and the header given again, are refused at
    /// their lines: each was read as a row of some other id, which joined nothing.
    @Test(arguments: [
        ("apple_sub,subject\n\"001437.nobody.1204\"x,h986jXVzcJaAF9mILnxg5bX59wxD\n", 2, "text after the closing quote"),
        (
            "apple_sub,subject\nApple_Sub,Subject\n001437.nobody.1204,h986jXVzcJaAF9mILnxg5bX59wxD\n", 2,
            "the header 'apple_sub,subject' again"
        ),
    ])
    func aSubjectMapRowThatIsNotARowIsRefused(contents: String, line: Int, message: String) throws {
        var request = try Self.request(events: [])
        request.eventPaths = [Fixtures.path(Self.realLogs + "apple-notifications.jsonl")]
        request.subjectMapPath = try Fixtures.temporaryFile(named: "map.csv", contents: contents)
        #expect {
            try Linter.run(request)
        } throws: { error in
            let diagnostics = (error as? DiagnosticsError)?.diagnostics ?? []
            return diagnostics.count == 1 && diagnostics[0].location.line == line && diagnostics[0].message.hasPrefix(message)
        }
    }

    /// A subject map saved by a spreadsheet: CRLF line ends, quoted cells, a byte order mark.
    /// Each was read as no row at all, or as a subject whose id ended in CR LF.
    @Test(arguments: [
        "apple_sub,subject\r\n001437.nobody.1204,h986jXVzcJaAF9mILnxg5bX59wxD\r\n",
        "001437.nobody.1204,h986jXVzcJaAF9mILnxg5bX59wxD\r\n",
        "\"apple_sub\",\"subject\"\n\"001437.nobody.1204\",\"h986jXVzcJaAF9mILnxg5bX59wxD\"\n",
        "\u{FEFF}001437.nobody.1204,h986jXVzcJaAF9mILnxg5bX59wxD\n",
        // Rows ended by CR alone, as classic Mac spreadsheets save them.
        "apple_sub,subject\r001437.nobody.1204,h986jXVzcJaAF9mILnxg5bX59wxD\r",
        // A spreadsheet's empty row is saved as a row of empty cells.
        "apple_sub,subject\n,\n001437.nobody.1204,h986jXVzcJaAF9mILnxg5bX59wxD\n",
        // A space after a quoted cell, as a hand-aligned file has.
        "apple_sub,subject\n\"001437.nobody.1204\" ,h986jXVzcJaAF9mILnxg5bX59wxD\n",
    ])
    func aSubjectMapAsSpreadsheetsSaveItJoinsItsRows(contents: String) throws {
        let claims =
            #"{"iss":"https://appleid.apple.com","aud":"com.sparrownotes.app","jti":"n-1","events":{"type":"consent-revoked","sub":"001437.nobody.1204","event_time":1773181867481}}"#
        var request = try Self.request(events: [])
        request.eventPaths = [try Fixtures.temporaryFile(named: "claims.jsonl", contents: claims + "\n")]
        request.subjectMapPath = try Fixtures.temporaryFile(named: "map.csv", contents: contents)
        let report = try Linter.run(request)
        #expect(report.summary.events == 1)
        // Joined to an exported account: no subject of its own (a phantom `id\r\n` was one).
        #expect(report.summary.subjects == 20)
        #expect(report.inputs.contains { $0.kind == .subjectMap && $0.records == 1 })
        #expect(!report.notes.contains { $0.message.contains("could not be joined") })
    }

    /// A subject map that gives one Apple user id two subjects, a row of the wrong width, or
    /// bytes that are not UTF-8 is refused at its line: each would join notifications wrongly.
    @Test(arguments: [
        ("001.a,u1\n001.b,u2\n001.a,u3\n", 3, "mapped to another subject on line 1"),
        ("001.a,u1\n001.b" + String(repeating: ",", count: 50_000) + "\n", 2, "found 50001 cells"),
        ("001.a,u1\n001.\u{FFFD},u2\n", 2, "invalid UTF-8"),
        // A quote that never closes: it was "found 1 cell" (hostile 11).
        ("001.a,u1\n\"001.b,u2\n001.c,u3\n", 2, "a quoted cell opens here and never closes"),
    ])
    func aSubjectMapWithAMistakeIsRefusedAtItsLine(contents: String, line: Int, message: String) throws {
        var data = Data(contents.utf8)
        // U+FFFD stands for a byte that is not UTF-8.
        if let range = data.range(of: Data("\u{FFFD}".utf8)) { data.replaceSubrange(range, with: [0xFF]) }
        let path = try Fixtures.temporaryFile(named: "map.csv", contents: "")
        try data.write(to: URL(fileURLWithPath: path))
        var request = try Self.request(events: [])
        request.subjectMapPath = path
        let error = #expect(throws: DiagnosticsError.self) { try Linter.run(request) }
        #expect(error?.diagnostics.first?.location.line == line)
        #expect(error?.diagnostics.first?.message.contains(message) == true, "\(error?.diagnostics.first?.message ?? "")")
    }

    /// An Apple user id the export gives one account and the subject map another, of which
    /// nothing tells when it took the id (no event), joins neither, and the note says so: it said
    /// no entry or row held the id, which was untrue.
    @Test func aNotificationWhoseAppleIdTwoAccountsHoldIsNotedAsSuch() throws {
        let export =
            #"{"users": [{"localId": "uA", "createdAt": "1700000000000", "providerUserInfo": [{"providerId": "apple.com", "rawId": "001.a"}]}]}"#
        let notification =
            #"{"iss":"https://appleid.apple.com","aud":"com.example.app","jti":"n-1","events":{"type":"consent-revoked","sub":"001.a","event_time":1773181867481}}"#
        var request = try Self.request(events: [])
        request.accountPaths = [try Fixtures.temporaryFile(named: "accounts.json", contents: export)]
        request.manifestPath = nil
        request.eventPaths = [try Fixtures.temporaryFile(named: "claims.jsonl", contents: notification + "\n")]
        request.subjectMapPath = try Fixtures.temporaryFile(named: "map.csv", contents: "apple_sub,subject\n001.a,uB\n")
        let report = try Linter.run(request)
        #expect(report.summary.events == 0)
        #expect(report.inputs.last?.skippedRecords.map(\.reason) == [AppleAccountIndex.twoAccounts])
        #expect(report.notes.contains { $0.message.hasPrefix("1 Apple notification names an Apple user id that two accounts hold") })
        #expect(!report.notes.contains { $0.message.contains("could not be joined") })
    }

    /// Which account each notification went to, told by a rule that fires on every one.
    static func notificationSubjects(_ request: LintRequest) throws -> [String] {
        var request = request
        let probe = try Fixtures.temporaryFile(
            named: "probe.yml",
            contents: """
                id: every-notification
                severity: note
                when: {type: apple.notification}
                message: "{event.id} went to {subject}"
                """)
        request.rules = try RuleSet.load(paths: [probe])
        return try Linter.run(request).findings.map(\.message).sorted()
    }

    /// An account known to hold the id only from an unlink takes it at its first event, read
    /// before the unlink (it took it at the unlink, and earlier notifications went to neither),
    /// and a file that starts with claims of another issuer is still a file of notifications.
    @Test func anUnlinkingAccountTakesTheIdAtItsFirstEvent() throws {
        let log = [
            #"{"id":"c1","time":"2025-01-20T00:00:00Z","subject":"uOld","type":"account.created","provider":"apple.com"}"#,
            #"{"id":"x1","time":"2025-02-05T00:00:00Z","subject":"uOld","type":"identity.unlinked","kind":"provider","provider":"apple.com","value":"001.a"}"#,
            #"{"id":"c2","time":"2025-03-01T00:00:00Z","subject":"uNew","type":"account.created","provider":"apple.com","value":"001.a"}"#,
        ]
        func claims(_ jti: String, _ day: String, iss: String = "https://appleid.apple.com") -> String {
            let milliseconds = Int(ISO8601DateFormatter().date(from: "2025-\(day)T00:00:00Z")!.timeIntervalSince1970 * 1000)
            return #"{"iss":"\#(iss)","jti":"\#(jti)","events":{"type":"consent-revoked","sub":"001.a","event_time":\#(milliseconds)}}"#
        }
        var request = try Self.request(events: [])
        request.accountPaths = []
        request.manifestPath = nil
        let notifications = [claims("n-evil", "01-21", iss: "https://evil.example"), claims("n-1", "01-21"), claims("n-2", "03-02")]
        request.eventPaths = [
            try Fixtures.temporaryFile(named: "events.jsonl", contents: log.joined(separator: "\n") + "\n"),
            try Fixtures.temporaryFile(named: "claims.jsonl", contents: notifications.joined(separator: "\n") + "\n"),
        ]
        #expect(try Self.notificationSubjects(request) == ["n-1 went to uOld", "n-2 went to uNew"])
        let report = try Linter.run(request)
        #expect(report.inputs.last?.skippedRecords.map(\.reason) == ["not from Apple"])
    }

    /// A notification's time is read before it is joined: one without a time that no account
    /// holds is invalid input (contract §2.2), not skipped as unjoined.
    @Test func aNotificationWithoutATimeIsInvalidEvenUnjoined() throws {
        let claims = #"{"iss":"https://appleid.apple.com","jti":"n-1","events":{"type":"consent-revoked","sub":"001.nobody"}}"#
        var request = try Self.request(events: [])
        request.eventPaths = [try Fixtures.temporaryFile(named: "claims.jsonl", contents: claims + "\n")]
        let error = #expect(throws: DiagnosticsError.self) { try Linter.run(request) }
        #expect(error?.diagnostics.first?.message.contains("missing required field 'time'") == true, "\(error?.diagnostics ?? [])")
        #expect(error?.diagnostics.first?.location.line == 1)
    }

    /// A user who deleted their account and signed in with Apple again has a new uid with the
    /// same Apple user id. Each notification goes to the account that took the id last before it
    /// was sent: here each account's deletion follows Apple's consent-revoked for it, so neither
    /// deletion lacks its revocation. Joined to neither, both deletions fired.
    @Test func aNotificationGoesToTheAccountThatHeldTheAppleIdWhenItWasSent() throws {
        func event(_ id: String, _ time: String, _ subject: String, _ type: String, _ fields: String = "") -> String {
            #"{"id":"\#(id)","time":"\#(time)","subject":"\#(subject)","type":"\#(type)"\#(fields)}"#
        }
        let apple = #","provider":"apple.com","value":"001.a""#
        let log = [
            event("c1", "2025-01-01T00:00:00Z", "uOld", "account.created", apple),
            event("d1", "2025-02-01T00:00:00Z", "uOld", "account.deleted", #","initiator":"user""#),
            event("c2", "2025-03-01T00:00:00Z", "uNew", "account.created", apple),
            event("d2", "2025-04-01T00:00:00Z", "uNew", "account.deleted", #","initiator":"user""#),
        ]
        func revoked(_ jti: String, _ time: String) -> String {
            let milliseconds = Int(ISO8601DateFormatter().date(from: time)!.timeIntervalSince1970 * 1000)
            return
                #"{"iss":"https://appleid.apple.com","aud":"com.example.app","jti":"\#(jti)","events":{"type":"consent-revoked","sub":"001.a","event_time":\#(milliseconds)}}"#
        }
        var request = try Self.request(events: [])
        request.accountPaths = []
        request.manifestPath = nil
        request.eventPaths = [
            try Fixtures.temporaryFile(named: "events.jsonl", contents: log.joined(separator: "\n") + "\n"),
            try Fixtures.temporaryFile(
                named: "claims.jsonl",
                contents: revoked("n-old", "2025-01-31T00:00:00Z") + "\n" + revoked("n-new", "2025-03-31T00:00:00Z") + "\n"),
        ]
        let report = try Linter.run(request)
        #expect(report.summary.events == 6)
        #expect(report.inputs.last?.skippedRecords.isEmpty == true)
        #expect(!report.findings.contains { $0.rule == "token-revoked-before-deletion" }, "\(Self.findingKeys(report))")

        // A notification older than both claims is not guessed at.
        request.eventPaths[1] = try Fixtures.temporaryFile(named: "early.jsonl", contents: revoked("n-0", "2024-12-01T00:00:00Z") + "\n")
        let early = try Linter.run(request)
        #expect(early.inputs.last?.skippedRecords.map(\.reason) == [AppleAccountIndex.twoAccounts])
        #expect(early.findings.filter { $0.rule == "token-revoked-before-deletion" }.map(\.subject) == ["uNew", "uOld"])

        // The new account known from the export alone takes the id at its createdAt.
        let export =
            #"{"users": [{"localId": "uNew", "createdAt": "1740787200000", "providerUserInfo": [{"providerId": "apple.com", "rawId": "001.a"}]}]}"#
        request.accountPaths = [try Fixtures.temporaryFile(named: "accounts.json", contents: export)]
        request.eventPaths = [
            try Fixtures.temporaryFile(named: "old.jsonl", contents: log[0...1].joined(separator: "\n") + "\n"),
            try Fixtures.temporaryFile(
                named: "claims.jsonl",
                contents: revoked("n-old", "2025-01-31T00:00:00Z") + "\n" + revoked("n-new", "2025-03-31T00:00:00Z") + "\n"),
        ]
        let exported = try Linter.run(request)
        #expect(exported.inputs.last?.skippedRecords.isEmpty == true)
        #expect(!exported.findings.contains { $0.rule == "token-revoked-before-deletion" }, "\(Self.findingKeys(exported))")

        // The old account known from a --subject-map row alone (its events name no Apple user
        // id) takes the id at its first event: a row gives no time, and notifications sent
        // before the new account existed went to neither.
        let unnamed = [
            event("c1", "2025-01-01T00:00:00Z", "uOld", "account.created", #","provider":"apple.com""#), log[1],
        ]
        request.eventPaths[0] = try Fixtures.temporaryFile(named: "old.jsonl", contents: unnamed.joined(separator: "\n") + "\n")
        request.subjectMapPath = try Fixtures.temporaryFile(named: "map.csv", contents: "001.a,uOld\n")
        let mapped = try Linter.run(request)
        #expect(mapped.inputs.last?.skippedRecords.isEmpty == true)
        #expect(!mapped.findings.contains { $0.rule == "token-revoked-before-deletion" }, "\(Self.findingKeys(mapped))")

        // The new account in an old export (no apple.com entry), linked by a map row and without
        // an event, takes the id at its createdAt; the old one is known from its events.
        let oldExport = #"{"users": [{"localId": "uNew", "createdAt": "1740787200000", "email": "x@privaterelay.appleid.com"}]}"#
        request.accountPaths = [try Fixtures.temporaryFile(named: "accounts.json", contents: oldExport)]
        request.eventPaths[0] = try Fixtures.temporaryFile(named: "old.jsonl", contents: log[0...1].joined(separator: "\n") + "\n")
        request.subjectMapPath = try Fixtures.temporaryFile(named: "map.csv", contents: "001.a,uNew\n")
        #expect(try Self.notificationSubjects(request) == ["n-new went to uNew", "n-old went to uOld"])
    }

    /// Contract: the account is the one whose exported `apple.com` entry has the Apple user id
    /// as its `rawId` or its `federatedId`.
    @Test func aNotificationIsJoinedThroughAnExportedFederatedId() throws {
        let export = #"""
            {"users": [
              {"localId": "uB", "createdAt": "1700000000000",
               "providerUserInfo": [{"providerId": "apple.com", "rawId": "rawB-other", "federatedId": "001.fedB"}]},
              {"localId": "uF", "createdAt": "1700000000000",
               "providerUserInfo": [{"providerId": "apple.com", "federatedId": "001.fedF"}]}
            ]}
            """#
        let notifications = ["001.fedB", "001.fedF", "rawB-other"].enumerated().map { index, sub in
            #"{"iss":"https://appleid.apple.com","aud":"com.example.app","jti":"n-\#(index)","events":{"type":"consent-revoked","sub":"\#(sub)","event_time":1773181867481}}"#
        }
        var request = try Self.request(events: [])
        request.accountPaths = [try Fixtures.temporaryFile(named: "accounts.json", contents: export)]
        request.manifestPath = nil
        request.eventPaths = [try Fixtures.temporaryFile(named: "claims.jsonl", contents: notifications.joined(separator: "\n") + "\n")]
        let report = try Linter.run(request)
        #expect(report.summary.events == 3)
        #expect(!report.notes.contains { $0.message.contains("could not be joined") })
    }

    @Test(arguments: [
        (#"{"users": ["#, "this is a Firebase account export"),
        ("u1,a@example.com,true,,,,\n", "this looks like CSV"),
        // A Firebase CSV row whose custom claims hold a '{'.
        (
            #"c1,c1@example.com,true,,,"Doe, ""J""",,,,,,,,,,,,,,,,,,1735689600000,1735689600000,,false,"{""admin"":true}","# + "\n",
            "this looks like CSV"
        ),
        (#"{"apps": []}"#, "this is an app manifest"),
        (#"{"keys": [{"kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256", "n": "AQAB", "e": "AQAB"}]}"#, "this is a JSON Web Key Set"),
        // As Apple serves it, pretty-printed.
        ("{\n  \"keys\": [\n    {\n      \"kty\": \"RSA\",\n      \"kid\": \"k1\"\n    }\n  ]\n}\n", "this is a JSON Web Key Set"),
        // A report holds `apps` too, and was called a manifest.
        (#"{"apps": [], "findings": [], "tool": {"name": "relaylint"}, "version": 1}"#, "this is a relaylint report, not a log"),
        (#"{"evaluation": {}, "partition": "1/2", "version": 1}"#, "this is a partial of a partitioned run"),
        (#"{"apps": [], "findings": [], "shard": "1/2", "tool": {"name": "relaylint"}}"#, "this is the report of one shard"),
        // As relaylint writes its report: over several lines.
        ("{\n  \"apps\" : [],\n  \"findings\" : [],\n  \"version\" : 1\n}\n", "this looks like a relaylint report, not a log"),
        // The contract's own manifest example, in YAML flow style: its '{' once hid it from the YAML test.
        ("apps: [{bundle_id: com.example.app, creates_accounts: true, in_app_deletion: true}]\n", "this looks like YAML"),
        // Any key of YAML's: one starting with n, t or f read as a broken null, true or false.
        ("name: nightly export\ntables: 3\n", "this looks like YAML"),
        (#"{"ts": 1, "who": "u1"}"#, "the first record is a JSON object with keys 'ts', 'who', which is none of the formats"),
        // A text log, a web page saved in place of the log: no line is JSON.
        ("2026-01-01 12:00:00 INFO user u1 signed in\n2026-01-01 12:00:01 INFO user u2 linked google\n", "this looks like plain text"),
        ("hello world\n", "this looks like plain text"),
        ("<!DOCTYPE html><html><body>502 Bad Gateway</body></html>\n", "this looks like HTML or XML"),
        ("\u{FEFF}<?xml version=\"1.0\"?>\n<log/>\n", "this looks like HTML or XML"),
        // Read as lines, an array of relaylint's own events was a thousand invalid records.
        (
            "[\n  {\"id\": \"e1\", \"time\": \"2026-01-01T00:00:00Z\", \"subject\": \"u1\", \"type\": \"signin\"}\n]\n",
            "this is a JSON array of relaylint events"
        ),
        // `jq -s` of two `gcloud` arrays, pretty-printed or on one line (hostile 11 F3): read as
        // lines, 6 entries were 288 invalid records.
        ("[\n  [\n    {\"insertId\": \"a\"}\n  ],\n  [\n    {\"insertId\": \"b\"}\n  ]\n]\n", "this is a JSON array of arrays"),
        (#"[[{"insertId": "a"}], [{"insertId": "b"}]]"#, "this is a JSON array of arrays"),
        // Lines ended by a carriage return alone (hostile 11 F5): read as one invalid record.
        (
            #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"# + "\r"
                + #"{"id":"e2","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"# + "\r",
            "this file's lines end in a carriage return alone"
        ),
    ])
    func aFileOfNoKnownFormatIsRefusedWithWhatItLooksLike(contents: String, message: String) throws {
        let path = try Fixtures.temporaryFile(named: "input.jsonl", contents: contents)
        var request = try Self.request(events: [])
        request.eventPaths = [path]
        // Refused as a whole, not read as a log of invalid records: with --skip-invalid that was
        // a clean run.
        request.skipInvalid = true
        #expect {
            try Linter.run(request)
        } throws: { error in
            ((error as? DiagnosticsError)?.diagnostics.first?.message.hasPrefix(message)) ?? false
        }
    }

    /// An entry without `insertId` or `timestamp` is invalid, told by the member it lacks:
    /// "missing required field 'id'" named a field no Cloud Logging entry has (walkthrough 7 #7).
    @Test(arguments: [
        ("insertId", "missing required field 'id': the record has no 'insertId'"),
        ("timestamp", "missing required field 'time': the record has no 'timestamp'"),
    ])
    func anEntryWithoutItsIdOrTimeIsToldByTheMemberItLacks(member: String, message: String) throws {
        let good = try String(contentsOfFile: Fixtures.path(Self.realLogs + "identity-platform.jsonl"), encoding: .utf8)
            .split(separator: "\n")[0]
        var entry = try #require(try JSONSerialization.jsonObject(with: Data(good.utf8)) as? [String: Any])
        entry[member] = nil
        entry["insertId"] = entry["insertId"].map { "\($0)-2" }
        let bad = String(decoding: try JSONSerialization.data(withJSONObject: entry), as: UTF8.self)
        var request = try Self.request(events: [])
        request.eventPaths = [try Fixtures.temporaryFile(named: "entries.jsonl", contents: good + "\n" + bad + "\n")]
        let error = #expect(throws: DiagnosticsError.self) { try Linter.run(request) }
        #expect(error?.diagnostics.map(\.message) == [message + " (mapping 'cloud-logging-by-app')"])
        #expect(error?.diagnostics.first?.location.line == 2)
    }

    /// The refusal names the line of the record it looked at: after blank lines, a line that is
    /// not JSON, or in an array.
    @Test(arguments: [
        ("\n\n{\"foo\": 1}\n", 3), ("junk\n\n{\"foo\": 1}\n", 3), ("[\n\n {\"foo\": 1}]\n", 3), ("\n{\"apps\": []}\n", 2),
        // Refusals of the whole file by its first record, after blank lines (review 66, item 5).
        ("\n\n{\"id\":\"e1\"}\r{\"id\":\"e2\"}\r", 3), ("\n\n[[{\"insertId\": \"a\"}]]\n", 3), ("\n\nname: x\n", 3),
        ("\n\n{\"users\": []}\n", 3),
    ])
    func aRefusedFirstRecordIsNamedAtItsLine(contents: String, line: Int) throws {
        let path = try Fixtures.temporaryFile(named: "input.jsonl", contents: contents)
        var request = try Self.request(events: [])
        request.eventPaths = [path]
        #expect {
            try Linter.run(request)
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.first?.location == SourceLocation(file: path, line: line)
        }
    }

    /// A first line of other text that holds carriage returns (a progress meter captured with
    /// the log) is one bad line, skipped with --skip-invalid; only a carriage return between two
    /// records tells a file whose lines end in one (review 66, item 3).
    @Test func aProgressMeterOnTheFirstLineIsOneBadLine() throws {
        let event = { (id: String) in #"{"id":"\#(id)","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"# }
        let path = try Fixtures.temporaryFile(
            named: "events.jsonl",
            contents: "Copying gs://sink/a.json... 0%\r50%\r100%\n" + event("e1") + "\n[#####     ]\r[##########]\n" + event("e2") + "\n")
        var request = try Self.request(events: [])
        request.eventPaths = [path]
        request.skipInvalid = true
        let report = try Linter.run(request)
        #expect(report.summary.events == 2)
        #expect(report.skipped.map(\.location.line) == [1, 3])
    }

    /// A carriage return between two records is told wherever it stands in the first MiB, and
    /// between records of any kind: after a progress meter's line, records of that line were
    /// one invalid record, and with --skip-invalid a clean run of no event; Apple's JWS strings
    /// (`"…"\r"…"`) were one invalid record (review 67, items 1 and 2).
    @Test(arguments: [
        ("Copying… 0%\r100%\n{\"id\":\"e1\"}\r{\"id\":\"e2\"}\r", 2), ("\"eyJ.a.b\"\r\"eyJ.c.d\"\r", 1),
        ("{\"id\":\"e1\"}\n\n{\"id\":\"e2\"} \r [1]\n", 3),
    ])
    func aCarriageReturnBetweenRecordsIsToldAtItsLine(contents: String, line: Int) throws {
        let path = try Fixtures.temporaryFile(named: "events.jsonl", contents: contents)
        var request = try Self.request(events: [])
        request.eventPaths = [path]
        request.skipInvalid = true
        let error = #expect(throws: DiagnosticsError.self) { try Linter.run(request) }
        #expect(error?.diagnostics.first?.message.hasPrefix("this file's lines end in a carriage return alone") == true)
        #expect(error?.diagnostics.first?.location.line == line)
    }

    /// A `gcloud` array over lines ended by a carriage return alone, or after a line of a
    /// no-break space or a form feed (blank in a log of lines, not JSON whitespace): refused at
    /// once, where the array's places were told at line 1, or its lines read as a log of invalid
    /// lines and with --skip-invalid a clean run (hostile 12, F4 and F6).
    @Test(arguments: [
        ("[\r  {\"insertId\": \"a\"},\r  {\"insertId\": \"b\"}\r]\r", "this file's lines end in a carriage return alone"),
        ("\u{A0}\n[\n  {\"insertId\": \"a\"}\n]\n", "this is a JSON array after a line of whitespace JSON does not allow"),
        ("\u{C}\n\n[{\"insertId\": \"a\"}]\n", "this is a JSON array after 2 lines of whitespace JSON does not allow"),
    ])
    func anArrayJSONWouldMisplaceIsRefused(contents: String, message: String) throws {
        let path = try Fixtures.temporaryFile(named: "entries.json", contents: contents)
        var request = try Self.request(events: [])
        request.eventPaths = [path]
        request.skipInvalid = true
        let error = #expect(throws: DiagnosticsError.self) { try Linter.run(request) }
        #expect(error?.diagnostics.first?.message.hasPrefix(message) == true, "\(String(describing: error))")
        #expect(error?.diagnostics.first?.location.line == 1)
    }

    /// UTF-16 text, as Windows tools save "Unicode" files, with or without a byte order mark: it
    /// was said to look like CSV, or to be invalid JSON at its first character.
    @Test(arguments: [String.Encoding.utf16, .utf16LittleEndian, .utf16BigEndian])
    func utf16TextIsNamedAsSuch(encoding: String.Encoding) throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("utf16.jsonl")
        try #require(#"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"#.data(using: encoding)).write(to: path)
        var request = try Self.request(events: [])
        request.eventPaths = [path.path]
        #expect {
            try Linter.run(request)
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.first?.message.hasPrefix("this is UTF-16 text; relaylint reads UTF-8") ?? false
        }
    }

    @Test func arrayEntriesAreLocatedAtTheLineTheyStartOn() throws {
        let text = """
            [ {
              "insertId": "a1", "timestamp": "2026-01-01T00:00:00Z",
              "jsonPayload": {"methodName": "x.SignInWithIdp", "response": {"localId": "u1", "providerId": "apple.com", "isNewUser": true}}
            },
            {
              "insertId": "a2", "timestamp": "2026-01-01T00:00:01Z",
              "jsonPayload": {"methodName": "x.DeleteAccount", "request": {"localId": "u1"}}
            } ]
            """
        let path = try Fixtures.temporaryFile(named: "gcloud.json", contents: text)
        var request = try Self.request(events: [], mapping: false)
        request.eventPaths = [path]
        let report = try Linter.run(request)
        #expect(report.summary.events == 2)
        let finding = try #require(report.findings.first { $0.event == "a2" })
        #expect(finding.location?.line == 5)
    }

    @Test func anEntryDeliveredTwiceIsADuplicateCountedOnce() throws {
        let original = try String(contentsOfFile: Fixtures.path(Self.realLogs + "identity-platform.jsonl"), encoding: .utf8)
        let lines = original.split(separator: "\n")
        let path = try Fixtures.temporaryFile(named: "twice.jsonl", contents: (lines + lines.prefix(3)).joined(separator: "\n") + "\n")
        var request = try Self.request(events: [])
        request.eventPaths = [path]
        let report = try Linter.run(request)
        #expect(report.summary.duplicates == 3)
        #expect(report.inputs.last?.duplicates == 3)
    }

    /// A log of many slices (`RecordPipeline`) is read the same on any number of threads:
    /// each worker maps on one thread only (a worker used by two threads crashed `--jobs 1`).
    @Test(arguments: [1, 2, 4])
    func aLogOfManyBatchesIsReadTheSameOnAnyNumberOfThreads(parallelism: Int) throws {
        let lines = try String(contentsOfFile: Fixtures.path(Self.realLogs + "identity-platform.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        // More slices than the threads may run ahead of the reading thread (`RecordPipeline.window`).
        let copies = 250
        var text = ""
        for copy in 0..<copies {
            for line in lines { text += line.replacingOccurrences(of: "\"insertId\":\"", with: "\"insertId\":\"c\(copy)-") + "\n" }
        }
        let path = try Fixtures.temporaryFile(named: "many-batches-\(parallelism).jsonl", contents: text)
        var single = try Self.request(events: [])
        single.eventPaths = [Fixtures.path(Self.realLogs + "identity-platform.jsonl")]
        single.parallelism = 1
        let one = try Linter.run(single)
        var request = try Self.request(events: [])
        request.eventPaths = [path]
        request.parallelism = parallelism
        let report = try Linter.run(request)
        #expect(lines.count * copies > RecordPipeline.window * RecordPipeline.sliceSize)
        #expect(report.summary.events == one.summary.events * copies)
        let input = try #require(report.inputs.last)
        #expect(input.records == lines.count * copies)
        #expect(input.skippedRecords.map(\.count) == one.inputs.last?.skippedRecords.map { $0.count * copies })
    }
}
