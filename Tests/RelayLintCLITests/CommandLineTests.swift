import Foundation
import RelayLintTestSupport
import Testing

/// The executable as a pipeline sees it: exit codes, standard output and standard error.
@Suite struct CommandLineTests {
    static let examples = [
        "--accounts", "Examples/accounts.json", "--events", "Examples/events.jsonl", "--manifest", "Examples/manifest.yml",
    ]

    @Test func findingsExitWithOneAndSummarise() throws {
        let result = try CommandRunner.run(["check"] + Self.examples)
        #expect(result.status == 1)
        #expect(result.stdout.contains("findings ("))
        #expect(result.stdout.contains("in 30 subjects, 124 events, 20 accounts; 12 rules; 1 duplicate event ignored"))
        #expect(result.stderr.isEmpty)
    }

    @Test func failOnNeverExitsWithZero() throws {
        let result = try CommandRunner.run(["check", "--fail-on", "never"] + Self.examples)
        #expect(result.status == 0)
    }

    @Test func aCleanLogExitsWithZero() throws {
        let log = try Fixtures.temporaryFile(
            named: "clean.jsonl",
            contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin","provider":"google.com"}"# + "\n")
        let result = try CommandRunner.run(["check", "--events", log])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("no findings"))
    }

    @Test func jsonOnStandardOutputIsJSONAndNothingElse() throws {
        let result = try CommandRunner.run(["check", "--format", "json"] + Self.examples)
        #expect(result.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["version"] as? Int == 1)
        #expect((object?["findings"] as? [Any])?.isEmpty == false)
    }

    /// `--output -` is standard output, as `--events -` is standard input: it wrote a file named `-`.
    @Test func outputDashIsStandardOutput() throws {
        let directory = try Fixtures.temporaryDirectory()
        let examples = Self.examples.map { $0.hasPrefix("Examples/") ? Fixtures.path($0) : $0 }
        let result = try CommandRunner.run(["check", "--format", "json", "--output", "-"] + examples, in: directory)
        #expect(result.status == 1, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["version"] as? Int == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        // A second report is a file: on standard output it would mix with the main one.
        let second = try CommandRunner.run(["check", "--report", "sarif=-"] + examples, in: directory)
        #expect(second.status == 2 && second.stderr.contains("--report writes a file, found 'sarif=-'"), "\(second.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// Standard output by another name (`/dev/stdout`, `/dev/fd/1`) is refused as `-` is: after
    /// the main report on a pipe it wrote a second document, and into a file it replaced it.
    @Test(arguments: ["/dev/stdout", "/dev/fd/1"]) func aReportToStandardOutputByAnotherNameIsRefused(name: String) throws {
        let result = try CommandRunner.run(["check", "--format", "json", "--report", "sarif=\(name)"] + Self.examples)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--report 'sarif=\(name)' is standard output, which takes the main report"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        // With the main report in a file of its own, standard output may take the other one.
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("report.json").path
        let apart = try CommandRunner.run(["check", "--format", "json", "--output", file, "--report", "sarif=\(name)"] + Self.examples)
        #expect(apart.status == 1, "\(apart.stderr)")
        #expect(apart.stdout.contains("sarif"))
    }

    /// The main report on standard output redirected into an input (`>> events.jsonl`) is a
    /// report written over it: refused, the log left as it was.
    @Test func aReportOnStandardOutputRedirectedIntoAnInputIsRefused() throws {
        let log = try Fixtures.temporaryFile(
            named: "events.jsonl", contents: try String(contentsOfFile: Fixtures.path("Examples/events.jsonl"), encoding: .utf8))
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        let appending = try #require(FileHandle(forWritingAtPath: log))
        appending.seekToEndOfFile()
        let result = try CommandRunner.run(["check", "--format", "json", "--events", log], standardOutput: appending)
        try appending.close()
        #expect(result.status == 2)
        #expect(result.stderr.contains("standard output, where the report goes, is the input --events '\(log)'"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
    }

    /// A folder of rules or mappings reads its every `.yml` and `.yaml` file: a report written
    /// there under such a name, or standard output redirected to one, is refused, or the next
    /// run failed on it as a rule or a mapping (hostile 15, F3). Under another name it is no rule.
    @Test(arguments: [("--rules", "Rules/consent-before-email-link.yml"), ("--mapping", "Examples/real-logs/backend-mapping.yml")])
    func aReportReadFromARuleOrMappingFolderIsRefused(option: String, file: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Fixtures.path(file), toPath: folder.appendingPathComponent((file as NSString).lastPathComponent).path)
        let report = folder.appendingPathComponent("report.yml").path
        let written = try CommandRunner.run(["check", option, folder.path, "--format", "json", "--output", report] + Self.examples)
        #expect(written.status == 2)
        #expect(written.stderr.contains("lies inside the folder \(option) '\(folder.path)'"), "\(written.stderr)")
        #expect(!FileManager.default.fileExists(atPath: report))
        #expect(FileManager.default.createFile(atPath: report, contents: nil))
        let redirected = try #require(FileHandle(forWritingAtPath: report))
        let result = try CommandRunner.run(["check", option, folder.path, "--format", "json"] + Self.examples, standardOutput: redirected)
        try redirected.close()
        #expect(result.status == 2)
        #expect(result.stderr.contains("standard output, where the report goes, is the input \(option) '\(report)'"), "\(result.stderr)")
        try FileManager.default.removeItem(atPath: report)
        let json = folder.appendingPathComponent("report.json").path
        let elsewise = try CommandRunner.run(["check", option, folder.path, "--format", "json", "--output", json] + Self.examples)
        #expect(elsewise.status == 1, "\(elsewise.stderr)")
    }

    /// A rule folder reads the YAML files of its hidden folders too, and a folder the
    /// configuration names reads as one on the command line does: a report there is refused as
    /// well, by `check` and by `merge` (hostile 16, F4, F5, F7).
    @Test func aReportReadFromAHiddenOrConfiguredRuleFolderIsRefused() throws {
        let folder = try Fixtures.temporaryDirectory()
        let rules = folder.appendingPathComponent("rules").path
        try FileManager.default.createDirectory(atPath: rules + "/.cache", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.path("Rules/consent-before-email-link.yml"), toPath: rules + "/consent.yml")
        let hidden = try CommandRunner.run(
            ["check", "--rules", rules, "--format", "json", "--output", rules + "/.cache/report.yml"] + Self.examples)
        #expect(hidden.status == 2 && hidden.stderr.contains("lies inside the folder --rules"), "\(hidden.stderr)")
        let config = folder.appendingPathComponent("relaylint.yml").path
        try "rule_paths: [rules]\n".write(toFile: config, atomically: false, encoding: .utf8)
        let configured = try CommandRunner.run(
            ["check", "--config", config, "--format", "json", "--output", rules + "/report.yml"] + Self.examples)
        #expect(configured.status == 2, "\(configured.stderr)")
        #expect(configured.stderr.contains("lies inside the folder rule_paths (configuration)"), "\(configured.stderr)")
        let merged = try CommandRunner.run(["merge", "--rules", rules, "--output", rules + "/merged.yml", config])
        #expect(merged.status == 2 && merged.stderr.contains("lies inside the folder --rules"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: rules + "/.cache/report.yml"))
        for name in ["report.yml", "merged.yml"] { #expect(!FileManager.default.fileExists(atPath: rules + "/" + name)) }
    }

    /// A report to standard error redirected to a file (`--report sarif=/dev/stderr 2> out.sarif`)
    /// would have relaylint's own messages written over its start: refused.
    @Test func aReportToStandardErrorIsRefused() throws {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("results.sarif").path
        let result = try CommandRunner.run(
            [
                "-c", #""$1" check --events Examples/events.jsonl --report sarif=/dev/stderr 2> "$2""#, "sh",
                CommandRunner.productsDirectory.appendingPathComponent("relaylint").path, file,
            ],
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.status == 2)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains("--report 'sarif=/dev/stderr' is standard error, where relaylint writes its messages"), "\(written)")
    }

