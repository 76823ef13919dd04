import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The CSV inputs stop at the cap on invalid records, as a log does: a subject map or an
/// account export of 15M bad rows kept a diagnostic each, 4 GB for a 30 MB file, before the run
/// failed anyway.
@Suite struct InvalidRowCapTests {
    private static let badRows = String(repeating: "x\n", count: InputLimits.invalidRecords + 500)

    /// A subject map of nothing but bad rows stops at the cap, saying so first at the row where
    /// it stopped; there is no `--skip-invalid` to suggest for it.
    @Test func aSubjectMapOfBadRowsStopsAtTheCap() throws {
        let path = try Fixtures.temporaryFile(named: "map.csv", contents: Self.badRows)
        var index = AppleAccountIndex()
        let error = #expect(throws: DiagnosticsError.self) { try SubjectMap.load(path: path, into: &index) }
        let found = error?.diagnostics ?? []
        #expect(found.count == InputLimits.invalidRecords + 1)
        #expect(
            found.first?.description
                == "\(path):\(InputLimits.invalidRecords): error: stopped reading after \(InputLimits.invalidRecords) invalid records; fix them"
        )
        #expect(found.last?.location.line == InputLimits.invalidRecords)
    }

    /// An Apple user id of more than a kilobyte is no id: its row is refused, not kept.
    @Test func aSubjectMapRowOfAnOverlongAppleIDIsRefused() throws {
        let long = String(repeating: "0", count: SubjectMap.longestAppleID + 1)
        let path = try Fixtures.temporaryFile(named: "map.csv", contents: "001437.ab.1204,u1\n\(long),u2\n")
        var index = AppleAccountIndex()
        let error = #expect(throws: DiagnosticsError.self) { try SubjectMap.load(path: path, into: &index) }
        #expect(error?.diagnostics.map(\.location.line) == [2])
        #expect(error?.diagnostics.first?.message.hasPrefix("an Apple user id of more than 1024 bytes") == true)
    }

    /// A subject map whose bytes are not UTF-8 on every line stops at the cap too.
    @Test func aSubjectMapOfBadBytesStopsAtTheCap() throws {
        let path = try Fixtures.temporaryFile(named: "map.csv", contents: "")
        try Data(Array(repeating: [0xFF, 0x0A], count: InputLimits.invalidRecords + 500).flatMap { $0 }).write(
            to: URL(fileURLWithPath: path))
        var index = AppleAccountIndex()
        let error = #expect(throws: DiagnosticsError.self) { try SubjectMap.load(path: path, into: &index) }
        #expect(error?.diagnostics.count == InputLimits.invalidRecords + 1)
        #expect(error?.diagnostics.first?.message.hasPrefix("stopped reading after") == true)
        #expect(
            error?.diagnostics.last?.description
                == "\(path):\(InputLimits.invalidRecords):1: error: invalid UTF-8: the subject map must be UTF-8 text")
    }

    /// An account export in CSV of nothing but bad rows stops at the cap, and the run reads no
    /// more; with `--skip-invalid` every row is read and counted, the first
    /// `listedInvalidRecords` listed.
    @Test func aCSVExportOfBadRowsStopsAtTheCap() throws {
        let path = try Fixtures.temporaryFile(named: "accounts.csv", contents: Self.badRows)
        var builder = DatasetBuilder(relayDomains: RelayDomains(), skipInvalid: false, retainedTypes: nil)
        let error = #expect(throws: InputError.self) { try builder.readAccounts(path: path) }
        let found = error?.diagnostics ?? []
        #expect(found.count == InputLimits.invalidRecords + 1)
        #expect(
            found.first?.description
                == "\(path):\(InputLimits.invalidRecords): error: "
                + "stopped reading after \(InputLimits.invalidRecords) invalid records; fix them, or pass --skip-invalid to skip them")
        #expect(builder.stoppedEarly)

        var skipping = DatasetBuilder(relayDomains: RelayDomains(), skipInvalid: true, retainedTypes: nil)
        try skipping.readAccounts(path: path)
        #expect(skipping.invalid.count == InputLimits.invalidRecords + 500 && !skipping.stoppedEarly)
        #expect(skipping.invalid.listed.count == InputLimits.listedInvalidRecords)
        #expect(skipping.invalid.listed.last?.location.line == InputLimits.listedInvalidRecords)
    }

    /// A JSON account export of many bad users, skipped: all counted, the first ones listed.
    @Test func aJSONExportOfBadUsersSkippedIsCountedAndListedUpToTheCap() throws {
        let users = Array(repeating: "1", count: InputLimits.listedInvalidRecords + 500)
        let path = try Fixtures.temporaryFile(
            named: "accounts.json", contents: "{\"users\": [\n" + users.joined(separator: ",\n") + "\n]}\n")
        var skipping = DatasetBuilder(relayDomains: RelayDomains(), skipInvalid: true, retainedTypes: nil)
        try skipping.readAccounts(path: path)
        #expect(skipping.invalid.count == InputLimits.listedInvalidRecords + 500)
        #expect(skipping.invalid.listed.count == InputLimits.listedInvalidRecords)
        #expect(skipping.invalid.listed.last?.location.line == InputLimits.listedInvalidRecords + 1)
        let dataset = try skipping.finish()
        #expect(dataset.inputs.first?.invalid == InputLimits.listedInvalidRecords + 500)
        #expect(
            dataset.skipped.last?.description
                == "\(path):\(InputLimits.listedInvalidRecords + 2): note: 500 more invalid records were skipped and are not listed")
    }

    /// A log of more bad lines than a report lists, skipped: the summary counts all of them, the
    /// report lists the first ones in line order and then says how many more there were, and the
    /// text and audit reports say how many they show and where the rest are listed.
    @Test func aLogOfManyBadLinesSkippedListsTheFirstAndCountsAll() throws {
        let bad = InputLimits.listedInvalidRecords + 1_234
        let lines = [#"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"#] + Array(repeating: "x", count: bad)
        let path = try Fixtures.temporaryFile(named: "bad.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let rules = try RuleSet.load(paths: [Fixtures.path("Rules")])
        let report = try Linter.run(LintRequest(eventPaths: [path], rules: rules, skipInvalid: true, parallelism: 2))
        #expect(report.summary.skippedRecords == bad)
        #expect(report.skipped.count == InputLimits.listedInvalidRecords + 1)
        #expect(report.skipped.dropLast().map(\.location.line) == Array(2...(InputLimits.listedInvalidRecords + 1)))
        #expect(report.skipped.last?.message == "1234 more invalid records were skipped and are not listed")
        // At the first bad line not listed.
        #expect(report.skipped.last?.location == SourceLocation(file: path, line: InputLimits.listedInvalidRecords + 2, column: 1))
        let text = TextReporter().render(report, options: ReportOptions(color: false))
        #expect(text.contains("skipped records (\(bad), --skip-invalid)"))
        #expect(text.contains("… \(bad - 20) more; the JSON report lists \(InputLimits.listedInvalidRecords - 20) of them"))
        let markdown = MarkdownReporter().render(report, options: ReportOptions(color: false))
        #expect(markdown.contains("## Invalid records skipped (\(bad))"))
        #expect(markdown.contains("… and \(bad - 200) more; the JSON report (--format json) lists 800 of them."))
        let junit = JUnitReporter().render(report, options: ReportOptions(color: false))
        #expect(junit.contains("name=\"\(bad) invalid records skipped\""))
        #expect(junit.contains("… \(bad - 100) more; the JSON report lists \(InputLimits.listedInvalidRecords - 100) of them"))
        let sarif = SARIFReporter().render(report, options: ReportOptions(color: false))
        #expect(sarif.contains("\(bad - 100) more skipped records (--skip-invalid); the JSON report lists 900 of them"))
    }

    /// One record past the list is counted in words for one.
    @Test func oneInvalidRecordPastTheListIsNotedInTheSingular() throws {
        let lines = Array(repeating: "{x", count: InputLimits.listedInvalidRecords + 1)
        let path = try Fixtures.temporaryFile(named: "bad.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let report = try Linter.run(
            LintRequest(eventPaths: [path], rules: try RuleSet.load(paths: [Fixtures.path("Rules")]), skipInvalid: true))
        #expect(report.summary.skippedRecords == InputLimits.listedInvalidRecords + 1)
        #expect(report.skipped.last?.message == "1 more invalid record was skipped and is not listed")
        #expect(InvalidRecordList.unlistedCount(in: try #require(report.skipped.last)) == 1)
    }

    /// Bad bytes are found a line at a time as the rows are read: a row of many bad lines does
    /// not hide the bad row after it, whatever the cap.
    @Test func aRowWithBadBytesAfterAQuotedRowOfManyIsInvalid() throws {
        var bytes = Array("\"".utf8)
        for _ in 0..<3 { bytes += [0xFF, 0x0A] }
        bytes += Array("\",x\n".utf8) + [0xFF] + Array(",y\n".utf8)
        let found = FirebaseCSVExportReader(path: "a.csv").read(data: Data(bytes), invalidLimit: 2).invalid.listed
        #expect(
            found.map(\.description) == [
                "a.csv:1:2: error: invalid UTF-8: the export must be UTF-8 text",
                "a.csv:5:1: error: invalid UTF-8: the export must be UTF-8 text",
            ])
    }
}

