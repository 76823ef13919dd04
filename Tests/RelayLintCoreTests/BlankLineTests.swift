@testable import RelayLintCore
import Testing

/// Contract §2.4: blank lines are lines of whitespace only, JSON's own and Unicode White_Space;
/// they are skipped, and anything else is a record (or an invalid line).
@Suite struct BlankLineTests {
    @Test(arguments: [
        ("", true),
        (" \t\r", true),
        ("\u{0B}\u{0C}", true),
        ("\u{00A0}\u{3000}", true),
        (" \u{2028} \u{2029}\u{0085}", true),
        ("{\"id\":\"e1\"}", false),
        ("  {\"id\":\"é\"}", false),
        (" é", false),
        ("\u{00A0}x", false),
        ("\u{200B}", false),  // ZERO WIDTH SPACE is no White_Space
        ("\u{1C}", false),  // an ASCII separator is no White_Space either
    ])
    func aLineIsBlankWhenItHoldsOnlyWhitespace(line: String, blank: Bool) {
        var text = line
        let isBlank = text.withUTF8 { EventLogReader.isBlank($0) }
        #expect(isBlank == blank)
    }
}
