import Foundation
import Testing

@testable import RelayLintCore

/// Findings travel from partition runs to `merge` through `PartialFindings`: every field comes
/// back as it went, and a finding that is not one is refused with what is wrong and where.
@Suite struct PartialFindingsTests {
    typealias Location = RelayLintCore.SourceLocation

    static func written(_ finding: Finding) -> String {
        var writer = CompactJSONWriter()
        PartialFindings.write(finding, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func read(_ text: String) throws(JSONParser.SyntaxError) -> Finding {
        var copy = text
        let result: Result<Finding, JSONParser.SyntaxError> = copy.withUTF8 { bytes in
            var parser = JSONParser(bytes: bytes)
            return Result { () throws(JSONParser.SyntaxError) in try PartialFindings.finding(from: &parser, depth: 0) }
        }
        return try result.get()
    }

    static let trigger = Evidence(
        role: .trigger, event: "l1", type: "identity.linked", time: Timestamp(rfc3339: "2026-01-02T00:00:00.123Z")!,
        location: Location(file: "events.jsonl", line: 2))

    static func finding(suppressed: Bool) -> Finding {
        var finding = Finding(
            rule: "consent-before-email-link", severity: .error, subject: "u1 \"quoted\" \\ ☃", app: "com.example",
            event: "l1", time: trigger.time, message: "linked\nwithout consent", fingerprint: "abc123",
            location: Location(file: "events.jsonl", line: 2, column: 7), expected: "consent first",
            evidence: [
                trigger,
                Evidence(
                    role: .witness, event: "c0", type: "consent.granted", time: Timestamp(rfc3339: "2025-12-01T00:00:00Z")!,
                    location: Location(file: "other.jsonl", line: 40), note: "outside the window"),
            ])
        if suppressed {
            finding.suppression = Suppression(
                rule: "consent-before-email-link", justification: "known", author: "a", expires: "2099-12-31",
                location: Location(file: ".relaylint.yml", line: 3))
        }
        return finding
    }

    @Test(arguments: [false, true])
    func aFindingComesBackAsItWent(suppressed: Bool) throws {
        let finding = Self.finding(suppressed: suppressed)
        let text = Self.written(finding)
        let back = try Self.read(text)
        #expect(back == finding)
        #expect(back.isSuppressed == suppressed)
    }

    /// An app finding has no event, time or location: the keys are absent, as `Codable` leaves them.
    @Test func anAppFindingLeavesOutWhatItDoesNotHave() throws {
        let finding = Finding(
            rule: "in-app-deletion-offered", severity: .warning, subject: "com.example", app: "com.example", event: nil,
            time: nil, message: "m", fingerprint: "f", location: nil, expected: "e", evidence: [])
        let value = try JSONParser.parseDocument(Self.written(finding))
        #expect(
            value.objectValue.map { Set($0.keys) } == [
                "rule", "severity", "subject", "app", "message", "fingerprint", "expected", "evidence",
            ])
        #expect(try Self.read(Self.written(finding)) == finding)
    }

    /// `PartialFindings` writes what `Codable` with sorted keys writes, byte for byte, and reads
    /// what `Codable` wrote.
    @Test func codableAndPartialFindingsAgree() throws {
        let finding = Self.finding(suppressed: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let codable = String(decoding: try encoder.encode(finding), as: UTF8.self)
        #expect(codable == Self.written(finding))
        #expect(try Self.read(codable) == finding)
    }

    /// `Codable` reads an optional member that is null as absent, and so does this reader.
    @Test func nullOptionalsReadAsAbsent() throws {
        let text =
            "{\(Self.base),\"severity\":\"note\",\"event\":null,\"time\":null,\"location\":null,\"suppression\":null,"
            + #""evidence":[{"role":"trigger","event":"e","type":"t","time":"2026-01-01T00:00:00Z","location":{"file":"f","line":1,"column":null},"note":null}]}"#
        let finding = try Self.read(text)
        #expect(finding.event == nil && finding.time == nil && finding.location == nil && !finding.isSuppressed)
        #expect(finding.evidence.first?.location == Location(file: "f", line: 1))
        #expect(finding.evidence.first?.note == nil)
    }

    static let base = #""rule":"r","subject":"s","app":"a","message":"m","fingerprint":"f","expected":"e""#

    @Test(arguments: [
        (#"{"rule":"r"}"#, 0, "a finding without severity"),
        ("{\(base),\"severity\":\"fatal\",\"evidence\":[]}", 94, "'fatal' is not a severity"),
        ("{\(base),\"severity\":\"error\",\"evidence\":[],\"time\":\"noon\"}", 123, "expected an RFC 3339 time"),
        ("{\(base),\"severity\":\"error\",\"evidence\":[{\"role\":\"x\"}]}", 122, "'x' is not an evidence role"),
        (
            "{\(base),\"severity\":\"error\",\"evidence\":[{\"role\":\"trigger\"}]}", 114,
            "evidence without one of role, event, type, time and location"
        ),
        ("{\(base),\"severity\":1,\"evidence\":[]}", 94, "expected a string"),
        ("{\(base),\"severity\":\"error\",\"evidence\":[],\"location\":{\"file\":\"f\",\"line\":1.5}}", 146, "expected an integer"),
        (#"[1]"#, 0, "expected an object"),
    ])
    func aMalformedFindingSaysWhatIsWrongAndWhere(text: String, offset: Int, problem: String) {
        #expect(throws: JSONParser.SyntaxError(offset: offset, reason: problem)) { try Self.read(text) }
    }
}
