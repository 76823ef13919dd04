@testable import RelayLintCore
import Testing

/// The subject pass takes subjects in `String` order of their ids, also where the sort's
/// integer shortcut (the first 8 bytes of ASCII ids) cannot decide.
@Suite struct SubjectOrderTests {
    @Test func subjectsComeInStringOrder() {
        let ids = [
            "zXsT9b1j1iOUk6JPB4ksgUqlJQYe", "0JLjgQfyyqbXFEB3YdnD1F6qcaKr", "abcdefgh2", "abcdefgh1", "abcdefgh",
            "abcdefg", "abc", "ab\u{0}", "ab", "", "Z", "a", "é", "e\u{301}x", "éa", "caf\u{e9}", "cafe\u{301}s",
            "abcdefgé", "abcdefg\u{301}", "日本", "user-10", "user-9", "USER-9", "user_9",
        ]
        var table: [String: Dataset.Subject] = [:]
        for (index, id) in ids.enumerated() {
            var subject = Dataset.Subject()
            subject.accountPosition = index
            table[id] = subject
        }
        let expected = table.keys.sorted()
        let ordered = Linter.inIDOrder(taking: &table)
        #expect(ordered.map(\.key) == expected)
        #expect(ordered.allSatisfy { ids[$0.value.accountPosition] == $0.key }, "each id keeps its own subject")
        #expect(table.isEmpty)
    }
}
