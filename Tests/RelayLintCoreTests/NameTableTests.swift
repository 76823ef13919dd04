@testable import RelayLintCore
import Testing

/// Parse workers pack events through their own caches of one shared name table; whichever
/// worker asks, a name has one index, and an index one name.
@Suite struct NameTableTests {
    @Test func everyCacheGivesEqualNamesTheSameIndex() {
        let table = NameTable()
        var first = NameTable.Cache(table)
        var second = NameTable.Cache(table)
        // Names of equal length (the cache compares lengths first), a non-ASCII name, and more
        // names than a cache keeps, so that entries are replaced.
        let names = ["signin", "signup", "ünique", "e\u{301}", ""] + (0..<80).map { "field\($0)" }
        var indices: [String: Int] = [:]
        for round in 0..<3 {
            for name in names {
                let index = round % 2 == 0 ? first.index(of: name) : second.index(of: name)
                #expect(indices[name, default: index] == index, "\(name)")
                indices[name] = index
            }
        }
        #expect(Set(indices.values).count == names.count)
        let snapshot = table.snapshot
        for (name, index) in indices { #expect(snapshot[index] == name) }
    }

    /// Names are their bytes: `é` and `e` + combining acute are one `String` but two names.
    @Test func canonicallyEqualSpellingsAreTwoNames() {
        let table = NameTable()
        var cache = NameTable.Cache(table)
        let composed = cache.index(of: "caf\u{E9}")
        let decomposed = cache.index(of: "cafe\u{301}")
        #expect(composed != decomposed)
        var other = NameTable.Cache(table)
        #expect(other.index(of: "cafe\u{301}") == decomposed)
        #expect(Array(table.snapshot[decomposed].utf8) == Array("cafe\u{301}".utf8))
    }

    /// Two workers asking at the same time agree on every index.
    @Test func workersOnTwoThreadsAgree() {
        let table = NameTable()
        let names = (0..<500).map { "name\($0 % 97)-\($0 % 7)" }
        let results = Linter.parallelMap([0, 1, 2, 3], parallelism: 4, serialUpTo: 1) { worker -> [Int] in
            var cache = NameTable.Cache(table)
            return (worker % 2 == 0 ? names : names.reversed()).map { cache.index(of: $0) }
        }
        #expect(results[0] == results[2])
        #expect(results[0] == Array(results[1].reversed()))
        #expect(Set(results[0]).count == Set(names).count)
    }
}
