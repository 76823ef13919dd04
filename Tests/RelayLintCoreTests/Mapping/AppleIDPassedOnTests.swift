import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// An Apple user id two accounts have taken: a notification goes to the one that took it last,
/// and a note says it passed over the other, which may never have been deleted.
@Suite struct AppleIDPassedOnTests {
    /// `z9` holds the id from the export (created 2026-01-01); `y1` claims it in the log on
    /// 2026-05-01; the notification is sent at `sentAt`.
    static func report(notificationSentAt sentAt: Int64) throws -> LintReport {
        let accounts = try Fixtures.temporaryFile(
            named: "accounts.json",
            contents:
                #"{"users":[{"localId":"z9","createdAt":"1767225600000","providerUserInfo":[{"providerId":"apple.com","rawId":"001437.y1"}]}]}"#
        )
        let events = try Fixtures.temporaryFile(
            named: "events.jsonl",
            contents:
                #"{"id":"R1","time":"2026-05-01T00:00:00Z","subject":"y1","type":"account.created","provider":"apple.com","value":"001437.y1"}"#
                + "\n")
        let notifications = try Fixtures.temporaryFile(
            named: "apple.jsonl",
            contents:
                #"{"iss":"https://appleid.apple.com","jti":"n1","events":{"type":"account-delete","sub":"001437.y1","event_time":\#(sentAt)}}"#
                + "\n")
        var request = LintRequest(
            eventPaths: [events, notifications], accountPaths: [accounts], rules: try RuleSet.load(paths: [Fixtures.rules]))
        request.mappings = try MappingSet.load(userPaths: []).mappings
        return try Linter.run(request)
    }

    static func passedOverNotes(_ report: LintReport) -> [Diagnostic] {
        report.notes.filter { $0.message.contains("that two accounts had taken by the time Apple sent it") }
    }

    @Test func aNotificationJoinedToTheLaterOfTwoHoldersIsNoted() throws {
        let report = try Self.report(notificationSentAt: 1_778_000_000_000)  // 2026-05-05
        #expect(report.summary.events == 2)
        let notes = Self.passedOverNotes(report)
        #expect(notes.count == 1)
        #expect(notes.first?.severity == .note)
        #expect(notes.first?.location.file.hasSuffix("apple.jsonl") == true && notes.first?.location.line == 1)
    }

    @Test func aNotificationBeforeTheSecondHolderTookTheIdPassesOverNone() throws {
        let report = try Self.report(notificationSentAt: 1_772_000_000_000)  // 2026-02-25
        #expect(report.summary.events == 2)
        #expect(Self.passedOverNotes(report).isEmpty)
    }

    /// Notifications given in many files join as the same ones in one file: the claims without a
    /// time (a subject map's) are settled once, not once a file (which read every account back
    /// for each of a folder's thousand files), and still before the first file is joined.
    @Test func notificationsInManyFilesJoinAsInOne() throws {
        let events = try Fixtures.temporaryFile(
            named: "events.jsonl",
            contents: (0..<4).map {
                #"{"id":"c\#($0)","time":"2026-0\#($0 + 1)-01T00:00:00Z","subject":"b\#($0)","type":"account.created","provider":"apple.com","value":"001437.\#($0)"}"#
                    + "\n"
                    + #"{"id":"x\#($0)","time":"2026-0\#($0 + 1)-02T00:00:00Z","subject":"a\#($0)","type":"signin"}"#
            }.joined(separator: "\n") + "\n")
        let map = try Fixtures.temporaryFile(
            named: "map.csv", contents: (0..<4).map { "001437.\($0),a\($0)" }.joined(separator: "\n") + "\n")
        let lines = (0..<4).map {
            #"{"iss":"https://appleid.apple.com","jti":"n\#($0)","events":{"type":"account-delete","sub":"001437.\#($0)","event_time":\#(1_767_225_600_000 + Int64($0) * 40 * 86_400_000)}}"#
        }
        let one = try Fixtures.temporaryFile(named: "apple.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("apple")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (index, line) in lines.enumerated() { try Data((line + "\n").utf8).write(to: folder.appendingPathComponent("\(index).jsonl")) }
        func report(_ notifications: [String]) throws -> LintReport {
            var request = LintRequest(eventPaths: [events] + notifications, rules: try RuleSet.load(paths: [Fixtures.rules]))
            request.subjectMapPath = map
            request.mappings = try MappingSet.load(userPaths: []).mappings
            return try Linter.run(request)
        }
        let inOne = try report([one])
        let inMany = try report(try InputFolder.files(at: folder.path))
        #expect(inOne.summary.events == inMany.summary.events)
        #expect(inOne.findings.map(\.message) == inMany.findings.map(\.message))
        // Noted per file: as many passed over in all.
        func passedOver(_ report: LintReport) -> Int {
            report.notes.filter { $0.message.contains("that two accounts had taken by the time Apple sent") }.compactMap {
                Int($0.message.prefix { $0.isNumber })
            }.reduce(0, +)
        }
        #expect(passedOver(inOne) == 3)
        #expect(passedOver(inMany) == 3)
        // The untimed claims were settled: the notifications were joined, not skipped.
        #expect(inOne.summary.events == 12)
    }
}
