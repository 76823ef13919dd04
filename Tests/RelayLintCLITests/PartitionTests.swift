import Foundation
import RelayLintCore
import RelayLintTestSupport
import Testing

/// `split` + `check --partition K/N` on every K + `merge` gives the single run's reports byte for
/// byte, and each step refuses what would make the sum wrong.
@Suite struct PartitionTests {
    static let options = ["--config", "Examples/.relaylint.yml", "--manifest", "Examples/manifest.yml"]

    /// A data set whose partitions end at different times: deletion requests of the last days
    /// are pending at the end of the whole data, decided too early by a partition that stops sooner.
    static func generatedData(in folder: URL) throws -> (accounts: String, events: String) {
        var lines: [String] = []
        var users: [String] = []
        let day: Int64 = 86_400_000
        let start: Int64 = 1_767_225_600_000  // 2026-01-01
        for number in 0..<60 {
            let subject = "gen-\(number)"
            let created = start + Int64(number) * day
            users.append(#"{"localId": "\#(subject)", "email": "u\#(number)@privaterelay.appleid.com", "createdAt": "\#(created)"}"#)
            lines.append(
                #"{"id":"c\#(number)","time":\#(created),"subject":"\#(subject)","type":"account.created","app":"com.sparrownotes.app","provider":"apple.com","is_private_email":true}"#
            )
            if number % 3 == 0 {
                lines.append(
                    #"{"id":"r\#(number)","time":\#(created + day / 2),"subject":"\#(subject)","type":"account.deletion_requested","channel":"in_app"}"#
                )
            }
            if number % 7 == 0 {
                // A link that names no identity: a data-quality note each partition gives for its own.
                lines.append(
                    #"{"id":"k\#(number)","time":\#(created + day / 3),"subject":"\#(subject)","type":"identity.linked","provider":"google.com"}"#
                )
            }
            if number % 6 == 0, number < 40 {
                lines.append(#"{"id":"d\#(number)","time":\#(created + 2 * day),"subject":"\#(subject)","type":"account.deleted"}"#)
            }
        }
        let accounts = folder.appendingPathComponent("accounts.json")
        let events = folder.appendingPathComponent("events.jsonl")
        try Data(("{\"users\": [\n" + users.joined(separator: ",\n") + "\n]}\n").utf8).write(to: accounts)
        try Data((lines.reversed().joined(separator: "\n") + "\n").utf8).write(to: events)
        return (accounts.path, events.path)
    }

    /// Splits, runs every partition, and returns the partials and the split folder.
    static func partials(
        count: Int, accounts: String, events: String, dataEnd: Bool = true, extra: [String] = []
    ) throws -> (paths: [String], folder: URL) {
        let folder = try Fixtures.temporaryDirectory()
        let split = try CommandRunner.run([
            "split", "--partitions", "\(count)", "--accounts", accounts, "--events", events, "--output", folder.path,
        ])
        try #require(split.status == 0, "\(split.stderr)")
        let end = try String(contentsOf: folder.appendingPathComponent("data-end.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let paths = try (1...count).map { index in
            let part = folder.appendingPathComponent(SubjectSplitter.folderName(index, of: count))
            let output = folder.appendingPathComponent("partial-\(index).json").path
            let result = try CommandRunner.run(
                ["check"] + options + extra + ["--as-of", "2026-07-01", "--partition", "\(index)/\(count)"]
                    + (dataEnd ? ["--data-end", end] : [])
                    + [
                        "--accounts", part.appendingPathComponent("accounts.json").path,
                        "--events", part.appendingPathComponent("events.jsonl").path,
                        "--format", "json", "--output", output,
                    ])
            #expect(result.status == 0, "\(result.stderr)")
            return output
        }
        return (paths, folder)
    }

    static func single(accounts: String, events: String, format: String = "json") throws -> CommandRunner.Result {
        try CommandRunner.run(
            ["check"] + options + ["--as-of", "2026-07-01", "--accounts", accounts, "--events", events, "--format", format])
    }

    static func merge(_ partials: [String], folder: URL, format: String = "json") throws -> CommandRunner.Result {
        try CommandRunner.run(
            ["merge"] + options + partials.reversed()
                + ["--sources", folder.appendingPathComponent("sources.json").path, "--format", format])
    }

    @Test(arguments: [1, 2, 3, 7])
    func splitPartitionsAndMergeEqualTheSingleRunOnTheExamples(count: Int) throws {
        let accounts = Fixtures.path("Examples/accounts.json")
        let events = Fixtures.path("Examples/events.jsonl")
        let single = try Self.single(accounts: accounts, events: events)
        let (paths, folder) = try Self.partials(count: count, accounts: accounts, events: events)
        let merged = try Self.merge(paths, folder: folder)
        #expect(merged.stdout == single.stdout)
        #expect(merged.status == single.status, "\(merged.stderr)")
        let html = try Self.merge(paths, folder: folder, format: "html")
        #expect(html.stdout == (try Self.single(accounts: accounts, events: events, format: "html")).stdout)
    }

    /// A merge's GitHub report comes with the job page's summary, as one run's does: merge
    /// appended none to `$GITHUB_STEP_SUMMARY`.
    @Test func aMergedGitHubReportAppendsTheStepSummaryOneRunDoes() throws {
        let accounts = Fixtures.path("Examples/accounts.json")
        let events = Fixtures.path("Examples/events.jsonl")
        let folder = try Fixtures.temporaryDirectory()
        let single = folder.appendingPathComponent("single.md")
        let merged = folder.appendingPathComponent("merged.md")
        for file in [single, merged] { try Data().write(to: file) }
        _ = try CommandRunner.run(
            ["check"] + Self.options + ["--as-of", "2026-07-01", "--accounts", accounts, "--events", events, "--format", "github"],
            environment: ["GITHUB_STEP_SUMMARY": single.path])
        let (paths, split) = try Self.partials(count: 2, accounts: accounts, events: events)
        _ = try CommandRunner.run(
            ["merge"] + Self.options + paths + ["--sources", split.appendingPathComponent("sources.json").path, "--format", "github"],
            environment: ["GITHUB_STEP_SUMMARY": merged.path])
        let expected = try String(contentsOf: single, encoding: .utf8)
        #expect(!expected.isEmpty)
        #expect(try String(contentsOf: merged, encoding: .utf8) == expected)
    }

    @Test(arguments: [1, 2, 3, 7])
    func splitPartitionsAndMergeEqualTheSingleRunWithWindowsOpenAtTheEnd(count: Int) throws {
        let (accounts, events) = try Self.generatedData(in: try Fixtures.temporaryDirectory())
        let single = try Self.single(accounts: accounts, events: events)
        let summary = try #require(
            (try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])?["summary"] as? [String: Any])
        #expect((summary["pending"] as? Int ?? 0) > 0, "windows still open at the end of the data")
        let (paths, folder) = try Self.partials(count: count, accounts: accounts, events: events)
        let merged = try Self.merge(paths, folder: folder)
        #expect(merged.stdout == single.stdout)
        let html = try Self.merge(paths, folder: folder, format: "html")
        #expect(html.stdout == (try Self.single(accounts: accounts, events: events, format: "html")).stdout)
    }

    /// More data-quality notes than one run lists (links that name no identity): the merge lists
    /// the first of all partitions and counts the rest as one run does (it listed them all).
    @Test func moreNotesThanOneRunListsMergeAsOneRunListsThem() throws {
        let folder = try Fixtures.temporaryDirectory()
        let accounts = folder.appendingPathComponent("accounts.json")
        let events = folder.appendingPathComponent("events.jsonl")
        try Data("{\"users\": []}\n".utf8).write(to: accounts)
        let lines = (0..<500).map { number in
            #"{"id":"k\#(number)","time":"2026-01-02T00:00:00Z","subject":"s\#(number % 37)","type":"identity.linked","provider":"x.com"}"#
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: events)
        let single = try Self.single(accounts: accounts.path, events: events.path)
        #expect(single.stdout.contains("100 more data-quality notes are not listed"))
        let (paths, split) = try Self.partials(count: 3, accounts: accounts.path, events: events.path)
        #expect(try Self.merge(paths, folder: split).stdout == single.stdout)
    }

    /// More look-alike relay addresses than one run lists: each partition lists its own first
    /// ones and counts the rest, and the merge lists the first of all and counts the rest as one
    /// run does (it listed up to N times as many).
    @Test(arguments: [2, 3])
    func lookAlikesPastTheListsCapAreListedAndCountedAsOneRunDoes(count: Int) throws {
        let folder = try Fixtures.temporaryDirectory()
        // One run lists 200; every partition (of 2 or 3) has more than that, and counts the rest.
        let lines = (0..<750).map { number in
            #"{"id":"s\#(number)","time":\#(1_767_225_600_000 + Int64(number) * 60_000),"subject":"look-\#(number % 97)","type":"signin","provider":"apple.com","email":"x\#(number)@privaterelay-appleid.com"}"#
        }
        let events = folder.appendingPathComponent("events.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: events)
        let accounts = folder.appendingPathComponent("accounts.json")
        try Data(#"{"users": [{"localId": "look-1", "email": "y@privaterelay.appleid.co"}]}"#.utf8).write(to: accounts)
        let single = try Self.single(accounts: accounts.path, events: events.path)
        #expect(single.stdout.contains("more look-alike relay addresses are not listed"), "\(single.stdout.suffix(2000))")
        let (paths, split) = try Self.partials(count: count, accounts: accounts.path, events: events.path)
        let merged = try Self.merge(paths, folder: split)
        #expect(merged.stdout == single.stdout)
    }

    /// More invalid records than one run lists (`--skip-invalid`): each partition lists its own
    /// first ones and counts the rest, and the merge lists the first of all and counts the rest
    /// as one run does.
    @Test(arguments: [2, 3])
    func invalidRecordsPastTheListsCapAreListedAndCountedAsOneRunDoes(count: Int) throws {
        let folder = try Fixtures.temporaryDirectory()
        // One run lists 1,000; every partition (of 2 or 3) has more bad lines than that.
        let listed = 1_000
        let lines = (0..<(listed * 8)).map { number in
            number % 2 == 0
                ? #"{"id":"s\#(number)","time":\#(1_767_225_600_000 + Int64(number) * 60_000),"subject":"u-\#(number % 97)","type":"signin","provider":"apple.com"}"#
                : #"{"id":"b\#(number)","time":"yesterday","subject":"u-\#(number % 89)","type":"signin"}"#
        }
        let events = folder.appendingPathComponent("events.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: events)
        let accounts = folder.appendingPathComponent("accounts.json")
        try Data(#"{"users": [{"localId": "u-1", "email": "y@example.com"}]}"#.utf8).write(to: accounts)
        let single = try CommandRunner.run(
            ["check"] + Self.options
                + ["--skip-invalid", "--as-of", "2026-07-01", "--accounts", accounts.path, "--events", events.path, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
        let skipped = try #require(report["skipped"] as? [[String: Any]])
        #expect((report["summary"] as? [String: Any])?["skipped"] as? Int == listed * 4)
        #expect(skipped.count == listed + 1)
        #expect(skipped.last?["message"] as? String == "\(listed * 3) more invalid records were skipped and are not listed")
        // At the first bad line not listed: the 1,001st, at line 2,002.
        #expect((skipped.last?["location"] as? [String: Any])?["line"] as? Int == listed * 2 + 2)
        let (paths, split) = try Self.partials(count: count, accounts: accounts.path, events: events.path, extra: ["--skip-invalid"])
        for path in paths {
            let partial = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            let own = (partial["evaluation"] as? [String: Any])?["skipped"] as? [[String: Any]]
            #expect((own?.last?["message"] as? String)?.hasSuffix("more invalid records were skipped and are not listed") == true)
        }
        let merged = try Self.merge(paths, folder: split)
        #expect(merged.stdout == single.stdout)
    }

    /// A log and an export that start with a byte order mark split as check reads them: the
    /// log's first line went to the first partition as one of no subject, whose check refused it
    /// as another's, and the export was refused.
    @Test func filesWithAByteOrderMarkSplitAsCheckReadsThem() throws {
        let folder = try Fixtures.temporaryDirectory()
        let bom = Data([0xEF, 0xBB, 0xBF])
        let events = folder.appendingPathComponent("events.jsonl")
        try (bom + (try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Examples/events.jsonl"))))).write(to: events)
        let accounts = folder.appendingPathComponent("accounts.json")
        try (bom + (try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Examples/accounts.json"))))).write(to: accounts)
        let single = try Self.single(accounts: accounts.path, events: events.path)
        let (paths, split) = try Self.partials(count: 3, accounts: accounts.path, events: events.path)
        let merged = try Self.merge(paths, folder: split)
        #expect(merged.status == single.status, "\(merged.stderr)")
        #expect(merged.stdout == single.stdout)
    }

    @Test func aPartitionThatDecidedItsWindowsAtItsOwnEndIsRefused() throws {
        let (accounts, events) = try Self.generatedData(in: try Fixtures.temporaryDirectory())
        let (paths, folder) = try Self.partials(count: 3, accounts: accounts, events: events, dataEnd: false)
        let merged = try Self.merge(paths, folder: folder)
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("but the data of all partitions ends at"))
        #expect(merged.stderr.contains("run it again with --data-end"))
    }

    /// A partial that contradicts itself is refused, naming it: a finding held twice, a finding
    /// of another severity than its rule's, more findings than its tallies count violated checks,
    /// invalid records counted in a run that stops at the first one. Each was merged as it was, into a report of wrong counts.
    @Test func mergeRefusesAPartialThatContradictsItself() throws {
        let accounts = Fixtures.path("Examples/accounts.json")
        let events = Fixtures.path("Examples/events.jsonl")
        let (paths, folder) = try Self.partials(count: 2, accounts: accounts, events: events)
        let original = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
        let edits: [(String, (inout [String: Any]) -> Void)] = [
            (
                "twice",
                { evaluation in
                    var findings = evaluation["findings"] as! [Any]
                    findings.append(findings[0])
                    evaluation["findings"] = findings
                }
            ),
            (
                "where this merge's rule is of severity error",
                { evaluation in
                    var findings = evaluation["findings"] as! [[String: Any]]
                    let index = findings.firstIndex { $0["severity"] as? String == "error" }!
                    findings[index]["severity"] = "note"
                    evaluation["findings"] = findings
                }
            ),
            (
                "each finding is one violated check",
                { evaluation in
                    let tallies = evaluation["tallies"] as! [[String: Any]]
                    evaluation["tallies"] = tallies.map { tally in tally.merging(["violated": 0]) { $1 } }
                }
            ),
            (
                "of a run without --skip-invalid",
                { evaluation in
                    var inputs = evaluation["inputs"] as! [[String: Any]]
                    inputs[0]["invalid"] = 5
                    evaluation["inputs"] = inputs
                }
            ),
        ]
        for (message, edit) in edits {
            var partial = try JSONSerialization.jsonObject(with: original) as! [String: Any]
            var evaluation = partial["evaluation"] as! [String: Any]
            edit(&evaluation)
            partial["evaluation"] = evaluation
            try JSONSerialization.data(withJSONObject: partial).write(to: URL(fileURLWithPath: paths[0]))
            let merged = try Self.merge(paths, folder: folder)
            #expect(merged.status == 2, "\(message): \(merged.stderr)")
            #expect(merged.stderr.contains("\(paths[0]): error: ") && merged.stderr.contains(message), "\(merged.stderr)")
        }
    }

    /// The sources `split` wrote are read strictly: JSON that is not (a trailing comma, at its
    /// line and column), a hash that is none, a kind that is none, a data end other than the
    /// partitions' own. Each was taken, and a made-up hash was printed as the input's.
    @Test func mergeRefusesSourcesThatAreNotSplits() throws {
        let accounts = Fixtures.path("Examples/accounts.json")
        let events = Fixtures.path("Examples/events.jsonl")
        let (paths, folder) = try Self.partials(count: 2, accounts: accounts, events: events)
        let sources = folder.appendingPathComponent("sources.json")
        let original = try JSONSerialization.jsonObject(with: Data(contentsOf: sources)) as! [String: Any]
        func edited(_ edit: (inout [String: Any]) -> Void) throws -> String {
            var copy = original
            edit(&copy)
            return String(decoding: try JSONSerialization.data(withJSONObject: copy), as: UTF8.self)
        }
        let cases: [(String, String)] = [
            ("{\"partitions\": 2,\n \"inputs\": [],\n}\n", "sources.json:3:1: error: "),
            (
                try edited { sources in
                    var inputs = sources["inputs"] as! [[String: Any]]
                    inputs[0]["sha256"] = "not-a-hash"
                    sources["inputs"] = inputs
                }, "'inputs[0].sha256' must be a SHA-256"
            ),
            (
                try edited { sources in
                    var inputs = sources["inputs"] as! [[String: Any]]
                    inputs[0]["kind"] = "event"
                    sources["inputs"] = inputs
                }, "'inputs[0].kind' must be events or accounts, found 'event'"
            ),
            (try edited { $0["dataEnd"] = "2020-01-01T00:00:00Z" }, "where the sources say the data ends at 2020-01-01T00:00:00Z"),
        ]
        for (text, message) in cases {
            try Data(text.utf8).write(to: sources)
            let merged = try Self.merge(paths, folder: folder)
            #expect(merged.status == 2, "\(message): \(merged.stderr)")
            #expect(merged.stderr.contains(message), "\(merged.stderr)")
        }
    }

    @Test func mergeRefusesMissingRepeatedMixedTruncatedAndOtherOptions() throws {
        let accounts = Fixtures.path("Examples/accounts.json")
        let events = Fixtures.path("Examples/events.jsonl")
        let (paths, folder) = try Self.partials(count: 3, accounts: accounts, events: events)
        let missing = try Self.merge([paths[0], paths[2]], folder: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("error: partial missing: 2/3"))
        #expect(!missing.stderr.contains(": error: partial missing"), "no empty place before the message")
        let repeated = try Self.merge(paths + [paths[1]], folder: folder)
        #expect(repeated.status == 2)
        #expect(repeated.stderr.contains("is partition 2/3 again"))

        let shard = folder.appendingPathComponent("shard.json").path
        _ = try CommandRunner.run(
            ExampleReportTests.exampleArguments + ["--format", "json", "--shard", "1/3", "--fail-on", "never", "--output", shard])
        let mixed = try Self.merge([paths[0], paths[1], shard], folder: folder)
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("shard.json: error: is a shard report"))

        let truncated = folder.appendingPathComponent("truncated.json")
        let whole = try Data(contentsOf: URL(fileURLWithPath: paths[2]))
        try whole.prefix(whole.count / 2).write(to: truncated)
        let cut = try Self.merge([paths[0], paths[1], truncated.path], folder: folder)
        #expect(cut.status == 2)
        #expect(cut.stderr.contains("truncated.json: error: the partial is truncated"))

        let (others, _) = try Self.partials(count: 3, accounts: accounts, events: events, extra: ["--relay-domain", "example.org"])
        let otherOptions = try Self.merge([paths[0], paths[1], others[2]], folder: folder)
        #expect(otherOptions.status == 2)
        #expect(otherOptions.stderr.contains("partial-3.json: error: was checked with other options than this merge's: the relay domains"))
    }
}
