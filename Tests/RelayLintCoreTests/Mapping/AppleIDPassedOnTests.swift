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
}
