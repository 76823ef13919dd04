/// Append-only storage for the packed records the dataset keeps (events, accounts): chunks of
/// up to 4 MiB that never move, so that a record's position stays valid and growing never copies
/// what is already stored.
///
/// Millions of small buffers, one per subject, cost a heap block each (header, rounding) and
/// grew by doubling, about 40% more than their bytes; and freed among the parse's garbage,
/// they left memory the allocator could not give back. Here a record costs its bytes.
struct PackedArena: Sendable {
    /// The largest chunk; the first is 64 KiB and each next one twice the last, so that a small
    /// input (a rule example) does not take megabytes.
    static let chunkSize = 4 << 20
    private var chunks: [[UInt8]] = []

    /// Stores `prefix` (a few bytes, written by the closure) followed by `bytes`, together in one
    /// chunk; returns the record's position.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, prefix: (inout PackedWriter) -> Void = { _ in }) -> Int {
        var head = PackedWriter()
        prefix(&head)
        let size = head.bytes.count + bytes.count
        if chunks.isEmpty || chunks[chunks.count - 1].count + size > chunks[chunks.count - 1].capacity {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(size, min(Self.chunkSize, chunks.last.map { $0.capacity * 2 } ?? 1 << 16)))
            chunks.append(chunk)
        }
        let last = chunks.count - 1
        let position = last << 32 | chunks[last].count
        chunks[last].append(contentsOf: head.bytes)
        chunks[last].append(contentsOf: bytes)
        return position
    }

    /// A reader at a record's position.
    func reader(at position: Int) -> PackedReader {
        PackedReader(bytes: chunks[position >> 32], offset: position & 0xFFFF_FFFF)
    }
}
