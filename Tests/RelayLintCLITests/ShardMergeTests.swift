import Foundation
import RelayLintCore
import RelayLintTestSupport
import Testing

/// `check --shard K/N` on every K, then `merge`, gives the single run's JSON report byte for byte.
@Suite struct ShardMergeTests {
    static let arguments = ExampleReportTests.exampleArguments + ["--accounts", "Examples/accounts.csv", "--format", "json"]

    /// Runs every shard of `count` into a temporary folder and returns the report paths.
    func shardReports(count: Int) throws -> [String] {
        let folder = try Fixtures.temporaryDirectory()
        return try (1...count).map { index in
            let path = folder.appendingPathComponent("shard-\(index).json").path
            let result = try CommandRunner.run(
                Self.arguments + ["--shard", "\(index)/\(count)", "--fail-on", "never", "--output", path])
            #expect(result.status == 0, "\(result.stderr)")
            return path
        }
    }

    @Test(arguments: [1, 2, 3, 7])
    func mergedShardsEqualTheSingleRun(count: Int) throws {
        let single = try CommandRunner.run(Self.arguments)
        #expect(single.status == 1)
        let merged = try CommandRunner.run(["merge"] + shardReports(count: count).reversed())
        #expect(merged.stdout == single.stdout)
        #expect(merged.status == single.status, "\(merged.stderr)")
    }

