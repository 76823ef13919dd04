import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Text written as UTF-16 or UTF-32 (as Windows tools write "Unicode" text) is told as such, with
/// how to convert it, by every input: a manifest was called binary, an account export not JSON.
@Suite struct TextEncodingTests {
    static func encoded(_ text: String, _ encoding: String.Encoding, byteOrderMark: [UInt8] = []) -> [UInt8] {
        byteOrderMark + Array(text.data(using: encoding)!)
    }

    /// With a byte order mark iconv finds the byte order itself; without one it is named.
    @Test(arguments: [
        (encoded("{\"a\":1}", .utf16LittleEndian, byteOrderMark: [0xFF, 0xFE]), "UTF-16", "UTF-16"),
        (encoded("{\"a\":1}", .utf16BigEndian, byteOrderMark: [0xFE, 0xFF]), "UTF-16", "UTF-16"),
        (encoded("apps: []", .utf16LittleEndian), "UTF-16", "UTF-16LE"), (encoded("apps: []", .utf16BigEndian), "UTF-16", "UTF-16BE"),
        (encoded("{\"a\":1}", .utf32LittleEndian, byteOrderMark: [0xFF, 0xFE, 0, 0]), "UTF-32", "UTF-32"),
        (encoded("{\"a\":1}", .utf32BigEndian, byteOrderMark: [0, 0, 0xFE, 0xFF]), "UTF-32", "UTF-32"),
        (encoded("apps: []", .utf32LittleEndian), "UTF-32", "UTF-32LE"), (encoded("apps: []", .utf32BigEndian), "UTF-32", "UTF-32BE"),
    ])
    func textInAnotherEncodingIsToldWithItsConversion(bytes: [UInt8], name: String, encoding: String) {
        #expect(
            TextEncoding.otherThanUTF8(startOf: bytes)
                == "this is \(name) text; relaylint reads UTF-8 (convert it: iconv -f \(encoding) -t UTF-8 FILE > FILE.utf8)")
    }

    @Test(arguments: [
        Array("{\"a\":1}".utf8), [0xEF, 0xBB, 0xBF] + Array("apps: []".utf8), Array("é".utf8), [0, 0, 0, 0], [0x41], [],
        // NULs a crashed writer left before a line of UTF-8.
        [0, 0, 0, 0x0A] + Array("{\"id\":1}".utf8), [0x7B, 0, 0, 0, 0x0A] + Array("{\"id\":1}".utf8),
    ])
    func utf8AndNULsAreNotTakenForIt(bytes: [UInt8]) {
        #expect(TextEncoding.otherThanUTF8(startOf: bytes) == nil)
    }

    @Test func aManifestInUTF16IsToldAsSuch() throws {
        let manifest = try Fixtures.temporaryFile(named: "apps16.yml", contents: "")
        try Data(Self.encoded("apps: [{bundle_id: a}]", .utf16LittleEndian, byteOrderMark: [0xFF, 0xFE]))
            .write(to: URL(fileURLWithPath: manifest))
        let log = try Fixtures.temporaryFile(
            named: "e.jsonl", contents: #"{"id":"e","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin"}"# + "\n")
        let rules = try RuleSet.load(paths: [Fixtures.rules])
        let error = #expect(throws: DiagnosticsError.self) {
            try Linter.run(LintRequest(eventPaths: [log], manifestPath: manifest, rules: rules))
        }
        #expect(
            error?.diagnostics.first?.message.contains("this is UTF-16 text; relaylint reads UTF-8") == true, "\(String(describing: error))"
        )
    }
}
