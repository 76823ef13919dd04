/// The dataset's packed records split by subject into partitions, each its own `PackedArena`,
/// so that a large run can write them to a temporary file while it reads and evaluate one
/// partition at a time: memory then holds one partition's records instead of all of them.
///
/// A subject's partition depends on its id hash alone, so its events and its account always
/// share one, and their positions are positions in that partition's arena.
struct PartitionedArena: Sendable {
    /// Partitions by subject; one (in memory) unless the run spills.
    var partitions: [PackedArena]

    /// Everything in one partition, in memory: small runs and rule examples.
    init() { partitions = [PackedArena()] }

    /// How many partitions a spilling run has, and how large a chunk grows before it is written.
    struct Layout: Sendable {
        var partitions: Int
        var largestChunk: Int

        /// About 8 MiB of packed records per partition (a record is about a third of its input
        /// line), so that the one being evaluated is small: at least 2 partitions and at most
        /// 256, whose last chunks (256 KiB at most) are what stays in memory while reading.
        init(forInputBytes bytes: Int) {
            self.init(partitions: min(256, max(2, bytes / (24 << 20))), largestChunk: 256 << 10)
        }

        init(partitions: Int, largestChunk: Int) {
            precondition(partitions >= 1 && largestChunk >= 1)
            self.partitions = partitions
            self.largestChunk = largestChunk
        }
    }

    /// Partitions whose full chunks go to `spill`.
    init(layout: Layout, spillingTo spill: SpillFile) {
        partitions = (0..<layout.partitions).map { _ in PackedArena(spillingTo: spill, largestChunk: layout.largestChunk) }
    }

    /// Writes each partition's last chunk to the spill file, once reading is over.
    mutating func finishAppending() {
        for index in partitions.indices { partitions[index].finishAppending() }
    }

    /// The partition of a record by a 64-bit hash: a subject's `SubjectTable.hash(of:)` (or, in
    /// the duplicate check, an id's hash). The hash is mixed first: `--shard` slices by the
    /// subject hash modulo the shard count, and a partition must not follow the shards (one
    /// shard's subjects would fill only some partitions).
    func partition(ofHash hash: UInt64) -> Int {
        Int(((hash &* 0x9E37_79B9_7F4A_7C15) >> 32) % UInt64(partitions.count))
    }
}
