import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A mapped log in JSON Lines inside a gzip file is read a run of lines at a time, as from a
/// pipe: decompressed whole, a 5 MB file of one line and 5 GiB of newlines took 4.2 GB.
@Suite struct GzipMappedLogTests {
    /// A Cloud Logging entry of a sign-in by `subject`, one line of a sink file.
    private static func cloudEntry(_ number: Int, subject: String) -> String {
        #"{"insertId":"e\#(number)","timestamp":"2026-03-01T10:00:00Z","jsonPayload":{"#
            + #""methodName":"google.cloud.identitytoolkit.v1.AuthenticationService.SignInWithPassword","#
            + #""response":{"localId":"\#(subject)","email":"a@example.com"}}}"#
    }

    private static func report(_ path: String) throws -> LintReport {
        var request = LintRequest(eventPaths: [path], rules: LinterTests.builtIn, parallelism: 2)
        request.mappings = try MappingSet.load(userPaths: []).mappings
        request.skipInvalid = true
        return try Linter.run(request)
    }

    /// Runs of empty lines (`\n` and `\r\n`, shorter and longer than the eight bytes skipped at
    /// once) leave every record at its line, in a plain file and in a gzip file read a run at a
    /// time: the bad records after them are listed at the lines they are on.
    @Test func runsOfEmptyLinesLeaveEveryRecordAtItsLine() throws {
        var text = Self.cloudEntry(1, subject: "u1") + "\n"
        var line = 2
        var expected: [Int] = []
        for (index, run) in ["\n", "\n\n\n\n\n\n\n\n\n", "\r\n\r\n\r\n\r\n\r\n", "\n\r\n\n\r\n", String(repeating: "\n", count: 70)]
            .enumerated()
        {
            text += run
            line += run.filter { $0 == "\n" || $0 == "\r\n" }.count
            text += "\(index)\n"
            expected.append(line)
            line += 1
        }
        let plain = try Fixtures.temporaryFile(named: "blank-runs.jsonl", contents: text)
        for path in [plain, try Fixtures.gzipped(plain)] {
            let report = try Self.report(path)
            #expect(report.skipped.map(\.location.line) == expected, "\(path)")
            #expect(report.inputs.first?.records == expected.count + 1)
        }
    }

