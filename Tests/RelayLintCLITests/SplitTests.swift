import Foundation
import RelayLintCore
import RelayLintTestSupport
import Testing

/// `relaylint split`: every record in exactly one partition, on its original line.
@Suite struct SplitTests {
    @Test func splitKeepsEveryRecordOnItsLine() throws {
        let folder = try Fixtures.temporaryDirectory()
        let result = try CommandRunner.run([
            "split", "--partitions", "2", "--accounts", "Examples/accounts.json", "--events", "Examples/events.jsonl",
            "--output", folder.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let original = try String(contentsOfFile: Fixtures.path("Examples/events.jsonl"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let parts = try (1...2).map { index in
            try String(
                contentsOf: folder.appendingPathComponent("partition-\(index)-of-2/events.jsonl"), encoding: .utf8
            ).split(separator: "\n", omittingEmptySubsequences: false)
        }
        #expect(parts.allSatisfy { $0.count == original.count })
        for (line, text) in original.enumerated() where !text.isEmpty {
            #expect(parts.filter { $0[line] == text }.count == 1)
        }
        for index in 1...2 {
            let export = try Data(contentsOf: folder.appendingPathComponent("partition-\(index)-of-2/accounts.json"))
            #expect((try? JSONSerialization.jsonObject(with: export)) != nil)
        }
    }
}
