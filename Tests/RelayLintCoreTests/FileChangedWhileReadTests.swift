import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A log changed while it is read is an error that says so, not a shorter log: the report would
/// hash and count a file that is no longer there, and the line the change cut would be told as
/// invalid JSON at a line that was fine.
@Suite struct FileChangedWhileReadTests {
    /// A log of several blocks (`FileBytes.blockSize`), cut short after its first block is read.
    private func cutLog(named name: String) throws -> String {
        let line = #"{"id":"e0000000","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin","provider":"google.com"}"#
        let count = 3 * FileBytes.blockSize / line.utf8.count
        let lines = (0..<count).map { line.replacingOccurrences(of: "e0000000", with: String(format: "e%07d", $0)) }
        return try Fixtures.temporaryFile(named: name, contents: lines.joined(separator: "\n") + "\n")
    }

    /// Reads the log at `path`, changing it with `change` once its first run is read.
    private func read(_ path: String, changedAfterItsFirstRunBy change: () -> Void) throws {
        var runs = 0
        _ = try FileBytes.forEachRun(path: path) { _ in
            runs += 1
            if runs == 1 { change() }
        }
    }

    @Test func aLogCutShortWhileItIsReadIsAnErrorThatSaysSo() throws {
        let path = try cutLog(named: "cut.jsonl")
        #expect(throws: InputError.changedWhileRead(path: path, how: "it was cut short under relaylint")) {
            // Cut in the middle of a line, as a rotation at any moment does.
            try read(path) { #expect(truncate(path, off_t(FileBytes.blockSize + 50)) == 0) }
        }
    }

    @Test func aLogRewrittenWhileItIsReadIsAnError() throws {
        let path = try cutLog(named: "rewritten.jsonl")
        #expect(throws: InputError.changedWhileRead(path: path, how: "")) {
            try read(path) {
                guard let handle = FileHandle(forWritingAtPath: path) else { return }
                handle.seekToEndOfFile()
                handle.write(Data("{}\n".utf8))
                try? handle.close()
            }
        }
    }

    /// Through a whole run, with `--skip-invalid` too: the one error is the change, not the line
    /// the cut left half written.
    @Test(arguments: [false, true]) func aRunOverALogCutShortStopsWithTheChangeOnly(skipInvalid: Bool) throws {
        let path = try cutLog(named: "run.jsonl")
        var request = LintRequest(
            eventPaths: [path], rules: try RuleSet.load(paths: [Fixtures.rules]), skipInvalid: skipInvalid, parallelism: 2)
        let cut = Cut(path: path)
        request.progress = { _ in cut.once() }
        let error = #expect(throws: DiagnosticsError.self) { try Linter.run(request) }
        #expect(
            error?.diagnostics.map(\.description) == [
                "\(path): error: cannot read file: the file changed while it was read: it was cut short under relaylint "
                    + "(to check a file still being written, check a copy of it)"
            ])
    }

    /// Cuts the file to a few bytes past its first block, the first time it is called.
    private final class Cut: @unchecked Sendable {
        let path: String
        private var done = false
        init(path: String) { self.path = path }
        func once() {
            guard !done else { return }
            done = true
            truncate(path, off_t(FileBytes.blockSize + 50))
        }
    }
}
