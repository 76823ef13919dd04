@testable import RelayLintCore
import Testing

/// `Linter.parallelMap` hands back each result once and keeps none of them: the account reader
/// and the subject pass run millions of results through it.
@Suite struct ParallelMapTests {
    final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test(arguments: [1, 2, 4])
    func resultsComeBackInOrderAndAreFreedWithTheArray(parallelism: Int) {
        weak var first: Box?
        weak var last: Box?
        do {
            let results = Linter.parallelMap(Array(0..<500), parallelism: parallelism) { Box($0 * 2) }
            #expect(results.map(\.value) == (0..<500).map { $0 * 2 })
            first = results.first
            last = results.last
            #expect(first != nil && last != nil)
        }
        #expect(first == nil, "the first result outlived the array it was returned in")
        #expect(last == nil, "the last result outlived the array it was returned in")
    }
}
