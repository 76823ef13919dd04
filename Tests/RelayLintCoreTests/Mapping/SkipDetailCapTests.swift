import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The details of skipped records come from the records (a method name, a status code), so a
/// log can hold as many as it has records. An input lists the first
/// `InputLimits.listedSkipDetails` and counts the records of any other detail under their reason;
/// every record is still accounted for.
@Suite struct SkipDetailCapTests {
    /// A Cloud Logging entry of a method that changes no account, `Method<number>`.
    static func entry(_ number: Int, id: Int) -> String {
        #"{"insertId":"e\#(id)","timestamp":"2026-01-02T00:00:00Z","jsonPayload":{"methodName":""#
            + #"google.cloud.identitytoolkit.v1.AccountManagementService.Method\#(number)","response":{"localId":"u1"}}}"#
    }

    @Test func detailsPastTheListedOnesAreCountedUnderTheirReason() throws {
        let distinct = InputLimits.listedSkipDetails + 205
        // Every method once, and the first and the last again: the first's count grows in its
        // own entry, the last's in the entry of details not listed.
        let again = [Self.entry(0, id: distinct), Self.entry(distinct - 1, id: distinct + 1)]
        let lines = (0..<distinct).map { Self.entry($0, id: $0) } + again
        let log = try Fixtures.temporaryFile(named: "many-methods.jsonl", contents: lines.joined(separator: "\n") + "\n")
        var request = LintRequest(eventPaths: [log], accountPaths: [], rules: try RuleSet.load(paths: [Fixtures.rules]))
        request.mappings = try MappingSet.load(userPaths: []).mappings
        let input = try #require(try Linter.run(request).inputs.first { $0.path == log })

        #expect(input.records == distinct + 2)
        #expect(input.skippedRecords.count == InputLimits.listedSkipDetails + 1)
        #expect(input.skippedRecords.reduce(0) { $0 + $1.count } == input.records)
        #expect(input.skippedRecords.first == .init(reason: "not an account change", detail: "Method0", count: 2))
        let listed = input.skippedRecords.dropLast().map(\.detail)
        #expect(listed == (0..<InputLimits.listedSkipDetails).map { "Method\($0)" })
        #expect(
            input.skippedRecords.last
                == .init(reason: "not an account change", detail: InputFileSummary.SkippedRecords.unlistedDetails, count: 206))
    }
}