    /// The report of the plain file: records, skipped records by reason and bad ones at their
    /// line, events, findings. The hash is the compressed file's, as for every gzip input.
    @Test func aGzipMappedLogReadsAsThePlainFile() throws {
        var lines = (1...40_000).map { Self.cloudEntry($0, subject: "u\($0 % 977)") }
        lines[33_333] = "not json"
        lines[12_345] = #"{"insertId":"x","timestamp":"2026-03-01T10:00:00Z","jsonPayload":{"methodName":"other"}}"#
        lines.insert("", at: 20_000)
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count > 2 * FileBytes.blockSize)
        let plain = try Fixtures.temporaryFile(named: "entries.jsonl", contents: text)
        let compressed = try Fixtures.gzipped(plain)
        let fromPlain = try Self.report(plain)
        let fromGzip = try Self.report(compressed)
        #expect(fromGzip.inputs.first?.format == "google-cloud-logging")
        #expect(fromGzip.inputs.first?.records == 40_000)
        #expect(fromGzip.inputs.first?.records == fromPlain.inputs.first?.records)
        #expect(fromGzip.inputs.first?.skippedRecords == fromPlain.inputs.first?.skippedRecords)
        #expect(fromGzip.inputs.first?.eventsMade == fromPlain.inputs.first?.eventsMade)
        #expect(fromGzip.inputs.first?.invalid == fromPlain.inputs.first?.invalid)
        #expect(
            fromGzip.skipped.map(\.description)
                == fromPlain.skipped.map { $0.description.replacingOccurrences(of: plain, with: compressed) })
        #expect(fromGzip.summary.events == fromPlain.summary.events)
        #expect(fromGzip.findings.map(\.fingerprint) == fromPlain.findings.map(\.fingerprint))
        #expect(fromGzip.inputs.first?.sha256 == FileBytes.sha256(of: try Data(contentsOf: URL(fileURLWithPath: compressed))))
    }

    /// A gcloud array in a gzip file is read a run of whole elements at a time (`ArrayRunScan`),
    /// over several runs, with the mapped file's records, events, findings and errors at the same
    /// line and column: decompressed whole, a 2 MB file of 2 GB of spaces after the array took
    /// 2.1 GB.
    @Test(arguments: [
        ("", ""), (",\n  {\"x\": ]\n]\n", ":42001:9: error: stopped reading: invalid JSON: unexpected character ']', expected a value"),
        (",", "error: stopped reading: invalid JSON: unexpected end of input, expected a value"),
        ("]\n\n   }", ":42002:4: error: stopped reading: invalid JSON: unexpected text after the array"),
    ])
    func aGzipArrayReadsAsThePlainFile(tail: String, error: String) throws {
        // One entry over two lines (lines 1 to 42,000), so that records and errors are placed on
        // lines of their own.
        let entries = (1...21_000).map {
            Self.cloudEntry($0, subject: "u\($0 % 977)").replacingOccurrences(of: #","jsonPayload""#, with: ",\n\"jsonPayload\"")
        }
        let text = "[" + entries.joined(separator: ",\n") + (tail.isEmpty ? "]\n" : tail)
        #expect(text.utf8.count > FileBytes.blockSize)
        let plain = try Fixtures.temporaryFile(named: "entries.json", contents: text)
        let compressed = try Fixtures.gzipped(plain)
        guard error.isEmpty else {
            var found: [String] = []
            for path in [plain, compressed] {
                let thrown = #expect(throws: DiagnosticsError.self) { try Self.report(path) }
                let description = thrown?.diagnostics.first?.description ?? ""
                #expect(description.hasPrefix(path) && description.contains(error), "\(description)")
                found.append(String(description.dropFirst(path.count)))
            }
            #expect(found[0] == found[1])
            return
        }
        let fromPlain = try Self.report(plain)
        let fromGzip = try Self.report(compressed)
        #expect(fromGzip.inputs.first?.records == 21_000)
        #expect(fromGzip.inputs.first?.records == fromPlain.inputs.first?.records)
        #expect(fromGzip.inputs.first?.eventsMade == fromPlain.inputs.first?.eventsMade)
        #expect(fromGzip.findings.map(\.fingerprint) == fromPlain.findings.map(\.fingerprint))
        #expect(fromGzip.findings.map(\.location?.line) == fromPlain.findings.map(\.location?.line))
        #expect(fromGzip.inputs.first?.eventsMade == 21_000)
    }

    /// Blank space between two elements of a streamed array holds nothing: more of it than the
    /// cap on one element is read past, as from the mapped file, where it was refused as an
    /// element longer than the cap, at a line that depended on the sizes of the reads. A stream
    /// that ends in it ends inside the array, told at its end.
    @Test(arguments: ["]\n", ""]) func blankSpaceBetweenElementsPastTheCapReadsAsThePlainFile(end: String) throws {
        let gap = String(repeating: "\n", count: InputLimits.lineBytes / 2) + String(repeating: " ", count: InputLimits.lineBytes / 2 + 10)
        // Ended, the array closes after the blank space; cut, the stream ends in it, past a `,`.
        let text =
            "[" + Self.cloudEntry(1, subject: "u1") + "," + gap + Self.cloudEntry(2, subject: "u2") + (end.isEmpty ? "," : "") + gap + end
        let plain = try Fixtures.temporaryFile(named: "gap.json", contents: text)
        let compressed = try Fixtures.gzipped(plain)
        guard !end.isEmpty else {
            let place =
                ":\(InputLimits.lineBytes + 1):\(InputLimits.lineBytes / 2 + 11): error: stopped reading: invalid JSON: unexpected end of input"
            for path in [plain, compressed] {
                let thrown = #expect(throws: DiagnosticsError.self) { try Self.report(path) }
                #expect(thrown?.diagnostics.first?.description.hasPrefix(path + place) == true, "\(thrown?.diagnostics ?? [])")
            }
            return
        }
        let fromPlain = try Self.report(plain)
        let fromGzip = try Self.report(compressed)
        #expect(fromPlain.inputs.first?.records == 2)
        #expect(fromGzip.inputs.first?.records == 2)
        #expect(fromGzip.inputs.first?.eventsMade == fromPlain.inputs.first?.eventsMade)
        #expect(fromGzip.findings.map(\.location?.line) == fromPlain.findings.map(\.location?.line))
    }

    /// Columns count Unicode scalars: an error on the line a run starts in is placed as in the
    /// file also after letters of several bytes (runs once advanced the column by bytes).
    @Test func anErrorAfterARunOfNonASCIITextIsPlacedAsInTheFile() throws {
        let entry = Self.cloudEntry(1, subject: "Zoë-Ünlü-Ærø-" + String(repeating: "é", count: 100))
        let count = FileBytes.blockSize / entry.utf8.count + 10
        let text = "[" + Array(repeating: entry, count: count).joined(separator: ",") + #",{"x": ]]"# + "\n"
        let plain = try Fixtures.temporaryFile(named: "one-line.json", contents: text)
        let compressed = try Fixtures.gzipped(plain)
        var found: [String] = []
        for path in [plain, compressed] {
            let thrown = #expect(throws: DiagnosticsError.self) { try Self.report(path) }
            found.append(String((thrown?.diagnostics.first?.description ?? "").dropFirst(path.count)))
        }
        #expect(
            found[0]
                == ":1:\(text.unicodeScalars.count - 2): error: stopped reading: invalid JSON: unexpected character ']', expected a value")
        #expect(found[1] == found[0])
    }

    /// Read a run of elements at a time, a gzip array has the pipe's cap on an element, as JSON
    /// Lines have it on a line: an element past it stops the run where the element starts.
    @Test(arguments: [(" ", "]", "2:2"), ("", ",\n{}]", "2:1"), ("  ", String(repeating: "y", count: 4 << 20), "2:3")])
    func anElementLongerThanTheCapInAGzipArrayStopsTheRun(before: String, after: String, place: String) throws {
        let long = #"{"insertId":"x","padding":""# + String(repeating: "x", count: InputLimits.lineBytes) + #""}"#
        let text = "[" + Self.cloudEntry(1, subject: "u1") + ",\n" + before + long + after + "\n"
        let compressed = try Fixtures.gzipped(try Fixtures.temporaryFile(named: "long.json", contents: text))
        let error = #expect(throws: DiagnosticsError.self) { try Self.report(compressed) }
        #expect(
            error?.diagnostics.map(\.description) == [
                "\(compressed):\(place): error: stopped reading: an element of the JSON array is longer than 16 MiB "
                    + "(from a pipe or a gzip file, relaylint holds one element at a time)"
            ])
    }

    /// Read a run of lines at a time, a gzip log has the pipe's cap on a line: a line past it
    /// stops the run at its line (read whole, it was decompressed into memory and parsed).
    @Test func aLineLongerThanTheCapInAGzipMappedLogStopsAtItsLine() throws {
        let long = String(repeating: "x", count: InputLimits.lineBytes + 1)
        let text = [Self.cloudEntry(1, subject: "u1"), long, Self.cloudEntry(2, subject: "u2")].joined(separator: "\n") + "\n"
        let compressed = try Fixtures.gzipped(try Fixtures.temporaryFile(named: "long.jsonl", contents: text))
        let error = #expect(throws: DiagnosticsError.self) { try Self.report(compressed) }
        #expect(
            error?.diagnostics.map(\.description) == [
                "\(compressed):2: error: stopped reading: a line longer than 16 MiB, the cap on one line of a log"
            ])
    }
}