/// The JSON account export stops at the cap too, on one thread or several: an export of 50
/// million `{}` was read whole first, each user listed, and took 4 GB.
@Suite struct JSONExportInvalidCapTests {
    static let export = "{\"users\": [" + (0..<5_000).map { $0 == 3 ? #"{"localId": "u3"}"# : "{}" }.joined(separator: ",\n") + "]}"

    @Test(arguments: [1, 4]) func readingStopsAtTheCap(parallelism: Int) throws {
        var reader = FirebaseJSONExportReader(path: "accounts.json", parallelism: parallelism)
        reader.batchSize = 7
        reader.stopAfterInvalid = 10
        var accounts: [String] = []
        let invalid = try Data(Self.export.utf8).withUnsafeBytes { raw in
            try reader.read(bytes: raw.bindMemory(to: UInt8.self)) { accounts.append($0.localId) }
        }
        #expect(accounts == ["u3"])
        #expect(invalid.count >= 10)
        #expect(invalid.count < 30)
    }

    @Test func theRunSaysWhereItStopped() throws {
        let path = try Fixtures.temporaryFile(named: "accounts.json", contents: Self.export)
        let result = try CommandRunner.run(["check", "--accounts", path, "--events", Fixtures.path("Examples/events.jsonl")])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix("\(path):1001: error: stopped reading after \(InputLimits.invalidRecords) invalid records"),
            "\(result.stderr.prefix(300))")
    }
}
