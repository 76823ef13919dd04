/// Append-only storage for the packed records the dataset keeps (events, accounts): chunks of
/// up to 4 MiB that never move, so that a record's position stays valid and growing never copies
/// what is already stored.
///
/// Millions of small buffers, one per subject, cost a heap block each (header, rounding) and
/// grew by doubling, about 40% more than their bytes; and freed among the parse's garbage,
/// they left memory the allocator could not give back. Here a record costs its bytes.
///
/// With a `SpillFile`, each chunk is written to it as soon as it is full and let go (the last
/// when reading is over, `finishAppending()`), and `load()` reads them all back when their
/// records are needed: a large run then holds only a chunk per arena while it reads.
struct PackedArena: Sendable {
    /// The largest chunk in memory; the first is 64 KiB and each next one twice the last, so that
    /// a small input (a rule example) does not take megabytes.
    static let chunkSize = 4 << 20
    private var chunks: [[UInt8]] = []
    private let spill: SpillFile?
    /// The largest chunk: smaller when spilling, since one chunk per arena stays in memory.
    private let largestChunk: Int
    /// Per chunk: where it lies in the spill file while it is not in memory.
    private var spilled: [(offset: Int, count: Int)?] = []

    init() {
        spill = nil
        largestChunk = Self.chunkSize
    }

    /// An arena that writes its full chunks, of at most `largestChunk` bytes, to `spill`.
    init(spillingTo spill: SpillFile, largestChunk: Int) {
        self.spill = spill
        self.largestChunk = largestChunk
    }

    /// Stores `prefix` (a few bytes, written by the closure) followed by `bytes`, together in one
    /// chunk; returns the record's position.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, prefix: (inout PackedWriter) -> Void = { _ in }) -> Int {
        var head = PackedWriter()
        prefix(&head)
        let last = makeRoom(for: head.bytes.count + bytes.count)
        let position = last << 32 | chunks[last].count
        chunks[last].append(contentsOf: head.bytes)
        chunks[last].append(contentsOf: bytes)
        return position
    }

    /// Stores a count (as `PackedWriter.count` writes it) followed by `bytes`: what `append(_:prefix:)`
    /// stores for a one-count prefix, without a buffer of its own for the prefix (an allocation
    /// per event, on the thread that files them).
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, prefixCount count: Int) -> Int {
        precondition(count >= 0, "PackedArena: a count is never negative")
        let last = makeRoom(for: PackedWriter.byteCount(ofCount: count) + bytes.count)
        let position = last << 32 | chunks[last].count
        PackedWriter.append(unsigned: UInt64(count), to: &chunks[last])
        chunks[last].append(contentsOf: bytes)
        return position
    }

    /// Stores `bytes` as they are (a fixed-size record's memory); returns the record's position.
    mutating func append(raw bytes: UnsafeRawBufferPointer) -> Int {
        let last = makeRoom(for: bytes.count)
        let position = last << 32 | chunks[last].count
        chunks[last].append(contentsOf: bytes)
        return position
    }

    /// The chunk the next `size` bytes go to: the last, or a new one when they do not fit.
    private mutating func makeRoom(for size: Int) -> Int {
        if chunks.isEmpty || chunks[chunks.count - 1].count + size > chunks[chunks.count - 1].capacity {
            let grown = min(largestChunk, chunks.last.map { $0.capacity * 2 } ?? 1 << 16)
            if !chunks.isEmpty { spillLastChunk() }
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(size, grown))
            chunks.append(chunk)
            spilled.append(nil)
        }
        return chunks.count - 1
    }

    /// Writes the full last chunk to the spill file and lets it go; when the write fails (a full
    /// disk), the chunk simply stays in memory.
    private mutating func spillLastChunk() {
        let last = chunks.count - 1
        guard let spill, let offset = chunks[last].withUnsafeBufferPointer(spill.append) else { return }
        spilled[last] = (offset, chunks[last].count)
        chunks[last] = []
    }

    /// Writes the last chunk to the spill file too, once nothing more is appended: until its
    /// partition's turn, it would wait in memory (256 partitions: up to 64 MiB). Without a spill
    /// file, it does nothing.
    mutating func finishAppending() {
        guard !chunks.isEmpty, spilled[chunks.count - 1] == nil, !chunks[chunks.count - 1].isEmpty else { return }
        spillLastChunk()
    }

    /// How many chunks are in the spill file and not in memory.
    var spilledChunkCount: Int { spilled.count { $0 != nil } }

    /// The bytes the chunks in memory hold (their capacity).
    var bytesInMemory: Int { chunks.reduce(0) { $0 + $1.capacity } }

    /// Reads every spilled chunk back into memory, before the records are read in bulk.
    mutating func load() throws(SpillError) {
        for index in spilled.indices { try load(chunk: index) }
    }

    /// The bytes stored, in memory or not.
    var byteCount: Int { zip(chunks, spilled).reduce(0) { $0 + ($1.1?.count ?? $1.0.count) } }

    /// Hands over each chunk's bytes in order; all are in memory (`load()`). Records of a fixed
    /// size can be walked this way, since a record never spans two chunks.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) -> Void) {
        for (chunk, extent) in zip(chunks, spilled) {
            precondition(extent == nil, "a spilled chunk is read before load()")
            chunk.withUnsafeBytes(body)
        }
    }

    /// Hands over each chunk's bytes in order, reading a spilled one back only while it is
    /// handed over, and lets go of each after: the records are read once, and never all in
    /// memory at once (a partition of 30 million duplicate events was 960 MB loaded whole).
    mutating func consumeChunks(_ body: (UnsafeRawBufferPointer) -> Void) throws(SpillError) {
        for index in chunks.indices {
            try load(chunk: index)
            chunks[index].withUnsafeBytes(body)
            forget(chunk: index)
        }
    }

    /// The chunk a record lies in.
    func chunk(of position: Int) -> Int { position >> 32 }

    /// Reads one chunk back into memory, for reading the records of a few chunks at a time.
    mutating func load(chunk index: Int) throws(SpillError) {
        guard let spill, let extent = spilled[index] else { return }
        chunks[index] = try spill.read(at: extent.offset, count: extent.count)
        spilled[index] = nil
    }

    /// Lets go of a chunk whose records are no longer needed; they cannot be read again.
    mutating func forget(chunk index: Int) {
        chunks[index] = []
        spilled[index] = nil
    }

    /// A reader at a record's position; the record's chunk is in memory (not spilled, or
    /// loaded).
    func reader(at position: Int) -> PackedReader {
        precondition(spilled[position >> 32] == nil, "a spilled record is read before load()")
        return PackedReader(bytes: chunks[position >> 32], offset: position & 0xFFFF_FFFF)
    }

    /// A reader at a record's position, read back from the spill file (from the record to the
    /// end of its chunk) when the chunk is there: for the odd record needed while the inputs
    /// are still being read.
    func readerReadingBack(at position: Int) throws(SpillError) -> PackedReader {
        let (index, offset) = (position >> 32, position & 0xFFFF_FFFF)
        guard let extent = spilled[index], let spill else { return reader(at: position) }
        return PackedReader(bytes: try spill.read(at: extent.offset + offset, count: extent.count - offset), offset: 0)
    }
}
