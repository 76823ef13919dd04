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
        #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","app":""}"#,
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

    /// What a path made of a line: the prepared event with the bytes it points into.
    struct Outcome {
        var event: PreparedEvent
        var bytes: [UInt8]

        /// Everything the ingest reads, the bytes of the ranges rather than the ranges.
        func agrees(with other: Outcome, at location: RelayLintCore.SourceLocation) -> Bool {
            let (a, b) = (event, other.event)
            return a.type == b.type && a.app == b.app && a.time == b.time && a.sequence == b.sequence
                && (a.location ?? location) == (b.location ?? location) && a.idKey == b.idKey && a.subjectHash == b.subjectHash
                && a.digest == b.digest && a.inShard == b.inShard
                && a.lookAlikes.map { [$0.field, $0.text] } == b.lookAlikes.map { [$0.field, $0.text] }
                && bytes[a.packed] == other.bytes[b.packed] && bytes[a.id] == other.bytes[b.id]
                && bytes[a.subject] == other.bytes[b.subject]
        }
    }

    static let preparation = PreparedEvent.Preparation(relayDomains: RelayDomains(), shard: Shard(index: 1, count: 2))

    /// The fast scanner's answer alone, or nil where it declines.
    static func fast(_ line: [UInt8], number: Int, names: NameTable) -> Outcome? {
        var worker = EventLogReader.Worker(names: names, preparation: preparation, path: reader.path)
        var bytes: [UInt8] = [0xAA]  // a worker's buffer holds the events before
        let sequence = EventLogReader.sequence(fileIndex: reader.fileIndex, line: number)
        let event = line.withUnsafeBufferPointer {
            worker.scanner.scan($0, sequence: sequence, file: worker.file, names: &worker.names, preparation: preparation, into: &bytes)
        }
        return event.map { Outcome(event: $0, bytes: bytes) }
    }

    /// The strict parser's answer: an event, or the diagnostic.
    static func strict(_ line: [UInt8], number: Int, names: NameTable) -> Result<Outcome, DiagnosticsError> {
        var worker = EventLogReader.Worker(names: names, preparation: preparation, path: reader.path)
        var bytes: [UInt8] = []
        let delivery = line.withUnsafeBufferPointer { reader.strictParse($0, lineNumber: number, worker: &worker, into: &bytes) }
        switch delivery {
        case .event(let event): return .success(Outcome(event: event, bytes: bytes))
        case .invalid(let diagnostic): return .failure(DiagnosticsError([diagnostic]))
        }
    }

    /// Where the fast path answers, the strict path gives the same prepared event and packed
    /// bytes; where it declines, the strict path decides alone. Returns whether it answered.
    @discardableResult
    func expectAgreement(_ line: [UInt8], number: Int = 1) -> Bool {
        let names = NameTable()
        let text = String(decoding: line, as: UTF8.self)
        guard let fast = Self.fast(line, number: number, names: names) else { return false }
        switch Self.strict(line, number: number, names: names) {
        case .success(let strict):
            #expect(fast.agrees(with: strict, at: SourceLocation(file: Self.reader.path, line: number)), "\(text)")
        case .failure(let error):
            Issue.record("the fast path accepted what the strict parser rejects: \(text): \(error.diagnostics)")
        }
        return true
    }

    @Test func theFastPathAgreesWithTheStrictParserOnTheExamplesLog() throws {
        let lines = try Self.exampleLogLines()
        var accepted = 0
        for (index, line) in lines.enumerated() where !line.isEmpty {
            if expectAgreement(line, number: index + 1) { accepted += 1 }
        }
        // The comparison means something only if the fast path really answers for ordinary lines.
        #expect(accepted >= lines.count * 9 / 10, "the fast path took \(accepted) of \(lines.count) lines")
    }

    @Test func theFastPathAgreesOnEveryRuleExampleEvent() throws {
        let lines = try Self.ruleExampleLines()
        #expect(lines.count > 100)
        // Some examples hold nested values or escapes, which the fast path leaves to the strict
        // one (it took 88 of 129 when this was written).
        let accepted = lines.count { expectAgreement($0) }
        #expect(accepted >= lines.count / 2, "the fast path took \(accepted) of \(lines.count) lines")
    }

    /// The agreement tests compare where the fast path answers: it must answer for the usual
    /// shapes of a line, or they would compare nothing.
    @Test(arguments: [0, 1, 2, 3, 4, 5, 14, 15, 28, 29, 30])
    func theFastPathAnswersForAnOrdinaryLine(_ index: Int) {
        #expect(Self.fast(Array(Self.edgeLines[index].utf8), number: 1, names: NameTable()) != nil, "\(Self.edgeLines[index])")
    }

    @Test(arguments: edgeLines)
    func theFastPathAgreesOnAnEdgeCase(_ line: String) {
        expectAgreement(Array(line.utf8))
    }

    @Test func invalidUTF8IsLeftToTheStrictParser() {
        for line in Self.invalidUTF8 {
            #expect(Self.fast(line, number: 1, names: NameTable()) == nil)
            guard case .failure = Self.strict(line, number: 1, names: NameTable()) else {
                Issue.record("invalid UTF-8 was accepted")
                continue
            }
        }
    }

    func digest(_ text: String, strict: Bool) -> ContentDigest? {
        let line = Array(text.utf8)
        if strict { return try? Self.strict(line, number: 1, names: NameTable()).get().event.digest }
        return Self.fast(line, number: 1, names: NameTable())?.event.digest
    }

    @Test func theDigestIgnoresKeyOrderWhitespaceAndNumberSpellingOnBothPaths() {
        let plain = #"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":1}"#
        let reordered = #"{ "n" : 1.0e0, "type":"signin","subject":"u1","time":"2026-03-01T12:00:00Z","id":"e1"}"#
        let escaped = #"{"id":"\u0065\u0031","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":1}"#
        let nested = #"{"type":"signin","subject":"u1","time":"2026-03-01T12:00:00Z","id":"e1","n":10e-1,"x":[]}"#
        let reference = digest(plain, strict: false)
        #expect(reference != nil)
        #expect(digest(reordered, strict: false) == reference)
        #expect(digest(reordered, strict: true) == reference)
        #expect(digest(escaped, strict: true) == reference)
        #expect(digest(nested, strict: true) != reference)
        #expect(digest(#"{"id":"e1","time":"2026-03-01T12:00:00Z","subject":"u1","type":"signin","n":2}"#, strict: false) != reference)
    }

    /// Strings are content by their bytes, as JSON and the subject table tell them apart: the
    /// precomposed and the decomposed `é` are two contents, on either path.
    @Test func theDigestTellsCanonicallyEquivalentSpellingsApart() {
        let precomposed = "{\"id\":\"e1\",\"time\":\"2026-03-01T12:00:00Z\",\"subject\":\"u1\",\"type\":\"signin\",\"name\":\"caf\u{E9}\"}"
        let decomposed = "{\"id\":\"e1\",\"time\":\"2026-03-01T12:00:00Z\",\"subject\":\"u1\",\"type\":\"signin\",\"name\":\"cafe\u{301}\"}"
        for strict in [false, true] {
            let (first, second) = (digest(precomposed, strict: strict), digest(decomposed, strict: strict))
            #expect(first != nil && second != nil && first != second)
        }
    }
}
