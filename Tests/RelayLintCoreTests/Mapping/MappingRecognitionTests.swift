import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A file's format is recognised by a mapping's `recognize`, which may read the mapping's named
/// values as everything else in it does.
@Suite struct MappingRecognitionTests {
    private static let mapping = """
        mapping: audit-trail
        recognize: {all: [{path: $kind, equals: audit}, {path: $entry.uid, is: string}]}
        let:
          kind: {lowercase: {path: Kind}}
          entry: {first: [{path: body}, {path: payload}]}
        events:
          - type: signin
            id: {path: $entry.id}
            time: {path: $entry.at}
            subject: {path: $entry.uid}
        """

    /// Read without the named values (as before paths were bound), `$kind` was no value and the
    /// file was refused as "none of the formats relaylint reads".
    @Test func aRecognizeReadingNamedValuesRecognisesItsFile() throws {
        let mapping = try MappingLoader.load(text: Self.mapping, path: "audit.yml", sha256: "").get()
        let directory = try Fixtures.temporaryDirectory()
        let log = directory.appendingPathComponent("audit.jsonl").path
        try #"{"Kind":"AUDIT","payload":{"uid":"u1","id":"e1","at":"2025-01-01T00:00:00Z"}}"#.write(
            toFile: log, atomically: true, encoding: .utf8)
        guard case .mapped(let recognised) = try EventLogFormat.recognize(path: log, mappings: [mapping]).format else {
            Issue.record("the file was not recognised as the mapping's")
            return
        }
        #expect(recognised.id == "audit-trail")
        let other = directory.appendingPathComponent("other.jsonl").path
        try #"{"Kind":"AUDIT","payload":{"uid":7}}"#.write(toFile: other, atomically: true, encoding: .utf8)
        #expect(throws: InputError.self) { try EventLogFormat.recognize(path: other, mappings: [mapping]) }
    }

    /// A record that is not an object (`1`, `null`, `"text"`, `[]`) in a Cloud Logging file is no
    /// log entry: invalid at its line, where it was counted as "not an account change". An object
    /// without a method stays skipped as such: a sink holds other services' entries.
    @Test func aRecordThatIsNotAnObjectIsInvalid() throws {
        let first = try String(contentsOfFile: Fixtures.path("Examples/real-logs/identity-platform.jsonl"), encoding: .utf8)
            .split(separator: "\n")[0]
        let log = try Fixtures.temporaryFile(
            named: "entries.jsonl",
            contents: ([String(first), "1", "null", #""text""#, "[]", #"{"insertId":"x"}"#]).joined(separator: "\n") + "\n")
        var request = LintRequest(eventPaths: [log], rules: try RuleSet.load(paths: [Fixtures.rules]), skipInvalid: true)
        request.mappings = try MappingSet.load(userPaths: []).mappings
        let report = try Linter.run(request)
        #expect(report.skipped.map(\.location.line) == [2, 3, 4, 5])
        #expect(
            report.skipped.first?.message == "expected a JSON object, a record of this log, found a number (mapping 'google-cloud-logging')"
        )
        let input = try #require(report.inputs.first { $0.path == log })
        #expect(input.records == 6 && input.invalid == 4)
    }

    /// Records that are not objects at the start of a log (`1`, `null` in an array or on the first
    /// lines) say nothing of its format either: the first object does, and each of them is an
    /// invalid record of its own. Told by the first element, a `gcloud` array was one invalid
    /// record, its entries lost.
    @Test(arguments: [true, false])
    func recordsThatAreNotObjectsDoNotDecideTheFormat(asArray: Bool) throws {
        let entry = try String(contentsOfFile: Fixtures.path("Examples/real-logs/identity-platform.jsonl"), encoding: .utf8)
            .split(separator: "\n")[0]
        let records = ["1", #""x""#, "null", String(entry)]
        let log = try Fixtures.temporaryFile(
            named: asArray ? "entries.json" : "entries.jsonl",
            contents: asArray ? "[\n" + records.joined(separator: ",\n") + "\n]\n" : records.joined(separator: "\n") + "\n")
        var request = LintRequest(eventPaths: [log], rules: try RuleSet.load(paths: [Fixtures.rules]), skipInvalid: true)
        request.mappings = try MappingSet.load(userPaths: []).mappings
        let report = try Linter.run(request)
        let input = try #require(report.inputs.first { $0.path == log })
        #expect(input.format == "google-cloud-logging")
        #expect(input.records == 4 && input.invalid == 3 && input.eventsMade == 1)
        #expect(report.skipped.map(\.location.line) == (asArray ? [2, 3, 4] : [1, 2, 3]))
    }

    /// A stray first line that reads like YAML (`WARNING: …` that gcloud printed on standard
    /// error, captured with `2>&1`) does not make a log YAML when JSON records follow it.
    @Test func aWarningLineBeforeTheEntriesDoesNotMakeTheLogYAML() throws {
        let cloud = try String(contentsOfFile: Fixtures.path("Examples/real-logs/identity-platform.jsonl"), encoding: .utf8)
        let log = try Fixtures.temporaryFile(named: "captured.jsonl", contents: "WARNING: Reading log entries of the last day\n" + cloud)
        let mappings = try MappingSet.load(userPaths: []).mappings
        guard case .mapped = try EventLogFormat.recognize(path: log, mappings: mappings).format else {
            Issue.record("the file was not recognised as Cloud Logging entries")
            return
        }
        let yaml = try Fixtures.temporaryFile(named: "notes.yml", contents: "name: nightly export\ntables: 3\n")
        #expect(throws: InputError.self) { try EventLogFormat.recognize(path: yaml, mappings: mappings) }
    }

    /// A first line that is not JSON says nothing of the format: the first line that is JSON does.
    /// Read as relaylint events, a Cloud Logging file after one bad line was 78 invalid records,
    /// and with --skip-invalid a clean run that exited 0.
    @Test func aBadFirstLineDoesNotDecideTheFormat() throws {
        let cloud = try String(contentsOfFile: Fixtures.path("Examples/real-logs/identity-platform.jsonl"), encoding: .utf8)
        let log = try Fixtures.temporaryFile(named: "cut.jsonl", contents: #"{"insertId":"a1","jsonPay"# + "\n\n" + cloud)
        let mappings = try MappingSet.load(userPaths: []).mappings
        guard case .mapped(let recognised) = try EventLogFormat.recognize(path: log, mappings: mappings).format else {
            Issue.record("the file was not recognised as Cloud Logging entries")
            return
        }
        #expect(recognised.id == "google-cloud-logging")
        var request = LintRequest(eventPaths: [log], accountPaths: [], manifestPath: nil, rules: try RuleSet.load(paths: [Fixtures.rules]))
        request.mappings = mappings
        request.skipInvalid = true
        let report = try Linter.run(request)
        #expect(report.inputs.first?.invalid == 1)
        #expect(report.inputs.first?.eventsMade == 74)
        // Nothing but broken records: read as relaylint events, whose reader reports each.
        let broken = try Fixtures.temporaryFile(named: "broken.jsonl", contents: "{garbage\n{\"more\": garbage\n")
        guard case .native = try EventLogFormat.recognize(path: broken, mappings: mappings).format else {
            Issue.record("a file of broken records was not left to relaylint's own reader")
            return
        }
        // Nothing but lines that start as no record does: text, not a log; a JSON number on one
        // of its lines does not make it one.
        for text in ["garbage\nmore garbage\n", "Exporting users\nProcessed:\n42\nDone\n"] {
            let garbage = try Fixtures.temporaryFile(named: "garbage.jsonl", contents: text)
            #expect(throws: InputError.self) { try EventLogFormat.recognize(path: garbage, mappings: mappings) }
        }
        // A first line cut from a record, then records longer than the MiB recognition reads:
        // a log, whose reader reports the cut line.
        let event = #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin","pad":""#
        let long = try Fixtures.temporaryFile(
            named: "long.jsonl", contents: #"type":"signin"}"# + "\n" + event + String(repeating: "x", count: 1_200_000) + "\"}\n")
        guard case .native = try EventLogFormat.recognize(path: long, mappings: mappings).format else {
            Issue.record("a log of long records after a cut line was not left to relaylint's reader")
            return
        }
        // A run of NUL bytes where a crash left a log's tail unwritten is no binary file.
        let holed = try Fixtures.temporaryFile(
            named: "holed.jsonl", contents: event + "\"}\n" + String(repeating: "\u{0}", count: 40) + "\n" + event + "\"}\n")
        #expect(throws: Never.self) { try EventLogFormat.recognize(path: holed, mappings: mappings) }
    }

    /// A first record with a required field missing (an event without `id`, an entry without
    /// `insertId`) is an invalid record of the log the records after it are of: reported at its
    /// line, and with --skip-invalid counted while the rest is read. The whole log was refused as
    /// "none of the formats relaylint reads", even with --skip-invalid.
    @Test(arguments: ["events.jsonl", "entries.jsonl", "entries.json"])
    func aFirstRecordWithAFieldMissingIsAnInvalidRecordOfItsLog(name: String) throws {
        let lines: [String]
        if name == "events.jsonl" {
            lines = [
                #"{"time":"2026-01-01T10:00:00Z","subject":"u1","type":"signin"}"#,
                #"{"id":"a","time":"2026-01-01T10:00:00Z","subject":"u1","type":"account.created","provider":"apple.com","email":"a@privaterelay.appleid.com"}"#,
                #"{"id":"l","time":"2026-01-02T10:00:00Z","subject":"u1","type":"identity.linked","kind":"email","value":"j@example.com"}"#,
            ]
        } else {
            let entries = try String(contentsOfFile: Fixtures.path("Examples/real-logs/identity-platform.jsonl"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            lines = [entries[0].replacingOccurrences(of: #""insertId":"#, with: #""insert_id":"#)] + entries.dropFirst()
        }
        let contents = name.hasSuffix(".json") ? "[" + lines.joined(separator: ",\n") + "]\n" : lines.joined(separator: "\n") + "\n"
        let log = try Fixtures.temporaryFile(named: name, contents: contents)
        var request = LintRequest(eventPaths: [log], rules: try RuleSet.load(paths: [Fixtures.rules]))
        request.mappings = try MappingSet.load(userPaths: []).mappings
        #expect {
            try Linter.run(request)
        } throws: { error in
            let diagnostics = (error as? DiagnosticsError)?.diagnostics ?? []
            return diagnostics.count == 1 && diagnostics[0].location.line == 1
                && diagnostics[0].message.hasPrefix("missing required field 'id'")
        }
        request.skipInvalid = true
        let report = try Linter.run(request)
        let input = try #require(report.inputs.first)
        #expect(input.invalid == 1 && input.records == lines.count)
        #expect(report.summary.events > 0)
    }

    /// An array of relaylint events whose first element lacks a field is told as an array of
    /// events, not by that element's keys; a key of megabytes is shortened in the refusal.
    @Test func refusalsSayWhatTheLogIsInAFewWords() throws {
        let mappings = try MappingSet.load(userPaths: []).mappings
        let array = try Fixtures.temporaryFile(
            named: "events.json",
            contents: #"[{"time":"2026-01-01T10:00:00Z","subject":"u1","type":"signin"},"#
                + #"{"id":"a","time":"2026-01-01T10:00:00Z","subject":"u1","type":"signin"}]"#)
        #expect {
            try EventLogFormat.recognize(path: array, mappings: mappings)
        } throws: { error in
            (error as? InputError)?.diagnostics.first?.message.hasPrefix("this is a JSON array of relaylint events") == true
        }
        let longKey = try Fixtures.temporaryFile(named: "key.jsonl", contents: "{\"" + String(repeating: "k", count: 100_000) + "\": 0}\n")
        #expect {
            try EventLogFormat.recognize(path: longKey, mappings: mappings)
        } throws: { error in
            let message = (error as? InputError)?.diagnostics.first?.message ?? ""
            return message.contains("'" + String(repeating: "k", count: 64) + "…'") && message.count < 1_000
        }
    }

    /// From a pipe, recognition stops at the first whole record so a writer still writing is
    /// not waited for; a first record of no format makes it read on (as much as a file's
    /// prefix) and decide by the records after it.
    @Test func aPipeWhoseFirstRecordIsInvalidIsToldByTheRecordsAfterIt() throws {
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("events.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that reads nothing keeps the pipe open, so that the writer is never killed by
        // SIGPIPE (the whole test run with it) should recognition stop reading early.
        let keeper = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(keeper) }
        let written = DispatchSemaphore(value: 0)
        let writer = Thread {
            defer { written.signal() }
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data(#"{"time":"2026-01-01T10:00:00Z","subject":"u1","type":"signin"}"#.utf8 + [0x0A]))
            // The reader has the first record whole by now, and must read on for the rest (on a
            // machine so slow that it has not, the test passes without saying anything).
            Thread.sleep(forTimeInterval: 1)
            handle.write(
                Data(#"{"id":"s","time":"2026-01-01T11:00:00Z","subject":"u1","type":"signin","provider":"apple.com"}"#.utf8 + [0x0A]))
            try? handle.close()
        }
        writer.start()
        defer { written.wait() }
        let recognised = try EventLogFormat.recognize(path: fifo, mappings: try MappingSet.load(userPaths: []).mappings)
        guard case .native = recognised.format else {
            Issue.record("the pipe was not read as relaylint events")
            return
        }
        #expect(recognised.opened?.prefix.count ?? 0 > 100)
    }

    /// A sink's folder packed with `tar` (and gzip, taken off as for any .gz) is refused as an
    /// archive: its headers ran into each file's first line, a record lost per file.
    @Test(arguments: [false, true]) func aTarArchiveOfLogsIsRefusedAsOne(gzipped: Bool) throws {
        let event = #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"# + "\n"
        var header = [UInt8](repeating: 0, count: 512)
        header.replaceSubrange(0..<14, with: Array("sink/h00.jsonl".utf8))
        header.replaceSubrange(257..<265, with: Array("ustar\u{0}00".utf8))
        let sum = header.enumerated().reduce(0) { $0 + ((148..<156).contains($1.offset) ? 0x20 : Int($1.element)) }
        header.replaceSubrange(148..<156, with: Array(String(format: "%06o\u{0} ", sum).utf8))
        let body = Array(event.utf8) + [UInt8](repeating: 0, count: 512 - event.utf8.count)
        let folder = try Fixtures.temporaryDirectory()
        var path = folder.appendingPathComponent("sink.tar").path
        try Data(header + body + [UInt8](repeating: 0, count: 1024)).write(to: URL(fileURLWithPath: path))
        if gzipped { path = try Fixtures.gzipped(path) }
        let error = #expect(throws: InputError.self) { try EventLogFormat.recognize(path: path, mappings: []) }
        #expect(
            error?.diagnostics.map(\.description) == [
                "\(path):1: error: this is a tar archive, not a log: extract it (tar xf FILE) and pass the folder it holds with --events"
            ])
    }

    /// Other archives and compressions are refused as what they are too, and a named format
    /// (`--events-format`) does not read an archive's headers as lines.
    @Test(
        arguments: [
            ([0x50, 0x4B, 0x03, 0x04, 0x0A, 0x00], "this is a zip archive"), (Array("070701000".utf8), "this is a cpio archive"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00], "this is xz-compressed data"),
            (Array("BZh91AY&SY".utf8) + [0x00], "this is bzip2-compressed data"),
        ] as [([UInt8], String)])
    func otherArchivesAreRefusedAsWhatTheyAre(start: [UInt8], refusal: String) throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("logs.bin").path
        try Data(start + Array("{\"id\":\"e1\"}\n".utf8)).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: InputError.self) { try EventLogFormat.recognize(path: path, mappings: []) }
        #expect(error?.description.hasPrefix("\(path):1: error: \(refusal)") == true, "\(error?.description ?? "")")
        let named = #expect(throws: InputError.self) { try EventLogFormat.refuseArchive(path: path, opened: nil) }
        #expect(named?.description.hasPrefix("\(path):1: error: \(refusal)") == true)
    }

    /// An old (v7) tar header says no "ustar": told by its checksum.
    @Test func anOldTarHeaderIsToldByItsChecksum() throws {
        var header = [UInt8](repeating: 0, count: 512)
        header.replaceSubrange(0..<10, with: Array("a.jsonl\u{0}\u{0}\u{0}".utf8))
        header.replaceSubrange(100..<108, with: Array("0000644\u{0}".utf8))
        let sum = header.enumerated().reduce(0) { $0 + ((148..<156).contains($1.offset) ? 0x20 : Int($1.element)) }
        header.replaceSubrange(148..<156, with: Array(String(format: "%06o\u{0} ", sum).utf8))
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("logs.tar").path
        try Data(header + Array("{\"id\":\"e1\"}\n".utf8)).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: InputError.self) { try EventLogFormat.refuseArchive(path: path, opened: nil) }
        #expect(error?.description.hasPrefix("\(path):1: error: this is a tar archive") == true)
        // A log that happens to be 512 bytes long is no tar.
        let log = try Fixtures.temporaryFile(
            named: "events.jsonl",
            contents: String(repeating: #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"# + "\n", count: 8))
        try EventLogFormat.refuseArchive(path: log, opened: nil)
    }

    /// A log whose first record says "ustar" where a tar header does (an address such as
    /// `mustard@example.com`), or whose first 512 bytes happen to sum to digits at the
    /// checksum's place, is a log: JSON text holds no NUL, a tar header many (hostile 15, F1).
    @Test func aLogThatLooksLikeATarHeaderInPlacesIsReadAsALog() throws {
        let start = #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin","email":""#
        let first = start + String(repeating: "a", count: 256 - start.utf8.count) + #"mustard@example.com"}"#
        #expect(Array(first.utf8)[257..<262].elementsEqual("ustar".utf8))
        var bytes = Array((first + "\n" + first.replacingOccurrences(of: "e1", with: "e2") + "\n").utf8)
        // The checksum field made to hold the sum of the first 512 bytes, as a v7 header's does.
        bytes.replaceSubrange(148..<156, with: Array("0000000 ".utf8))
        let sum = bytes[..<512].enumerated().reduce(0) { $0 + ((148..<156).contains($1.offset) ? 0x20 : Int($1.element)) }
        bytes.replaceSubrange(148..<156, with: Array(String(format: "%07o ", sum).utf8))
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("events.jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try EventLogFormat.refuseArchive(path: path, opened: nil)
        guard case .native = try EventLogFormat.recognize(path: path, mappings: []).format else {
            Issue.record("the log was not read as relaylint events")
            return
        }
    }
}
