@testable import RelayLintCore
import Testing

/// The arena keeps every record where it put it, whole, however many chunks it takes.
@Suite struct PackedArenaTests {
    @Test func recordsStayWholeAndInPlaceAcrossChunks() {
        var arena = PackedArena()
        var positions: [(Int, Int)] = []
        // 6.5 MB of records of varied sizes (chunks of 64 KiB growing to 4 MiB), one larger than
        // the largest chunk, each with a prefix: records must never be split between chunks.
        var sizes = (0..<12_000).map { 100 + ($0 * 37) % 900 }
        sizes.insert(PackedArena.chunkSize + 10, at: 6_000)
        for (index, size) in sizes.enumerated() {
            let payload = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: size)
            let position = payload.withUnsafeBufferPointer { arena.append($0) { $0.count(index) } }
            positions.append((position, size))
        }
        for (index, (position, size)) in positions.enumerated() {
            var reader = arena.reader(at: position)
            #expect(reader.count() == index)
            let bytes = reader.bytes[reader.offset..<reader.offset + size]
            #expect(bytes.allSatisfy { $0 == UInt8(truncatingIfNeeded: index) }, "record \(index)")
        }
        #expect(Set(positions.map { $0.0 >> 32 }).count >= 7)
    }

    /// The count-prefixed append stores what a writer's prefix stores, for counts of every length.
    @Test(arguments: [0, 1, 127, 128, 300, 16_383, 16_384, 1 << 35, Int.max])
    func aCountPrefixIsWrittenAsTheWriterWritesIt(count: Int) {
        var withWriter = PackedArena()
        var direct = PackedArena()
        let payload: [UInt8] = [7, 8, 9]
        let first = payload.withUnsafeBufferPointer { withWriter.append($0) { $0.count(count) } }
        let second = payload.withUnsafeBufferPointer { direct.append($0, prefixCount: count) }
        var (a, b) = (withWriter.reader(at: first), direct.reader(at: second))
        #expect(a.bytes == b.bytes && a.offset == b.offset)
        #expect(b.count() == count && a.count() == count && b.offset == PackedWriter.byteCount(ofCount: count))
    }
}
