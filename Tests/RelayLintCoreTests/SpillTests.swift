import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A run that writes its packed events and accounts to a temporary file, in partitions by
/// subject, and evaluates a partition at a time reports exactly what a run that holds them all
/// in memory reports.
@Suite struct SpillTests {
    /// Examples/ plus a log of 400 subjects with exact duplicates, a reused id, an in-app deletion
    /// request (the app rule's evidence), and a bad line (skipped), and an export on one line.
    static func request() throws -> LintRequest {
        var lines: [String] = []
        for subject in 0..<400 {
            lines.append(
                #"{"id":"s\#(subject)","time":"2026-01-01T00:00:00Z","subject":"u\#(subject)","type":"signin","provider":"apple.com","is_private_email":true}"#
            )
            lines.append(
                #"{"id":"l\#(subject)","time":"2026-01-0\#(subject % 9 + 1)T00:00:00Z","subject":"u\#(subject)","type":"identity.linked","kind":"email","value":"p\#(subject)@example.com"}"#
            )
        }
        lines += Array(lines[0..<30])
        lines.append(#"{"id":"s7","time":"2026-01-03T00:00:00Z","subject":"u8","type":"signin","provider":"google.com"}"#)
        lines.append(
            #"{"id":"d1","time":"2026-01-05T00:00:00Z","subject":"u3","type":"account.deletion_requested","channel":"in_app"}"#)
        lines.append(#"{"id":"bad","time":"yesterday","subject":"u9","type":"signin"}"#)
        let log = try Fixtures.temporaryFile(named: "spill.jsonl", contents: lines.joined(separator: "\n"))
        // u10 twice: the note names the first record, read back from the spill file.
        let users =
            (0..<300).map { #"{"localId":"u\#($0 * 2)","email":"r\#($0)@privaterelay.appleid.com","createdAt":"1767225600000"}"# }
            + [#"{"localId":"u10","email":"again@example.com"}"#]
        let export = try Fixtures.temporaryFile(
            named: "spill-accounts.json", contents: #"{"users":["# + users.joined(separator: ",") + "]}")
        var request = LintRequest(
            eventPaths: [Fixtures.path("Examples/events.jsonl"), log],
            accountPaths: [Fixtures.path("Examples/accounts.json"), export], manifestPath: Fixtures.path("Examples/manifest.yml"),
            rules: LinterTests.builtIn, skipInvalid: true, parallelism: 1)
        request.spillThreshold = .max
        return request
    }

    @Test(arguments: [(1, 64), (2, 1 << 10), (7, 256), (16, 1 << 16)], [1, 2])
    func aSpillingRunReportsWhatAnInMemoryRunReports(layout: (partitions: Int, largestChunk: Int), parallelism: Int) throws {
        var request = try Self.request()
        request.parallelism = parallelism
        let inMemory = try Linter.run(request)
        request.spillThreshold = 0
        request.spillLayout = PartitionedArena.Layout(partitions: layout.partitions, largestChunk: layout.largestChunk)
        let spilled = try Linter.run(request)
        #expect(inMemory.findings.count > 400)
        #expect(inMemory.summary.duplicates == 31)  // 30 here, 1 in Examples/
        #expect(inMemory.skipped.count == 1)
        #expect(
            inMemory.notes.contains {
                $0.message == "account 'u10' was already exported at \(request.accountPaths[1]):1; the first record is used"
            })
        #expect(spilled == inMemory)
    }

    /// A shard keeps only the app rules' events of other slices: spilled, its report is the same.
    @Test(arguments: [Shard(index: 1, count: 2), Shard(index: 2, count: 3)])
    func aSpillingShardReportsWhatAnInMemoryShardReports(shard: Shard?) throws {
        var request = try Self.request()
        request.shard = shard
        request.parallelism = 2
        let inMemory = try Linter.run(request)
        request.spillThreshold = 0
        request.spillLayout = PartitionedArena.Layout(partitions: 5, largestChunk: 512)
        #expect(inMemory.findings.count > 100)
        #expect(try Linter.run(request) == inMemory)
    }

    /// A pipe may hold any number of events: a run with one spills, whatever the other inputs'
    /// size, and reports what the same run from a file reports.
    @Test(.timeLimit(.minutes(1))) func aRunReadingAPipeSpills() throws {
        let log = try String(contentsOfFile: Fixtures.path("Examples/events.jsonl"), encoding: .utf8)
        let small = try Fixtures.temporaryFile(named: "small.jsonl", contents: log)
        var request = LintRequest(eventPaths: [small], rules: LinterTests.builtIn, parallelism: 2)
        #expect(Linter.spillLayout(for: request) == nil)
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("events.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        request.eventPaths = [fifo]
        #expect(Linter.spillLayout(for: request) != nil)
        request.spillThreshold = .max
        #expect(Linter.spillLayout(for: request) == nil)
        request.spillThreshold = 128 << 20

        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data(log.utf8))
            try? handle.close()
        }
        writer.start()
        let piped = try Linter.run(request)
        request.eventPaths = [small]
        let fromFile = try Linter.run(request)
        // The same report but for the log's path.
        func identities(_ report: LintReport) -> [String] {
            report.findings.map { "\($0.rule) \($0.subject) \($0.event ?? "") \($0.fingerprint) \($0.location?.line ?? 0)" }
        }
        #expect(identities(piped) == identities(fromFile))
        #expect(piped.summary == fromFile.summary && piped.notes.map(\.message) == fromFile.notes.map(\.message))
        #expect(piped.findings.count > 5)
    }

    @Test func aSpillingBuilderKeepsOnlyEachPartitionsLastChunkInMemoryAndNoneOnceReadingIsOver() throws {
        var builder = DatasetBuilder(relayDomains: RelayDomains(), skipInvalid: true, retainedTypes: nil)
        let file = try #require(SpillFile(directory: NSTemporaryDirectory()))
        builder.spill(to: file, layout: PartitionedArena.Layout(partitions: 3, largestChunk: 512))
        try builder.readAccounts(path: Fixtures.path("Examples/accounts.json"))
        try builder.readEvents(path: Fixtures.path("Examples/events.jsonl"), fileIndex: 0)
        let reading = builder.dataset.storage.partitions
        #expect(reading.count == 3)
        #expect(reading.allSatisfy { $0.spilledChunkCount >= 2 }, "\(reading.map(\.spilledChunkCount))")
        // A record may make its chunk larger than 512 bytes, but only one chunk stays.
        #expect(reading.allSatisfy { (1...4_096).contains($0.bytesInMemory) }, "\(reading.map(\.bytesInMemory))")
        // The last chunks wait for their partition's turn in the file.
        let evaluating = try builder.finish().storage.partitions
        #expect(evaluating.allSatisfy { $0.bytesInMemory == 0 }, "\(evaluating.map(\.bytesInMemory))")
    }

    @Test func spilledRecordsComeBackWhole() throws {
        let file = try #require(SpillFile(directory: NSTemporaryDirectory()))
        var arena = PackedArena(spillingTo: file, largestChunk: 4 << 10)
        let sizes = (0..<2_000).map { 10 + ($0 * 37) % 300 } + [10_000]
        let positions = sizes.enumerated().map { index, size in
            [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: size).withUnsafeBufferPointer {
                arena.append($0) { $0.count(index) }
            }
        }
        func expectWhole(_ reader: PackedReader, _ index: Int) {
            var reader = reader
            #expect(reader.count() == index)
            #expect(reader.bytes[reader.offset..<reader.offset + sizes[index]].allSatisfy { $0 == UInt8(truncatingIfNeeded: index) })
        }
        #expect(arena.spilledChunkCount > 10)
        // Read straight from the file (a duplicate account's first record while reading)…
        for index in stride(from: 0, to: sizes.count, by: 97) { expectWhole(try arena.readerReadingBack(at: positions[index]), index) }
        // …and after loading every chunk back.
        try arena.load()
        #expect(arena.spilledChunkCount == 0)
        for index in sizes.indices { expectWhole(arena.reader(at: positions[index]), index) }
    }

    @Test func chunksADiskCannotTakeStayInMemory() throws {
        let descriptor = open("/dev/full", O_RDWR)
        try #require(descriptor >= 0)
        var arena = PackedArena(spillingTo: SpillFile(descriptor: descriptor, directory: "/dev"), largestChunk: 64)
        let positions = (0..<100).map { index in [UInt8(index)].withUnsafeBufferPointer { arena.append($0) { $0.count(index) } } }
        #expect(arena.spilledChunkCount == 0)
        try arena.load()
        for (index, position) in positions.enumerated() {
            var reader = arena.reader(at: position)
            #expect(reader.count() == index)
            #expect(reader.bytes[reader.offset] == UInt8(index))
        }
    }

    @Test func theSpillFileHasNoNameAndANonexistentDirectoryTakesNone() throws {
        let directory = try Fixtures.temporaryDirectory()
        let file = try #require(SpillFile(directory: directory.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        #expect([1, 2, 3].withUnsafeBufferPointer(file.append) == 0)
        #expect(try file.read(at: 0, count: 3) == [1, 2, 3])
        #expect(throws: SpillError.self) { try file.read(at: 2, count: 5) }
        #expect(SpillFile(directory: directory.appendingPathComponent("missing").path) == nil)
    }

    @Test func withoutAUsableTemporaryDirectoryTheRunStaysInMemory() throws {
        var request = try Self.request()
        let inMemory = try Linter.run(request)
        request.spillThreshold = 0
        request.temporaryDirectory = "/nonexistent/relaylint"
        #expect(try Linter.run(request) == inMemory)
    }
}