    /// Shards run with `--show-pii` (which keeps one run's order) merge only with `merge
    /// --show-pii`, into the single `--show-pii` run's report; without it, or mixed with masked
    /// shards, they are refused: masking the finished report would miss values glued to a rule's
    /// words, and the merged report was every address in clear.
    @Test func shardsThatShowAddressesMergeOnlyWithShowPII() throws {
        let folder = try Fixtures.temporaryDirectory()
        func shard(_ index: Int, _ options: [String]) throws -> String {
            let path = folder.appendingPathComponent("shard-\(index)\(options.joined()).json").path
            let result = try CommandRunner.run(
                Self.arguments + ["--shard", "\(index)/2", "--fail-on", "never", "--output", path] + options)
            #expect(result.status == 0, "\(result.stderr)")
            return path
        }
        let shown = try [shard(1, ["--show-pii"]), shard(2, ["--show-pii"])]
        let merged = try CommandRunner.run(["merge", "--show-pii"] + shown)
        #expect(merged.stdout == (try CommandRunner.run(Self.arguments + ["--show-pii"])).stdout)
        #expect(merged.stdout.contains("privacy@sparrownotes.example") && !merged.stdout.contains("showsPII"))
        let refused = try CommandRunner.run(["merge"] + shown)
        #expect(refused.status == 2 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("shows addresses and phone numbers (its shard ran with --show-pii)"), "\(refused.stderr)")
        let mixed = try CommandRunner.run(["merge", "--show-pii", shown[0], try shard(2, [])])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("on --show-pii"), "\(mixed.stderr)")
    }

    @Test func eachShardEvaluatesOnlyItsSlice() throws {
        let decoder = JSONDecoder()
        struct Report: Decodable {
            struct Summary: Decodable { var subjects: Int }
            struct Finding: Decodable { var subject: String }
            var summary: Summary
            var findings: [Finding]
        }
        let single = try decoder.decode(Report.self, from: Data(try CommandRunner.run(Self.arguments).stdout.utf8))
        let shards = try shardReports(count: 3).map { try decoder.decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: $0))) }
        #expect(shards.map(\.summary.subjects).reduce(0, +) == single.summary.subjects)
        #expect(shards.allSatisfy { $0.summary.subjects < single.summary.subjects })
        #expect(shards.filter { !$0.findings.isEmpty }.count >= 2)
        let subjectsPerShard = shards.map { Set($0.findings.map(\.subject)) }
        #expect(subjectsPerShard[0].isDisjoint(with: subjectsPerShard[1]))
        #expect(subjectsPerShard[1].isDisjoint(with: subjectsPerShard[2]))
    }

    @Test func aMissingOrRepeatedShardIsAnError() throws {
        let reports = try shardReports(count: 3)
        let missing = try CommandRunner.run(["merge", reports[0], reports[2]])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("shard report missing: 2/3"))
        let repeated = try CommandRunner.run(["merge", reports[0], reports[1], reports[1], reports[2]])
        #expect(repeated.status == 2)
        #expect(repeated.stderr.contains("is shard 2/3 again"))
    }

    @Test func aReportOfAnotherRunIsRefused() throws {
        let folder = try Fixtures.temporaryDirectory()
        let whole = folder.appendingPathComponent("whole.json").path
        _ = try CommandRunner.run(Self.arguments + ["--output", whole])
        let notShard = try CommandRunner.run(["merge", whole])
        #expect(notShard.status == 2)
        #expect(notShard.stderr.contains("whole.json: error: not a shard report"))

        let other = folder.appendingPathComponent("other.json").path
        let otherRun = try CommandRunner.run(
            ExampleReportTests.exampleArguments + ["--format", "json", "--shard", "2/2", "--fail-on", "never", "--output", other])
        #expect(otherRun.status == 0)
        let reports = try shardReports(count: 2)
        let mixed = try CommandRunner.run(["merge", reports[0], other])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("other.json: error: disagrees with"))
        #expect(mixed.stderr.contains("the inputs"))
    }

    /// Counts are added with overflow reported: two shards of `checked = Int.max` crashed the
    /// merge (SIGILL), and a negative count would be a wrong report.
    @Test(arguments: [["rules", 0, "checked"], ["summary", "subjects"], ["summary", "bySeverity", "error"]] as [[any Sendable]])
    func aForgedCountIsRefusedNotATrap(place: [any Sendable]) throws {
        let reports = try shardReports(count: 2)
        let huge = try reports.enumerated().map { index, path in
            try PartitionMergeTests.forged(path, as: "huge-\(index).json", setting: place, to: Int.max)
        }
        let merged = try CommandRunner.run(["merge"] + huge)
        #expect(merged.status == 2, "\(merged.stderr)")
        // Refused by its range, or where it counts the listed findings by severity.
        #expect(
            merged.stderr.contains("holds 9223372036854775807 at ") || merged.stderr.contains("counts 9223372036854775807 error"),
            "\(merged.stderr)")
        let negative = try PartitionMergeTests.forged(reports[1], as: "negative.json", setting: place, to: -1)
        let refused = try CommandRunner.run(["merge", reports[0], negative])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("holds -1 at ") || refused.stderr.contains("counts -1 error"), "\(refused.stderr)")
    }

    /// A shard report whose findings a bad copy or a hand edit changed is refused, naming the file,
    /// as a damaged partial is: merged, a finding of another shard was listed twice under one
    /// fingerprint and counted apart from the summary, and a reversed list stayed reversed.
    @Test func aShardReportOfDamagedFindingsIsRefused() throws {
        let reports = try shardReports(count: 3)
        func findings(_ path: String) throws -> (report: [String: Any], findings: [[String: Any]]) {
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            return (report, report["findings"] as? [[String: Any]] ?? [])
        }
        func written(_ report: [String: Any], as name: String) throws -> String {
            let path = try Fixtures.temporaryDirectory().appendingPathComponent(name).path
            try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: path))
            return path
        }
        let (first, firstFindings) = try findings(reports[0])
        let (_, secondFindings) = try findings(reports[1])
        // A subject shown whole, so that its shard can be told.
        let borrowed = try #require(secondFindings.first { !"\($0["subject"]!)".contains("•") })
        var copied = first
        copied["findings"] = firstFindings + [borrowed]
        var reversed = first
        reversed["findings"] = Array(firstFindings.reversed())
        #expect(firstFindings.count > 1)

        let withCopy = try CommandRunner.run(["merge", try written(copied, as: "copied.json"), reports[1], reports[2]])
        #expect(withCopy.status == 2)
        #expect(withCopy.stderr.contains("copied.json: error: lists \(firstFindings.count + 1) findings"), "\(withCopy.stderr)")
        #expect(withCopy.stderr.contains("which belongs to shard 2/3, not 1/3"), "\(withCopy.stderr)")
        #expect(withCopy.stderr.contains("which copied.json holds too") || withCopy.stderr.contains("copied.json holds too"))
        // Counts by severity and by rule that disagree with the list.
        var recounted = first
        var summary = try #require(first["summary"] as? [String: Any])
        var bySeverity = try #require(summary["bySeverity"] as? [String: Int])
        bySeverity["error", default: 0] += 1
        summary["bySeverity"] = bySeverity
        recounted["summary"] = summary
        var rules = try #require(first["rules"] as? [[String: Any]])
        let firing = try #require(rules.firstIndex { rule in firstFindings.contains { $0["rule"] as? String == rule["id"] as? String } })
        rules[firing]["violated"] = 0
        recounted["rules"] = rules
        let withRecount = try CommandRunner.run(["merge", try written(recounted, as: "recounted.json"), reports[1], reports[2]])
        #expect(withRecount.status == 2)
        #expect(withRecount.stderr.contains("recounted.json: error: lists findings of severities"), "\(withRecount.stderr)")
        #expect(withRecount.stderr.contains("where rules[\(firing)].violated counts 0"), "\(withRecount.stderr)")
        let withReversal = try CommandRunner.run(["merge", try written(reversed, as: "reversed.json"), reports[1], reports[2]])
        #expect(withReversal.status == 2)
        #expect(withReversal.stderr.contains("reversed.json: error: lists the finding with fingerprint"), "\(withReversal.stderr)")
        // The shards as written merge.
        #expect(try CommandRunner.run(["merge"] + reports).status == 1)
    }

    /// One subject shown masked (a phone number's `••••58`, whose whole id sorts first) at a
    /// shard's start held back every other finding of that shard in the merge: the subjects
    /// shown whole came out unsorted. Its findings travel with their shard's order now.
    /// A subject rule's finding of a whole app (the `relay_senders` an app that mails relay
    /// addresses does not declare) is shard 1's wherever the app's name hashes: merge refused it
    /// as "another shard's subject" (hostile 15, F2).
    @Test(arguments: [2, 3, 5])
    func anAppFindingOfASubjectRuleMergesFromShardOne(count: Int) throws {
        let folder = try Fixtures.temporaryDirectory()
        let log = folder.appendingPathComponent("events.jsonl").path
        try """
        {"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"account.created","provider":"apple.com","email":"r1@privaterelay.appleid.com"}
        {"id":"e2","time":"2026-01-02T00:00:00Z","subject":"u1","type":"email.sent","to":"r1@privaterelay.appleid.com","from":"news@example.com"}

        """.write(toFile: log, atomically: true, encoding: .utf8)
        let arguments = ["check", "--events", log, "--format", "json", "--fail-on", "never"]
        let single = try CommandRunner.run(arguments)
        #expect(single.stdout.contains(#""subject" : "app""#), "\(single.stdout)")
        let shards = try (1...count).map { index in
            let path = folder.appendingPathComponent("shard-\(index).json").path
            let shard = try CommandRunner.run(arguments + ["--shard", "\(index)/\(count)", "--output", path])
            #expect(shard.status == 0, "\(shard.stderr)")
            return path
        }
        let merged = try CommandRunner.run(["merge", "--fail-on", "never"] + shards)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == single.stdout)
    }

    @Test func aMaskedSubjectDoesNotReorderTheOthers() throws {
        let folder = try Fixtures.temporaryDirectory()
        let rules = folder.appendingPathComponent("rules")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        try Data(
            "id: every-signin\ntitle: every signin\nseverity: warning\ndescription: lists each signin\nrationale: test\nwhen:\n  type: signin\nmessage: \"{event.id}\"\n"
                .utf8
        ).write(to: rules.appendingPathComponent("every-signin.yml"))
        let subjects = ["0044 20 7946 0958"] + "abcdefgh".map { "user\($0)" }
        let events = subjects.enumerated().map { #"{"id":"s\#($0)","time":"2026-01-01T00:00:00Z","subject":"\#($1)","type":"signin"}"# }
        let log = try Fixtures.temporaryFile(named: "events.jsonl", contents: events.joined(separator: "\n") + "\n")
        let common = ["check", "--rules", rules.path, "--events", log, "--format", "json", "--fail-on", "never"]
        let single = try CommandRunner.run(common)
        var shards: [String] = []
        for index in 1...2 {
            shards.append(folder.appendingPathComponent("shard-\(index).json").path)
            #expect(try CommandRunner.run(common + ["--shard", "\(index)/2", "--output", shards[index - 1]]).status == 0)
        }
        let merged = try CommandRunner.run(["merge", "--rules", rules.path, "--fail-on", "never"] + shards)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == single.stdout)
    }

    @Test func shardsWriteOnlyJSON() throws {
        let result = try CommandRunner.run(ExampleReportTests.exampleArguments + ["--format", "sarif", "--shard", "1/2"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--shard writes a partial report"))
        let badShard = try CommandRunner.run(Self.arguments + ["--shard", "3/2"])
        #expect(badShard.status == 2)
        #expect(badShard.stderr.contains("--shard takes K/N"))
    }
}
