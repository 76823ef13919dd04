/// The characters that make text read in another order than it is written: the bidirectional
/// embeddings and overrides (U+202A-U+202E) and isolates (U+2066-U+2069). A subject id written
/// `acct-\u{202E}txt.exe` shows as `acct-exe.txt`; a reviewer reading a report must see the id as
/// it is. The human-read reports (HTML, Markdown, JUnit) print each as the escape the text report
/// and terminal output print (`TerminalEscaping`), so nothing is hidden and nothing is lost.
enum BidiControls {
    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// What a report prints instead: `\u{202E}`.
    static func visible(_ scalar: Unicode.Scalar) -> String { TerminalEscaping.escape(scalar) }
}
