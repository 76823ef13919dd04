import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 19, item 2: an endless or huge input stops early at a documented cap with its file and
/// line, instead of growing until memory runs out. The caps are lowered here so that the tests
/// stay small; `InputLimits` holds the real ones.
@Suite struct InputLimitsTests {
    private static let event = #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"#

    private func diagnostics(_ body: () throws -> Void) -> [Diagnostic] {
        do {
            try body()
        } catch let error as InputError {
            return error.diagnostics
        } catch let error as DiagnosticsError {
            return error.diagnostics
        } catch {
            return [Diagnostic(.error, "unexpected \(error)", at: SourceLocation(file: ""))]
        }
        return []
    }

    private func read(_ path: String, lineLimit: Int) throws {
        var reader = EventLogReader(path: path, fileIndex: 0)
        reader.lineLimit = lineLimit
        let preparation = PreparedEvent.Preparation(relayDomains: RelayDomains(), shard: nil)
        _ = try reader.read(names: NameTable(), preparation: preparation) { _, _, _ in }
    }

    /// A line longer than the cap, between short ones and inside one block, is refused at its line.
    @Test func aLogLineLongerThanTheCapStopsAtItsLine() throws {
        let long = #"{"id":"e2","note":""# + String(repeating: "x", count: 300) + #""}"#
        let path = try Fixtures.temporaryFile(
            named: "long.jsonl", contents: [Self.event, Self.event, long, Self.event].joined(separator: "\n"))
        let found = diagnostics { try read(path, lineLimit: 200) }
        #expect(
            found.map(\.description) == ["\(path):3: error: stopped reading: a line longer than 200 bytes, the cap on one line of a log"])
        #expect(diagnostics { try read(path, lineLimit: 400) }.isEmpty)
    }

    /// A line that never ends (`/dev/zero` has no newline) is refused once it passes the cap,
    /// without reading on.
    @Test(.timeLimit(.minutes(1))) func aLineWithoutEndStopsAtTheCap() throws {
        let path = try Fixtures.temporaryFile(
            named: "endless.jsonl", contents: Self.event + "\n" + String(repeating: "z", count: FileBytes.blockSize * 3))
        let found = diagnostics { try read(path, lineLimit: 1 << 20) }
        #expect(found.map(\.description) == ["\(path):2: error: stopped reading: a line longer than 1 MiB, the cap on one line of a log"])
        let zero = diagnostics { try read("/dev/zero", lineLimit: 1 << 20) }
        #expect(zero.map(\.location.line) == [1])
    }

    /// A YAML or JSON document larger than its cap, or holding a NUL byte, is refused at the
    /// line where reading stopped.
    @Test func aDocumentLargerThanTheCapOrHoldingANULIsRefused() throws {
        let yaml = (1...20).map { "key\($0): value" }.joined(separator: "\n")
        let path = try Fixtures.temporaryFile(named: "config.yml", contents: yaml)
        let large = diagnostics { _ = try FileBytes.read(path: path, limit: 100) }
        #expect(large.map(\.description) == ["\(path):9: error: stopped reading: more than 100 bytes, the cap on a YAML or JSON document"])
        #expect(diagnostics { _ = try FileBytes.read(path: path, limit: yaml.utf8.count) }.isEmpty)

        let binary = try Fixtures.temporaryFile(named: "binary.yml", contents: "apps:\n  - bundle_id: a\u{0}b\n")
        let nul = diagnostics { _ = try FileBytes.read(path: binary) }
        #expect(
            nul.map(\.description) == [
                "\(binary):2:17: error: stopped reading: a NUL byte, which no text input holds (a binary file or a device?)"
            ])
        #expect(diagnostics { _ = try YAMLTree.load(path: "/dev/zero") }.map(\.location.line) == [1])
        // Gzip (a manifest compressed, an export on a pipe) is called what it is.
        let gzip = try Fixtures.temporaryFile(named: "manifest.yml.gz", contents: "")
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]).write(to: URL(fileURLWithPath: gzip))
        let compressed = diagnostics { _ = try FileBytes.read(path: gzip) }
        #expect(compressed.first?.description.hasPrefix("\(gzip):1: error: stopped reading: this is gzip-compressed data") == true)
    }

    /// A YAML document takes about a hundred times its size once composed, so a manifest of a
    /// few MiB of `[a,a,…]` is refused before it is parsed (64 MiB of it took 6.5 GB).
    @Test func aYAMLDocumentOverFourMiBIsRefusedBeforeItIsParsed() throws {
        let senders = Array(repeating: "a", count: (4 << 20) / 2).joined(separator: ",")
        let path = try Fixtures.temporaryFile(named: "manifest.yml", contents: "apps: [{bundle_id: com.x, relay_senders: [\(senders)]}]\n")
        let found = diagnostics { _ = try YAMLTree.load(path: path) }
        #expect(found.map(\.message) == ["stopped reading: more than 4 MiB, the cap on a YAML or JSON document"])
    }

    /// An account export or mapped log read into memory (a pipe, a device) stops at its cap.
    @Test(.timeLimit(.minutes(1))) func aStreamedInputStopsAtItsCap() throws {
        let capped = CappedRead(maxBytes: 1 << 20, kind: "an account export", refusesNUL: false)
        let found = diagnostics { _ = try MappedFile(path: "/dev/zero", capped: capped) }
        #expect(found.map(\.message) == ["stopped reading: more than 1 MiB, the cap on an account export"])
        let csv = CappedRead(maxBytes: 1 << 20, kind: "an account export", maxLineBytes: 1000, refusesNUL: false)
        let lines = try Fixtures.temporaryFile(named: "accounts.csv", contents: "a,b,\n" + String(repeating: "c", count: 2000) + ",\n")
        let long = diagnostics { _ = try csv.read(path: lines, descriptor: open(lines, O_RDONLY)) }
        #expect(
            long.map(\.description) == [
                "\(lines):2: error: stopped reading: a line longer than 1000 bytes, the cap on one line of an account export"
            ])
    }

    /// Memory for an input read whole grows by doubling but never past its cap and a block: a
    /// 2.1 GB gzip log asked for 4.3 GB, past the 4 GiB cap, and a machine without it crashed.
    @Test func anInputReadIntoMemoryGrowsNoFurtherThanItsCap() throws {
        let size = 5 << 19  // 2.5 MiB: doubling would hold 4 MiB.
        let capped = CappedRead(maxBytes: size, kind: "a log", refusesNUL: false)
        let file = try Fixtures.temporaryFile(named: "spaces.json", contents: String(repeating: " ", count: size))
        let bytes = try capped.read(path: file, descriptor: open(file, O_RDONLY))
        #expect(bytes.count == size)
        // The cap and a block, and what the allocator rounds up by.
        #expect(bytes.capacity <= size + (1 << 20) + 4096, "capacity \(bytes.capacity)")
    }

    /// Without `--skip-invalid`, a log of nothing but invalid lines stops after `invalidLimit`
    /// of them, saying why first; with it, every line is read.
    @Test func manyInvalidLinesStopTheRun() throws {
        let path = try Fixtures.temporaryFile(named: "bad.jsonl", contents: Array(repeating: "not json", count: 50).joined(separator: "\n"))
        var builder = DatasetBuilder(relayDomains: RelayDomains(), skipInvalid: false, retainedTypes: nil)
        builder.invalidLimit = 10
        let found = diagnostics { try builder.readEvents(path: path, fileIndex: 0) }
        #expect(found.count == 11)
        #expect(
            found.first?.description
                == "\(path):10:1: error: stopped reading after 10 invalid records; fix them, or pass --skip-invalid to skip them")
        #expect(found.last?.location.line == 10)
        #expect(builder.stoppedEarly)

        var skipping = DatasetBuilder(relayDomains: RelayDomains(), skipInvalid: true, retainedTypes: nil)
        skipping.invalidLimit = 10
        try skipping.readEvents(path: path, fileIndex: 0)
        #expect(skipping.invalid.count == 50 && !skipping.stoppedEarly)
    }

    /// A bad first line on a FIFO whose writer is still open is reported without waiting for
    /// the writer to finish.
    @Test(.timeLimit(.minutes(1))) func aBadFirstLineOnAnOpenPipeIsReportedAtOnce() throws {
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("events.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let done = DispatchSemaphore(value: 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data((Self.event + "\nnot json\n").utf8))
            // Held open until the reader has answered.
            done.wait()
            try? handle.close()
        }
        writer.start()
        defer { done.signal() }
        var request = LintRequest(eventPaths: [fifo], rules: LinterTests.builtIn, parallelism: 2)
        request.skipInvalid = false
        let found = diagnostics { _ = try Linter.run(request) }
        #expect(found.map(\.description) == ["\(fifo):2:1: error: invalid JSON: invalid literal, expected null"])
    }

    /// A Cloud Logging entry of `method` for `subject`, one line of a sink file.
    private static func cloudEntry(_ number: Int, subject: String = "u1", time: String = "2026-03-01T10:00:00Z") -> String {
        #"{"insertId":"e\#(number)","timestamp":"\#(time)","jsonPayload":{"#
            + #""methodName":"google.cloud.identitytoolkit.v1.AuthenticationService.SignInWithPassword","#
            + #""response":{"localId":"\#(subject)","email":"a@example.com"}}}"#
    }

    /// Writes `text` to a new FIFO from a thread that holds it open until `done` is signalled
    /// (closes it at once without one).
    private static func pipe(_ text: String, done: DispatchSemaphore? = nil) throws -> String {
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("entries.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data(text.utf8))
            done?.wait()
            try? handle.close()
        }
        writer.start()
        return fifo
    }

    /// The same for a log a mapping reads: Cloud Logging entries on a pipe are read a run of
    /// lines at a time, not once the writer has finished.
    /// Named with `--events-format` too: the pipe was then read whole before it was mapped.
    @Test(.timeLimit(.minutes(1)), arguments: [[], ["google-cloud-logging"]])
    func aBadFirstMappedRecordOnAnOpenPipeIsReportedAtOnce(formats: [String]) throws {
        let done = DispatchSemaphore(value: 0)
        defer { done.signal() }
        let bad = Self.cloudEntry(2, time: "yesterday")
        let fifo = try Self.pipe(Self.cloudEntry(1) + "\n" + bad + "\n", done: done)
        var request = LintRequest(eventPaths: [fifo], rules: LinterTests.builtIn, parallelism: 2)
        request.mappings = try MappingSet.load(userPaths: []).mappings
        request.eventFormats = formats
        request.skipInvalid = false
        let found = diagnostics { _ = try Linter.run(request) }
        #expect(found.count == 1)
        #expect(found.first?.location == SourceLocation(file: fifo, line: 2))
        #expect(found.first?.message.hasPrefix("field 'time' is not an RFC 3339 timestamp") == true)
    }

    /// Read from a pipe in runs of lines, a mapped log gives the report a file gives: its
    /// records counted and skipped alike, its hash, and its bad record at its own line.
    @Test func aMappedLogOnAPipeReadsAsTheSameFile() throws {
        var lines = (1...40_000).map { Self.cloudEntry($0, subject: "u\($0 % 977)") }
        lines[33_333] = "not json"
        lines.insert("", at: 20_000)
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count > 2 * FileBytes.blockSize)
        let file = try Fixtures.temporaryFile(named: "entries.jsonl", contents: text)
        let fifo = try Self.pipe(text)
        func report(_ path: String) throws -> LintReport {
            var request = LintRequest(eventPaths: [path], rules: LinterTests.builtIn, parallelism: 2)
            request.mappings = try MappingSet.load(userPaths: []).mappings
            request.skipInvalid = true
            return try Linter.run(request)
        }
        let fromFile = try report(file)
        let fromPipe = try report(fifo)
        #expect(fromPipe.inputs.first?.records == 40_000)
        #expect(fromPipe.inputs.first?.sha256 == fromFile.inputs.first?.sha256)
        #expect(fromPipe.inputs.first?.skippedRecords == fromFile.inputs.first?.skippedRecords)
        #expect(fromPipe.inputs.first?.eventsMade == fromFile.inputs.first?.eventsMade)
        #expect(fromPipe.skipped.map(\.location.line) == [33_335])
        #expect(fromFile.skipped.map(\.location.line) == [33_335])
        #expect(fromPipe.findings.map(\.fingerprint) == fromFile.findings.map(\.fingerprint))
    }

    /// A writer that pauses after its first lines does not end the log there: the pipe was read
    /// as ended as soon as nothing more was ready after the bytes read to recognise its format,
    /// and the rest of the log was lost without a word.
    @Test(arguments: [false, true])
    func aWriterThatPausesLosesNoLines(mapped: Bool) throws {
        let lines = (1...40).map { mapped ? Self.cloudEntry($0, subject: "u\($0)") : Self.nativeEvent($0) }
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("paused.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data((lines[..<5].joined(separator: "\n") + "\n").utf8))
            Thread.sleep(forTimeInterval: 0.5)
            handle.write(Data((lines[5...].joined(separator: "\n") + "\n").utf8))
            try? handle.close()
        }
        writer.start()
        var request = LintRequest(eventPaths: [fifo], rules: LinterTests.builtIn, parallelism: 2)
        request.mappings = try MappingSet.load(userPaths: []).mappings
        let report = try Linter.run(request)
        #expect(report.inputs.first?.records == 40)
    }

    /// A mapped log in a regular file stops at a line past the cap, as the same log from a pipe
    /// or a gzip file does; the file was mapped whole and read such a line.
    @Test func aMappedFileStopsAtALineLongerThanTheCap() throws {
        let long = #"{"insertId":"x","blob":""# + String(repeating: "a", count: InputLimits.lineBytes) + #""}"#
        let path = try Fixtures.temporaryFile(
            named: "long.jsonl", contents: Self.cloudEntry(1) + "\n" + long + "\n" + Self.cloudEntry(3) + "\n")
        var request = LintRequest(eventPaths: [path], rules: LinterTests.builtIn, parallelism: 2)
        request.mappings = try MappingSet.load(userPaths: []).mappings
        request.skipInvalid = true
        let found = diagnostics { _ = try Linter.run(request) }
        #expect(found.map(\.description) == ["\(path):2: error: stopped reading: a line longer than 16 MiB, the cap on one line of a log"])
    }

    /// A record read whole (Apple's decoded claims, a relaylint event with a nested value) holds
    /// at most `InputLimits.recordValues` values: past them it is an invalid record, counted with
    /// `--skip-invalid`, where 16 MiB of `[0,0,…]` took 1.3 GB to build.
    @Test func aRecordOfTooManyValuesIsAnInvalidRecord() throws {
        let zeros = Array(repeating: "0", count: InputLimits.recordValues + 1).joined(separator: ",")
        let claims = #"{"iss":"https://appleid.apple.com","jti":"j2","events":{"type":"consent-revoked","sub":"001","event_time":1},"x":["#
        let apple = try Fixtures.temporaryFile(
            named: "claims.jsonl",
            contents: #"{"iss":"https://appleid.apple.com","jti":"j1","events":{"type":"consent-revoked","sub":"001","event_time":1}}"#
                + "\n" + claims + zeros + "]}\n")
        let native = try Fixtures.temporaryFile(
            named: "events.jsonl", contents: Self.nativeEvent(1) + "\n" + Self.nativeEvent(2).dropLast() + #","x":["# + zeros + "]}\n")
        for path in [apple, native] {
            var request = LintRequest(eventPaths: [path], rules: LinterTests.builtIn, parallelism: 2)
            request.mappings = try MappingSet.load(userPaths: []).mappings
            request.skipInvalid = true
            let report = try Linter.run(request)
            #expect(report.inputs.first?.records == 2 && report.inputs.first?.invalid == 1, "\(path)")
            let value = try #require(report.skipped.first)
            #expect(value.location.line == 2 && value.message.contains("more than \(InputLimits.recordValues) values"), "\(value)")
        }
        // A document is not a record: a list of that many values is read.
        let list = try JSONParser.parseDocument("[" + zeros + "]")
        #expect(list.arrayValue?.count == InputLimits.recordValues + 1)
    }

    private static func nativeEvent(_ number: Int) -> String {
        #"{"id":"e\#(number)","time":"2026-03-01T10:00:00Z","subject":"u\#(number)","type":"signin"}"#
    }
}
