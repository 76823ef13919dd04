import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import RelayLintTestSupport
import Testing

/// What a new user meets on a first run: names, counts and hints that read right.
@Suite struct FirstRunTests {
    /// One Apple sign-up in a log whose events name no app.
    static func applessLog() throws -> String {
        try Fixtures.temporaryFile(
            named: "events.jsonl",
            contents: #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"account.created","provider":"apple.com"}"#
                + "\n")
    }

    /// A `.relaylint.yml` in the working directory that links to a pipe is refused at once: it
    /// blocked every run there, waiting for a writer that never came.
    @Test(.timeLimit(.minutes(1))) func aFoundConfigurationThatIsAPipeIsRefusedNotWaitedFor() throws {
        let folder = try Fixtures.temporaryDirectory()
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(".relaylint.yml").path, withDestinationPath: fifo)
        for arguments in [["check", "--events", Fixtures.path("Examples/events.jsonl")], ["mappings", "list"]] {
            let result = try CommandRunner.run(arguments, in: folder)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains(".relaylint.yml: error: not a regular file"), "\(result.stderr)")
        }
    }

    @Test func dataWithoutAnAppIsNamedSoAReaderUnderstandsIt() throws {
        let log = try Self.applessLog()
        let text = try CommandRunner.run(["check", "--events", log])
        #expect(text.status == 1)
        #expect(
            text.stdout.contains("error: data without an app (add a manifest to name the app) creates accounts but shows no way"),
            "\(text.stdout)")
        #expect(text.stdout.contains("subject data without an app\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("app app"))
        for format in ["markdown", "html"] {
            let report = try CommandRunner.run(["check", "--events", log, "--format", format])
            #expect(report.stdout.contains("data without an app"), "\(format)")
            #expect(!report.stdout.contains("app app"), "\(format)")
        }
        // The JSON report keeps the contract's id for the app without a name.
        let json = try CommandRunner.run(["check", "--events", log, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let finding = try #require((object?["findings"] as? [[String: Any]])?.first)
        #expect(finding["subject"] as? String == "app")
        #expect(finding["app"] as? String == "app")
    }

    @Test func withAManifestOfSeveralAppsTheHintSaysWhyTheDataHasNoApp() throws {
        let manifest = try Fixtures.temporaryFile(
            named: "manifest.yml", contents: "apps:\n  - bundle_id: com.example.one\n  - bundle_id: com.example.two\n")
        let result = try CommandRunner.run(["check", "--events", try Self.applessLog(), "--manifest", manifest])
        #expect(result.stdout.contains("data without an app (its events have no app field and the manifest lists several apps)"))
    }

    @Test func countsOfOneReadInTheSingular() throws {
        let rule = Fixtures.path("Rules/in-app-deletion-offered.yml")
        let log = try Self.applessLog()
        let config = try Fixtures.temporaryFile(
            named: "relaylint.yml",
            contents: """
                suppressions:
                  - rule: in-app-deletion-offered
                    justification: testing the register
                    author: tests@example.com
                    expires: 2099-01-01
                """)
        let text = try CommandRunner.run(["check", "--rules", rule, "--events", log, "--config", config])
        #expect(text.stdout.contains("(1 finding accepted)"), "\(text.stdout)")
        #expect(text.stdout.contains("in 1 subject, 1 event, 0 accounts; 1 rule; 1 suppressed"), "\(text.stdout)")
        let html = try CommandRunner.run(["check", "--rules", rule, "--events", log, "--format", "html"])
        #expect(html.stdout.contains(#"<span class="label">subject</span>"#))
        #expect(!html.stdout.contains(#"<span class="label">subjects</span>"#))
        let github = try CommandRunner.run(["check", "--rules", rule, "--events", log, "--format", "github"])
        #expect(github.stdout.contains("relaylint: 1 finding (1 error)"), "\(github.stdout)")
        let validate = try CommandRunner.run(["rules", "validate", "--rules", rule])
        #expect(validate.stdout == "1 rule in 1 file is valid\n")
    }

    @Test func builtinNamesTheBuiltInPackBesideYourOwnRules() throws {
        let mine = try Fixtures.temporaryFile(
            named: "mine.yml",
            contents: """
                id: no-signin-at-all
                severity: warning
                when: {type: signin}
                message: "{subject} signed in"
                """)
        let both = try CommandRunner.run(["rules", "list", "--rules", "builtin", "--rules", mine])
        #expect(both.status == 0, "\(both.stderr)")
        let ids = both.stdout.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        #expect(ids.count == 13)
        #expect(ids.contains("consent-before-email-link") && ids.last == "no-signin-at-all")
        let mineOnly = try CommandRunner.run(["rules", "list", "--rules", mine])
        #expect(mineOnly.stdout.split(separator: "\n").count == 1)
        // A folder that happens to be called so is reached as ./builtin.
        let folder = try Fixtures.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("builtin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: mine, toPath: folder.appendingPathComponent("builtin/mine.yml").path)
        let dotted = try CommandRunner.run(["rules", "list", "--rules", "./builtin"], in: folder)
        #expect(dotted.stdout.hasPrefix("no-signin-at-all"), "\(dotted.stdout)\(dotted.stderr)")
    }

    static let examples = [
        "--accounts", "Examples/accounts.json", "--events", "Examples/events.jsonl", "--manifest", "Examples/manifest.yml",
    ]

    /// The rule ids of the JSON report's findings and rules.
    static func ruleIDs(_ arguments: [String]) throws -> (findings: Set<String>, rules: Set<String>) {
        let result = try CommandRunner.run(["check", "--format", "json"] + arguments)
        #expect(result.status != 2, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let findings = (object?["findings"] as? [[String: Any]])?.compactMap { $0["rule"] as? String } ?? []
        let rules = (object?["rules"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        return (Set(findings), Set(rules))
    }

    @Test func disableTurnsARuleOffForOneRun() throws {
        let all = try Self.ruleIDs(Self.examples)
        #expect(all.findings.contains("token-revoked-before-deletion"))
        let fewer = try Self.ruleIDs(
            Self.examples + ["--disable", "token-revoked-before-deletion", "--disable", "in-app-deletion-offered"])
        #expect(fewer.rules == all.rules.subtracting(["token-revoked-before-deletion", "in-app-deletion-offered"]))
        #expect(fewer.findings == all.findings.subtracting(["token-revoked-before-deletion", "in-app-deletion-offered"]))
    }

    @Test func enableTurnsOnARuleTheConfigurationTurnsOff() throws {
        let config = try Fixtures.temporaryFile(
            named: "relaylint.yml", contents: "rules:\n  token-revoked-before-deletion: {enabled: false}\n")
        let off = try Self.ruleIDs(Self.examples + ["--config", config])
        #expect(!off.rules.contains("token-revoked-before-deletion"))
        let on = try Self.ruleIDs(Self.examples + ["--config", config, "--enable", "token-revoked-before-deletion"])
        #expect(on.findings.contains("token-revoked-before-deletion"))
    }

    @Test func anUnknownRuleIDIsBadUsageWithAHint() throws {
        let result = try CommandRunner.run(["check", "--disable", "token-revoked-before-deleton"] + Self.examples)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "relaylint: error: --disable names no loaded rule 'token-revoked-before-deleton'; did you mean 'token-revoked-before-deletion'?"
            ),
            "\(result.stderr)")
        let both = try CommandRunner.run(["check", "--enable", "x", "--disable", "x"] + Self.examples)
        #expect(both.status == 2)
        #expect(both.stderr.contains("rule 'x' is given with both --enable and --disable"), "\(both.stderr)")
    }

    @Test func rulesListAsJSONDescribesEveryRule() throws {
        let config = try Fixtures.temporaryFile(
            named: "relaylint.yml", contents: "rules:\n  deletion-request-completed: {params: {window: 14d}}\n")
        let result = try CommandRunner.run(["rules", "list", "--format", "json", "--config", config])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let rules = try #require(object["rules"] as? [[String: Any]])
        #expect(rules.count == 12)
        let rule = try #require(rules.first { $0["id"] as? String == "deletion-request-completed" })
        #expect(rule["severity"] as? String == "error")
        #expect(rule["scope"] as? String == "subject")
        #expect(rule["file"] as? String == "Rules/deletion-request-completed.yml")
        #expect((rule["examples"] as? Int ?? 0) > 0)
        let window = (rule["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "window" }
        #expect(window?["value"] as? String == "14d")
        #expect(window?["defaultValue"] as? String == "30d")
        #expect(((object["rulePack"] as? [String: Any])?["sha256"] as? String)?.count == 64)
        // The same inputs give the same bytes.
        let again = try CommandRunner.run(["rules", "list", "--format", "json", "--config", config])
        #expect(again.stdout == result.stdout)
    }

    @Test func rulesTestWritesJUnitForTestDashboards() throws {
        let rules = try Fixtures.temporaryFile(
            named: "rules.yml",
            contents: """
                rules:
                  - id: wrong-expectation
                    severity: note
                    when: {type: signin}
                    require: {preceded_by: {type: consent.granted}}
                    message: m
                    examples:
                      - name: expects nothing but fires
                        events:
                          - {id: e1, time: "2026-01-01T00:00:00Z", type: signin, provider: google.com}
                        fires: []
                      - name: consent <first>
                        events:
                          - {id: c1, time: "2026-01-01T00:00:00Z", type: consent.granted}
                          - {id: e1, time: "2026-01-02T00:00:00Z", type: signin, provider: google.com}
                        fires: []
                  - id: no-examples
                    severity: note
                    when: {type: signin}
                    message: m
                """)
        let result = try CommandRunner.run(["rules", "test", "--rules", rules, "--format", "junit"])
        #expect(result.status == 1, "a failing example fails the run: \(result.stderr)")
        let xml = result.stdout
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(xml.contains(#"<testsuites name="relaylint rules test" tests="3" failures="1" errors="0" skipped="1" time="0">"#))
        #expect(xml.contains(#"<testsuite name="wrong-expectation" tests="2" failures="1" errors="0" skipped="0" time="0">"#))
        #expect(xml.contains(#"<failure message="expected to fire [], fired [e1]" type="example">"#), "\(xml)")
        #expect(xml.contains("2026-01-01T00:00:00Z u1 e1 signin provider=google.com"))
        #expect(xml.contains(#"<testcase name="consent &lt;first&gt;" classname="wrong-expectation" time="0"/>"#))
        #expect(xml.contains(#"<skipped message="the rule has no examples"/>"#))
        let builtIn = try CommandRunner.run(["rules", "test", "--format", "junit"])
        #expect(builtIn.status == 0)
        #expect(builtIn.stdout.contains(#"failures="0""#))
    }

    /// Runs `relaylint init` with the example export and log in a new folder.
    static func initInNewFolder(_ extra: [String] = []) throws -> (folder: URL, result: CommandRunner.Result) {
        let folder = try Fixtures.temporaryDirectory()
        let result = try CommandRunner.run(
            ["init", "--accounts", Fixtures.path("Examples/accounts.json"), "--events", Fixtures.path("Examples/events.jsonl")] + extra,
            in: folder)
        return (folder, result)
    }

    static func text(_ folder: URL, _ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func initWritesACommentedStarterConfigurationAndManifestFromTheInputs() throws {
        let (folder, result) = try Self.initInNewFolder()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "com.sparrownotes.recipes: creates accounts, 0 in-app deletion requests, no relay senders declared (1 sender seen)"))
        let manifest = try Self.text(folder, "relaylint-apps.yml")
        #expect(manifest.contains("  - bundle_id: com.sparrownotes.app\n"))
        #expect(manifest.contains("    in_app_deletion: true   # the log shows in-app deletion requests"))
        // Senders seen are offered for review, never declared for the team.
        #expect(manifest.contains("    # relay_senders: [digest@mail.sparrownotes.example, noreply@sparrow-notes-7f3a1.firebaseapp.com]"))
        #expect(!manifest.contains("\n    relay_senders:"))
        let configuration = try Self.text(folder, ".relaylint.yml")
        #expect(configuration.contains("# suppressions:"))
        // What init wrote is what check reads: the configuration is picked up from the folder.
        let check = try CommandRunner.run(
            [
                "check", "--accounts", Fixtures.path("Examples/accounts.json"), "--events", Fixtures.path("Examples/events.jsonl"),
                "--manifest", "relaylint-apps.yml",
            ], in: folder)
        #expect(check.status == 1)
        #expect(check.stderr.isEmpty, "\(check.stderr)")
    }

    @Test func initKeepsTheDeclarationsOfAGivenManifest() throws {
        let (folder, result) = try Self.initInNewFolder(["--manifest", Fixtures.path("Examples/manifest.yml")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("com.sparrownotes.app: creates accounts, 4 in-app deletion requests, relay senders declared"))
        let manifest = try Self.text(folder, "relaylint-apps.yml")
        #expect(manifest.contains("    relay_senders: [noreply@sparrow-notes-7f3a1.firebaseapp.com, mail.sparrownotes.example]"))
    }

    /// A given manifest's declarations come back of their kind and all of them: booleans were
    /// written as strings (`creates_accounts: "true"`), which `check` refused, a key for a rule
    /// of the team's was refused, and any other key was left out.
    @Test func initKeepsEveryDeclarationOfItsKind() throws {
        let given = try Fixtures.temporaryFile(
            named: "apps.yml",
            contents: """
                apps:
                  - bundle_id: com.sparrownotes.app
                    name: Sparrow Notes
                    creates_accounts: true
                    in_app_deletion: false
                    marketing_senders: [news@example.com]

                """)
        let (folder, result) = try Self.initInNewFolder(["--manifest", given])
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try Self.text(folder, "relaylint-apps.yml")
        #expect(manifest.contains("    creates_accounts: true\n"), "\(manifest)")
        #expect(manifest.contains("    in_app_deletion: false\n"), "\(manifest)")
        #expect(manifest.contains("    marketing_senders: [news@example.com]\n"), "\(manifest)")
        #expect(manifest.contains("    name: \"Sparrow Notes\"\n"), "\(manifest)")
        // What init wrote is what check reads, the custom key with a rule of the team's that
        // tests it.
        let teamRule = try Fixtures.temporaryFile(
            named: "marketing.yml",
            contents: """
                id: marketing-mail-from-declared-sender
                severity: note
                message: "mail {event.id} comes from {event.from}, not a declared marketing sender of {app}"
                when:
                  type: email.sent
                  not:
                    where: {from: {in_manifest: marketing_senders}}

                """)
        // A mail from the declared sender passes; one from another fires.
        let mails = try Fixtures.temporaryFile(
            named: "mails.jsonl",
            contents: [
                #"{"id":"m-news","time":"2026-01-01T00:00:00Z","subject":"u1","type":"email.sent","app":"com.sparrownotes.app","to":"a@example.org","from":"news@example.com"}"#,
                #"{"id":"m-other","time":"2026-01-01T00:00:01Z","subject":"u1","type":"email.sent","app":"com.sparrownotes.app","to":"a@example.org","from":"promo@example.net"}"#,
            ].joined(separator: "\n") + "\n")
        let check = try CommandRunner.run([
            "check", "--events", mails, "--manifest", folder.appendingPathComponent("relaylint-apps.yml").path, "--rules", teamRule,
            "--show-pii",
        ])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("mail m-other comes from promo@example.net"), "\(check.stdout)")
        #expect(!check.stdout.contains("mail m-news"), "\(check.stdout)")
    }

    /// The placeholder for data without an app is no app the inputs name.
    /// Written to another folder, the files are named by the command init prints, which runs as
    /// printed (it named the manifest by its bare name, no file where the command runs).
    @Test func initsCommandNamesTheFilesInTheOutputDirectory() throws {
        let (folder, result) = try Self.initInNewFolder(["--output-directory", "compliance"])
        #expect(result.status == 0, "\(result.stderr)")
        let command = try #require(result.stdout.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces))
        #expect(command.hasPrefix("relaylint check --config compliance/.relaylint.yml "), "\(command)")
        #expect(command.hasSuffix(" --manifest compliance/relaylint-apps.yml"), "\(command)")
        #expect(try Self.text(folder, "compliance/.relaylint.yml").contains(command))
        let check = try CommandRunner.run(Array(command.split(separator: " ").dropFirst().map(String.init)) + ["-q"], in: folder)
        #expect(check.status == 1, "\(check.stderr)")
    }

    /// A folder with a space is quoted in the printed command, which runs as printed in a shell
    /// (review 66, item 6).
    @Test func initsCommandQuotesAPathWithASpace() throws {
        let (folder, result) = try Self.initInNewFolder(["--output-directory", "my compliance"])
        #expect(result.status == 0, "\(result.stderr)")
        let command = try #require(result.stdout.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces))
        #expect(command.hasPrefix("relaylint check --config 'my compliance/.relaylint.yml' "), "\(command)")
        #expect(command.hasSuffix(" --manifest 'my compliance/relaylint-apps.yml'"), "\(command)")
        let binary = CommandRunner.productsDirectory.appendingPathComponent("relaylint").path
        let check = try CommandRunner.run(
            ["-c", "exec '\(binary)'" + command.dropFirst("relaylint".count) + " -q"], in: folder,
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(check.status == 1, "\(check.stderr)")
    }

    /// A log whose name starts with `-` is joined to its option, or the parser reads it as one
    /// (review 67, item 9).
    @Test func initsCommandJoinsAPathThatLooksLikeAnOption() throws {
        let folder = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(atPath: Fixtures.path("Examples/events.jsonl"), toPath: folder.path + "/-x.jsonl")
        let result = try CommandRunner.run(["init", "--events=-x.jsonl", "--output-directory=-o"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let command = try #require(result.stdout.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces))
        #expect(command.contains(" --events=-x.jsonl "), "\(command)")
        let check = try CommandRunner.run(Array(command.split(separator: " ").dropFirst().map(String.init)) + ["-q"], in: folder)
        #expect(check.status == 1, "\(check.stderr)")
    }

    @Test func initsPlaceholderIsNoAppOfTheInputs() throws {
        let lines = [
            #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin","app":"com.example.app"}"#,
            #"{"id":"e2","time":"2026-01-01T00:00:00Z","subject":"u2","type":"signin","app":"com.other.app"}"#,
            #"{"id":"e3","time":"2026-01-01T00:00:00Z","subject":"u3","type":"signin"}"#,
        ]
        let log = try Fixtures.temporaryFile(named: "apps.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let folder = try Fixtures.temporaryDirectory()
        let result = try CommandRunner.run(["init", "--events", log], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try Self.text(folder, "relaylint-apps.yml")
        #expect(manifest.components(separatedBy: "bundle_id: com.example.app\n").count == 2, "\(manifest)")
        #expect(manifest.contains("bundle_id: com.example.app2\n"), "\(manifest)")
    }

    @Test func initNamesTheAppTheDataLacks() throws {
        let folder = try Fixtures.temporaryDirectory()
        let result = try CommandRunner.run(["init", "--events", try Self.applessLog()], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("data without an app (name it in the manifest): creates accounts"))
        let manifest = try Self.text(folder, "relaylint-apps.yml")
        #expect(
            manifest.contains(
                "  # The events name no app (no 'app' field): give your app's bundle id here.\n  - bundle_id: com.example.app"))
    }

    /// init writes no manifest `check` would refuse: inputs naming thousands of long app ids
    /// made a manifest past the 4 MiB relaylint reads in one.
    @Test func initWritesNoManifestCheckCannotRead() throws {
        let app = String(repeating: "x", count: 400)
        let lines = (0..<11_000).map { number in
            #"{"id":"e\#(number)","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin","app":"com.\#(app).\#(number)"}"#
        }
        let log = try Fixtures.temporaryFile(named: "apps.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let folder = try Fixtures.temporaryDirectory()
        let refused = try CommandRunner.run(["init", "--events", log], in: folder)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("relaylint-apps.yml: error: would take "), "\(refused.stderr)")
        #expect(refused.stderr.contains("for 11000 apps, more than the 4 MiB relaylint reads in a manifest"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// What init prints is masked as `check`'s output is: a bad record's value and an app id
    /// that is an address; the manifest it writes keeps the app id whole.
    @Test func initMasksAddressesAndNumbersItPrints() throws {
        let folder = try Fixtures.temporaryDirectory()
        let named = try Fixtures.temporaryFile(
            named: "named.jsonl",
            contents: #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin","app":"jane.doe@example.com"}"# + "\n")
        let written = try CommandRunner.run(["init", "--events", named], in: folder)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.contains("j•••@example.com: creates no accounts"), "\(written.stdout)")
        #expect(!written.stdout.contains("jane.doe"), "\(written.stdout)")
        #expect(try Self.text(folder, "relaylint-apps.yml").contains("jane.doe@example.com"))

        let bad = try Fixtures.temporaryFile(
            named: "bad.jsonl",
            contents: #"{"id":"e2","time":"bob.smith@example.com","subject":"u1","type":"signin"}"# + "\n"
                + #"{"id":"e3","time":"+1 415 555 0166","subject":"u1","type":"signin"}"# + "\n")
        let refused = try CommandRunner.run(["init", "--events", bad], in: try Fixtures.temporaryDirectory())
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("'b•••@example.com'") && refused.stderr.contains("'+1••••••••66'"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("bob.smith") && !refused.stderr.contains("555 0166"), "\(refused.stderr)")
    }

    /// Cloud Logging entries name no app; a backend log names the team's one app. Listed apart,
    /// the manifest put the sign-ups in an app of their own, which offered no deletion; one entry
    /// holds both, and the command init prints carries the backend's mapping.
    @Test func initListsOneAppForOneNamedAppAndDataWithoutOne() throws {
        let folder = try Fixtures.temporaryDirectory()
        let mapping = try Fixtures.temporaryFile(
            named: "backend.yml",
            contents: """
                mapping: notes-backend
                recognize: {path: action, is: string}
                defaults: {id: {path: rid}, time: {path: ts}, subject: {path: uid}, app: {path: app}}
                events:
                  - when: {path: action, equals: deletion_requested}
                    type: account.deletion_requested
                    fields: {channel: in_app}
                """)
        let backend = try Fixtures.temporaryFile(
            named: "backend.jsonl",
            contents: #"{"ts":"2026-03-02T10:00:00Z","rid":"r1","uid":"u1","app":"com.example.notes","action":"deletion_requested"}"#)
        let cloud = try Fixtures.temporaryFile(
            named: "cloud.jsonl",
            contents:
                #"{"insertId":"a1","timestamp":"2026-03-01T10:00:00Z","jsonPayload":{"methodName":"SignUp","request":{},"response":{"localId":"u1"}}}"#
        )
        let result = try CommandRunner.run(["init", "--mapping", mapping, "--events", backend, "--events", cloud], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("com.example.notes: creates accounts, 1 in-app deletion request"), "\(result.stdout)")
        #expect(!result.stdout.contains("data without an app"))
        #expect(result.stdout.contains("relaylint check --mapping \(mapping) --events"))
        let manifest = try Self.text(folder, "relaylint-apps.yml")
        #expect(manifest.components(separatedBy: "- bundle_id:").count == 2, "\(manifest)")
        let check = try CommandRunner.run(
            ["check", "--mapping", mapping, "--events", backend, "--events", cloud, "--manifest", "relaylint-apps.yml"], in: folder)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func initNeverOverwritesAFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        let existing = folder.appendingPathComponent(".relaylint.yml")
        try Data("rules: {}\n".utf8).write(to: existing)
        let result = try CommandRunner.run(["init", "--events", try Self.applessLog()], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(".relaylint.yml: error: already exists; relaylint init never overwrites a file"), "\(result.stderr)")
        #expect(try Self.text(folder, ".relaylint.yml") == "rules: {}\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("relaylint-apps.yml").path), "nothing is written")
    }

    /// Values from the inputs are written into the starter manifest as YAML scalars, never as
    /// YAML: a mail sender holding a line break ended its comment and declared in-app deletion,
    /// which silenced the finding. An app id's control characters do not reach the terminal.
    @Test func initWritesInputValuesAsDataNotAsYAML() throws {
        let folder = try Fixtures.temporaryDirectory()
        let app = "com.y\u{1B}[2J::error file=a::forged\u{2028}"
        let lines = [
            #"{"id":"a1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"account.created","provider":"apple.com","app":"com.y"}"#,
            #"{"id":"a2","time":"2026-01-02T00:00:00Z","subject":"u1","type":"email.sent","app":"com.y","#
                + #""to":"r@privaterelay.appleid.com","from":"news@y.example\n    in_app_deletion: true\n    #"}"#,
            #"{"id":"a3","time":"2026-01-01T00:00:00Z","subject":"u2","type":"account.created","provider":"apple.com","app":"\#(app.unicodeScalars.map { $0.value < 0x20 || $0.value > 0x7E ? String(format: "\\u%04X", $0.value) : String($0) }.joined())"}"#,
        ]
        let log = folder.appendingPathComponent("events.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: false, encoding: .utf8)
        let result = try CommandRunner.run(["init", "--events", log], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{2028}"), "\(result.stdout)")
        // The manifest loads, and declares nothing the data did not show.
        let checked = try CommandRunner.run(
            ["check", "--events", log, "--manifest", "relaylint-apps.yml", "--format", "json", "--fail-on", "never"], in: folder)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(
            checked.stdout.contains(#""rule" : "in-app-deletion-offered""#)
                || checked.stdout.contains(#""rule":"in-app-deletion-offered""#), "\(checked.stdout)")
        let text = try Self.text(folder, "relaylint-apps.yml")
        // An app id YAML would read as another kind is quoted.
        let keywordApps = folder.appendingPathComponent("keywords.jsonl").path
        try ["true", "null", "123", "No"].enumerated().map { index, app in
            #"{"id":"k\#(index)","time":"2026-01-01T00:00:00Z","subject":"k\#(index)","type":"account.created","provider":"apple.com","app":"\#(app)"}"#
        }.joined(separator: "\n").appending("\n").write(toFile: keywordApps, atomically: false, encoding: .utf8)
        let keywordFolder = folder.appendingPathComponent("keywords")
        #expect(try CommandRunner.run(["init", "--events", keywordApps, "--output-directory", keywordFolder.path]).status == 0)
        let keywordCheck = try CommandRunner.run([
            "check", "--events", keywordApps, "--manifest", keywordFolder.appendingPathComponent("relaylint-apps.yml").path, "--fail-on",
            "never",
        ])
        #expect(keywordCheck.status == 0, "\(keywordCheck.stderr)")
        #expect(text.contains(#"# relay_senders: ["news@y.example\n    in_app_deletion: true\n    #"]"#), "\(text)")
    }
}
