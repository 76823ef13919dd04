import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A block of a log is parsed in runs of at most `EventLogReader.linesPerRun` lines: a slot per
/// line of a 4 MiB block of `x` lines (2M invalid records) took 690 MB. Splitting a block must
/// change nothing a caller sees.
@Suite struct EventLogRunTests {
    private static func event(_ number: Int) -> String {
        #"{"id":"e\#(number)","time":"2026-01-01T00:00:00Z","subject":"u\#(number % 7)","type":"signin"}"#
    }

    /// Lines past two runs' worth in one block: every line is delivered once, in order, with its
    /// own number, and the progress display ends at the file's size after one call per run.
    @Test(arguments: [1, 2])
    func aBlockOfMoreLinesThanARunIsReadInRunsWithNothingLostOrMoved(parallelism: Int) throws {
        let count = EventLogReader.linesPerRun * 2 + 8_000
        // Short lines, so that all of them fit in one block: every third one invalid, empty
        // lines between some, across the runs' boundaries.
        let lines = (1...count).map { number in number % 3 == 0 ? "x" : number % 11 == 0 ? "" : Self.event(number) }
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count < FileBytes.blockSize)
        let path = try Fixtures.temporaryFile(named: "short-lines.jsonl", contents: text)
        let reader = EventLogReader(path: path, fileIndex: 0, parallelism: parallelism)
        var invalidLines: [Int] = []
        var events = 0
        var progress: [Int] = []
        let preparation = PreparedEvent.Preparation(relayDomains: RelayDomains(), shard: nil)
        let (_, records) = try reader.read(names: NameTable(), preparation: preparation, progress: { progress.append($0) }) {
            record, _, _ in
            switch record {
            case .event: events += 1
            case .invalid(let diagnostic): invalidLines.append(diagnostic.location.line)
            }
        }
        #expect(invalidLines == Array(stride(from: 3, through: count, by: 3)))
        #expect(events == (1...count).count { $0 % 3 != 0 && $0 % 11 != 0 })
        #expect(records == events + invalidLines.count)
        // Empty lines are in no run: some 69,000 lines are left, three runs' worth.
        #expect(records > EventLogReader.linesPerRun * 2)
        #expect(progress.count == 3, "one call per run of lines")
        #expect(progress.last == text.utf8.count)
        #expect(progress == progress.sorted())
    }
}
