@testable import RelayLintCore
import Testing

/// A run-on row is read again a line at a time, line breaks of either kind left out, as many
/// lines as the text has (an empty last one after a final line break).
@Suite struct CSVLinesTests {
    @Test func linesEndAtEitherLineBreak() {
        #expect(Array(CSVLines("a,b\r\nc\n\nd")) == ["a,b", "c", "", "d"])
        #expect(Array(CSVLines("a\n")) == ["a", ""])
        #expect(Array(CSVLines("")) == [""])
        #expect(Array(CSVLines("é\r\u{301}\n")) == ["é\r\u{301}", ""])
    }
}
