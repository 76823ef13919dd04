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
}
