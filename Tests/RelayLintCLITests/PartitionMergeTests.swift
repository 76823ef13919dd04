import Foundation
import RelayLintCore
import RelayLintTestSupport
import Testing

/// `merge` of partition partials: the single run's report in every format, and a clear refusal
/// of partials that do not add up to one run.
@Suite struct PartitionMergeTests {
    static let options = ["--config", "Examples/.relaylint.yml", "--manifest", "Examples/manifest.yml"]
    static let data = ["--accounts", "Examples/accounts.json", "--events", "Examples/events.jsonl"]

    static func partial(_ extra: [String] = []) throws -> String {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("partial-1.json").path
        let result = try CommandRunner.run(
            ["check"] + options + data + extra + ["--as-of", "2026-07-01", "--partition", "1/1", "--format", "json", "--output", path])
        #expect(result.status == 0, "\(result.stderr)")
        return path
    }

    @Test(arguments: ["json", "html", "sarif", "markdown", "junit", "text"])
    func theMergeOfTheOnlyPartitionIsTheSingleRunInEveryFormat(format: String) throws {
        let single = try CommandRunner.run(["check"] + Self.options + Self.data + ["--as-of", "2026-07-01", "--format", format])
        let merged = try CommandRunner.run(["merge"] + Self.options + [try Self.partial(), "--format", format])
        #expect(merged.stdout == single.stdout)
        #expect(merged.status == single.status, "\(merged.stderr)")
    }

    /// A partial whose count is not a whole number is named with the count's place, not called
    /// "not valid JSON" as Foundation's decoder does.
    @Test func aPartialCountThatIsNotAWholeNumberIsNamed() throws {
        let text = try String(contentsOfFile: try Self.partial(), encoding: .utf8)
        let count = try #require(text.firstRange(of: #/"subjects" ?: ?\d+/#))
        let edited = try Fixtures.temporaryFile(named: "half.json", contents: text.replacingCharacters(in: count, with: text[count] + ".5"))
        let merged = try CommandRunner.run(["merge"] + Self.options + [edited])
        #expect(merged.status == 2)
        #expect(merged.stderr.contains(#/'evaluation\.subjects' is \d+\.5, not a count/#), "\(merged.stderr)")
    }

