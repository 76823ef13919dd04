import Foundation
import RelayLintTestSupport
import Testing

/// One event id used by several subjects (with different content): split, checked by partition
/// and merged, the findings and their fingerprints are the single run's (hostile 11 F4), so that a
/// baseline or suppression taken from one run holds in the other.
@Suite struct ReusedIDPartitionTests {
    static let lines = [
        #"{"id":"c1","time":"2026-01-01T00:00:00Z","subject":"s1","type":"account.created","provider":"apple.com","email":"x1@privaterelay.appleid.com"}"#,
        #"{"id":"c2","time":"2026-01-01T00:00:00Z","subject":"s2","type":"account.created","provider":"apple.com","email":"x2@privaterelay.appleid.com"}"#,
        #"{"id":"c3","time":"2026-01-01T00:00:00Z","subject":"s3","type":"account.created","provider":"apple.com","email":"x3@privaterelay.appleid.com"}"#,
        #"{"id":"same","time":"2026-02-01T00:00:00Z","subject":"s1","type":"identity.linked","kind":"email","value":"a@b.com"}"#,
        #"{"id":"same","time":"2026-02-01T00:00:00Z","subject":"s2","type":"identity.linked","kind":"email","value":"a@b.com"}"#,
        #"{"id":"same","time":"2026-02-01T00:00:00Z","subject":"s3","type":"identity.linked","kind":"email","value":"a@b.com"}"#,
        // One subject using the id twice: its second use is told apart in either run.
        #"{"id":"same","time":"2026-02-02T00:00:00Z","subject":"s3","type":"identity.linked","kind":"email","value":"c@d.com"}"#,
    ]

    static func findings(_ path: String) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return (report["findings"] as? [[String: Any]] ?? []).map { "\($0["subject"]!) \($0["event"] ?? "-") \($0["fingerprint"]!)" }
    }

    @Test func aReusedIdGivesTheSingleRunsFingerprintsInPartitions() throws {
        let folder = try Fixtures.temporaryDirectory()
        let log = folder.appendingPathComponent("ev.jsonl").path
        try (Self.lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let single = try CommandRunner.run(["check", "--events", log, "--format", "json", "--output", folder.path + "/single.json", "-q"])
        #expect(single.status == 1, "\(single.stderr)")
        let split = try CommandRunner.run(["split", "--partitions", "3", "--events", log, "--output", folder.path + "/parts"])
        #expect(split.status == 0, "\(split.stderr)")
        let dataEnd = try String(contentsOfFile: folder.path + "/parts/data-end.txt", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var partials: [String] = []
        for k in 1...3 {
            let partial = folder.path + "/p\(k).json"
            let run = try CommandRunner.run([
                "check", "--partition", "\(k)/3", "--data-end", dataEnd, "--events", folder.path + "/parts/partition-\(k)-of-3/ev.jsonl",
                "--format", "json", "--output", partial, "-q",
            ])
            #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
            partials.append(partial)
        }
        let merged = try CommandRunner.run(
            ["merge"] + partials + [
                "--sources", folder.path + "/parts/sources.json", "--format", "json", "--output", folder.path + "/merged.json",
            ])
        #expect(merged.status == 1, "\(merged.stderr)")
        let expected = try Self.findings(folder.path + "/single.json")
        #expect(expected.filter { $0.hasPrefix("s3 same") }.count == 2)
        #expect(Set(expected.filter { $0.hasPrefix("s3 same") }.map { $0.suffix(32) }).count == 2)
        #expect(try Self.findings(folder.path + "/merged.json") == expected)
    }
}
