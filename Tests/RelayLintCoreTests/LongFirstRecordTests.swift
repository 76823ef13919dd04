import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A log's format is recognised from its whole first record, however long (up to the cap on a
/// line): a first record past 1 MiB was cut there, parsed as nothing, and the file read as
/// relaylint events, so a mapped log gave "missing required field 'id'" on every line, or with
/// `--skip-invalid` "no findings" and none of its events.
@Suite struct LongFirstRecordTests {
    private static let realLogs = "Examples/real-logs/"

    /// `relative` with a member of `padding` bytes added first to its first record.
    private static func padded(_ relative: String, by padding: Int = EventLogFormat.sniffLimit + 4096) throws -> String {
        let text = try String(contentsOfFile: Fixtures.path(relative), encoding: .utf8)
        let brace = try #require(text.firstIndex(of: "{"))
        let blob = #"{"blob":""# + String(repeating: "x", count: padding) + #"","#
        let name = (relative as NSString).lastPathComponent
        return try Fixtures.temporaryFile(named: "long-" + name, contents: text.replacingCharacters(in: brace...brace, with: blob))
    }

    private static func report(_ path: String) throws -> LintReport {
        var request = LintRequest(
            eventPaths: [path], accountPaths: [Fixtures.path("Examples/accounts.json")],
            manifestPath: Fixtures.path("Examples/manifest.yml"), rules: try RuleSet.load(paths: [Fixtures.rules]))
        request.mappings = try MappingSet.load(userPaths: [Fixtures.path(realLogs + "backend-mapping.yml")]).mappings
        request.skipInvalid = true
        return try Linter.run(request)
    }

    /// The same records, events and findings as the log without the long member.
    private static func expectSameReport(_ relative: String, as path: String) throws {
        let plain = try report(Fixtures.path(relative))
        let long = try report(path)
        #expect(long.inputs.first?.format == plain.inputs.first?.format)
        #expect(long.inputs.first?.records == plain.inputs.first?.records)
        #expect(long.inputs.first?.eventsMade == plain.inputs.first?.eventsMade)
        #expect(long.skipped.isEmpty)
        #expect(long.findings.map(\.rule) == plain.findings.map(\.rule))
        #expect(long.findings.map(\.subject) == plain.findings.map(\.subject))
    }

    @Test func aMappedLogWithALongFirstLine() throws {
        let relative = Self.realLogs + "backend.jsonl"
        try Self.expectSameReport(relative, as: try Self.padded(relative))
    }

    @Test func aCloudLoggingArrayWithALongFirstEntry() throws {
        let relative = Self.realLogs + "audit-logs.json"
        try Self.expectSameReport(relative, as: try Self.padded(relative))
    }

    @Test func aRelaylintLogWithALongFirstLine() throws {
        try Self.expectSameReport("Examples/events.jsonl", as: try Self.padded("Examples/events.jsonl"))
    }

    /// From a pipe, the first record is read whole too, and handed to the reader with the rest.
    @Test(.timeLimit(.minutes(1))) func aMappedLogWithALongFirstLineOnAPipe() throws {
        let relative = Self.realLogs + "backend.jsonl"
        let text = try Data(contentsOf: URL(fileURLWithPath: try Self.padded(relative)))
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("backend.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(text)
            try? handle.close()
        }
        writer.start()
        try Self.expectSameReport(relative, as: fifo)
    }

    /// A first record longer than the cap on a line is refused at its line, not guessed at.
    @Test func aFirstLineLongerThanTheCapIsRefused() throws {
        let path = try Self.padded(Self.realLogs + "backend.jsonl", by: InputLimits.lineBytes)
        let error = #expect(throws: InputError.self) { try EventLogFormat.recognize(path: path, mappings: []) }
        #expect(error?.description == "\(path):1: error: stopped reading: a line longer than 16 MiB, the cap on one line of a log")
    }

    /// Blank space alone past the cap after an array's `[` is told as what it is, at the `[`'s
    /// line, not as a first element longer than the cap.
    @Test func blankSpaceBeforeAnArraysFirstElementPastTheCapIsToldAsSuch() throws {
        let text = "\n[" + String(repeating: " \n", count: InputLimits.lineBytes / 2 + 1) + "{}]\n"
        let path = try Fixtures.temporaryFile(named: "blank.json", contents: text)
        let error = #expect(throws: InputError.self) { try EventLogFormat.recognize(path: path, mappings: []) }
        #expect(
            error?.description
                == "\(path):2: error: stopped reading: more than 16 MiB of blank space before the array's first element, "
                + "the cap on the first record of a log read to recognise its format")
    }
}
