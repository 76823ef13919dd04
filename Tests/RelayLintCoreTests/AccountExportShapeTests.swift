import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// `--accounts` tells CSV from JSON by the name; a file of the other kind, or a log, is told for
/// what it is at line 1 rather than read as a run of invalid rows (hostile 11 F2).
@Suite struct AccountExportShapeTests {
    static func problem(_ text: String, csv: Bool) -> String? { shape(text, csv: csv)?.message }

    static func shape(_ text: String, csv: Bool) -> (message: String, line: Int)? {
        Array(text.utf8).withUnsafeBufferPointer { AccountExportShape.problem(startOf: $0, isCSV: csv) }
    }

    @Test func aJSONExportNamedCSVIsToldAsJSON() {
        #expect(Self.problem("\u{FEFF}  {\"users\": [\n{\"localId\": \"u1\"}]}\n", csv: true)?.hasPrefix("this is JSON, not CSV") == true)
        #expect(Self.problem("u1,jane@example.com,true" + String(repeating: ",", count: 25) + "\n", csv: true) == nil)
    }

    /// Excel's "CSV (Macintosh)": rows ended by a carriage return alone, no line feed at all; a
    /// carriage return in a quoted cell of a file of line feeds is a cell's.
    @Test func rowsEndedByACarriageReturnAloneAreTold() {
        let row = "u1,jane@example.com,true" + String(repeating: ",", count: 25)
        #expect(Self.problem(row + "\r" + row + "\r", csv: true)?.hasPrefix("this file's lines end in a carriage return alone") == true)
        #expect(Self.problem("u1,\"line one\rline two\"" + String(repeating: ",", count: 26) + "\n" + row + "\n", csv: true) == nil)
        #expect(Self.problem(row + "\r\n" + row + "\r\n", csv: true) == nil)
    }

    /// A uid is any text: a braced or bracketed one opens a CSV export, which was refused as
    /// JSON (review 66, item 2; hostile 12, F5).
    @Test(arguments: ["{3F2504E0-4F89-11D3-9A0C-0305E82C3301}", "[legacy]7", "{legacy-7}", "{}", "[]", "{}x", "[{}]"])
    func aCSVExportWhoseFirstUidIsBracedIsCSV(uid: String) {
        #expect(Self.problem(uid + ",jane@example.com,true" + String(repeating: ",", count: 25) + "\n", csv: true) == nil)
    }

    /// A one-row export without a final line feed whose quoted name holds a carriage return
    /// has no row ended by one (review 66, item 4).
    @Test func aCarriageReturnInAQuotedCellOfOneRowIsTheCells() {
        #expect(Self.problem("u1,\"line one\rline two\"" + String(repeating: ",", count: 26), csv: true) == nil)
        #expect(Self.problem("u1,\"a\"\"\rb\"" + String(repeating: ",", count: 26) + "\ru2,x", csv: true) != nil)
    }

    /// Told at the line the first record starts on, after blank lines, as a log's refusals are.
    @Test func theProblemIsToldAtTheFirstRecordsLine() {
        let line = #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"#
        #expect(Self.shape("\n\n" + line + "\n", csv: false)?.line == 3)
        #expect(Self.shape("\r\n" + #"{"users": []}"#, csv: true)?.line == 2)
    }

    /// A JSON export whose lines end in a carriage return alone is valid JSON, but every place
    /// in it was told at line 1 (hostile 12, F6); one on a single line is no problem.
    @Test func aJSONExportOfCarriageReturnLinesIsTold() {
        #expect(
            Self.problem("{\r  \"users\": [\r    {\"localId\": \"u1\"}\r  ]\r}\r", csv: false)?.hasPrefix(
                "this file's lines end in a carriage return alone") == true)
        #expect(Self.problem(#"{"users": [{"localId": "u1"}]}"# + "\r", csv: false) == nil)
    }

    /// A JSON export written one user per line has a CSV row's commas on its first line, and
    /// one minified past the cap on a record's values parses no more: both are JSON (review 69).
    @Test func aJSONExportWithManyCommasOnItsFirstLineIsJSON() {
        let user = #"{"localId":"u1","email":"a@example.com","# + (1...30).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        let perLine = "{\"users\":[" + Array(repeating: user, count: 4).joined(separator: ",\n") + "]}\n"
        #expect(Self.problem(perLine, csv: false) == nil)
        #expect(Self.problem("[ " + Array(repeating: user, count: 4).joined(separator: ",") + "]", csv: false) == nil)
    }

    @Test func aCSVExportNamedJSONIsToldAsCSV() {
        #expect(
            Self.problem("u1,jane@example.com,true" + String(repeating: ",", count: 25) + "\n", csv: false)?.hasPrefix(
                "this looks like CSV") == true)
    }

    @Test(arguments: [
        (#"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"#, "this is a relaylint event log"),
        (#"{"insertId":"x","logName":"projects/p/logs/l","jsonPayload":{}}"#, "this is a Google Cloud Logging log"),
        (#"{"payload":"eyJ.eyJ.sig"}"#, "this is a log of Sign in with Apple notifications"),
    ])
    func aLogGivenAsAnExportIsToldToGoToEvents(line: String, kind: String) {
        #expect(Self.problem(line + "\n" + line + "\n", csv: false) == "\(kind), not an account export: pass it with --events")
    }

    /// Exports of every shape relaylint reads pass: pretty-printed, on one line, the Admin SDK's list.
    @Test(arguments: ["{\n  \"users\": []\n}\n", #"{"users":[{"localId":"u1"}]}"#, #"[{"uid":"u1"}]"#, "{}", ""])
    func anExportIsNoProblem(text: String) {
        #expect(Self.problem(text, csv: false) == nil)
    }

    @Test func theRunStopsAtLineOneEvenWithSkipInvalid() throws {
        let path = try Fixtures.temporaryFile(
            named: "accounts.csv", contents: try String(contentsOfFile: Fixtures.path("Examples/accounts.json"), encoding: .utf8))
        var request = LintRequest(accountPaths: [path], rules: try RuleSet.load(paths: [Fixtures.rules]))
        request.skipInvalid = true
        let error = #expect(throws: DiagnosticsError.self) { try Linter.run(request) }
        #expect(error?.diagnostics.map(\.location.line) == [1])
        #expect(error?.diagnostics.first?.message.hasPrefix("this is JSON, not CSV") == true)
    }
}
