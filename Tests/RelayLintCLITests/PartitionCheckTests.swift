import Foundation
import RelayLintCore
import RelayLintTestSupport
import Testing

/// `check --partition K/N`: a partial of the partition's subjects, or an error when the inputs
/// hold another partition's subject or end after `--data-end`.
@Suite struct PartitionCheckTests {
    static let options = [
        "check", "--config", "Examples/.relaylint.yml", "--manifest", "Examples/manifest.yml", "--as-of", "2026-07-01",
        "--accounts", "Examples/accounts.json", "--events", "Examples/events.jsonl", "--format", "json",
    ]

    @Test func theOnlyPartitionHoldsEverySubjectAndItsFacts() throws {
        let result = try CommandRunner.run(Self.options + ["--partition", "1/1"])
        #expect(result.status == 0, "\(result.stderr)")
        let partial = try JSONDecoder().decode(PartitionReport.self, from: Data(result.stdout.utf8))
        let single = try #require(
            (try JSONSerialization.jsonObject(with: Data(try CommandRunner.run(Self.options).stdout.utf8)) as? [String: Any])?["summary"]
                as? [String: Any])
        #expect(partial.format == PartitionReport.formatName)
        #expect(partial.partition.description == "1/1")
        #expect(partial.evaluation.subjects == single["subjects"] as? Int)
        #expect(partial.evaluation.events == single["events"] as? Int)
        #expect(partial.evaluation.horizon == partial.evaluation.latest)
        #expect(!partial.evaluation.appsCreatingAccounts.isEmpty)
        #expect(partial.evaluation.appMatches.contains { !$0.isEmpty })
        #expect(partial.evaluation.accountsPerApp.values.reduce(0, +) > 0)
    }

    @Test func aSubjectOutsideThePartitionIsAnErrorAtItsLine() throws {
        let result = try CommandRunner.run(Self.options + ["--partition", "1/3"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Examples/accounts.json:") || result.stderr.contains("Examples/events.jsonl:"))
        #expect(result.stderr.contains("belongs to partition"))
        #expect(result.stderr.contains("not 1/3"))
    }

    @Test func theDataEndIsTheHorizonAndMayNotPrecedeTheData() throws {
        let later = try CommandRunner.run(Self.options + ["--partition", "1/1", "--data-end", "2026-12-31T00:00:00Z"])
        #expect(later.status == 0, "\(later.stderr)")
        let partial = try JSONDecoder().decode(PartitionReport.self, from: Data(later.stdout.utf8))
        #expect(partial.evaluation.horizon == Timestamp(rfc3339: "2026-12-31T00:00:00Z"))
        let earlier = try CommandRunner.run(Self.options + ["--partition", "1/1", "--data-end", "2026-02-01T00:00:00Z"])
        #expect(earlier.status == 2)
        // At the line of the latest event, which the run reads as 2026-06-28T15:33:08Z.
        #expect(
            earlier.stderr.contains(
                "Examples/events.jsonl:111: error: the data holds an event at 2026-06-28T15:33:08Z, after --data-end"),
            "\(earlier.stderr)")
    }

    @Test func aPartitionWritesOnlyItsPartial() throws {
        let result = try CommandRunner.run(Self.options + ["--partition", "1/2", "--report", "html=x.html"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--partition writes a partial report"))
    }
}
