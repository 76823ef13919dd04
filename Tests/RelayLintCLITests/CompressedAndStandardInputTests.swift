import Foundation
import RelayLintTestSupport
import Testing

/// Logs arrive compressed (Cloud Storage sink archives) or through a pipe: both are read as the
/// same log would be read from a plain file, recognised from their content.
@Suite struct CompressedAndStandardInputTests {
    static let common = [
        "check", "--accounts", "Examples/accounts.json", "--manifest", "Examples/manifest.yml", "--format", "json",
        "--mapping", "Examples/real-logs/backend-mapping.yml", "--mapping", "Examples/real-logs/cloud-logging-by-app.yml",
    ]

    static func gzip(_ relative: String) throws -> String {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent((relative as NSString).lastPathComponent + ".gz")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c", relative.hasPrefix("/") ? relative : Fixtures.path(relative)]
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        return output.path
    }

    /// Runs `cat FILE | relaylint ARGUMENTS` through a shell, so that the pipe belongs to the
    /// shell: a pipe made in this process would leak its write end into the other tests' child
    /// processes, and the reader would never see its end.
    static func piped(_ relative: String, _ arguments: [String]) throws -> CommandRunner.Result {
        let binary = CommandRunner.productsDirectory.appendingPathComponent("relaylint").path
        let quoted = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try CommandRunner.run(
            ["-c", "cat '\(relative.hasPrefix("/") ? relative : Fixtures.path(relative))' | " + quoted.joined(separator: " ")],
            executable: URL(fileURLWithPath: "/bin/sh"))
    }