    @Test func severalReportsFromOneRun() throws {
        let directory = try Fixtures.temporaryDirectory()
        let json = directory.appendingPathComponent("out.json").path
        let text = directory.appendingPathComponent("out.txt").path
        let result = try CommandRunner.run(["check", "--format", "json", "--output", json, "--report", "text=\(text)"] + Self.examples)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(FileManager.default.fileExists(atPath: json))
        #expect((try? String(contentsOfFile: text, encoding: .utf8))?.contains(" findings (") == true)
    }

    @Test(arguments: [
        ("{\"id\":\"a\",\n", ":1:11: error: invalid JSON"),
        (#"{"id":"a","time":"2026-01-01T00:00:00Z","type":"signin"}"# + "\n", ":1: error: missing required field 'subject'"),
        (
            #"{"id":"a","time":"2026-01-01T00:00:00.1234567891Z","subject":"u","type":"signin"}"# + "\n",
            ":1: error: field 'time' is not an RFC 3339 timestamp"
        ),
        // The range is said in words the PII masker leaves alone ("0001-9999" read as a number).
        (
            #"{"id":"a","time":"9999-12-31T23:59:59-23:59","subject":"u","type":"signin"}"# + "\n",
            ":1: error: field 'time' is out of range: '9999-12-31T23:59:59-23:59' (relaylint reads times from year 1 to year 9999, in UTC)"
        ),
        // Bytes that are no text, a comma among them, were called CSV.
        ("PK\u{3}\u{4}\u{14}\u{0B},\u{6}\u{8}\u{2}xyz\u{7}\u{1}\n", ":1: error: this is a zip archive, not a log"),
        // Random bytes break into short lines (/dev/urandom): told by all of their start.
        ("\u{1}\u{2},x\n\u{3}\u{4}\n\u{5}\u{6}y\n\u{7}\u{8}\n", ":1: error: this is binary data, not text"),
    ])
    func invalidInputExitsWithTwoAndNamesTheLine(log: String, message: String) throws {
        let path = try Fixtures.temporaryFile(named: "bad.jsonl", contents: log)
        let result = try CommandRunner.run(["check", "--events", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(path + message), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no report may claim a clean result")
    }

    /// A report an earlier run left where this one's go is removed when this run has no
    /// report: a pipeline uploading `results.sarif` whatever the exit code showed the last clean
    /// run. A report named like an input is refused before anything is removed.
    @Test func aFailedRunRemovesTheReportsAnEarlierRunLeft() throws {
        let directory = try Fixtures.temporaryDirectory()
        let json = directory.appendingPathComponent("out.json").path
        let sarif = directory.appendingPathComponent("out.sarif").path
        try Self.leaveEarlierReport(at: json)
        try Self.leaveEarlierReport(at: sarif, format: "sarif")
        let bad = try Fixtures.temporaryFile(named: "bad.jsonl", contents: "{oops\n")
        let failed = try CommandRunner.run(["check", "--events", bad, "--format", "json", "--output", json, "--report", "sarif=\(sarif)"])
        #expect(failed.status == 2)
        #expect(!FileManager.default.fileExists(atPath: json))
        #expect(!FileManager.default.fileExists(atPath: sarif))
        #expect(failed.stderr.contains("removed '\(json)', a report of an earlier run"), "\(failed.stderr)")

        // Keys, rules and mappings that do not load are the run's inputs too.
        let events = try Fixtures.temporaryFile(
            named: "ok.jsonl", contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n")
        let keys = try Fixtures.temporaryFile(named: "keys.json", contents: #"{"keys": []}"#)
        for option in [["--apple-keys", keys], ["--disable", "no-such-rule"]] {
            try Self.leaveEarlierReport(at: json)
            let result = try CommandRunner.run(["check", "--events", events, "--format", "json", "--output", json] + option)
            #expect(result.status == 2, "\(option)")
            #expect(!FileManager.default.fileExists(atPath: json), "\(option): \(result.stderr)")
        }
        // A file in a rule folder that does not load may be one of its rules: left alone.
        let rules = try Fixtures.temporaryDirectory()
        try Data("id: [\n".utf8).write(to: rules.appendingPathComponent("broken.yml"))
        let inFolder = rules.appendingPathComponent("out.json").path
        try Self.leaveEarlierReport(at: inFolder)
        let brokenRules = try CommandRunner.run([
            "check", "--events", events, "--rules", rules.path, "--format", "json", "--output", inFolder,
        ])
        #expect(brokenRules.status == 2)
        #expect(FileManager.default.fileExists(atPath: inFolder), "\(brokenRules.stderr)")
        // Named through a link to the folder too: listed through the link, the folder held no
        // file, and a rule file given as the report was removed.
        let link = try Fixtures.temporaryDirectory().appendingPathComponent("rules-link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: rules.path)
        let ownRule = (link as NSString).appendingPathComponent("broken.yml")
        let throughLink = try CommandRunner.run(["check", "--events", events, "--rules", link, "--format", "json", "--output", ownRule])
        #expect(throughLink.status == 2)
        #expect(FileManager.default.fileExists(atPath: ownRule), "\(throughLink.stderr)")

        let refused = try CommandRunner.run(["check", "--events", bad, "--format", "json", "--output", bad])
        #expect(refused.status == 2)
        #expect((try? String(contentsOfFile: bad, encoding: .utf8)) == "{oops\n")
        // A named pipe is no report to remove (nor is a device: not tried on /dev/null itself,
        // which a broken guard would remove when the tests run as root).
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("reports.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let toFIFO = try CommandRunner.run(["check", "--events", bad, "--format", "json", "--output", fifo])
        #expect(toFIFO.status == 2)
        #expect(FileManager.default.fileExists(atPath: fifo))
    }

    /// A report of the Examples in `format`, copied to `path` as an earlier run would have left it.
    static func leaveEarlierReport(at path: String, format: String = "json") throws {
        let extensions = [
            "json": "json", "sarif": "sarif", "text": "txt", "html": "html", "markdown": "md", "junit": "junit.xml", "github": "github.txt",
        ]
        let report = Fixtures.path("Examples/reports/report.\(extensions[format] ?? format)")
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: report, toPath: path)
    }

    /// A failed run removes only what relaylint writes: a report in any of its formats (of
    /// findings or of none). A file of anything else at `--output` or `--report` (a log, an
    /// export, a note named there by mistake) is left and said to be: every file there was
    /// removed, whatever it held.
    @Test func aFailedRunRemovesOnlyReportsRelayLintWrote() throws {
        let directory = try Fixtures.temporaryDirectory()
        let bad = try Fixtures.temporaryFile(named: "bad.jsonl", contents: "{oops\n")
        let clean = try Fixtures.temporaryFile(
            named: "clean.jsonl", contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n")
        for format in ["json", "sarif", "text", "html", "markdown", "junit", "github"] {
            let ofFindings = directory.appendingPathComponent("findings.\(format)").path
            try Self.leaveEarlierReport(at: ofFindings, format: format)
            let ofNone = directory.appendingPathComponent("none.\(format)").path
            let written = try CommandRunner.run(["check", "--events", clean, "--format", format, "--output", ofNone, "--fail-on", "never"])
            #expect(written.status == 0, "\(format): \(written.stderr)")
            let failed = try CommandRunner.run([
                "check", "--events", bad, "--format", format, "--output", ofFindings, "--report", "\(format)=\(ofNone)",
            ])
            #expect(failed.status == 2)
            #expect(!FileManager.default.fileExists(atPath: ofFindings), "\(format): \(failed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: ofNone), "\(format): \(failed.stderr)")
        }
        let note = directory.appendingPathComponent("notes.txt").path
        try Data("not a report\n".utf8).write(to: URL(fileURLWithPath: note))
        let export = directory.appendingPathComponent("accounts-backup.json").path
        try FileManager.default.copyItem(atPath: Fixtures.path("Examples/accounts.json"), toPath: export)
        let failed = try CommandRunner.run(["check", "--events", bad, "--output", note, "--report", "sarif=\(export)"])
        #expect(failed.status == 2)
        #expect((try? String(contentsOfFile: note, encoding: .utf8)) == "not a report\n")
        #expect(FileManager.default.contentsEqual(atPath: export, andPath: Fixtures.path("Examples/accounts.json")))
        #expect(failed.stderr.contains("left '\(note)' as it is: it is no report relaylint wrote"), "\(failed.stderr)")
    }

    /// A named pipe given twice, to one option or to two, is refused before anything is opened:
    /// the first read took all it carried, and the second open waited for a writer that had
    /// gone, so the run hung without a word. (No writer here: a run that opened it would hang.)
    @Test(arguments: [["--events", "./"], ["--manifest", ""], ["--subject-map", ""]])
    func aPipeGivenTwiceIsRefused(_ second: [String]) throws {
        let folder = try Fixtures.temporaryDirectory()
        let pipe = folder.appendingPathComponent("log.fifo").path
        #expect(mkfifo(pipe, 0o600) == 0)
        // Another spelling of it too: `./log.fifo` in its folder.
        let again = second[1].isEmpty ? pipe : second[1] + "log.fifo"
        let result = try CommandRunner.run(["check", "--events", pipe, second[0], again], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("name one pipe, which can be read once"), "\(result.stderr)")
    }

    /// An option that names one file, given twice, is bad usage: the second silently replaced
    /// the first, whose notifications, apps or keys the run then never saw.
    @Test(arguments: ["--subject-map", "--manifest", "--apple-keys", "--baseline"])
    func aOneFileOptionGivenTwiceIsBadUsage(option: String) throws {
        let log = try Fixtures.temporaryFile(
            named: "one.jsonl", contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n")
        let result = try CommandRunner.run(["check", "--events", log, option, "first", option, "second"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(option) is given 2 times: it takes one file (first, second)"), "\(result.stderr)")
    }

    /// An audit report's `--date` is a day, as `--as-of` is: any text was printed on its cover and
    /// sign-off as given, an address included. The refusal masks what it quotes.
    @Test(arguments: ["--date", "--as-of"])
    func aDateOptionTakesADayOnly(option: String) throws {
        let log = try Fixtures.temporaryFile(
            named: "one.jsonl", contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n")
        let result = try CommandRunner.run(["check", "--events", log, "--format", "html", option, "signed by mary.major@example.com"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(option) must be a date YYYY-MM-DD"), "\(result.stderr)")
        #expect(result.stderr.contains("m•••@example.com") && !result.stderr.contains("mary.major"), "\(result.stderr)")
        let escape = try CommandRunner.run(["check", "--events", log, "--format", "html", option, "\u{1B}[31mred"])
        #expect(escape.status == 2 && !escape.stderr.contains("\u{1B}"), "\(escape.stderr)")
        #expect(try CommandRunner.run(["check", "--events", log, "--format", "html", option, "2026-07-01"]).status == 0)
    }

    /// The `--skip-invalid` hint is given where it would help: for a bad record of a log, not
    /// for a bad manifest, a file refused as a whole or at a place, or a --data-end too early.
    @Test func theSkipInvalidHintIsGivenOnlyForBadRecords() throws {
        let bad = try Fixtures.temporaryFile(named: "bad.jsonl", contents: "{oops\n")
        let badRecord = try CommandRunner.run(["check", "--events", bad])
        #expect(badRecord.status == 2)
        #expect(badRecord.stderr.contains("(use --skip-invalid to skip bad records)"), "\(badRecord.stderr)")

        let good = try Fixtures.temporaryFile(
            named: "good.jsonl", contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n")
        let manifest = try Fixtures.temporaryFile(named: "manifest.yml", contents: "apps: [{bundle_id: [1]}]\n")
        let badManifest = try CommandRunner.run(["check", "--events", good, "--manifest", manifest])
        #expect(badManifest.status == 2)
        #expect(badManifest.stderr.contains(manifest + ":1"), "\(badManifest.stderr)")
        #expect(!badManifest.stderr.contains("--skip-invalid"), "\(badManifest.stderr)")

        // A log that cannot be read at all (missing, a folder) has no record to skip.
        for unreadable in [bad + ".missing", try Fixtures.temporaryDirectory().path] {
            let result = try CommandRunner.run(["check", "--events", unreadable])
            #expect(result.status == 2)
            #expect(result.stderr.contains("error: cannot read file"), "\(result.stderr)")
            #expect(!result.stderr.contains("--skip-invalid"), "\(result.stderr)")
        }

        // Nor a file refused at a place (a NUL byte), nor --data-end before the data: both
        // stop the run with --skip-invalid too (review 66, item 1).
        let binary = try Fixtures.temporaryFile(named: "nul.jsonl", contents: "\u{0}\n")
        let late = try Fixtures.temporaryFile(
            named: "late.jsonl", contents: #"{"id":"a","time":"2026-03-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n")
        for arguments in [["--events", binary], ["--events", late, "--data-end", "2026-02-01T00:00:00Z"]] {
            for skipping in [[], ["--skip-invalid"]] {
                let result = try CommandRunner.run(["check"] + arguments + skipping)
                #expect(result.status == 2)
                #expect(result.stderr.contains(":1:"), "\(result.stderr)")
                #expect(!result.stderr.contains("--skip-invalid"), "\(result.stderr)")
            }
        }

        // Nor a bad record beside a file refused as a whole: the option would not read on
        // (review 67, item 8).
        let yaml = try Fixtures.temporaryFile(named: "refused.jsonl", contents: "name: x\n")
        let both = try CommandRunner.run(["check", "--events", yaml, "--events", bad])
        #expect(both.status == 2)
        #expect(both.stderr.contains("refused.jsonl:1:") && both.stderr.contains("bad.jsonl:1:"), "\(both.stderr)")
        #expect(!both.stderr.contains("--skip-invalid"), "\(both.stderr)")

        // A partitioned run tells it as the whole run does.
        let partition = try CommandRunner.run(
            ["check", "--events", bad, "--partition", "1/2", "--format", "json", "--output", bad + ".partial.json"])
        #expect(partition.status == 2)
        #expect(partition.stderr.contains("no partial written: the inputs are invalid (use --skip-invalid"), "\(partition.stderr)")
    }

    /// A log of one JSON value over several lines (`jq .`) is refused as such, once, with the
    /// command that writes it as a log; each of its lines was an invalid record of its own.
    @Test func aPrettyPrintedLogIsNamedAsSuch() throws {
        let log = try Fixtures.temporaryFile(
            named: "pretty.json", contents: "{\n  \"insertId\": \"a\",\n  \"timestamp\": \"2026-01-01T00:00:00Z\"\n}\n")
        let result = try CommandRunner.run(["check", "--events", log])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "\(log):1: error: this looks like JSON written over several lines (pretty-printed, as `jq .` writes it)"),
            "\(result.stderr)")
        #expect(!result.stderr.contains(":2:") && !result.stderr.contains("--skip-invalid"), "\(result.stderr)")
    }

    @Test func diagnosticsOnStandardErrorCannotForgeLines() throws {
        let path = try Fixtures.temporaryFile(named: "bad\n::error file=forged.yml,line=1::FORGED\u{1B}[2J.jsonl", contents: "{oops\n")
        let result = try CommandRunner.run(["check", "--events", path])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("::") }, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(
            result.stderr.contains(#"bad\n::error file=forged.yml,line=1::FORGED\u{1B}[2J.jsonl:1:2: error: invalid JSON"#),
            "\(result.stderr)")
    }

    @Test func ruleFileValuesCannotForgeLinesInListsTestsOrExplanations() throws {
        // A title, an example name and a description with line breaks and a terminal sequence,
        // as a hostile pull request could write them (YAML double quotes turn \n into a break).
        let rule = """
            id: forged
            title: "t\\n::error file=x.yml,line=1::FORGED\\e[2J"
            severity: warning
            description: "d\\n::warning::FORGED"
            when: {type: signin}
            message: "m"
            examples:
              - name: "e\\n::error::FORGED"
                events:
                  - {id: e1, time: "2026-01-01T00:00:00Z", subject: u1, type: signin}
                fires: []
            """
        let path = try Fixtures.temporaryFile(named: "forged.yml", contents: rule)
        for arguments in [
            ["rules", "list", "--rules", path], ["rules", "test", "--rules", path], ["explain", "forged", "--rules", path],
        ] {
            let result = try CommandRunner.run(arguments)
            #expect(result.stdout.contains("FORGED"), "\(arguments): \(result.stdout) \(result.stderr)")
            #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("::") }, "\(arguments): \(result.stdout)")
            #expect(!result.stdout.contains("\u{1B}"), "\(arguments)")
        }
    }

    @Test func aReportIsNeverWrittenOverAnInput() throws {
        let log = #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n"
        let path = try Fixtures.temporaryFile(named: "events.jsonl", contents: log)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let link = directory.appendingPathComponent("link.jsonl").path
        try FileManager.default.linkItem(atPath: path, toPath: link)
        let otherSpelling = directory.path + "/./../" + directory.lastPathComponent + "/events.jsonl"
        for output in [path, otherSpelling, link] {
            let result = try CommandRunner.run(["check", "--events", path, "--output", output])
            #expect(result.status == 2)
            #expect(result.stderr.contains("is the input --events"), "\(result.stderr)")
            let report = try CommandRunner.run(["check", "--events", path, "--report", "json=\(output)"])
            #expect(report.status == 2)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == log)
    }

    /// A rule or mapping file read from a folder (`--rules DIR`, `--mapping DIR`) or named by the
    /// configuration is an input too: the report replaced it.
    @Test func aReportIsNeverWrittenOverARuleOrMappingReadFromAFolder() throws {
        let log = try Fixtures.temporaryFile(
            named: "events.jsonl", contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n")
        let folder = try Fixtures.temporaryDirectory()
        let rules = folder.appendingPathComponent("rules")
        let mappings = folder.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        let rule = rules.appendingPathComponent("consent.yml").path
        let mapping = mappings.appendingPathComponent("backend.yml").path
        try "id: show-signin\nseverity: note\nwhen: {type: signin}\nrequire: {preceded_by: {type: never}}\nmessage: signed in\n"
            .write(toFile: rule, atomically: false, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Fixtures.path("Examples/real-logs/backend-mapping.yml"), toPath: mapping)
        let config = folder.appendingPathComponent("relaylint.yml").path
        try "mappings: [mappings/backend.yml]\nrule_paths: [rules]\n".write(toFile: config, atomically: false, encoding: .utf8)
        let before = try [rule, mapping].map { try String(contentsOfFile: $0, encoding: .utf8) }
        for (options, target, input) in [
            // A folder on the command line refuses any YAML report inside it, before it loads.
            (["--rules", rules.path], rule, "lies inside the folder --rules"),
            (["--mapping", mappings.path], mapping, "lies inside the folder --mapping"),
            (["--config", config], mapping, "is the input the mapping file"),
            (["--config", config], rule, "lies inside the folder rule_paths (configuration)"),
        ] {
            let result = try CommandRunner.run(["check", "--events", log] + options + ["--format", "json", "--output", target])
            #expect(result.status == 2, "\(options) \(target)")
            #expect(result.stderr.contains(input), "\(result.stderr)")
        }
        #expect(try [rule, mapping].map { try String(contentsOfFile: $0, encoding: .utf8) } == before)
    }

    /// An empty relay domain, `@` or an address replaced the list with one no relay address
    /// matches, and every relay rule went quiet without a word.
    @Test(arguments: ["", "@", " ", "jane@privaterelay.appleid.com", "privaterelay"])
    func aRelayDomainThatIsNoDomainIsBadUsage(domain: String) throws {
        let result = try CommandRunner.run(["check", "--events", "Examples/events.jsonl", "--relay-domain", domain])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--relay-domain '"), "\(result.stderr)")
        let config = try Fixtures.temporaryFile(named: "relaylint.yml", contents: "relay_domains: [\"\(domain)\"]\n")
        let configured = try CommandRunner.run(["check", "--config", config, "--events", "Examples/events.jsonl"])
        #expect(configured.status == 2)
        #expect(configured.stderr.contains("'relay_domains' entry"), "\(configured.stderr)")
    }

    @Test func twoReportsAreNeverWrittenToOneFile() throws {
        let path = try Fixtures.temporaryFile(
            named: "events.jsonl", contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n")
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let result = try CommandRunner.run([
            "check", "--events", path, "--output", directory + "/out.txt", "--report", "html=\(directory)/./out.txt",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("name the same file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/out.txt"))
        // Devices are not files a report overwrites.
        let null = try CommandRunner.run(["check", "--events", path, "--output", "/dev/null", "--report", "html=/dev/null"])
        #expect(null.status == 0, "\(null.stderr)")
    }

    @Test func anEmptyInputIsAWarningAndFailOnEmptyFailsTheRun() throws {
        let blank = try Fixtures.temporaryFile(named: "blank.jsonl", contents: "\n \n")
        // /dev/null reads as a pipe whose command failed does: nothing.
        for path in [blank, "/dev/null"] {
            let result = try CommandRunner.run(["check", "--events", path])
            #expect(result.status == 0)
            #expect(result.stderr.contains("\(path): warning: no records were read from \(path)"), "\(result.stderr)")
            #expect(result.stdout.contains("warning: no records were read from \(path)"))
            let failing = try CommandRunner.run(["check", "--events", path, "--fail-on-empty"])
            #expect(failing.status == 2)
            #expect(failing.stdout.isEmpty)
            #expect(failing.stderr.contains("--fail-on-empty"))
        }
        let log = try Fixtures.temporaryFile(
            named: "clean.jsonl",
            contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin","provider":"google.com"}"# + "\n")
        let result = try CommandRunner.run(["check", "--events", log, "--fail-on-empty"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
    }

    @Test func skipInvalidGoesOnAndCountsTheLine() throws {
        let path = try Fixtures.temporaryFile(
            named: "bad.jsonl", contents: "oops\n" + #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n")
        let result = try CommandRunner.run(["check", "--events", path, "--skip-invalid"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("1 invalid record skipped"))
        #expect(result.stdout.contains("bad.jsonl:1:1: error: invalid JSON"))
    }

    @Test func aRuleWithATypoExitsWithTwoAndPointsAtIt() throws {
        let rule = try Fixtures.temporaryFile(
            named: "typo.yml",
            contents: """
                id: my-rule
                severity: error
                when: {type: signin}
                require:
                  preceded_by: {type: consent.granted}
                  withn: 30d
                message: m
                """)
        let result = try CommandRunner.run(["rules", "validate", "--rules", rule])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("\(rule):6:3: error: unknown key 'withn' in a requirement; did you mean 'within'?"), "\(result.stderr)")
        let check = try CommandRunner.run(["check", "--rules", rule, "--events", "Examples/events.jsonl"])
        #expect(check.status == 2)
    }

    /// The warnings on fields no event type declares quote the rule's own text: an address or a
    /// number in it is masked, and a line break in it cannot start a line of its own (a CI
    /// annotation), as in every other diagnostic.
    @Test func undeclaredFieldWarningsAreMaskedAndEscaped() throws {
        let rule = try Fixtures.temporaryFile(
            named: "fields.yml",
            contents: #"""
                id: vip-mail
                severity: warning
                when:
                  type: email.sent
                  where:
                    "jane.doe@example.com": seen
                    "x\n::error file=README.md,line=1::forged": "1"
                message: "mail {event.+1 415 555 0199}"
                """#)
        let result = try CommandRunner.run(["rules", "validate", "--rules", rule])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("declares a field 'j•••@example.com'"), "\(result.stderr)")
        #expect(result.stderr.contains("'+1••••••••99'"), "\(result.stderr)")
        #expect(!result.stderr.contains("jane.doe") && !result.stderr.contains("415 555"))
        #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("::error") }, "\(result.stderr)")
    }

    /// `rules validate` reads a rule's examples as it reads the rest of the file: an example
    /// event that is not valid input, or a `fires` naming nothing of the example (`e9` for
    /// `e2`), is an error at its line, not something only `rules test` stumbles on.
    @Test func anExampleThatCannotBeRightIsInvalid() throws {
        let rule = try Fixtures.temporaryFile(
            named: "examples.yml",
            contents: """
                id: my-rule
                severity: error
                when: {type: signin}
                message: m
                examples:
                  - name: a sign-in fires
                    events:
                      - {id: e1, time: "2026-01-01T10:00:00Z", type: signin}
                    fires: [e9]
                  - name: no time
                    events:
                      - {id: e1, time: yesterday, type: signin}
                    fires: [e1]
                  - name: by subject and app
                    events:
                      - {id: e1, time: "2026-01-01T10:00:00Z", subject: u2, app: com.example.a, type: signin}
                    fires: [u2, com.example.a, app]
                """)
        let result = try CommandRunner.run(["rules", "validate", "--rules", rule])
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 2, "\(result.stderr)")
        let unknownFiring =
            "\(rule):9:12: error: example 'a sign-in fires' expects a finding on 'e9', "
            + "which is none of its event ids, subjects, accounts or apps"
        #expect(errors.first.map(String.init) == unknownFiring)
        #expect(errors.last?.hasPrefix("\(rule):12:9: error: example event: field 'time' is not an RFC 3339 timestamp") == true)
    }

    @Test(arguments: [
        ["check"], ["check", "--events", "x", "--format", "pdf"], ["check", "--events", "x", "--fail-on", "fatal"], ["frobnicate"],
    ])
    func badUsageExitsWithTwo(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 2)
        #expect(!result.stderr.isEmpty)
    }

    /// An address a message quotes from a configuration is masked on standard error, which CI
    /// logs keep: the line and column still say where it is.
    @Test func anAddressInAConfigurationErrorIsMasked() throws {
        let config = try Fixtures.temporaryFile(named: "c.yml", contents: "relay_domains: [\"jane.doe@example.com\"]\n")
        let result = try CommandRunner.run(["check", "--config", config, "--events", "Examples/events.jsonl"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("c.yml:1:17: error: 'relay_domains' entry 'j•••@example.com'"), "\(result.stderr)")
        #expect(!result.stderr.contains("jane.doe"))
    }

    /// A manifest alone is something to check: an app it says creates accounts, without
    /// in-app deletion, is a finding with no data at all.
    @Test func aManifestAloneIsChecked() throws {
        let manifest = try Fixtures.temporaryFile(named: "apps.yml", contents: "apps: [{bundle_id: com.z, creates_accounts: true}]\n")
        let result = try CommandRunner.run(["check", "--manifest", manifest, "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let findings = report?["findings"] as? [[String: Any]] ?? []
        #expect(findings.map { "\($0["rule"] ?? "") \($0["subject"] ?? "")" } == ["in-app-deletion-offered com.z"])
    }

    /// A mistyped option is told as such, though the command's own checks (nothing to check,
    /// a bad --shard) would fail too: those run first in ArgumentParser, and hid the typo.
    @Test(arguments: [
        (["check", "--event", "Examples/events.jsonl"], "Unknown option '--event'"),
        (["check", "--events", "x", "--shard", "9/2", "--bogus"], "Unknown option '--bogus'"),
        (["split", "--partitions", "2", "--output", "/tmp/x", "--acounts", "a.json"], "Unknown option '--acounts'"),
        (["merge", "x.json", "--fail-on", "fatal", "--frobnicate"], "Unknown option '--frobnicate'"),
    ])
    func aMistypedOptionIsToldBeforeTheCommandsChecks(arguments: [String], message: String) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("nothing to"), "\(result.stderr)")
    }

    /// Without a typo, the command's checks are told as before.
    @Test func theCommandsOwnChecksAreToldWhenTheOptionsAreKnown() throws {
        let result = try CommandRunner.run(["check", "--events", "x", "--shard", "9/2"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--shard takes K/N"), "\(result.stderr)")
    }

    /// A report that cannot be written all the way (here: a device that is always full) fails
    /// the run with exit code 2, and the device is left alone.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aReportThatCannotBeWrittenExitsWithTwo() throws {
        let result = try CommandRunner.run(["check", "--format", "json", "--output", "/dev/full"] + Self.examples)
        #expect(result.status == 2)
        #expect(result.stderr.contains("/dev/full: error: cannot write report"))
        #expect(FileManager.default.fileExists(atPath: "/dev/full"))
    }

    @Test func aMissingFileExitsWithTwo() throws {
        let result = try CommandRunner.run(["check", "--events", "does-not-exist.jsonl"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("does-not-exist.jsonl: error: cannot read file: no such file"))
        // A link that leads nowhere is said to be one: "no such file" sent users looking for a
        // file that is plainly there.
        let folder = try Fixtures.temporaryDirectory()
        let loop = folder.appendingPathComponent("loop.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let looped = try CommandRunner.run(["check", "--events", loop])
        #expect(looped.status == 2)
        #expect(looped.stderr.contains("cannot read file: a symbolic link that leads to no file"), "\(looped.stderr)")
    }

    @Test func rulesListValidateAndTest() throws {
        let list = try CommandRunner.run(["rules", "list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("token-revoked-before-deletion"))
        let validate = try CommandRunner.run(["rules", "validate"])
        #expect(validate.status == 0)
        #expect(validate.stdout.contains("12 rules in 12 files are valid"))
        let test = try CommandRunner.run(["rules", "test"])
        #expect(test.status == 0)
        #expect(test.stdout.contains(" passed, 0 failed"))
    }

    @Test func rulesTestShowsTheTimelineOfAFailingExample() throws {
        let rule = try Fixtures.temporaryFile(
            named: "wrong.yml",
            contents: """
                id: wrong-expectation
                severity: note
                when: {type: signin}
                require: {preceded_by: {type: consent.granted}}
                message: m
                examples:
                  - name: expects nothing but fires
                    events:
                      - {id: e1, time: "2026-01-01T00:00:00Z", type: signin, provider: google.com}
                    fires: []
                """)
        let result = try CommandRunner.run(["rules", "test", "--rules", rule])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL wrong-expectation: expects nothing but fires"))
        #expect(result.stdout.contains("fired:            [e1]"))
        #expect(result.stdout.contains("2026-01-01T00:00:00Z u1 e1 signin provider=google.com"))
    }

    /// Examples are often records pasted from a production log, and `rules test` output lands
    /// in CI logs: addresses and phone numbers are masked in text and JUnit unless --show-pii is
    /// given. An example whose own data is invalid makes the rule file invalid: exit 2, as `rules
    /// validate` says.
    @Test(arguments: ["text", "junit"])
    func rulesTestMasksExamplesAndRefusesInvalidOnes(format: String) throws {
        let rule = try Fixtures.temporaryFile(
            named: "pasted.yml",
            contents: """
                id: pasted-from-production
                severity: note
                when: {type: email.sent}
                message: m
                examples:
                  - name: a mail to jane.doe@example.com
                    events:
                      - {id: m1, time: "2026-01-02T00:00:00Z", subject: "jane.doe@example.com", type: email.sent, phone: "+1 415 555 0142", mobile: "4155550100"}
                    fires: []
                  - name: a mail to john.doe@example.com
                    events:
                      - {id: m2, time: "2026-01-02T00:00:00Z", subject: "u2", type: email.sent}
                    fires: []
                """)
        let failing = try CommandRunner.run(["rules", "test", "--rules", rule, "--format", format])
        #expect(failing.status == 1, "\(failing.stderr)")
        #expect(failing.stdout.contains("j•••@example.com") && failing.stdout.contains("+1••••••••42"), "\(failing.stdout)")
        #expect(!failing.stdout.contains("jane.doe") && !failing.stdout.contains("555 0142"), "\(failing.stdout)")
        // A phone field's value is masked whatever its format, as reports mask it.
        #expect(failing.stdout.contains("mobile=••••••••00") && !failing.stdout.contains("4155550100"), "\(failing.stdout)")
        if format == "junit" {
            // The two names mask alike; dashboards tell cases apart by name.
            #expect(failing.stdout.contains(#"name="a mail to j•••@example.com (2)""#), "\(failing.stdout)")
        }
        let shown = try CommandRunner.run(["rules", "test", "--rules", rule, "--format", format, "--show-pii"])
        #expect(shown.status == 1 && shown.stdout.contains("jane.doe@example.com"), "\(shown.stdout)")

        let invalid = try Fixtures.temporaryFile(
            named: "invalid.yml",
            contents: """
                id: invalid-example
                severity: note
                when: {type: email.sent}
                message: m
                examples:
                  - name: a bad time
                    events:
                      - {id: m2, time: "mary.major@example.com", type: email.sent}
                    fires: [m2]
                """)
        let refused = try CommandRunner.run(["rules", "test", "--rules", invalid, "--format", format])
        #expect(refused.status == 2, "\(refused.stdout)")
        #expect(refused.stdout.contains("m•••@example.com") && !refused.stdout.contains("mary.major"), "\(refused.stdout)")
    }

    @Test func explainPrintsWhyAndReferences() throws {
        let result = try CommandRunner.run(["explain", "token-revoked-before-deletion"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Why:"))
        #expect(result.stdout.contains("https://developer.apple.com/documentation/signinwithapplerestapi/revoke-tokens"))
        let unknown = try CommandRunner.run(["explain", "no-such-rule"])
        #expect(unknown.status == 2)
    }

    /// What a rule fires on, requires and its parameters' values are masked as the audit
    /// reports mask them (a parameter may list people's addresses); `--show-pii` shows them.
    @Test func explainMasksTheAddressesARuleIsConfiguredWith() throws {
        let rule = try Fixtures.temporaryFile(named: "vip.yml", contents: Fixtures.ruleListingAddresses)
        let masked = try CommandRunner.run(["explain", "vip-mail", "--rules", rule])
        #expect(masked.status == 0, "\(masked.stderr)")
        #expect(masked.stdout.contains("v•••@gmail.com") && masked.stdout.contains("b•••@gmail.com"), "\(masked.stdout)")
        let shown = try CommandRunner.run(["explain", "vip-mail", "--rules", rule, "--show-pii"])
        #expect(shown.status == 0, "\(shown.stderr)")
        for address in ["vip.customer@gmail.com", "boss.person@gmail.com", "+14155550251"] {
            #expect(!masked.stdout.contains(address), "\(address): \(masked.stdout)")
            #expect(shown.stdout.contains(address), "\(address): \(shown.stdout)")
        }
    }

    /// The JSON rule listing masks the addresses and numbers a parameter lists, as `explain`
    /// does: it is for tools, and ends up in CI logs. `--show-pii` shows them.
    @Test func theRuleListingMasksTheAddressesAParameterLists() throws {
        let rule = try Fixtures.temporaryFile(named: "vip.yml", contents: Fixtures.ruleListingAddresses)
        let masked = try CommandRunner.run(["rules", "list", "--rules", rule, "--format", "json"])
        #expect(masked.status == 0, "\(masked.stderr)")
        #expect(masked.stdout.contains("v•••@gmail.com") && masked.stdout.contains("+1••••••••51"), "\(masked.stdout)")
        let shown = try CommandRunner.run(["rules", "list", "--rules", rule, "--format", "json", "--show-pii"])
        #expect(shown.status == 0, "\(shown.stderr)")
        for value in ["vip.customer@gmail.com", "+14155550251"] {
            #expect(!masked.stdout.contains(value), "\(value): \(masked.stdout)")
            #expect(shown.stdout.contains(value), "\(value): \(shown.stdout)")
        }
    }

    @Test func theBuiltInPackIsFoundFromAnotherDirectory() throws {
        let result = try CommandRunner.run(["rules", "list"], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("in-app-deletion-offered"))
    }

    @Test func aCopiedExecutableAloneRunsTheExamplesWithTheBuiltInPack() throws {
        let directory = try Fixtures.temporaryDirectory()
        let copy = directory.appendingPathComponent("relaylint")
        try FileManager.default.copyItem(at: CommandRunner.productsDirectory.appendingPathComponent("relaylint"), to: copy)
        let examples = ["--accounts", "accounts.json", "--events", "events.jsonl", "--manifest", "manifest.yml"]
        let result = try CommandRunner.run(
            ["check", "--format", "json"] + examples, in: Fixtures.root.appendingPathComponent("Examples"), executable: copy)
        #expect(result.status == 1, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let files = ((report?["rulePack"] as? [String: Any])?["files"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
        #expect(files?.count == 12)
        #expect(files?.contains("Rules/consent-before-email-link.yml") == true, "\(files ?? [])")
    }

    /// An example pasted from a production log fails without printing its addresses, unless
    /// asked: the output of `mappings test` lands in CI logs.
    @Test func aFailingMappingExampleIsPrintedMasked() throws {
        let mapping = try Fixtures.temporaryFile(
            named: "backend.yml",
            contents: """
                mapping: backend
                recognize: {path: uid, is: string}
                defaults: {id: {path: id}, time: {path: ts}, subject: {path: uid}}
                events: [{type: signin, fields: {email: {path: to}}}]
                examples:
                  - name: jane.doe@example.com signs in
                    record: {id: e1, ts: "2026-01-01T00:00:00Z", uid: u1, to: jane.doe@example.com}
                    events: [{id: e1, time: "2026-01-01T00:00:00Z", subject: u1, type: signin}]
                """)
        let masked = try CommandRunner.run(["mappings", "test", "--mapping", mapping])
        #expect(masked.status == 1)
        #expect(masked.stdout.contains("FAIL backend: j•••@example.com signs in"), "\(masked.stdout)")
        #expect(masked.stdout.contains("@example.com"))
        #expect(!masked.stdout.contains("jane.doe"), "\(masked.stdout)")
        let validated = try CommandRunner.run(["mappings", "validate", "--mapping", mapping])
        #expect(validated.stdout.contains("3 mappings are valid (1 of yours, 2 built in)"), "\(validated.stdout)")
        let shown = try CommandRunner.run(["mappings", "test", "--mapping", mapping, "--show-pii"])
        #expect(shown.status == 1)
        #expect(shown.stdout.contains(#""email":"jane.doe@example.com""#), "\(shown.stdout)")
    }

    @Test func relaylintRulesNamesAFolderThatReplacesTheBuiltInPack() throws {
        let folder = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Fixtures.path("Rules/token-revoked-before-deletion.yml"),
            toPath: folder.appendingPathComponent("only.yml").path)
        let result = try CommandRunner.run(["rules", "validate"], environment: ["RELAYLINT_RULES": folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 rule"), "\(result.stdout)")
        let mappings = try CommandRunner.run(["mappings", "validate"], environment: ["RELAYLINT_MAPPINGS": folder.path])
        #expect(mappings.status == 2, "a folder of rules is no mapping: \(mappings.stdout)")
        #expect(mappings.stderr.contains("Mappings/only.yml"), "\(mappings.stderr)")
    }
}

/// Configuration, suppressions, baselines: how a team adopts and tunes the tool.
@Suite struct ConfigurationCommandTests {
    static let examples = CommandLineTests.examples + ["--as-of", "2026-07-01"]

    @Test func aSuppressedFindingStaysVisibleButDoesNotFail() throws {
        let config = try Fixtures.temporaryFile(
            named: "relaylint.yml",
            contents: """
                rules:
                  in-app-deletion-offered: {enabled: false}
                suppressions:
                  - rule: token-revoked-before-deletion
                    justification: Revocations are done by a batch job that does not log yet.
                    author: ci@example.com
                    expires: 2026-12-31
                  - rule: consent-before-email-link
                    justification: Reviewed with legal, see ticket PRIV-12.
                    author: ci@example.com
                    expires: 2026-12-31
                  - rule: consent-before-phone-link
                    justification: Reviewed with legal, see ticket PRIV-13.
                    author: ci@example.com
                    expires: 2026-12-31
                  - rule: consent-before-social-link
                    justification: Reviewed with legal, see ticket PRIV-14.
                    author: ci@example.com
                    expires: 2026-12-31
                  - rule: pii-on-anonymized-account-without-consent
                    justification: Reviewed with legal, see ticket PRIV-15.
                    author: ci@example.com
                    expires: 2026-12-31
                  - rule: data-deleted-after-account-deletion
                    justification: Stores are cleaned by a nightly job.
                    author: ci@example.com
                    expires: 2026-12-31
                  - rule: deletion-request-completed
                    justification: Known backlog, tracked in OPS-7.
                    author: ci@example.com
                    expires: 2026-12-31
                  - rule: apple-account-delete-honored
                    subject: nobody
                    justification: Left here on purpose to show a stale entry.
                    author: ci@example.com
                    expires: 2026-12-31
                """)
        let result = try CommandRunner.run(["check", "--config", config] + Self.examples)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("matches no finding any more; remove it"))
        let json = try CommandRunner.run(["check", "--config", config, "--format", "json"] + Self.examples)
        #expect(json.stdout.contains("\"justification\" : \"Revocations are done by a batch job that does not log yet.\""))
        let audit = try CommandRunner.run(["check", "--config", config, "--no-suppressions"] + Self.examples)
        #expect(audit.status == 1)
    }

    /// A log whose one finding is `in-app-deletion-offered` for the recipes app (it creates an
    /// account, and offers no in-app deletion), and a configuration of these suppressions.
    private static func recipesRun(suppressions: [(target: String, expires: String)]) throws -> [String] {
        let log = try Fixtures.temporaryFile(
            named: "apps.jsonl",
            contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"account.created","provider":"google.com","#
                + #""app":"com.sparrownotes.recipes"}"# + "\n")
        let entries = suppressions.map { suppression in
            """
              - \(suppression.target)
                justification: The recipes app is being retired.
                author: ci@example.com
                expires: \(suppression.expires)
            """
        }
        let config = try Fixtures.temporaryFile(
            named: "relaylint.yml", contents: "suppressions:\n" + entries.joined(separator: "\n") + "\n")
        return ["check", "--config", config, "--events", log, "--as-of", "2026-07-01", "--fail-on", "note"]
    }

    private static let recipes = "rule: in-app-deletion-offered\n    subject: com.sparrownotes.recipes"

    /// README: a suppression past its expiry date no longer applies: the finding it accepted
    /// counts again, and fails the run as any finding does; standard error says it expired.
    @Test func anExpiredSuppressionNoLongerAppliesAndSaysSo() throws {
        #expect(try CommandRunner.run(try Self.recipesRun(suppressions: [(Self.recipes, "2999-12-31")])).status == 0)
        let result = try CommandRunner.run(try Self.recipesRun(suppressions: [(Self.recipes, "2026-06-30")]))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("warning: suppression expired on 2026-06-30: it no longer applies"), "\(result.stderr)")
    }

    /// Exit 1 means findings at or above --fail-on, and nothing else: an expired suppression
    /// that matches nothing, or whose finding an active suppression accepts anyway, is told on
    /// standard error but fails no run; `merge` decides as `check` does.
    @Test(arguments: [
        ("matches nothing", "rule: consent-before-email-link\n    subject: nobody"),
        ("shadowed by an active one", recipes),
    ])
    func anExpiredSuppressionAloneFailsNoRun(_ case: String, target: String) throws {
        let check = try Self.recipesRun(suppressions: [(target, "2020-01-31"), (Self.recipes, "2999-12-31")])
        let result = try CommandRunner.run(check)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("warning: suppression expired on 2020-01-31"))
        let shard = try Fixtures.temporaryDirectory().appendingPathComponent("shard.json").path
        let partial = try CommandRunner.run(check + ["--shard", "1/1", "--format", "json", "--output", shard])
        #expect(partial.status == 0, "\(partial.stderr)")
        #expect(try CommandRunner.run(["merge", shard, "--fail-on", "note"]).status == 0)
    }

    @Test func configurationErrorsPointAtTheLine() throws {
        let config = try Fixtures.temporaryFile(
            named: "relaylint.yml",
            contents: """
                rules:
                  token-revoked-before-deleton: {severity: warning}
                  deletion-request-completed: {params: {windw: 14d}}
                suppressions:
                  - rule: consent-before-email-link
                    justification: short
                    author: a
                    expires: next week
                """)
        let result = try CommandRunner.run(["check", "--config", config] + Self.examples)
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(config):6:20: error: 'justification' must say why"), "\(result.stderr)")
        #expect(result.stderr.contains("\(config):8:14: error: 'expires' must be a date YYYY-MM-DD"))
    }

    @Test func unknownRulesAndParametersInTheConfigurationAreErrors() throws {
        let config = try Fixtures.temporaryFile(
            named: "relaylint.yml",
            contents: """
                rules:
                  token-revoked-before-deleton: {severity: warning}
                  deletion-request-completed: {params: {windw: 14d}}
                """)
        let result = try CommandRunner.run(["check", "--config", config] + Self.examples)
        #expect(result.status == 2)
        #expect(result.stderr.contains("rule 'deletion-request-completed' has no parameter 'windw'"), "\(result.stderr)")
    }

    /// A parameter value the configuration sets wrong is told at its line and column in the
    /// configuration, not at the built-in rule's file, which is not on the user's machine.
    @Test func aBadParameterValueIsToldWhereTheConfigurationSetsIt() throws {
        let config = try Fixtures.temporaryFile(
            named: "params.yml", contents: "rules:\n  deletion-request-completed: {params: {window: 3000000d}}\n")
        let result = try CommandRunner.run(["check", "--config", config] + Self.examples)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "\(config):2:49: error: the value of parameter 'window' of rule 'deletion-request-completed': "
                    + "'within' is longer than relaylint handles"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("Rules/deletion-request-completed.yml"), "\(result.stderr)")
        // A value of the wrong kind names the parameter too, not only the rule's own key.
        let list = try Fixtures.temporaryFile(
            named: "stores.yml", contents: "rules:\n  data-deleted-after-account-deletion: {params: {stores: firestore}}\n")
        let wrongKind = try CommandRunner.run(["check", "--config", list] + Self.examples)
        #expect(wrongKind.status == 2)
        #expect(
            wrongKind.stderr.contains("the value of parameter 'stores' of rule 'data-deleted-after-account-deletion': "),
            "\(wrongKind.stderr)")
    }

    @Test func aBaselineHidesKnownFindingsSoOnlyRegressionsFail() throws {
        let directory = try Fixtures.temporaryDirectory()
        let previous = directory.appendingPathComponent("previous.json").path
        _ = try CommandRunner.run(["check", "--format", "json", "--output", previous] + Self.examples)
        let result = try CommandRunner.run(["check", "--baseline", previous] + Self.examples)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("in the baseline not shown"))
        let explained = try CommandRunner.run(["explain", "--report", previous, "nope"])
        #expect(explained.status == 2)
    }

    @Test func aSuppressionOfAFindingTheBaselineHidesIsNotStale() throws {
        let directory = try Fixtures.temporaryDirectory()
        let previous = directory.appendingPathComponent("previous.json").path
        let withConfig = ["--config", "Examples/.relaylint.yml"] + Self.examples
        _ = try CommandRunner.run(["check", "--format", "json", "--output", previous] + withConfig)
        let result = try CommandRunner.run(["check", "--baseline", previous] + withConfig)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(!result.stdout.contains("matches no finding any more"), "\(result.stdout)")
        #expect(
            result.stdout.contains("consent-before-phone-link for Yz4uJoHgkb7jjRw8CmnqbGSkbZ0z: 1 finding accepted"), "\(result.stdout)")
        let json = try CommandRunner.run(["check", "--baseline", previous, "--format", "json"] + withConfig)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let statuses = (object?["suppressions"] as? [[String: Any]])?.compactMap { $0["status"] as? String }
        #expect(statuses == ["active"])
    }

    @Test func explainShowsOneFindingsEvidence() throws {
        let directory = try Fixtures.temporaryDirectory()
        let report = directory.appendingPathComponent("report.json").path
        _ = try CommandRunner.run(["check", "--format", "json", "--output", report] + Self.examples)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let findings = object?["findings"] as? [[String: Any]] ?? []
        let revocation = try #require(findings.first { ($0["event"] as? String) == "evt-0112" })
        let fingerprint = try #require(revocation["fingerprint"] as? String)
        let result = try CommandRunner.run(["explain", String(fingerprint.prefix(12)), "--report", report])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("boundary     signin evt-0087"))
        #expect(result.stdout.contains("does not count: it lies beyond evt-0087"))
    }

    /// A report written with --show-pii (or edited) holds addresses whole: `explain` masks them
    /// as a report does, unless it is given --show-pii too. An empty fingerprint, which every
    /// fingerprint starts with, is refused.
    @Test func explainMasksAsAReportDoes() throws {
        let log = try Fixtures.temporaryFile(
            named: "pii.jsonl",
            contents: #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"jane.doe@example.com","type":"account.created","#
                + #""provider":"apple.com","email":"x@privaterelay.appleid.com"}"# + "\n"
                + #"{"id":"b","time":"2026-01-02T00:00:00Z","subject":"jane.doe@example.com","type":"identity.linked","#
                + #""kind":"phone","value":"+14155550199"}"# + "\n")
        let report = try Fixtures.temporaryDirectory().appendingPathComponent("report.json").path
        _ = try CommandRunner.run(["check", "--events", log, "--show-pii", "--format", "json", "--output", report])
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let finding = try #require((object?["findings"] as? [[String: Any]])?.first { $0["event"] as? String == "b" })
        let fingerprint = try #require(finding["fingerprint"] as? String)
        let masked = try CommandRunner.run(["explain", fingerprint, "--report", report])
        #expect(masked.status == 0, "\(masked.stderr)")
        #expect(masked.stdout.contains("subject: j•••@example.com"), "\(masked.stdout)")
        #expect(!masked.stdout.contains("jane.doe@example.com"), "\(masked.stdout)")
        let shown = try CommandRunner.run(["explain", fingerprint, "--report", report, "--show-pii"])
        #expect(shown.stdout.contains("subject: jane.doe@example.com"), "\(shown.stdout)")
        let empty = try CommandRunner.run(["explain", "", "--report", report])
        #expect(empty.status == 2 && empty.stdout.isEmpty, "\(empty.stdout)")
    }
}

/// Output that cannot be written, and arguments that cannot be honoured, end with exit code 2
/// and a message rather than a crash.
@Suite struct OutputFailureTests {
    static let log = #"{"id":"a","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin","provider":"google.com"}"# + "\n"

    @Test(arguments: [
        ["check", "--format", "text"], ["check", "--format", "json"], ["rules", "list"], ["explain", "consent-before-email-link"],
    ])
    func aFullStandardOutputExitsWithTwo(arguments: [String]) throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let events = arguments[0] == "check" ? ["--events", try Fixtures.temporaryFile(named: "clean.jsonl", contents: Self.log)] : []
        let result = try CommandRunner.run(arguments + events, standardOutput: full)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("relaylint: error: cannot write to standard output"), "\(result.stderr)")
    }

    @Test func aFullStepSummaryExitsWithTwo() throws {
        let log = try Fixtures.temporaryFile(named: "clean.jsonl", contents: Self.log)
        let result = try CommandRunner.run(
            ["check", "--format", "github", "--events", log], environment: ["GITHUB_STEP_SUMMARY": "/dev/full"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("/dev/full: error: cannot append the step summary"), "\(result.stderr)")
    }

    @Test(arguments: ["0", "1025", "10000000000000", "99999999999999999999"])
    func jobsOutsideASaneRangeAreAUsageError(jobs: String) throws {
        let log = try Fixtures.temporaryFile(named: "clean.jsonl", contents: Self.log)
        let result = try CommandRunner.run(["check", "--jobs", jobs, "--events", log])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--jobs"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func jobsAtTheMaximumRun() throws {
        let log = try Fixtures.temporaryFile(named: "clean.jsonl", contents: Self.log)
        let result = try CommandRunner.run(["check", "--jobs", "1024", "--events", log])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
