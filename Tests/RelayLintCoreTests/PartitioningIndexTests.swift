@testable import RelayLintCore
import Testing

/// The binary search the timeline search and the Apple join share: the first element past the
/// partition point, for every point of lists of every length up to a few.
@Suite struct PartitioningIndexTests {
    @Test func theFirstElementOfTheSecondPartitionIsFoundAtEveryPoint() {
        for length in 0...9 {
            let list = Array(0..<length)
            for point in 0...length {
                #expect(list.partitioningIndex { $0 >= point } == point)
            }
            // On a slice, the index is the slice's own.
            let slice = (10..<(10 + length))
            for point in 0...length {
                #expect(slice.partitioningIndex { $0 >= 10 + point } == 10 + point)
            }
        }
    }
}
