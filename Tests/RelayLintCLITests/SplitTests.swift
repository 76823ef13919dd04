import Foundation
import RelayLintCore
import RelayLintTestSupport
import Testing

/// `relaylint split`: every record in exactly one partition, on its original line.
@Suite struct SplitTests {
    @Test func splitKeepsEveryRecordOnItsLine() throws {
        let folder = try Fixtures.temporaryDirectory()
        let result = try CommandRunner.run([
            "split", "--partitions", "2", "--accounts", "Examples/accounts.json", "--events", "Examples/events.jsonl",
            "--output", folder.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let original = try String(contentsOfFile: Fixtures.path("Examples/events.jsonl"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let parts = try (1...2).map { index in
            try String(
                contentsOf: folder.appendingPathComponent("partition-\(index)-of-2/events.jsonl"), encoding: .utf8
            ).split(separator: "\n", omittingEmptySubsequences: false)
        }
        #expect(parts.allSatisfy { $0.count == original.count })
        for (line, text) in original.enumerated() where !text.isEmpty {
            #expect(parts.filter { $0[line] == text }.count == 1)
        }
        for index in 1...2 {
            let export = try Data(contentsOf: folder.appendingPathComponent("partition-\(index)-of-2/accounts.json"))
            #expect((try? JSONSerialization.jsonObject(with: export)) != nil)
        }
    }

    /// Data without events (an export alone) has no end: `data-end.txt` is empty, and the
    /// recipe's `--data-end "$(cat parts/data-end.txt)"` passes an empty time, which means none.
    /// Every partition run failed on it.
    @Test func anExportAloneSplitsChecksAndMergesAsTheRecipeWritesIt() throws {
        let folder = try Fixtures.temporaryDirectory()
        let split = try CommandRunner.run([
            "split", "--partitions", "2", "--accounts", "Examples/accounts.json", "--output", folder.path,
        ])
        #expect(split.status == 0, "\(split.stderr)")
        let dataEnd = try String(contentsOf: folder.appendingPathComponent("data-end.txt"), encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        #expect(dataEnd.isEmpty)
        var partials: [String] = []
        for index in 1...2 {
            let partial = folder.appendingPathComponent("partial-\(index).json").path
            let check = try CommandRunner.run([
                "check", "--partition", "\(index)/2", "--data-end", dataEnd, "--accounts",
                folder.appendingPathComponent("partition-\(index)-of-2/accounts.json").path, "--format", "json", "--output", partial,
            ])
            #expect(check.status == 0 || check.status == 1, "\(check.stderr)")
            partials.append(partial)
        }
        let merged = try CommandRunner.run(
            ["merge", "--sources", folder.appendingPathComponent("sources.json").path, "--format", "json"] + partials)
        let single = try CommandRunner.run(["check", "--accounts", "Examples/accounts.json", "--format", "json"])
        #expect(merged.status == single.status, "\(merged.stderr)")
        let summary = { (text: String) in
            (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["summary"] as? NSDictionary
        }
        #expect(summary(merged.stdout) != nil && summary(merged.stdout) == summary(single.stdout))
    }

    /// The data ends at its last valid event: an invalid record's time (here one without a
    /// `type`) was the end of every partition, whose `--skip-invalid` runs then decided windows
    /// past the end one run sees, and the merge refused them.
    @Test func anInvalidRecordsTimeIsNotTheDataEnd() throws {
        let folder = try Fixtures.temporaryDirectory()
        let events = try Fixtures.temporaryFile(
            named: "ev.jsonl",
            contents: """
                {"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"account.deletion_requested","channel":"in_app"}
                {"id":"e2","time":"2026-01-02T00:00:00Z","subject":"u2","type":"signin","provider":"apple.com"}
                {"id":"e3","time":"2026-03-01T00:00:00Z","subject":"u3"}

                """)
        let split = try CommandRunner.run(["split", "--partitions", "2", "--events", events, "--output", folder.path])
        #expect(split.status == 0, "\(split.stderr)")
        let dataEnd = try String(contentsOf: folder.appendingPathComponent("data-end.txt"), encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        #expect(dataEnd == "2026-01-02T00:00:00Z")
        var partials: [String] = []
        for index in 1...2 {
            let partial = folder.appendingPathComponent("partial-\(index).json").path
            let check = try CommandRunner.run([
                "check", "--skip-invalid", "--partition", "\(index)/2", "--data-end", dataEnd, "--events",
                folder.appendingPathComponent("partition-\(index)-of-2/ev.jsonl").path, "--format", "json", "--output", partial,
            ])
            #expect(check.status == 0 || check.status == 1, "\(check.stderr)")
            partials.append(partial)
        }
        let merged = try CommandRunner.run(
            ["merge", "--sources", folder.appendingPathComponent("sources.json").path, "--format", "json"] + partials)
        let single = try CommandRunner.run(["check", "--skip-invalid", "--events", events, "--format", "json"])
        #expect(merged.status == single.status, "\(merged.stderr)")
    }

    /// An empty --data-end beside events is a lost or cut data-end.txt: refused, not run with
    /// windows closing at the partition's own end.
    @Test func anEmptyDataEndBesideEventsIsRefused() throws {
        let result = try CommandRunner.run([
            "check", "--partition", "1/1", "--data-end", "", "--events", "Examples/events.jsonl", "--format", "json",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--data-end is empty, but the partition holds"), "\(result.stderr)")
    }

    /// split reads files whole and records their hashes: standard input is bad usage that says
    /// so, and a missing file is said in three words, not Foundation's sentence.
    @Test func standardInputAndAMissingFileAreRefusedSayingWhy() throws {
        let folder = try Fixtures.temporaryDirectory()
        let piped = try CommandRunner.run(["split", "--partitions", "2", "--events", "-", "--output", folder.path])
        #expect(piped.status == 2, "\(piped.stderr)")
        #expect(piped.stderr.contains("split reads files, not standard input ('-')"), "\(piped.stderr)")
        let missing = try CommandRunner.run(["split", "--partitions", "2", "--events", "missing.jsonl", "--output", folder.path])
        #expect(missing.status == 2, "\(missing.stderr)")
        #expect(missing.stderr.contains("missing.jsonl: error: cannot read file: no such file"), "\(missing.stderr)")
    }

    /// A partition count past the bound is bad usage, before a folder is made (100,000,000 made
    /// ten million folders until the disk ran out of inodes).
    @Test(arguments: [["split", "--partitions", "100000000"], ["check", "--partition", "1/100000000"], ["check", "--shard", "1/5000"]])
    func aPartitionCountPastTheBoundIsBadUsage(arguments: [String]) throws {
        let folder = try Fixtures.temporaryDirectory()
        let result = try CommandRunner.run(
            arguments + ["--events", "Examples/events.jsonl"] + (arguments[0] == "split" ? ["--output", folder.path] : []))
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("4096"), "\(result.stderr)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder.path)).isEmpty)
    }

    /// split writes `data-end.txt`, `sources.json` and each partition's copy of an input under
    /// the input's name: an input at one of those places is refused, not overwritten.
    @Test func splitRefusesToWriteOverAnInput() throws {
        let folder = try Fixtures.temporaryDirectory()
        let original = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Examples/events.jsonl")))
        for name in ["data-end.txt", "partition-2-of-2/events.jsonl"] {
            let input = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
            try original.write(to: input)
            let result = try CommandRunner.run(["split", "--partitions", "2", "--events", input.path, "--output", folder.path])
            #expect(result.status != 0)
            #expect(result.stderr.contains("over the input"), "\(result.stderr)")
            #expect(try Data(contentsOf: input) == original)
        }
    }

    /// split reads relaylint events: a Cloud Logging file went through as "(no events)" and
    /// every partition's check failed afterwards on a subject outside it.
    /// Refused, and the output folder is left as it was: an earlier split stays whole, and the
    /// part of the export split before the refusal is not left to look like a split.
    @Test func splitRefusesALogOfAnotherFormat() throws {
        let folder = try Fixtures.temporaryDirectory()
        let earlier = try CommandRunner.run(["split", "--partitions", "2", "--events", "Examples/events.jsonl", "--output", folder.path])
        #expect(earlier.status == 0, "\(earlier.stderr)")
        func files() -> [String: Data] {
            let names = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
            return Dictionary(
                uniqueKeysWithValues: names.map {
                    ($0, FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) ?? Data())
                })
        }
        let before = files()
        let result = try CommandRunner.run([
            "split", "--partitions", "2", "--accounts", "Examples/accounts.json", "--events",
            "Examples/real-logs/identity-platform.jsonl", "--output", folder.path,
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'google-cloud-logging'): split reads relaylint events only"), "\(result.stderr)")
        #expect(files() == before)
        #expect(before.keys.contains("sources.json") && before.keys.contains("partition-1-of-2/events.jsonl"))
    }

    /// Two inputs named alike get numbered names in each partition, and a numbered name that is
    /// a third input's own is skipped: `b/3-ev.jsonl`'s part was written over by `c/ev.jsonl`'s.
    @Test func inputsOfTheSameNameKeepPartsOfTheirOwn() throws {
        let folder = try Fixtures.temporaryDirectory()
        let lines = try String(contentsOfFile: Fixtures.path("Examples/events.jsonl"), encoding: .utf8).split(separator: "\n")
        var paths: [String] = []
        for (index, (dir, name)) in [("a", "ev.jsonl"), ("b", "3-ev.jsonl"), ("c", "ev.jsonl")].enumerated() {
            let file = folder.appendingPathComponent("in/\(dir)/\(name)")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try (lines[(index * 3)..<(index * 3 + 3)].joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            paths.append(file.path)
        }
        let output = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(
            ["split", "--partitions", "1"] + paths.flatMap { ["--events", $0] } + ["--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let parts = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("partition-1-of-1").path)
        #expect(parts.sorted() == ["3-ev.jsonl", "4-ev.jsonl", "ev.jsonl"])
        let bPart = try String(contentsOf: output.appendingPathComponent("partition-1-of-1/3-ev.jsonl"), encoding: .utf8)
        #expect(bPart == (lines[3..<6].joined(separator: "\n") + "\n"))
        // A job template naming the parts by the inputs' names is told of the one renamed.
        #expect(result.stderr.contains("'\(paths[2])' is written as '4-ev.jsonl' in each partition"), "\(result.stderr)")
        #expect(!result.stderr.contains("'\(paths[1])' is written as"))
    }

    /// A gzip log is named as such, with split's own advice (not check's, which decompresses it).
    @Test func splitRefusesACompressedLogWithItsOwnAdvice() throws {
        let folder = try Fixtures.temporaryDirectory()
        let compressed = try CompressedAndStandardInputTests.gzip("Examples/events.jsonl")
        let result = try CommandRunner.run(["split", "--partitions", "2", "--events", compressed, "--output", folder.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("this is gzip-compressed: split reads uncompressed relaylint events"), "\(result.stderr)")
    }
}