    /// A file given as `--sources` that is not `sources.json` is told in a few words, and a
    /// folder `split` cannot make is told in the system's; both were Foundation's error dumps.
    @Test func aWrongSourcesFileAndAnOutputInTheWayAreToldPlainly() throws {
        let partial = try Self.partial()
        let merged = try CommandRunner.run(["merge"] + Self.options + ["--sources", partial, partial])
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("error: not the sources.json of `relaylint split`: 'partitions' is missing"), "\(merged.stderr)")
        let notJSON = try CommandRunner.run(["merge"] + Self.options + ["--sources", "Examples/events.jsonl", partial])
        #expect(notJSON.stderr.contains("not the sources.json of `relaylint split`: it is not JSON"), "\(notJSON.stderr)")
        let file = try Fixtures.temporaryFile(named: "in-the-way", contents: "x")
        let split = try CommandRunner.run(["split", "--partitions", "2", "--events", "Examples/events.jsonl", "--output", file])
        #expect(split.status == 2)
        #expect(split.stderr.contains("error: cannot make the partition folders: Not a directory"), "\(split.stderr)")
    }

    /// A partial can come from a pipe (`merge <(gsutil cat gs://…/partial-1.json)`): it is read
    /// to its end where a file is mapped.
    @Test func aPartialFromAPipeMergesAsFromAFile() throws {
        let partial = try Self.partial()
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("partial.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(FileManager.default.contents(atPath: partial) ?? Data())
                try? handle.close()
            }
        }
        writer.start()
        let piped = try CommandRunner.run(["merge"] + Self.options + [fifo, "--format", "json"])
        let fromFile = try CommandRunner.run(["merge"] + Self.options + [partial, "--format", "json"])
        #expect(piped.status == fromFile.status, "\(piped.stderr)")
        #expect(!piped.stdout.isEmpty)
        #expect(piped.stdout == fromFile.stdout)
    }

    /// A partial is written into what `--output` names: written atomically, Foundation renamed a
    /// temporary file over the path, and `--output /dev/null` run as root replaced the device
    /// with a regular file. A FIFO stands in for the device here.
    @Test func aPartialWrittenToAPipeLeavesThePipe() throws {
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("partial.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = LockedData()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received.set(handle.readDataToEndOfFile()) }
        }
        reader.start()
        let result = try CommandRunner.run(
            ["check"] + Self.options + Self.data + ["--as-of", "2026-07-01", "--partition", "1/1", "--format", "json", "--output", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        while !received.isSet { Thread.sleep(forTimeInterval: 0.01) }
        let kind = try FileManager.default.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType
        #expect(kind != .typeRegular)
        #expect(received.value == FileManager.default.contents(atPath: try Self.partial()))
    }

    @Test func mergeRefusesRepeatedMixedTruncatedAndOtherOptions() throws {
        let partial = try Self.partial()
        let repeated = try CommandRunner.run(["merge"] + Self.options + [partial, partial])
        #expect(repeated.status == 2)
        #expect(repeated.stderr.contains("is partition 1/1 again"))

        let folder = try Fixtures.temporaryDirectory()
        let shard = folder.appendingPathComponent("shard.json").path
        _ = try CommandRunner.run(
            ExampleReportTests.exampleArguments + ["--format", "json", "--shard", "1/1", "--fail-on", "never", "--output", shard])
        let mixed = try CommandRunner.run(["merge"] + Self.options + [partial, shard])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("shard.json: error: is a shard report"))

        let truncated = folder.appendingPathComponent("truncated.json")
        let whole = try Data(contentsOf: URL(fileURLWithPath: partial))
        try whole.prefix(whole.count / 2).write(to: truncated)
        let cut = try CommandRunner.run(["merge"] + Self.options + [truncated.path])
        #expect(cut.status == 2)
        #expect(cut.stderr.contains("truncated.json: error: the partial is truncated"))
        // A NUL after the whole JSON is not a partial cut short.
        let padded = folder.appendingPathComponent("padded.json")
        try (whole + Data([0])).write(to: padded)
        let nul = try CommandRunner.run(["merge"] + Self.options + [padded.path])
        #expect(nul.status == 2)
        #expect(!nul.stderr.contains("truncated") && nul.stderr.contains("padded.json:"), "\(nul.stderr)")

        let other = try Self.partial(["--relay-domain", "example.org"])
        let otherOptions = try CommandRunner.run(["merge"] + Self.options + [other])
        #expect(otherOptions.status == 2)
        #expect(otherOptions.stderr.contains("partial-1.json: error: was checked with other options than this merge's: the relay domains"))

        let noManifest = try CommandRunner.run(["merge", "--config", "Examples/.relaylint.yml", partial])
        #expect(noManifest.status == 2)
        #expect(noManifest.stderr.contains("give it with --manifest"))

        var report = try JSONDecoder().decode(PartitionReport.self, from: whole)
        report.tool.version = "0.0.1"
        let older = folder.appendingPathComponent("older.json")
        try report.json().write(to: older)
        let otherTool = try CommandRunner.run(["merge"] + Self.options + [older.path])
        #expect(otherTool.status == 2)
        #expect(otherTool.stderr.contains("older.json: error: was written by relaylint 0.0.1"))

        // A partial with more per-rule counts than the others is refused, not read past the end.
        var halves = [
            try JSONDecoder().decode(PartitionReport.self, from: whole), try JSONDecoder().decode(PartitionReport.self, from: whole),
        ]
        halves[0].partition = Shard(index: 1, count: 2)!
        halves[1].partition = Shard(index: 2, count: 2)!
        halves[1].evaluation.tallies.append(
            try JSONDecoder().decode(PartialEvaluation.RuleTally.self, from: Data(#"{"triggered":1,"violated":1,"pending":0}"#.utf8)))
        var halfPaths: [String] = []
        for (index, half) in halves.enumerated() {
            let path = folder.appendingPathComponent("half-\(index + 1).json")
            try half.json().write(to: path)
            halfPaths.append(path.path)
        }
        let misshapen = try CommandRunner.run(["merge"] + Self.options + halfPaths)
        #expect(misshapen.status == 2)
        #expect(misshapen.stderr.contains("half-2.json: error: holds counts for 12 subject rules"), "\(misshapen.stderr)")
    }

    // MARK: A partial is checked, not trusted

    /// The partial at `path` with the value at `keys` (object keys and array indexes) replaced,
    /// written beside it as `name`: what a broken or hostile writer could leave.
    static func forged(_ path: String, as name: String, setting keys: [Any], to value: Any) throws -> String {
        func replaced(_ node: Any, _ keys: ArraySlice<Any>) -> Any {
            guard let key = keys.first else { return value }
            if let key = key as? Int, var array = node as? [Any] {
                array[key] = replaced(array[key], keys.dropFirst())
                return array
            }
            var object = node as? [String: Any] ?? [:]
            let name = key as? String ?? ""
            object[name] = replaced(object[name] as Any, keys.dropFirst())
            return object
        }
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        let forged = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name)
        try JSONSerialization.data(withJSONObject: replaced(document, keys[...]), options: [.sortedKeys]).write(to: forged)
        return forged.path
    }

    @Test(arguments: [(1, 0), (1, -3), (0, 3), (4, 3), (1, 2_000_000_000)])
    func aPartitionOutsideOneToNIsRefusedNotACrash(index: Int, count: Int) throws {
        let forged = try Self.forged(try Self.partial(), as: "forged.json", setting: ["partition"], to: ["index": index, "count": count])
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        #expect(merged.status == 2, "\(merged.stderr)")
        #expect(merged.stderr.contains("forged.json: error: not a relaylint partial"), "\(merged.stderr)")
        #expect(merged.stderr.contains("\(index)/\(count) is not K/N with 1 ≤ K ≤ N ≤ 4096"), "\(merged.stderr)")
    }

    /// The missing partitions of a large count are listed in part, not enumerated.
    @Test func aLargePartitionCountListsTheFirstMissingPartitions() throws {
        let forged = try Self.forged(try Self.partial(), as: "forged.json", setting: ["partition"], to: ["index": 1, "count": 4096])
        // Refused for its subjects too: every finding's subject now belongs to another partition.
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("partials missing: 2/4096, 3/4096"), "\(merged.stderr)")
        #expect(merged.stderr.contains("21/4096 and 4075 more"), "\(merged.stderr)")
    }

    @Test(
        arguments: [
            ["evaluation", "events"], ["evaluation", "subjects"], ["evaluation", "eventsPerDay", 0, "count"],
            ["evaluation", "tallies", 0, "pending"], ["evaluation", "inputs", 0, "records"],
        ] as [[any Sendable]])
    func aNegativeCountIsRefusedNamingWhereItStands(keys: [any Sendable]) throws {
        let forged = try Self.forged(try Self.partial(), as: "forged.json", setting: keys, to: -5)
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        let place = keys.map { key in key is Int ? "[\(key)]" : ".\(key)" }.joined().dropFirst()
        #expect(merged.status == 2)
        #expect(
            merged.stderr.contains("forged.json: error: holds -5 at \(place): a count is from 0 to 9007199254740992"), "\(merged.stderr)")
    }

    /// What no partition of this run writes: a finding of a rule the merge does not run, an
    /// events-per-day count for a day past year 9999 (the chart would print no date for it).
    @Test(
        arguments: [
            (
                ["evaluation", "findings", 0, "rule"], "no-such-rule" as any Sendable,
                "a finding of rule 'no-such-rule', which is not among"
            ),
            (
                ["evaluation", "eventsPerDay", 0, "day"], 9_000_000_000 as any Sendable,
                "a count of events for day 9000000000 after 1970, outside years"
            ),
        ] as [([any Sendable], any Sendable, String)])
    func whatNoPartitionWritesIsRefused(keys: [any Sendable], value: any Sendable, message: String) throws {
        let forged = try Self.forged(try Self.partial(), as: "forged.json", setting: keys, to: value)
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("forged.json: error: holds \(message)"), "\(merged.stderr)")
    }

    /// A count past 2^53 is refused before anything adds or multiplies it: `Int.max` in one
    /// partial trapped the sums, and 10^16 violations trapped the audit report's rate.
    @Test(
        arguments: [["evaluation", "events"], ["evaluation", "subjects"], ["evaluation", "tallies", 0, "triggered"]] as [[any Sendable]])
    func aCountPastTwoToTheFiftyThirdIsRefused(keys: [any Sendable]) throws {
        let forged = try Self.forged(try Self.partial(), as: "forged.json", setting: keys, to: Int.max)
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        let place = keys.map { key in key is Int ? "[\(key)]" : ".\(key)" }.joined().dropFirst()
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("holds 9223372036854775807 at \(place): a count is from 0 to 9007199254740992"), "\(merged.stderr)")
    }

    /// Counts of 2^53 or less that add up past it are refused too: a forged partial of 2^53
    /// events beside a real one gave a merged report of 2^53 + 60 events.
    @Test func countsThatAddUpPastTwoToTheFiftyThirdAreRefused() throws {
        let (paths, folder) = try PartitionTests.partials(
            count: 2, accounts: Fixtures.path("Examples/accounts.json"), events: Fixtures.path("Examples/events.jsonl"))
        let forged = try Self.forged(paths[1], as: "forged.json", setting: ["evaluation", "events"], to: 1 << 53)
        let merged = try PartitionTests.merge([paths[0], forged], folder: folder)
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("is more than 9007199254740992: not a count a run writes"), "\(merged.stderr)")
    }

    /// A rule's violated and pending checks are among its checks: more of them than checks made
    /// the audit report's rate multiply past `Int.max`.
    @Test func moreViolationsThanChecksAreRefused() throws {
        let forged = try Self.forged(
            try Self.partial(), as: "forged.json", setting: ["evaluation", "tallies", 0, "violated"], to: 1 << 52)
        let merged = try CommandRunner.run(["merge", "--format", "markdown"] + Self.options + [forged])
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("holds more violated and pending checks than checks at evaluation.tallies[0]"), "\(merged.stderr)")
    }

    /// Violated and pending checks that cannot be added up are refused, not added: their sum
    /// trapped the check that compares it with the checks made.
    @Test func violatedAndPendingChecksPastIntMaxAreRefusedNotATrap() throws {
        let violated = try Self.forged(
            try Self.partial(), as: "violated.json", setting: ["evaluation", "tallies", 0, "violated"], to: Int.max)
        let forged = try Self.forged(violated, as: "forged.json", setting: ["evaluation", "tallies", 0, "pending"], to: 1)
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        #expect(merged.status == 2, "\(merged.stderr)")
        #expect(merged.stderr.contains("holds more violated and pending checks than checks at evaluation.tallies[0]"), "\(merged.stderr)")
    }

    /// The count of look-alike addresses a partition did not list is read back from its note's
    /// words; a forged one near Int.max crashed the sum (SIGILL).
    @Test func aLookAlikeCountPastTheLargestIsRefusedNotATrap() throws {
        let note: [String: Any] = [
            "location": ["file": "Examples/events.jsonl", "line": 1], "severity": "note",
            "message": "9223372036854775807 more look-alike relay addresses are not listed",
        ]
        let forged = try Self.forged(try Self.partial(), as: "forged.json", setting: ["evaluation", "notes"], to: [note])
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        #expect(merged.status == 2, "\(merged.stderr)")
        #expect(merged.stderr.contains("holds 9223372036854775807 at evaluation.notes[0]"), "\(merged.stderr)")
    }

    /// A merge that fails on its partials (missing, cut short) removes the report an earlier
    /// merge left, as `check` does: a pipeline uploading it would show the last result.
    @Test func aFailedMergeRemovesTheReportAnEarlierMergeLeft() throws {
        let folder = try Fixtures.temporaryDirectory()
        let output = folder.appendingPathComponent("merged.sarif").path
        let partial = try Data(contentsOf: URL(fileURLWithPath: try Self.partial()))
        let cut = folder.appendingPathComponent("cut.json")
        try partial.prefix(100).write(to: cut)
        for bad in [cut.path, folder.appendingPathComponent("missing.json").path] {
            try CommandLineTests.leaveEarlierReport(at: output, format: "sarif")
            let merged = try CommandRunner.run(["merge"] + Self.options + [bad, "--format", "sarif", "--output", output])
            #expect(merged.status == 2, "\(merged.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(bad): \(merged.stderr)")
        }
    }

    /// A partial named as a merge's output by mistake (`merge p1.json p2.json --output
    /// p3.json`) is one the merge was to read, not a report it left: the failed merge leaves
    /// it. A failed partition run removes the partial an earlier one left, and only a partial.
    @Test func aFailedMergeLeavesAPartialAtItsOutput() throws {
        let folder = try Fixtures.temporaryDirectory()
        let partial = folder.appendingPathComponent("partial-3.json").path
        try FileManager.default.copyItem(atPath: try Self.partial(), toPath: partial)
        let missing = folder.appendingPathComponent("missing.json").path
        let merged = try CommandRunner.run(["merge"] + Self.options + [missing, "--format", "json", "--output", partial])
        #expect(merged.status == 2, "\(merged.stderr)")
        #expect(FileManager.default.fileExists(atPath: partial), "\(merged.stderr)")
        #expect(merged.stderr.contains("left '\(partial)' as it is"), "\(merged.stderr)")

        let bad = try Fixtures.temporaryFile(named: "bad.jsonl", contents: "{oops\n")
        let report = folder.appendingPathComponent("report.json").path
        try CommandLineTests.leaveEarlierReport(at: report)
        for (output, removed) in [(partial, true), (report, false)] {
            let failed = try CommandRunner.run(["check", "--partition", "1/2", "--events", bad, "--format", "json", "--output", output])
            #expect(failed.status == 2)
            #expect(FileManager.default.fileExists(atPath: output) != removed, "\(output): \(failed.stderr)")
        }
    }

    /// The notes a partition did not list are counted in the merged report, in one note.
    @Test func notesAPartitionDidNotListAreCountedInTheMergedReport() throws {
        func note(_ count: Int) -> [String: Any] {
            [
                "location": ["file": "Examples/events.jsonl", "line": 1], "severity": "note",
                "message": "\(count) more data-quality notes are not listed: a run lists its first 400",
            ]
        }
        let forged = try Self.forged(try Self.partial(), as: "forged.json", setting: ["evaluation", "notes"], to: [note(5), note(7)])
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged, "--format", "json"])
        #expect(merged.status != 2, "\(merged.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any]
        let messages = (report?["notes"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(
            messages.filter { $0.contains("more data-quality notes are not listed") } == [
                "12 more data-quality notes are not listed: a run lists its first 400"
            ])
    }

    /// So is the count of invalid records a partition skipped and did not list.
    @Test func anUnlistedInvalidCountPastTheLargestIsRefusedNotATrap() throws {
        let note: [String: Any] = [
            "location": ["file": "Examples/events.jsonl", "line": 0], "severity": "note",
            "message": "9223372036854775807 more invalid records were skipped and are not listed",
        ]
        let forged = try Self.forged(try Self.partial(), as: "forged.json", setting: ["evaluation", "skipped"], to: [note])
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        #expect(merged.status == 2, "\(merged.stderr)")
        #expect(merged.stderr.contains("holds 9223372036854775807 at evaluation.skipped[0]"), "\(merged.stderr)")
    }

    /// Counts each within bounds can add up past them: the sum with the records listed trapped
    /// (SIGILL) in the report's summary.
    @Test func unlistedCountsThatAddUpPastTheLargestAreRefusedNotATrap() throws {
        let largest = 9_007_199_254_740_992
        func note(_ count: Int, _ message: String) -> [String: Any] {
            ["location": ["file": "Examples/events.jsonl", "line": 0], "severity": "note", "message": "\(count)" + message]
        }
        let skipped = Array(repeating: note(largest, " more invalid records were skipped and are not listed"), count: 2)
        let forged = try Self.forged(try Self.partial(), as: "forged.json", setting: ["evaluation", "skipped"], to: skipped)
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        #expect(merged.status == 2, "\(merged.stderr)")
        #expect(
            merged.stderr.contains("(invalid records not listed) (\(largest)) added to its own other counts is more than \(largest)"),
            "\(merged.stderr)")

        let notes = Array(repeating: note(largest, " more look-alike relay addresses are not listed"), count: 2)
        let lookAlikes = try Self.forged(try Self.partial(), as: "forged-notes.json", setting: ["evaluation", "notes"], to: notes)
        let mergedNotes = try CommandRunner.run(["merge"] + Self.options + [lookAlikes])
        #expect(mergedNotes.status == 2, "\(mergedNotes.stderr)")
        #expect(
            mergedNotes.stderr.contains("(look-alike relay addresses not listed) (\(largest)) added to its own other counts is more than"),
            "\(mergedNotes.stderr)")
    }

    /// A key of the partial named in a message is masked alone: the whole place went into the
    /// mask as an address (`e•••@example.com` for `evaluation.accountsPerApp.joe@example.com`).
    @Test func aPlaceNamingAKeyKeepsItsPathWhenTheKeyIsMasked() throws {
        let forged = try Self.forged(
            try Self.partial(), as: "forged.json", setting: ["evaluation", "accountsPerApp"], to: ["joe@example.com": -1])
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("at evaluation.accountsPerApp['j•••@example.com']: a count is"), "\(merged.stderr)")
    }

    /// A finding's message and expectation are rendered masked, but `merge` reads them from the
    /// partial: an address or number there (a partial written by hand, or by another version)
    /// is masked in the merged report as in a run.
    @Test func aPartialsMessageIsMaskedInTheMergedReport() throws {
        let partial = try Self.partial()
        let withMessage = try Self.forged(
            partial, as: "message.json", setting: ["evaluation", "findings", 0, "message"], to: "sent to secretjane@example.com")
        let forged = try Self.forged(
            withMessage, as: "forged.json", setting: ["evaluation", "findings", 0, "expected"], to: "a call to +1 415 555 0188")
        for format in ["json", "text", "markdown"] {
            let merged = try CommandRunner.run(["merge", "--format", format] + Self.options + [forged])
            #expect(merged.status == 1, "\(merged.stderr)")
            #expect(merged.stdout.contains("s•••@example.com") && merged.stdout.contains("+1••••••••88"), "\(format)")
            #expect(!merged.stdout.contains("secretjane") && !merged.stdout.contains("555 0188"), "\(format)")
        }
    }

    /// `merge` lists the partials' skip details as one run does: the first
    /// `InputLimits.listedSkipDetails` in partial order, the records of any other detail counted
    /// under their reason (a forged partial of 1,500 details listed them all).
    @Test func skipDetailsPastTheListedOnesAreCountedUnderTheirReason() throws {
        let entry = { (number: Int) in
            #"{"insertId":"e\#(number)","timestamp":"2026-01-02T00:00:00Z","jsonPayload":{"methodName":"Method\#(number)","#
                + #""response":{"localId":"u1"}}}"#
        }
        let log = try Fixtures.temporaryFile(named: "methods.jsonl", contents: (0..<3).map(entry).joined(separator: "\n") + "\n")
        let partial = try Self.partial(["--events", log])
        let details = (0..<1_500).map { ["reason": "not an account change", "detail": "M\($0)", "count": 2] as [String: Any] }
        let data = try Data(contentsOf: URL(fileURLWithPath: partial))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let inputs = try #require((document["evaluation"] as? [String: Any])?["inputs"] as? [[String: Any]])
        let place = try #require(inputs.firstIndex { ($0["path"] as? String) == log })
        let forged = try Self.forged(partial, as: "forged.json", setting: ["evaluation", "inputs", place, "skippedRecords"], to: details)
        let merged = try CommandRunner.run(["merge", "--format", "json"] + Self.options + [forged])
        #expect(merged.status == 1, "\(merged.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any])
        let input = try #require((report["inputs"] as? [[String: Any]])?.first { ($0["path"] as? String) == log })
        let skipped = try #require(input["skippedRecords"] as? [[String: Any]])
        #expect(skipped.count == 1_001)
        #expect(skipped.first?["detail"] as? String == "M0")
        #expect(skipped.last?["detail"] as? String == InputFileSummary.SkippedRecords.unlistedDetails)
        #expect(skipped.last?["count"] as? Int == 1_000)
    }

    /// Partials of `--show-pii` runs hold addresses unmasked; the merged report, forwarded
    /// further, shows them only when the merge is given --show-pii too (it followed the partials).
    @Test func unmaskedPartialsMergeOnlyWhenTheMergeShowsPersonalDataToo() throws {
        let partial = try Self.partial(["--show-pii"])
        let refused = try CommandRunner.run(["merge"] + Self.options + [partial])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("was checked with other options than this merge's: --show-pii"), "\(refused.stderr)")
        let merged = try CommandRunner.run(["merge", "--show-pii"] + Self.options + [partial])
        #expect(merged.status == 1, "\(merged.stderr)")
    }

    @Test(arguments: [("format", "other" as any Sendable), ("version", 999), ("version", 2)])
    func aPartialOfAnotherFormatOrVersionIsRefused(key: String, value: any Sendable) throws {
        let forged = try Self.forged(try Self.partial(), as: "forged.json", setting: [key], to: value)
        let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("forged.json: error: is of format '"), "\(merged.stderr)")
        #expect(merged.stderr.contains("not 'relaylint-partition' version 1, the partial this relaylint writes"), "\(merged.stderr)")
    }

    /// The only partition's partial, given as 1/2 and 2/2: each holds the other's subjects,
    /// which `check --partition` would have refused and a merge would count twice.
    @Test func aFindingOfAnotherPartitionsSubjectIsRefused() throws {
        let partial = try Self.partial()
        let halves = try [1, 2].map { index in
            try Self.forged(partial, as: "half-\(index).json", setting: ["partition"], to: ["index": index, "count": 2])
        }
        let merged = try CommandRunner.run(["merge"] + Self.options + halves)
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("half-1.json: error: holds a finding of subject '"), "\(merged.stderr)")
        #expect(merged.stderr.contains("which belongs to partition 2/2, not 1/2"), "\(merged.stderr)")
        #expect(merged.stderr.contains("which belongs to partition 1/2, not 2/2"), "\(merged.stderr)")
    }

    /// A subject rule's finding on an account has no event, as an app rule's has none: the rule
    /// tells them apart, and the account's subject must belong to the partition all the same.
    @Test func aFindingWithNoEventOfAnotherPartitionsSubjectIsRefused() throws {
        let partial = try Self.partial()
        let report = try JSONDecoder().decode(PartitionReport.self, from: Data(contentsOf: URL(fileURLWithPath: partial)))
        let place = try #require(report.evaluation.findings.firstIndex { $0.event == nil }, "a finding on an account")
        let subject = report.evaluation.findings[place].subject
        let other = Shard(index: 1, count: 2)!.contains(subject: subject) ? 2 : 1
        var half = try Self.forged(partial, as: "half.json", setting: ["partition"], to: ["index": other, "count": 2])
        // Only that finding is left, so it alone is another partition's.
        half = try Self.forged(
            half, as: "half.json", setting: ["evaluation", "findings"],
            to: [try JSONSerialization.jsonObject(with: JSONEncoder().encode(report.evaluation.findings[place]))])
        let merged = try CommandRunner.run(["merge"] + Self.options + [half])
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("half.json: error: holds a finding of subject '\(subject)'"), "\(merged.stderr)")
    }

    @Test func valuesQuotedFromABadPartialAreMasked() throws {
        let partial = try Self.partial()
        let severity = try Self.forged(
            partial, as: "severity.json", setting: ["evaluation", "findings", 0, "severity"], to: "victim@example.com")
        let time = try Self.forged(partial, as: "time.json", setting: ["evaluation", "earliest"], to: "call +1 415 555 2671")
        let tool = try Self.forged(partial, as: "tool.json", setting: ["tool", "version"], to: "victim@example.com")
        for forged in [severity, time, tool] {
            let merged = try CommandRunner.run(["merge"] + Self.options + [forged])
            #expect(merged.status == 2)
            #expect(!merged.stderr.contains("victim@example.com") && !merged.stderr.contains("555 2671"), "\(merged.stderr)")
        }
        let bySeverity = try CommandRunner.run(["merge"] + Self.options + [severity])
        #expect(
            bySeverity.stderr.contains(#/severity\.json:1:\d+: error: .*'v•••@example\.com' is not a severity/#), "\(bySeverity.stderr)")
        let byTime = try CommandRunner.run(["merge"] + Self.options + [time])
        #expect(byTime.stderr.contains("time.json: error: not a relaylint partial"), "\(byTime.stderr)")
        #expect(byTime.stderr.contains("'evaluation.earliest': invalid RFC 3339 timestamp"), "\(byTime.stderr)")
    }

    /// A partial's member of the wrong kind or missing is told in the words a report read back
    /// uses, not Foundation's ("Expected to decode Int but found a string instead").
    @Test func aMemberOfAnotherKindIsNamedWithTheKindItMustBe() throws {
        let partial = try Self.partial()
        let events = try Self.forged(partial, as: "events.json", setting: ["evaluation", "events"], to: "many")
        let merged = try CommandRunner.run(["merge"] + Self.options + [events])
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("events.json: error: not a relaylint partial"), "\(merged.stderr)")
        #expect(merged.stderr.contains("'evaluation.events' must be a number"), "\(merged.stderr)")
    }

    @Test func aReportIsNeverWrittenOverAnInput() throws {
        let partial = try Self.partial()
        let before = try Data(contentsOf: URL(fileURLWithPath: partial))
        let folder = URL(fileURLWithPath: partial).deletingLastPathComponent()
        let sources = folder.appendingPathComponent("sources.json").path
        try Data(#"{"partitions":1,"inputs":[]}"#.utf8).write(to: URL(fileURLWithPath: sources))
        let spelledOtherwise = folder.appendingPathComponent("../\(folder.lastPathComponent)/partial-1.json").path
        for (option, target, input) in [
            ("--output", partial, "partial"), ("--output", spelledOtherwise, "partial"), ("--report", "html=\(partial)", "partial"),
            ("--output", sources, "--sources"),
        ] {
            let merged = try CommandRunner.run(["merge"] + Self.options + [partial, "--sources", sources, option, target])
            #expect(merged.status == 2)
            #expect(merged.stderr.contains("is the input \(input) '"), "\(merged.stderr)")
            #expect(merged.stderr.contains("the report would overwrite it"), "\(merged.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: partial)) == before)
    }

    @Test func anUnreadablePartialOrSourcesSaysWhy() throws {
        let partial = try Self.partial()
        let folder = try Fixtures.temporaryDirectory()
        let missing = try CommandRunner.run(["merge"] + Self.options + [folder.appendingPathComponent("nonexistent.json").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nonexistent.json: error: cannot read the partial: no such file"), "\(missing.stderr)")
        let directory = try CommandRunner.run(["merge"] + Self.options + [folder.path])
        #expect(directory.status == 2)
        #expect(directory.stderr.contains("error: cannot read the partial: is a directory"), "\(directory.stderr)")
        // `/dev/null` opens and reads nothing: an empty partial, not a file that cannot be opened.
        let empty = try CommandRunner.run(["merge"] + Self.options + ["/dev/null"])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("/dev/null: error: not a relaylint JSON report: the file is empty"), "\(empty.stderr)")
        let sources = try CommandRunner.run(
            ["merge"] + Self.options + [partial, "--sources", folder.appendingPathComponent("sources.json").path])
        #expect(sources.status == 2)
        #expect(sources.stderr.contains("sources.json: error: cannot read the sources: no such file"), "\(sources.stderr)")
    }
}

/// Bytes one thread reads and another waits for.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ value: Data) { lock.withLock { data = value } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data? { lock.withLock { data } }
}
