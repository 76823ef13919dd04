import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// `split` keeps a writer per partition and file; what they hold before writing is bounded in
/// all, however many partitions there are, and what they write does not depend on it.
@Suite struct PartitionWriterTests {
    @Test(arguments: [1, 2, 64, 4096])
    func theWritersOfAllPartitionsHoldAtMost64MiB(partitions: Int) {
        let each = PartitionWriter.bufferBytes(partitions: partitions)
        #expect(each <= 1 << 20)
        #expect(each * partitions <= max(64 << 20, 4096 * partitions))
    }

    @Test func aSmallBufferWritesWhatALargeOneWrites() throws {
        let record = Array(#"{"id":"e1"}"#.utf8)
        let blanked = Array("{\"a\":1,\n \"b\":2}".utf8)
        var contents: [Data] = []
        for flushAt in [4, 1 << 20] {
            let path = try Fixtures.temporaryDirectory().appendingPathComponent("part.jsonl").path
            var writer = PartitionWriter(path: path, flushAt: flushAt)
            for _ in 0..<3 {
                record.withUnsafeBufferPointer { writer.write($0) }
                writer.write(byte: UInt8(ascii: "\n"))
                blanked.withUnsafeBufferPointer { writer.writeBlank($0) }
            }
            try writer.close()
            contents.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(contents[0] == contents[1])
        #expect(String(decoding: contents[0], as: UTF8.self) == String(repeating: "{\"id\":\"e1\"}\n\n       ", count: 3))
    }
}
