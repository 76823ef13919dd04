@testable import RelayLintCore
import Testing

/// The subject table finds each subject by its id's bytes and lists subjects in `String` order
/// of their ids, also where the sort's integer shortcut (the first 8 bytes of ASCII ids) cannot
/// decide.
@Suite struct SubjectTableTests {
    static let ids = [
        "zXsT9b1j1iOUk6JPB4ksgUqlJQYe", "0JLjgQfyyqbXFEB3YdnD1F6qcaKr", "abcdefgh2", "abcdefgh1", "abcdefgh",
        "abcdefg", "abc", "ab\u{0}", "ab", "", "Z", "a", "é", "e\u{301}x", "éa", "cafés", "abcdefgé",
        "abcdefg\u{301}", "日本", "user-10", "user-9", "USER-9", "user_9",
    ]

    func table(_ ids: [String]) -> SubjectTable {
        var table = SubjectTable()
        for (number, id) in ids.enumerated() {
            let index = table.insert(id, hash: SubjectTable.hash(of: id))
            table[index].accountPosition = number
        }
        return table
    }

    @Test func subjectsComeInStringOrder() {
        let table = table(Self.ids)
        let ordered = table.indicesInIDOrder().map { table.id(at: $0) }
        #expect(ordered == Self.ids.sorted())
    }

    @Test func eachIDFindsItsOwnSubjectAcrossGrowth() {
        let ids = Self.ids + (0..<5_000).map { "subject-\($0)" }
        let table = table(ids)
        #expect(table.count == ids.count)
        for (number, id) in ids.enumerated() {
            let index = table.index(of: id, hash: SubjectTable.hash(of: id))
            #expect(index.map { table[$0].accountPosition } == number, "\(id)")
            #expect(index.map { table.id(at: $0) } == id)
        }
        #expect(table.index(of: "subject-5000", hash: SubjectTable.hash(of: "subject-5000")) == nil)
    }

    @Test func insertingAKnownIDFindsItsSubject() {
        var table = table(Self.ids)
        let index = table.insert("abcdefgh1", hash: SubjectTable.hash(of: "abcdefgh1"))
        #expect(table[index].accountPosition == 3)
        #expect(table.count == Self.ids.count)
    }

    /// Ids are bytes, as JSON and `--shard` see them: the two spellings of `café` are two
    /// subjects (a `String`-keyed table made them one, which a shard could split in two).
    @Test func idsThatDifferOnlyInNormalizationAreTwoSubjects() {
        let table = table(["caf\u{e9}", "cafe\u{301}"])
        #expect(table.count == 2)
        #expect(table.index(of: "caf\u{e9}", hash: SubjectTable.hash(of: "caf\u{e9}")) == 0)
        #expect(table.index(of: "cafe\u{301}", hash: SubjectTable.hash(of: "cafe\u{301}")) == 1)
    }

    /// Ids crafted against the public hash (FNV-1a, mixed as the table used to mix it, without a
    /// seed) to share the first 1/16 of the slots are spread like any others: a lookup probes a
    /// few slots, not thousands (such ids made every insert walk all the ones before).
    @Test func idsCraftedToCollideAreSpreadByTheSeed() {
        func unseededStart(_ hash: UInt64, _ slotCount: Int) -> Int {
            var mixed = hash
            mixed ^= mixed >> 33
            mixed &*= 0xff51_afd7_ed55_8ccd
            mixed ^= mixed >> 33
            return Int(truncatingIfNeeded: mixed) & (slotCount - 1)
        }
        // 4,000 subjects: the table ends with 8,192 slots, of which the ids hit the first 512.
        var crafted: [String] = []
        var candidate = 0
        while crafted.count < 4_000 {
            let id = "s\(candidate)"
            if unseededStart(SubjectTable.hash(of: id), 8_192) < 512 { crafted.append(id) }
            candidate += 1
        }
        let table = table(crafted)
        let probes = (0..<table.count).map(table.probes(at:))
        #expect(probes.reduce(0, +) < 4 * table.count, "mean probes \(Double(probes.reduce(0, +)) / Double(table.count))")
        #expect(crafted.allSatisfy { table.index(of: $0, hash: SubjectTable.hash(of: $0)) != nil })
    }
}
