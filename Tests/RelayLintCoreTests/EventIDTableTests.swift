@testable import RelayLintCore
import Testing

/// The duplicate check's table keeps the first use of every id, however it grows.
@Suite struct EventIDTableTests {
    func use(_ digest: Int, _ sequence: UInt64) -> EventIDTable.FirstUse {
        EventIDTable.FirstUse(digest: ContentDigest(.number(JSONNumber(text: "\(digest)", value: Double(digest)))), sequence: sequence)
    }

    @Test func anIdUsedAgainGetsItsFirstUseBack() {
        var table = EventIDTable()
        #expect(table.recordFirstUse(of: IDKey("e1"), use(1, 10)) == nil)
        #expect(table.recordFirstUse(of: IDKey("e1"), use(2, 11)) == use(1, 10))
        #expect(table.recordFirstUse(of: IDKey("e1"), use(3, 12)) == use(1, 10))
        #expect(table.count == 1)
    }

    @Test(arguments: [0, 25_000])
    func everyIdIsKeptAcrossGrowth(reserved: Int) {
        var table = EventIDTable()
        table.reserveCapacity(reserved)
        // Keys that share their high half share a start slot: the first slot (42), and the last
        // (-1), whose run wraps round to the table's start.
        let keys =
            (0..<20_000).map { IDKey("id-\($0)") } + (0..<300).map { IDKey(high: 42, low: $0) } + (0..<300).map { IDKey(high: -1, low: $0) }
        for (index, key) in keys.enumerated() { #expect(table.recordFirstUse(of: key, use(index, UInt64(index))) == nil) }
        for (index, key) in keys.enumerated() where index % 7 == 0 {
            #expect(table.recordFirstUse(of: key, use(-1, 0)) == use(index, UInt64(index)))
        }
        #expect(table.count == keys.count)
    }
}
