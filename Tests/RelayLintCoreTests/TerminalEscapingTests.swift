@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Values from the inputs printed where a terminal or a CI log reads them: nothing can start a
/// line of its own, send a control sequence or turn text around, and nothing is lost.
@Suite struct TerminalEscapingTests {
    /// A subject that would forge a GitHub annotation and recolour the terminal.
    static let forged = "u\n::error file=forged.yml,line=1::FORGED\u{1B}[31m"

    @Test(arguments: [
        ("plain id-42 é 名前 \\n", "plain id-42 é 名前 \\n"),
        ("a\nb\r\tc", #"a\nb\r\tc"#),
        ("esc\u{1B}[2J", #"esc\u{1B}[2J"#),
        ("nul\u{0}del\u{7F}", #"nul\u{0}del\u{7F}"#),
        ("nel\u{85}csi\u{9B}", #"nel\u{85}csi\u{9B}"#),
        ("ls\u{2028}ps\u{2029}", #"ls\u{2028}ps\u{2029}"#),
        ("rlo\u{202E}lre\u{202A}rli\u{2067}pdi\u{2069}", #"rlo\u{202E}lre\u{202A}rli\u{2067}pdi\u{2069}"#),
        ("zwsp\u{200B} nbsp\u{A0} dash\u{2014}", "zwsp\u{200B} nbsp\u{A0} dash\u{2014}"),
    ])
    func escapes(input: String, expected: String) {
        #expect(TerminalEscaping.escape(input) == expected)
    }

    @Test func theTextReportPrintsHostileValuesOnTheirOwnLineEscaped() throws {
        var report = try CIReportFixture.report(subjects: [Self.forged], eventIDs: ["e\u{1B}]0;title\u{7}\u{202E}"])
        report.findings[0].location = RelayLintCore.SourceLocation(file: "logs/x\n::warning::y.jsonl", line: 2)
        report.notes = [Diagnostic(.note, "look-alike '\u{85}::error::z'", at: RelayLintCore.SourceLocation(file: "n.jsonl", line: 1))]
        let text = TextReporter().render(report, options: ReportOptions(color: false))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("::") }, "\(text)")
        #expect(!text.unicodeScalars.contains { TerminalEscaping.isEscaped($0) && $0 != "\n" }, "\(text)")
        #expect(text.contains(#"subject u\n::error file=forged.yml,line=1::FORGED\u{1B}[31m, event e\u{1B}]0;title\u{7}\u{202E} at"#))
        #expect(text.contains(#"  logs/x\n::warning::y.jsonl:2: error: "#))
        #expect(text.contains(#"look-alike '\u{85}::error::z'"#))
    }

    @Test func colourStaysTheReportersOwn() throws {
        let report = try CIReportFixture.report(subjects: [Self.forged])
        let text = TextReporter().render(report, options: ReportOptions(color: true))
        // The subject's ESC is escaped; the report's own colour codes are still there.
        #expect(text.contains(#"FORGED\u{1B}[31m"#))
        #expect(text.contains("\u{1B}[1;31merror\u{1B}[0m"))
    }
}
