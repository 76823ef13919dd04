@testable import RelayLintCore
import Testing

/// The paths of the command `init` prints are quoted so that, pasted into a shell, they name the
/// files they named (review 66, item 6; review 67, item 4).
@Suite struct ShellWordTests {
    @Test(arguments: [
        ("events.jsonl", "events.jsonl"), ("logs/2026/a.json", "logs/2026/a.json"), ("my dir/a.json", "'my dir/a.json'"),
        ("it's.json", #"'it'\''s.json'"#), ("$HOME/a", "'$HOME/a'"), ("", "''"),
        ("new\nline.jsonl", #"$'new\nline.jsonl'"#), ("a\\b\u{1B}'c", #"$'a\\b\u001B\'c'"#),
    ])
    func aWordIsQuotedAsTheShellReadsItBack(word: String, quoted: String) {
        #expect(ShellWord.quoted(word) == quoted)
    }
}
