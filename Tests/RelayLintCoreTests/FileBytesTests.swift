import Crypto
import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The log is read in runs of whole lines; put back together, the runs are the file, and the
/// hash is the file's.
@Suite struct FileBytesTests {
    /// Lines shorter and longer than a block (one of 2.5 blocks, so that it is carried over
    /// several reads), a CRLF, and a last line without a line break.
    @Test func runsAreWholeLinesThatMakeUpTheFile() throws {
        var text = ""
        for index in 0..<40_000 { text += "{\"line\": \(index), \"padding\": \"\(String(repeating: "x", count: index % 300))\"}\n" }
        text += String(repeating: "y", count: FileBytes.blockSize * 5 / 2) + "\r\n"
        for index in 0..<1_000 { text += "short \(index)\n" }
        text += "last line without a break"
        let path = try Fixtures.temporaryFile(named: "events.jsonl", contents: text)
        var runs: [[UInt8]] = []
        let sha256 = try FileBytes.forEachRun(path: path) { runs.append(Array($0)) }
        let bytes = Array(text.utf8)
        #expect(runs.count >= 4)
        #expect(runs.dropLast().allSatisfy { $0.last == 0x0A })
        #expect(runs.last.map { String(decoding: $0, as: UTF8.self).hasSuffix("last line without a break") } == true)
        let same = Array(runs.joined()) == bytes
        #expect(same)
        #expect(sha256 == SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())
    }

    @Test func anEmptyFileHasNoRuns() throws {
        let path = try Fixtures.temporaryFile(named: "empty.jsonl", contents: "")
        var runs = 0
        let sha256 = try FileBytes.forEachRun(path: path) { _ in runs += 1 }
        #expect(runs == 0)
        #expect(sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// A directory opens but does not read: the error says so, as for any input.
    @Test func aDirectoryIsAnUnreadableInputThatSaysWhy() throws {
        let directory = try Fixtures.temporaryDirectory().path
        #expect {
            try FileBytes.forEachRun(path: directory) { _ in }
        } throws: { error in
            guard case InputError.unreadable(let path, let reason) = error else { return false }
            return path == directory && reason == "is a directory"
        }
    }

    /// A partition written by `split` keeps the other partitions' lines as empty ones: tables
    /// are sized for the events it holds, not for the whole log's lines.
    @Test func theEstimateCountsOnlyNonEmptyLines() throws {
        let event = #"{"id":"e","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"#
        let sparse = try Fixtures.temporaryFile(
            named: "sparse.jsonl", contents: String(repeating: event + "\n\n\n\n\n\n\n\n", count: 1_000))
        let dense = try Fixtures.temporaryFile(named: "dense.jsonl", contents: String(repeating: event + "\n", count: 1_000))
        #expect(FileBytes.estimatedLineCount(path: sparse) == 1_000)
        #expect(FileBytes.estimatedLineCount(path: dense) == 1_000)
    }

    /// Positions worked out in one pass (a JWKS's keys) are those worked out one at a time:
    /// columns in Unicode scalars, lines by line feeds.
    @Test func positionsInOnePassAreThoseOfOneAtATime() {
        let bytes = Array("{\"a\": \"é€\",\n  [1, 2],\r\n\n  \"x\"}".utf8)
        let offsets = [0, 3, 7, 9, 12, 16, 20, 24, bytes.count, bytes.count + 5]
        bytes.withUnsafeBufferPointer { buffer in
            let once = FileBytes.linesAndColumns(of: offsets, in: buffer)
            #expect(once.map(\.line) == offsets.map { FileBytes.lineAndColumn(of: $0, in: buffer).line })
            #expect(once.map(\.column) == offsets.map { FileBytes.lineAndColumn(of: $0, in: buffer).column })
        }
    }

    /// Lines split the simple way: each up to its line feed, less a carriage return before it,
    /// numbered from 1; empty ones left out.
    static func simpleLineRanges(_ bytes: [UInt8]) -> [(bytes: Range<Int>, number: Int)] {
        var ranges: [(bytes: Range<Int>, number: Int)] = []
        var start = 0
        var number = 1
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let end = newline > start && bytes[newline - 1] == 0x0D ? newline - 1 : newline
            if end > start { ranges.append((start..<end, number)) }
            number += 1
            start = newline + 1
        }
        return ranges
    }

    /// Runs of empty lines (`\n`, `\r\n`, mixed, longer and shorter than a word) are stepped
    /// over a word at a time, and every line after them keeps its number; a lone `\r` is no
    /// line break.
    @Test func emptyLinesAreSkippedWithoutLosingCount() {
        let pieces = ["\n", "\r\n", "\n\n\n\n\n\n\n\n\n", "\r\n\r\n\r\n\r\n\r\n", "\r", "{}", " ", "x\r"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(text.utf8)
            let split = bytes.withUnsafeBufferPointer { FileBytes.lineRanges(in: $0, firstLine: 1) }
            let simple = Self.simpleLineRanges(bytes)
            #expect(split.ranges.map(\.bytes) == simple.map(\.bytes), "\(text.debugDescription)")
            #expect(split.ranges.map(\.number) == simple.map(\.number), "\(text.debugDescription)")
            #expect(
                split.lineCount == bytes.count { $0 == 0x0A } + (bytes.last.map { $0 == 0x0A ? 0 : 1 } ?? 0), "\(text.debugDescription)")
        }
    }
}
