import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A `gcloud logging read --format=json` array is read a slice of elements at a time, its
/// extents found as they are needed; where it stops being JSON is still an error at its line and
/// column, however many elements came before, and nothing after the array is accepted.
@Suite struct MappedArrayTests {
    static func entry(_ number: Int) -> String {
        #"{"insertId":"e\#(number)","timestamp":"2026-01-02T00:00:00Z","jsonPayload":{"methodName":"#
            + #""google.cloud.identitytoolkit.v1.AccountManagementService.GetAccountInfo","response":{"localId":"u1"}}}"#
    }

    static func run(_ contents: String) throws -> LintReport {
        try report(try Fixtures.temporaryFile(named: "entries.json", contents: contents))
    }

    static func report(_ path: String) throws -> LintReport {
        var request = LintRequest(eventPaths: [path], accountPaths: [], rules: try RuleSet.load(paths: [Fixtures.rules]))
        request.mappings = try MappingSet.load(userPaths: []).mappings
        request.skipInvalid = true
        return try Linter.run(request)
    }

    /// More elements than a slice (512) before the break, so the error is met after records
    /// were read.
    @Test(arguments: [
        ("  {\"x\": ]\n]\n", "701:9", "stopped reading: invalid JSON: unexpected character ']', expected a value"),
        ("]\n]\n", "702:1", "stopped reading: invalid JSON: unexpected text after the array"),
        ("]\nx\n", "702:1", "stopped reading: invalid JSON: unexpected text after the array"),
    ])
    func whereAnArrayStopsBeingJSONIsAnError(tail: String, place: String, message: String) throws {
        // The entries on lines 1 to 700, the tail from line 701.
        let contents = "[" + (0..<700).map(Self.entry).joined(separator: ",\n") + (tail.hasPrefix("]") ? "\n" : ",\n") + tail
        #expect {
            try Self.run(contents)
        } throws: { error in
            let diagnostics = (error as? DiagnosticsError)?.diagnostics ?? []
            let location = diagnostics.first?.location.description ?? ""
            return diagnostics.map(\.message) == [message] && location.hasSuffix("entries.json:" + place)
        }
    }

    /// An array written on one line (`jq -c`) holds every record on line 1: a record that is
    /// invalid is told by the column (in characters) it starts at. (JSON whose brackets or quotes
    /// break stops the array where it breaks, as `whereAnArrayStopsBeingJSONIsAnError` pins.)
    @Test func aRecordOfAOneLineArrayIsToldByItsColumn() throws {
        // "é" is two bytes and one column; the bad record starts after it.
        let first = Self.entry(1).replacingOccurrences(of: "\"u1\"", with: "\"é\"")
        let badTime = Self.entry(2).replacingOccurrences(of: "GetAccountInfo", with: "DeleteAccount")
            .replacingOccurrences(of: "2026-01-02T00:00:00Z", with: "yesterday")
        let contents = "[" + first + ", " + badTime + ", 7]"
        let column = 1 + first.count + 2 + 1
        let report = try Self.run(contents)
        let places = report.skipped.map { "\($0.location.line):\($0.location.column ?? 0)" }
        #expect(places == ["1:\(column)", "1:\(column + badTime.count + 2)"], "\(report.skipped)")
    }

    /// A byte order mark is no column, as on a line of JSON Lines: the records after it, and an
    /// error in the array, are told where an editor shows them, in a file and in a gzip file
    /// (read a run of elements at a time).
    @Test func aByteOrderMarkShiftsNoColumn() throws {
        let badTime = Self.entry(2).replacingOccurrences(of: "GetAccountInfo", with: "DeleteAccount")
            .replacingOccurrences(of: "2026-01-02T00:00:00Z", with: "yesterday")
        let contents = "[" + Self.entry(1) + ", " + badTime + ", 7]"
        let column = 1 + Self.entry(1).count + 2 + 1
        let broken = "[" + Self.entry(1) + ", {x}]"
        for (name, text) in [("plain.json", contents), ("marked.json", "\u{FEFF}" + contents)] {
            let path = try Fixtures.temporaryFile(named: name, contents: text)
            for input in [path, try Fixtures.gzipped(path)] {
                let report = try Self.report(input)
                let places = report.skipped.map { "\($0.location.line):\($0.location.column ?? 0)" }
                #expect(places == ["1:\(column)", "1:\(column + badTime.count + 2)"], "\(input)")
            }
        }
        // An element whose key is not a string: where the array stops.
        for (name, text) in [("plain-broken.json", broken), ("marked-broken.json", "\u{FEFF}" + broken)] {
            let path = try Fixtures.temporaryFile(named: name, contents: text)
            for input in [path, try Fixtures.gzipped(path)] {
                #expect {
                    try Self.report(input)
                } throws: { error in
                    (error as? DiagnosticsError)?.diagnostics.first?.location.column == column + 1
                }
            }
        }
    }

    /// An element that is not JSON while the array's brackets and quotes hold (a time without
    /// quotes) is an invalid record of its own, as a line of JSON Lines is: without
    /// `--skip-invalid` the run stops with it at its place, with it the elements after it are
    /// read, from a file and from a gzip file alike.
    @Test func anElementThatIsNotJSONIsAnInvalidRecordOfItsOwn() throws {
        let bad = #"  {"insertId": "bad", "timestamp": 2026-01-02, "x": ["]", {"y": "}"}]}"#
        let contents =
            "[" + (0..<600).map(Self.entry).joined(separator: ",\n") + ",\n" + bad + ",\n"
            + (600..<1_200).map(Self.entry).joined(separator: ",\n") + "\n]\n"
        let path = try Fixtures.temporaryFile(named: "one-bad.json", contents: contents)
        for input in [path, try Fixtures.gzipped(path)] {
            let report = try Self.report(input)
            #expect(report.inputs.first?.records == 1_201, "\(input)")
            #expect(report.skipped.map { "\($0.location.line):\($0.location.column ?? 0)" } == ["601:40"], "\(input)")
            #expect(report.skipped.map(\.message) == ["invalid JSON: expected ',' or '}' in an object"])
            var request = LintRequest(eventPaths: [input], accountPaths: [], rules: try RuleSet.load(paths: [Fixtures.rules]))
            request.mappings = try MappingSet.load(userPaths: []).mappings
            #expect {
                try Linter.run(request)
            } throws: { error in
                (error as? DiagnosticsError)?.diagnostics.map(\.location.description).first?.hasSuffix(":601:40") == true
            }
        }
    }

    /// A first element that is not JSON tells nothing of the array's format: the first that
    /// parses does (told by the broken one, Cloud Logging entries were read as Apple's
    /// notifications and skipped as not from Apple).
    @Test func anArrayWhoseFirstElementIsNotJSONIsToldByTheNext() throws {
        let bad = #"{"insertId": "bad", "timestamp": 2026-01-02}"#
        let contents = "[" + bad + ",\n" + bad + ",\n" + (0..<3).map(Self.entry).joined(separator: ",\n") + "]"
        let path = try Fixtures.temporaryFile(named: "bad-first.json", contents: contents)
        for input in [path, try Fixtures.gzipped(path)] {
            let read = try #require(try Self.report(input).inputs.first)
            #expect(read.format == "google-cloud-logging", "\(input)")
            #expect(read.records == 5)
            #expect(read.invalid == 2)
            #expect(read.skippedRecords.map(\.reason) == ["not an account change"])
        }
    }

    /// A value whose opening quote is missing (`"timestamp": 2026-…Z"`) is a misspelt value of
    /// its entry: read by brackets and quotes alone, the quote after it turned every quote
    /// around up to the next such break, and the good entries between were one invalid record.
    /// Each broken entry is an invalid record at its place, and every entry is counted.
    @Test func aValueWithoutItsOpeningQuoteIsAnInvalidRecordOfItsOwn() throws {
        var entries = (0..<10).map(Self.entry)
        for broken in [3, 7] { entries[broken] = entries[broken].replacingOccurrences(of: #""timestamp":""#, with: #""timestamp":"#) }
        let report = try Self.run("[\n" + entries.joined(separator: ",\n") + "\n]\n")
        #expect(report.inputs.first?.records == 10)
        #expect(report.skipped.map { "\($0.location.line):\($0.location.column ?? 0)" } == ["5:34", "9:34"])
    }

    /// A broken entry before a break of the array's structure (a file cut short) is told before
    /// the break, with or without `--skip-invalid`: the entries are handed over before the break
    /// is told, and the broken one went unnamed.
    @Test(arguments: [true, false]) func anEntryBrokenBeforeTheArrayBreaksIsToldFirst(skipInvalid: Bool) throws {
        let broken = Self.entry(1).replacingOccurrences(of: #""timestamp":""#, with: #""timestamp":"#)
        let cut = String(Self.entry(3).prefix(40))
        let path = try Fixtures.temporaryFile(
            named: "cut.json", contents: "[" + Self.entry(0) + ",\n" + broken + ",\n" + Self.entry(2) + ",\n" + cut)
        var request = LintRequest(eventPaths: [path], accountPaths: [], rules: try RuleSet.load(paths: [Fixtures.rules]))
        request.mappings = try MappingSet.load(userPaths: []).mappings
        request.skipInvalid = skipInvalid
        #expect {
            try Linter.run(request)
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.map(\.location.line) == [2, 4]
        }
    }

    /// Where a misspelt value does not explain the break (a missing comma between two members),
    /// the element's end cannot be trusted: the array stops there.
    @Test func aMissingCommaInsideAnEntryStopsTheArray() throws {
        let broken = Self.entry(1).replacingOccurrences(of: #""e1","#, with: #""e1" "#)
        #expect {
            try Self.run("[" + Self.entry(0) + ",\n" + broken + ",\n" + Self.entry(2) + "]")
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.map(\.location.line) == [2]
        }
    }

    /// Neither an element that is not an object nor one that is not JSON tells the format, in
    /// whatever order they come before the first entry.
    @Test(arguments: ["[1, foo, ", "[foo, 1, "])
    func elementsBeforeTheFirstEntryTellNothingOfTheFormat(start: String) throws {
        let read = try #require(try Self.run(start + Self.entry(1) + ", " + Self.entry(2) + "]").inputs.first)
        #expect(read.format == "google-cloud-logging")
        #expect(read.records == 4)
        #expect(read.invalid == 2)
    }

    @Test func everyElementOfALongArrayIsRead() throws {
        let report = try Self.run("[\n" + (0..<1_300).map(Self.entry).joined(separator: ",\n") + "\n]\n")
        let input = try #require(report.inputs.first)
        #expect(input.records == 1_300)
        #expect(input.skippedRecords.map(\.count) == [1_300])
        #expect(try Self.run("[]").inputs.first?.records == 0)
        #expect(try Self.run(" [ ] \n").inputs.first?.records == 0)
    }
}
