import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// An event whose id was used before is compared by content with the first: a mapped log's
/// event by what its mapping made of the record, mapped again when the check needs it
/// (`MappedLogReader.ContentReplay`), with the subject Apple's notifications were joined to.
@Suite struct MappedDuplicateTests {
    private static let realLogs = RealLogsTests.realLogs

    private func lines(_ file: String) throws -> [Substring] {
        try String(contentsOfFile: Fixtures.path(Self.realLogs + file), encoding: .utf8).split(separator: "\n")
    }

    /// - Parameter alongside: logs read first (the one that joins Apple's notifications).
    private func run(_ file: String, _ text: String, alongside: [String] = []) throws -> LintReport {
        var request = try RealLogsTests.request(events: alongside.map { Self.realLogs + $0 })
        request.eventPaths.append(try Fixtures.temporaryFile(named: file, contents: text))
        return try Linter.run(request)
    }

    @Test func anEntryRepeatedWithOtherContentIsKeptAndTold() throws {
        let entries = try lines("identity-platform.jsonl")
        let first = try #require(entries.first { $0.contains("SignInWithIdp") })
        let changed = first.replacingOccurrences(of: #""timestamp":""#, with: #""timestamp":"2020-01-01T00:00:00Z","old":""#)
        #expect(changed != String(first))
        let report = try run("changed.jsonl", "\(first)\n\(changed)\n")
        #expect(report.inputs.last?.duplicates == 0)
        #expect(report.notes.contains { $0.message.contains("was already used at") && $0.message.contains("with different content") })
    }

    @Test func anEntryRepeatedAsItWasIsOneDuplicate() throws {
        let entries = try lines("identity-platform.jsonl")
        let first = try #require(entries.first { $0.contains("SignInWithIdp") })
        let report = try run("again.jsonl", "\(first)\n\(first)\n")
        #expect(report.inputs.last?.duplicates == 1)
        #expect(!report.notes.contains { $0.message.contains("with different content") })
    }

    /// A notification names Apple's user id, not the account: its content is compared with the
    /// account it was joined to, on both deliveries.
    @Test func aNotificationDeliveredTwiceIsOneDuplicate() throws {
        let notifications = try lines("apple-notifications.jsonl")
        let text = (notifications + notifications.prefix(2)).joined(separator: "\n") + "\n"
        let report = try run("notifications-twice.jsonl", text, alongside: ["identity-platform.jsonl"])
        #expect(report.inputs.last?.duplicates == 2)
        #expect(!report.notes.contains { $0.message.contains("with different content") })
    }

    /// The content mapped again is the event the worker made: the right one of a record's
    /// events, its joined subject in place of the Apple user id.
    @Test func theContentMappedAgainIsTheEventTheRecordGave() throws {
        let mapping = try MappingLoader.load(
            text: """
                mapping: replay
                recognize: {path: id, exists: true}
                events:
                  - for_each: {path: ids}
                    type: account.deleted
                    id: {path: id}
                    time: {path: t}
                    subject: {path: $item}
                  - type: consent.revoked
                    id: {path: id}
                    time: {path: t}
                    subject_apple_id: {path: sub}
                """, path: "replay.yml", sha256: ""
        ).get()
        var record = #"{"id":"r","t":"2025-01-01T00:00:00Z","ids":["a","b"],"sub":"001.apple"}"#
        let replay = MappedLogReader.ContentReplay(mapping: mapping, keys: nil)
        let contents = record.withUTF8 { bytes in
            (0..<4).map { replay.content(ofEvent: $0, in: bytes, subject: "joined") }
        }
        #expect(contents[0]?.subject == .string("a") && contents[0]?.id == .string("r#1"))
        #expect(contents[1]?.subject == .string("b") && contents[1]?.id == .string("r#2"))
        #expect(contents[2]?.subject == .string("joined") && contents[2]?.appleID == "001.apple")
        #expect(contents[3] == nil)
    }
}
