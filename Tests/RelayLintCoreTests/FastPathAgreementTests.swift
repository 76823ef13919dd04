import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The log reader's fast scanner must answer exactly as the strict parser does, or decline.
/// Every line the tests have goes through both: the Examples log, every rule example's events,
/// and lines written to sit on the edges of the fast path's shape.
@Suite struct FastPathAgreementTests {
    static let reader = EventLogReader(path: "events.jsonl", fileIndex: 0)

    /// Lines on the edges of the fast path: escapes, unicode, numbers, nesting, repeated keys,
    /// whitespace, reserved fields of the wrong type, and plain syntax errors.
    static let edgeLines: [String] = [
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","provider":"apple.com"}"#,
        #" { "id" : "e1" , "time" : "2026-03-01T12:00:00Z" , "subject" : "u1" , "type" : "signin" }  "#,
        "{\t\"id\":\"e1\",\"time\":\"2026-03-01T12:00:00Z\",\"subject\":\"u1\",\"type\":\"signin\"}\r",
        #"{"id":"e1","time":"2026-03-01T12:00:00.123456789+02:00","subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":"2026-03-01t12:00:00z","subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":1772366400000,"subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":1772366400000.5,"subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":1.7723664e12,"subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":-1,"subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":"1772366400000","subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":"2026-03-01 12:00:00Z","subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:60Z","subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00.1234567890Z","subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":true,"subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","app":null}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","app":"com.example.app"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","app":7}"#,
        #"{"id":7,"time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":null,"type":"signin"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1"}"#,
        #"{"time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin"}"#,
        #"{"id":"e1","subject":"u1","type":"signin"}"#,
        #"{"id":"","time":"2026-03-01T12:00:00Z","subject":"","type":""}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","email":"a\"b@example.com"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","email":"\u00e9@example.com"}"#,
        #"{"id":"e\u0031","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","email":"é@exämple.com"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","nämé":"x"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","is_private_email":true}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","is_private_email":"TRUE"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":-0.5e+3,"m":0,"k":1E2}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":01}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":1.}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":1e999}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":-}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":nul}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","nested":{"a":[1,2]}}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","list":[]}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","provider":"a","provider":"b"}"#,
        #"{"id":"e1","id":"e2","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin"}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin",}"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin"} x"#,
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin""#,
        #"{"id":"e1" "time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin"}"#,
        "{\"id\":\"e1\",\"time\":\"2026-03-01T12:00:00Z\",\"subject\":\"u1\",\"type\":\"signin\",\"x\":\"tab\tinside\"}",
        #"{}"#,
        #"[]"#,
        #""just a string""#,
        #"{"#,
        "\u{FEFF}{\"id\":\"e1\",\"time\":\"2026-03-01T12:00:00Z\",\"subject\":\"u1\",\"type\":\"signin\"}",
    ]

    static let invalidUTF8: [[UInt8]] = [
        Array(#"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","x":""#.utf8) + [0xC3, 0x28]
            + Array(#""}"#.utf8),
        Array(#"{"id":""#.utf8) + [0xFF] + Array(#"","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin"}"#.utf8),
    ]

    static func exampleLogLines() throws -> [[UInt8]] {
        let text = try String(contentsOfFile: Fixtures.path("Examples/events.jsonl"), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
    }

    static func ruleExampleLines() throws -> [[UInt8]] {
        let rules = try RuleSet.load(paths: [Fixtures.rules])
        return rules.rules.flatMap(\.examples).flatMap(\.events).map { Array(Self.json($0.value).utf8) }
    }

    /// JSON text of a value, numbers as written.
    static func json(_ value: JSONValue) -> String {
        switch value {
        case .object(let members):
            "{" + members.keys.sorted().map { JSONValue.string($0).canonicalText + ":" + json(members[$0]!) }.joined(separator: ",") + "}"
        case .array(let elements): "[" + elements.map(json).joined(separator: ",") + "]"
        case .number(let number): number.text
        default: value.canonicalText
        }
    }

    func expectAgreement(_ line: [UInt8], number: Int = 1) {
        line.withUnsafeBufferPointer { buffer in
            let fast = Self.reader.parse(buffer, lineNumber: number)
            let strict = Self.reader.strictParse(buffer, lineNumber: number)
            switch (fast, strict) {
            case (.event(let fastEvent, let fastDigest), .event(let strictEvent, let strictDigest)):
                #expect(fastEvent == strictEvent, "\(String(decoding: line, as: UTF8.self))")
                #expect(fastDigest == strictDigest, "\(String(decoding: line, as: UTF8.self))")
            case (.invalid(let fastProblem), .invalid(let strictProblem)):
                #expect(fastProblem == strictProblem)
            default:
                Issue.record("fast and strict paths disagree on \(String(decoding: line, as: UTF8.self)): \(fast) vs \(strict)")
            }
        }
    }

    @Test func theFastPathAgreesWithTheStrictParserOnTheExamplesLog() throws {
        let lines = try Self.exampleLogLines()
        var scanner = FlatEventScanner()
        var accepted = 0
        for (index, line) in lines.enumerated() where !line.isEmpty {
            expectAgreement(line, number: index + 1)
            let location = RelayLintCore.SourceLocation(file: "events.jsonl", line: index + 1)
            if line.withUnsafeBufferPointer({ scanner.scan($0, location: location, sequence: 0) }) != nil { accepted += 1 }
        }
        // The comparison means something only if the fast path really answers for ordinary lines.
        #expect(accepted >= lines.count * 9 / 10, "the fast path took \(accepted) of \(lines.count) lines")
    }

    @Test func theFastPathAgreesOnEveryRuleExampleEvent() throws {
        let lines = try Self.ruleExampleLines()
        #expect(lines.count > 100)
        for line in lines { expectAgreement(line) }
    }

    @Test(arguments: edgeLines)
    func theFastPathAgreesOnAnEdgeCase(_ line: String) {
        expectAgreement(Array(line.utf8))
    }

    @Test func invalidUTF8IsLeftToTheStrictParser() {
        for line in Self.invalidUTF8 {
            expectAgreement(line)
            guard case .invalid = line.withUnsafeBufferPointer({ Self.reader.parse($0, lineNumber: 1) }) else {
                Issue.record("invalid UTF-8 was accepted")
                continue
            }
        }
    }

    @Test func theDigestIgnoresKeyOrderWhitespaceAndNumberSpellingOnBothPaths() {
        let plain = #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":1}"#
        let reordered = #"{ "n" : 1.0e0, "type":"signin","subject":"u1","time":"2026-03-01T12:00:00Z","id":"e1"}"#
        let nested = #"{"type":"signin","subject":"u1","time":"2026-03-01T12:00:00Z","id":"e1","n":10e-1,"x":[]}"#
        func digest(_ text: String, strict: Bool) -> ContentDigest? {
            var copy = text
            return copy.withUTF8 { buffer in
                let record = strict ? Self.reader.strictParse(buffer, lineNumber: 1) : Self.reader.parse(buffer, lineNumber: 1)
                guard case .event(_, let digest) = record else { return nil }
                return digest
            }
        }
        let reference = digest(plain, strict: false)
        #expect(reference != nil)
        #expect(digest(reordered, strict: false) == reference)
        #expect(digest(reordered, strict: true) == reference)
        #expect(digest(nested, strict: true) != reference)
        #expect(digest(#"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":2}"#, strict: false) != reference)
    }
}
