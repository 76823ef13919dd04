@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A mapped event keeps its fields sorted by name without a dictionary: the fields are worked
/// out in the order the mapping writes them, so the first that fails is the one a record's
/// error names, and each lands in its place by name.
@Suite struct MappedEventTests {
    private static let mapping = """
        mapping: field-order
        recognize: {path: id, exists: true}
        events:
          - type: signin
            id: {path: id}
            time: {path: t}
            subject: {path: uid}
            fields:
              zeta: {epoch_milliseconds: {path: z}}
              alpha: {epoch_milliseconds: {path: a}}
              mid: {path: m}
        """

    private func outcome(_ record: String) throws -> RecordMapper.Outcome {
        let mapping = try MappingLoader.load(text: Self.mapping, path: "order.yml", sha256: "").get()
        var text = record
        return try text.withUTF8 { try RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil)).map(parsing: $0) }
    }

    @Test func theFieldWrittenFirstIsTheFailureTold() throws {
        let outcome = try outcome(#"{"id":"e","t":"2025-01-01T00:00:00Z","uid":"u","z":"late","a":"early"}"#)
        guard case .invalid(let reason) = outcome else {
            Issue.record("the record was not invalid: \(outcome)")
            return
        }
        #expect(reason.contains("'z'"))
    }

    @Test func fieldsComeOutSortedByNameWithoutTheAbsentOnes() throws {
        let outcome = try outcome(#"{"id":"e","t":"2025-01-01T00:00:00Z","uid":"u","z":2,"m":null,"a":1}"#)
        guard case .events(let events) = outcome, let event = events.first else {
            Issue.record("the record gave no event: \(outcome)")
            return
        }
        #expect(event.fields.map(\.key) == ["alpha", "zeta"])
        #expect(
            event.members == [
                "id": .string("e"), "time": .string("2025-01-01T00:00:00Z"), "subject": .string("u"),
                "type": .string("signin"), "alpha": .number(JSONNumber(1000)), "zeta": .number(JSONNumber(2000)),
            ])
        #expect(event.subject == .string("u") && event.type == .string("signin") && event.app == nil)
    }
}

/// What one record may make of itself: at most 1,023 events, and events that take at most eight
/// times the record (at least 1 MiB). Past either, the record is invalid at its line, before
/// the events are made: a Cloud Logging entry of a 1 MB `insertId` and 1,000 deleted accounts
/// took 3.1 GB, each `#N` id a copy of it.
@Suite struct RecordEventCapTests {
    static func batchDeletion(id: String, accounts: Int) -> String {
        let ids = (0..<accounts).map { #""u\#($0)""# }.joined(separator: ",")
        return
            #"{"insertId":"\#(id)","timestamp":"2026-01-01T00:00:00Z","jsonPayload":{"methodName":"google.cloud.identitytoolkit.v1.AccountManagementService.BatchDeleteAccounts","request":{"localIds":[\#(ids)]}}}"#
    }

    func outcome(_ record: String) throws -> RecordMapper.Outcome {
        let mapping = try #require(try MappingSet.load(userPaths: []).mappings.first { $0.id == "google-cloud-logging" })
        var text = record
        return try text.withUTF8 { try RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil)).map(parsing: $0) }
    }

    @Test func aBatchDeletionOfAThousandAccountsGivesAThousandEvents() throws {
        guard case .events(let events) = try outcome(Self.batchDeletion(id: "b1", accounts: 1000)) else {
            Issue.record("no events")
            return
        }
        #expect(events.count == 1000)
        #expect(events.last?.id == .string("b1#1000"))
    }

    @Test func aRecordOf1023EventsIsReadAndOf1024IsInvalid() throws {
        guard case .events(let events) = try outcome(Self.batchDeletion(id: "b1", accounts: 1023)) else {
            Issue.record("1,023 events were refused")
            return
        }
        #expect(events.count == 1023)
        #expect(
            try outcome(Self.batchDeletion(id: "b1", accounts: 1024))
                == .invalid("a record gives more than 1023 events; at most 1023 are read"))
    }

    @Test func aRecordOfMoreThan1023EventsIsInvalid() throws {
        #expect(
            try outcome(Self.batchDeletion(id: "b1", accounts: 5000))
                == .invalid("a record gives more than 1023 events; at most 1023 are read"))
    }

    @Test func idsThatWouldTakeMoreThanEightTimesTheRecordAreInvalid() throws {
        let record = Self.batchDeletion(id: String(repeating: "i", count: 64 << 10), accounts: 1000)
        guard case .invalid(let reason) = try outcome(record) else {
            Issue.record("the record was not invalid")
            return
        }
        #expect(reason.hasPrefix("the ids of the record's 1000 events would take 65541000 bytes, more than"), "\(reason)")
    }

    /// A value each event copies (the longest subject id unlinked from a thousand providers)
    /// is counted as the events are packed: the record is invalid at its line, and with
    /// `--skip-invalid` counted and listed.
    @Test func eventsThatWouldTakeMoreThanEightTimesTheRecordAreInvalidAtItsLine() throws {
        let providers = (0..<1000).map { #""provider-\#($0).identity.example.com""# }.joined(separator: ",")
        let subject = String(repeating: "s", count: SubjectID.longestBytes)
        let record =
            #"{"insertId":"s1","timestamp":"2026-01-01T00:00:00Z","jsonPayload":{"methodName":"x.SetAccountInfo","request":{"localId":"\#(subject)","deleteProvider":[\#(providers)]}}}"#
        let log = try Fixtures.temporaryFile(named: "capped.jsonl", contents: record + "\n")
        var request = LintRequest(eventPaths: [log], rules: try RuleSet.load(paths: [Fixtures.rules]), skipInvalid: true)
        request.mappings = try MappingSet.load(userPaths: []).mappings
        let report = try Linter.run(request)
        #expect(report.summary.events == 0)
        #expect(report.skipped.map(\.location.line) == [1])
        #expect(report.skipped.first?.message.hasPrefix("the record's events would take more than 1 MiB") == true, "\(report.skipped)")
    }
}
