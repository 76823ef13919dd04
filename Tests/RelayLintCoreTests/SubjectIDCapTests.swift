import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A subject id takes at most `SubjectID.longestBytes` bytes, from whichever input it comes: it is
/// copied into every event joined to its subject and every finding about it, and a 900 KiB one
/// with 2,000 Apple notifications (1.3 MB of input) took 3.7 GB and wrote a 1.8 GB report.
@Suite struct SubjectIDCapTests {
    private static let long = String(repeating: "S", count: SubjectID.longestBytes + 1)
    private static let longest = String(repeating: "S", count: SubjectID.longestBytes)
    private static let reason = "is \(SubjectID.longestBytes + 1) bytes long: a subject id takes at most \(SubjectID.longestBytes) bytes"

    private func skippedRun(events: [String], accounts: [String] = [], mappings: [String] = []) throws -> LintReport {
        var request = LintRequest(
            eventPaths: events, accountPaths: accounts, rules: try RuleSet.load(paths: [Fixtures.rules]), skipInvalid: true,
            parallelism: 2)
        request.mappings = try MappingSet.load(userPaths: mappings).mappings
        return try Linter.run(request)
    }

    /// An event whose subject id is one byte past the cap is invalid at its line, whether the fast
    /// scanner reads it or the strict parser does (a nested field sends it there); the longest
    /// allowed id is read.
    @Test func aLogEventOfAnOverlongSubjectIsInvalidAtItsLine() throws {
        let lines = [
            #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"\#(Self.longest)","type":"signin"}"#,
            #"{"id":"e2","time":"2026-01-01T00:00:00Z","subject":"\#(Self.long)","type":"signin"}"#,
            #"{"id":"e3","time":"2026-01-01T00:00:00Z","subject":"\#(Self.long)","type":"signin","nested":{"a":1}}"#,
        ]
        let path = try Fixtures.temporaryFile(named: "long-subject.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let report = try skippedRun(events: [path])
        #expect(report.summary.events == 1)
        #expect(report.skipped.map(\.location.line) == [2, 3])
        #expect(
            report.skipped.allSatisfy { $0.message == "field 'subject' " + Self.reason + " (Firebase's uids are at most 128 characters)" })
    }

    /// A Cloud Logging entry whose `localId` is past the cap, and a backend record whose mapped
    /// subject is, are invalid at their lines like any malformed field.
    @Test func aMappedRecordOfAnOverlongSubjectIsInvalidAtItsLine() throws {
        let cloud = try String(contentsOfFile: Fixtures.path("Examples/real-logs/identity-platform.jsonl"), encoding: .utf8)
        var cloudLines = cloud.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        cloudLines[0] = cloudLines[0].replacingOccurrences(of: "OJQR90d7pImLtGJwydvH7CVxRKLL", with: Self.long)
        let cloudPath = try Fixtures.temporaryFile(named: "identity-platform.jsonl", contents: cloudLines.joined(separator: "\n"))
        let backend = try String(contentsOfFile: Fixtures.path("Examples/real-logs/backend.jsonl"), encoding: .utf8)
        var backendLines = backend.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        backendLines[1] = backendLines[1].replacingOccurrences(of: "tN72olbIttwmjl5AvuXtuAS3vSI1", with: Self.long)
        let backendPath = try Fixtures.temporaryFile(named: "backend.jsonl", contents: backendLines.joined(separator: "\n"))

        let report = try skippedRun(
            events: [cloudPath, backendPath], mappings: [Fixtures.path("Examples/real-logs/backend-mapping.yml")])
        #expect(report.skipped.map { "\($0.location.file):\($0.location.line)" } == ["\(cloudPath):1", "\(backendPath):2"])
        #expect(report.skipped.allSatisfy { $0.message.contains("field 'subject' " + Self.reason) })
    }

    /// An exported account whose `localId` is past the cap is an invalid row, in JSON and in CSV.
    @Test func anExportedAccountOfAnOverlongLocalIdIsInvalid() throws {
        let json = try String(contentsOfFile: Fixtures.path("Examples/accounts.json"), encoding: .utf8)
            .replacingOccurrences(of: "h986jXVzcJaAF9mILnxg5bX59wxD", with: Self.long)
        let jsonPath = try Fixtures.temporaryFile(named: "accounts.json", contents: json)
        let csv = try String(contentsOfFile: Fixtures.path("Examples/accounts.csv"), encoding: .utf8)
            .replacingOccurrences(of: "1S7e6E1lKorSfrLF6NekAi63ADdE", with: Self.long)
        let csvPath = try Fixtures.temporaryFile(named: "accounts.csv", contents: csv)

        let report = try skippedRun(events: [], accounts: [jsonPath, csvPath])
        #expect(report.skipped.map { "\($0.location.file):\($0.location.line)" } == ["\(jsonPath):3", "\(csvPath):1"])
        #expect(report.skipped.first?.message.contains("'localId' " + Self.reason) == true)
        #expect(report.skipped.last?.message.hasPrefix("column 1 (UID) " + Self.reason) == true)
    }

    /// A subject map row naming a subject past the cap is refused at its row.
    @Test func aSubjectMapRowOfAnOverlongSubjectIsRefused() throws {
        let path = try Fixtures.temporaryFile(named: "map.csv", contents: "001437.ab.1204,u1\n001437.cd.1204,\(Self.long)\n")
        var index = AppleAccountIndex()
        let error = #expect(throws: DiagnosticsError.self) { try SubjectMap.load(path: path, into: &index) }
        #expect(error?.diagnostics.map(\.location.line) == [2])
        #expect(error?.diagnostics.first?.message.hasPrefix("the subject " + Self.reason) == true)
    }
}