    static func findings(_ result: CommandRunner.Result) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return (report["findings"] as? [[String: Any]] ?? []).map { "\($0["rule"]!) \($0["subject"]!) \($0["event"] ?? "-")" }
    }

    @Test func aGzipLogGivesTheFindingsOfThePlainOne() throws {
        let plain = try CommandRunner.run(Self.common + ["--events", "Examples/events.jsonl"])
        let compressed = try CommandRunner.run(Self.common + ["--events", try Self.gzip("Examples/events.jsonl")])
        #expect(plain.status == 1 && compressed.status == 1)
        #expect(try Self.findings(compressed) == Self.findings(plain))

        let cloud = try Self.gzip("Examples/real-logs/identity-platform.jsonl")
        let real = try CommandRunner.run(
            Self.common + [
                "--events", "Examples/real-logs/backend.jsonl", "--events", cloud, "--events", "Examples/real-logs/audit-logs.json",
                "--events", "Examples/real-logs/apple-notifications.jsonl",
            ])
        #expect(real.status == 1, "\(real.stderr)")
        #expect(try Self.findings(real) == Self.findings(plain))
        #expect(
            real.stdout.contains("\"format\" : \"cloud-logging-by-app\"") || real.stdout.contains("\"format\": \"cloud-logging-by-app\""))
    }

    /// A compressed CSV export (`accounts.csv.gz`) is read as CSV, as the plain one is; it was
    /// parsed as JSON ("expected '{'").
    @Test func aGzipCSVExportIsReadAsCSV() throws {
        let arguments = ["check", "--events", "Examples/events.jsonl", "--manifest", "Examples/manifest.yml", "--format", "json"]
        let plain = try CommandRunner.run(arguments + ["--accounts", "Examples/accounts.csv"])
        let compressed = try CommandRunner.run(arguments + ["--accounts", try Self.gzip("Examples/accounts.csv")])
        #expect(compressed.status == 1, "\(compressed.stderr)")
        #expect(try Self.findings(compressed) == Self.findings(plain))
    }

    /// The report lists each original file with its SHA-256: for a `.gz` that is the hash of
    /// the compressed file, the one `sha256sum` gives a reviewer who checks it.
    @Test func aGzipInputIsListedWithTheHashOfTheCompressedFile() throws {
        let events = try Self.gzip("Examples/events.jsonl")
        let cloud = try Self.gzip("Examples/real-logs/identity-platform.jsonl")
        let result = try CommandRunner.run(Self.common + ["--events", events, "--events", cloud])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let inputs = try #require(report["inputs"] as? [[String: Any]])
        for path in [events, cloud] {
            let listed = try #require(inputs.first { $0["path"] as? String == path })
            let sum = try CommandRunner.run(["sha256sum", path], executable: URL(fileURLWithPath: "/usr/bin/env"))
            #expect(listed["sha256"] as? String == String(sum.stdout.prefix(64)))
        }
    }

    /// A gzip file cut short (a sink writer that died) is an error, not a log that ends early:
    /// zlib reports the cut as a plain end, and the records past it were lost without a word.
    @Test func aTruncatedGzipLogIsAnErrorNotAShorterLog() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Self.gzip("Examples/events.jsonl")))
        let cut = try Fixtures.temporaryDirectory().appendingPathComponent("cut.jsonl.gz")
        try whole.prefix(whole.count / 2).write(to: cut)
        let result = try CommandRunner.run(Self.common + ["--events", cut.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("the gzip file is truncated (unexpected end of file)"), "\(result.stderr)")
    }

    /// Lines appended uncompressed to a gzip log (`cat part.gz more.jsonl > log.jsonl.gz`) stop
    /// the run: they were dropped and the report counted only the compressed part, exit 0.
    @Test func linesAppendedAfterTheGzipDataAreAnError() throws {
        let lines = try String(contentsOfFile: Fixtures.path("Examples/events.jsonl"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let head = try Fixtures.temporaryFile(named: "head.jsonl", contents: lines[..<50].joined(separator: "\n") + "\n")
        var mixed = try Data(contentsOf: URL(fileURLWithPath: try Self.gzip(head)))
        let member = mixed.count
        mixed.append(Data(lines[50...].joined(separator: "\n").utf8))
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("mixed.jsonl.gz")
        try mixed.write(to: path)
        let result = try CommandRunner.run(["check", "--format", "json", "--events", path.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(path.path): error: cannot read file: data after the end of the gzip stream at byte \(member)"))
    }

    /// A NUL line inside a compressed mapped log (a writer's padding) is one invalid record,
    /// skipped with --skip-invalid; only a log that starts with NUL (`/dev/zero`) stops the read.
    @Test func aNULLineInACompressedMappedLogIsOneInvalidRecord() throws {
        let lines = try String(contentsOfFile: Fixtures.path("Examples/real-logs/identity-platform.jsonl"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let padded = (lines[..<5] + ["\0\0\0"] + lines[5...]).joined(separator: "\n")
        let plain = try Fixtures.temporaryFile(named: "padded.jsonl", contents: padded)
        let compressed = try Self.gzip(plain)
        let result = try CommandRunner.run(Self.common + ["--skip-invalid", "--events", compressed])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let skipped = try #require(report["skipped"] as? [[String: Any]])
        #expect(skipped.count == 1)
        #expect((skipped.first?["location"] as? [String: Any])?["line"] as? Int == 6)
    }

    /// Runs a shell command line made by `line` from the built executable's quoted path.
    static func shell(_ line: (String) -> String) throws -> CommandRunner.Result {
        let binary = "'" + CommandRunner.productsDirectory.appendingPathComponent("relaylint").path + "'"
        return try CommandRunner.run(["-c", line(binary)], executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// Standard input closed (`<&-`) is nothing to read, not an empty log: the first file
    /// opened took its place, and `--events -` read it, or nothing, and passed as clean.
    @Test func aClosedStandardInputIsAnError() throws {
        let accounts = Fixtures.path("Examples/accounts.json")
        let events = Fixtures.path("Examples/events.jsonl")
        // Every name of standard input, given to any option that reads a file.
        for arguments in [
            "--accounts '\(accounts)' --events -", "--events /dev/fd/0", "--events /proc/self/fd/0",
            "--events '\(events)' --subject-map /dev/stdin",
        ] {
            let named = try Self.shell { "\($0) check \(arguments) <&-" }
            #expect(named.status == 2, "\(arguments): \(named.stderr)")
            #expect(named.stderr.contains("standard input is closed"), "\(arguments): \(named.stderr)")
        }
        for command in ["rules validate --rules /dev/stdin", "mappings validate --mapping /dev/stdin"] {
            let validated = try Self.shell { "\($0) \(command) <&-" }
            #expect(validated.status == 2, "\(command): \(validated.stderr)")
            #expect(validated.stderr.contains("standard input is closed"), "\(command): \(validated.stderr)")
        }
        let file = try Self.shell { "\($0) check --events '\(events)' --format json <&-" }
        #expect(file.status == 1, "a closed standard input takes nothing from a run that does not read it: \(file.stderr)")
    }

    /// Gzip on standard input is not decompressed: it is refused as what it is, not as
    /// "invalid JSON" at byte 0x1F.
    @Test func gzipOnStandardInputIsRefusedAsCompressedData() throws {
        let result = try Self.shell { "gzip -c '\(Fixtures.path("Examples/events.jsonl"))' | \($0) check --events -" }
        #expect(result.status == 2)
        #expect(result.stderr.contains("this is gzip-compressed data"), "\(result.stderr)")
    }

    /// A link is read as the file it points to: a linked .gz log is decompressed (it was read as
    /// text), and linked logs are closed after being recognised (each held a descriptor open).
    @Test func aLinkedLogIsReadAsItsFile() throws {
        let plain = try CommandRunner.run(Self.common + ["--events", "Examples/events.jsonl"])
        let folder = try Fixtures.temporaryDirectory()
        let compressed = folder.appendingPathComponent("events.jsonl.gz").path
        let notifications = folder.appendingPathComponent("notifications.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: compressed, withDestinationPath: try Self.gzip("Examples/events.jsonl"))
        try FileManager.default.createSymbolicLink(
            atPath: notifications, withDestinationPath: Fixtures.path("Examples/real-logs/apple-notifications.jsonl"))
        let linked = try CommandRunner.run(Self.common + ["--events", compressed])
        #expect(linked.status == 1, "\(linked.stderr)")
        #expect(try Self.findings(linked) == Self.findings(plain))

        let real = try CommandRunner.run(
            Self.common + [
                "--events", "Examples/real-logs/backend.jsonl", "--events", "Examples/real-logs/identity-platform.jsonl",
                "--events", "Examples/real-logs/audit-logs.json", "--events", notifications,
            ])
        #expect(real.status == 1, "\(real.stderr)")
        #expect(try Self.findings(real) == Self.findings(plain))
    }

    @Test func standardInputIsReadAsAnyFileIs() throws {
        let plain = try CommandRunner.run(Self.common + ["--events", "Examples/events.jsonl"])
        let piped = try Self.piped("Examples/events.jsonl", Self.common + ["--events", "-"])
        #expect(piped.status == 1, "\(piped.stderr)")
        #expect(try Self.findings(piped) == Self.findings(plain))
        #expect(piped.stdout.contains("/dev/stdin"))

        let array = try Self.piped(
            "Examples/real-logs/audit-logs.json",
            Self.common + [
                "--events", "Examples/real-logs/backend.jsonl", "--events", "Examples/real-logs/identity-platform.jsonl", "--events", "-",
                "--events", "Examples/real-logs/apple-notifications.jsonl",
            ])
        #expect(array.status == 1, "\(array.stderr)")
        #expect(try Self.findings(array) == Self.findings(plain))
    }

    /// Apple's notifications on standard input are joined to the accounts that logs given after
    /// them create, as from a file: read from the pipe in their turn, they saw only the inputs
    /// before them, and a deletion Apple had already ended the authorization for was a finding.
    @Test func notificationsOnStandardInputAreJoinedThroughLogsGivenAfterThem() throws {
        let created = try Fixtures.temporaryFile(
            named: "created.jsonl",
            contents: #"{"id":"c1","time":"2026-01-01T00:00:00Z","subject":"uC","type":"account.created","provider":"apple.com","#
                + #""email":"c@privaterelay.appleid.com","value":"001437.ccc.1204"}"# + "\n"
                + #"{"id":"d1","time":"2026-02-01T12:00:00Z","subject":"uC","type":"account.deleted"}"# + "\n")
        let notification = try Fixtures.temporaryFile(
            named: "notifications.jsonl",
            contents: #"{"iss":"https://appleid.apple.com","aud":"x","iat":1,"jti":"n9","#
                + #""events":"{\"type\":\"consent-revoked\",\"sub\":\"001437.ccc.1204\",\"event_time\":1769947100000}"}"# + "\n")
        let arguments = ["check", "--format", "json", "--disable", "in-app-deletion-offered"]
        let file = try CommandRunner.run(arguments + ["--events", notification, "--events", created])
        #expect(file.status == 0, "\(file.stdout)")
        let piped = try Self.piped(notification, arguments + ["--events", "-", "--events", created])
        #expect(piped.status == 0, "\(piped.stdout)")
        #expect(try Self.findings(piped).isEmpty)
        #expect(!piped.stdout.contains("could not be joined"))
        // Read last, the notifications are still listed first, as they were given.
        let report = try #require(try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as? [String: Any])
        #expect((report["inputs"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["/dev/stdin", created])
    }

    /// Standard input is read once: a second `--events -` found it empty and "held no record".
    @Test func standardInputIsGivenOnce() throws {
        let twice = try CommandRunner.run(Self.common + ["--events", "-", "--events", "/dev/stdin"])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("standard input can be read once"), "\(twice.stderr)")
        let both = try CommandRunner.run(["check", "--accounts", "-", "--events", "-"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("standard input can be read once"), "\(both.stderr)")
    }

    /// `--accounts -` reads the export from standard input, as `--events -` reads a log: it said
    /// "cannot read file: no such file".
    @Test func anExportOnStandardInputGivesTheFindingsOfTheFile() throws {
        let arguments = ["check", "--events", "Examples/events.jsonl", "--manifest", "Examples/manifest.yml", "--format", "json"]
        let file = try CommandRunner.run(arguments + ["--accounts", "Examples/accounts.json"])
        let piped = try Self.piped("Examples/accounts.json", arguments + ["--accounts", "-"])
        #expect(piped.status == file.status, "\(piped.stderr)")
        #expect(try Self.findings(piped) == Self.findings(file))
    }

    /// An empty or blank JSON export holds no account, as an empty CSV export does: a warning
    /// that nothing was read (an error with `--fail-on-empty`), not "invalid JSON".
    @Test(arguments: ["", " \n\n", "\u{FEFF}\n"])
    func anEmptyJSONExportIsReadAsNoAccounts(contents: String) throws {
        let export = try Fixtures.temporaryFile(named: "accounts.json", contents: contents)
        let result = try CommandRunner.run(["check", "--accounts", export])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: no records were read from \(export)"), "\(result.stderr)")
        #expect(try CommandRunner.run(["check", "--accounts", export, "--fail-on-empty"]).status == 2)
    }

    static let realLogs = [
        "--events", "Examples/real-logs/backend.jsonl", "--events", "Examples/real-logs/identity-platform.jsonl",
        "--events", "Examples/real-logs/audit-logs.json", "--events", "Examples/real-logs/apple-notifications.jsonl",
    ]

    @Test func aNamedFormatIsReadAsThatFormatWithoutRecognisingIt() throws {
        let plain = try CommandRunner.run(Self.common + ["--events", "Examples/events.jsonl"])
        let named = try CommandRunner.run(
            Self.common + Self.realLogs + [
                "--events-format", "sparrow-backend", "--events-format", "cloud-logging-by-app", "--events-format", "auto",
                "--events-format", "apple-notifications",
            ])
        #expect(named.status == 1, "\(named.stderr)")
        #expect(try Self.findings(named) == Self.findings(plain))
        // Cloud Logging entries read as relaylint events lack relaylint's fields, line by line.
        let forced = try CommandRunner.run(
            Self.common + ["--events", "Examples/real-logs/identity-platform.jsonl", "--events-format", "relaylint"])
        #expect(forced.status == 2)
        #expect(forced.stderr.contains("identity-platform.jsonl:1: error: missing required field 'id'"), "\(forced.stderr)")
        // A mapping named for records it does not recognise maps them anyway: the backend's
        // records read as Cloud Logging entries are each skipped as no account change.
        let mismatched = try CommandRunner.run(
            Self.common + ["--events", "Examples/real-logs/backend.jsonl", "--events-format", "google-cloud-logging"])
        #expect(mismatched.status != 2, "\(mismatched.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(mismatched.stdout.utf8)) as? [String: Any])
        let input = try #require(
            (report["inputs"] as? [[String: Any]])?.first { ($0["path"] as? String)?.hasSuffix("backend.jsonl") == true })
        #expect(input["format"] as? String == "google-cloud-logging")
        #expect((input["eventsMade"] as? Int) == 0)
        #expect(
            ((input["skippedRecords"] as? [[String: Any]]) ?? []).reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == input["records"] as? Int)
    }

    @Test func anUnknownFormatOrOneTooManyIsBadUsage() throws {
        let misspelt = try CommandRunner.run(Self.common + Self.realLogs + ["--events-format", "google-cloud-loging"])
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.contains("unknown events format 'google-cloud-loging'; did you mean 'google-cloud-logging'?"))
        #expect(misspelt.stdout.isEmpty)
        let counted = try CommandRunner.run(Self.common + Self.realLogs + ["--events-format", "auto", "--events-format", "auto"])
        #expect(counted.status == 2)
        #expect(counted.stderr.contains("--events-format is given 2 times for 4 --events files"))
    }
}
