/// Which events repeat an earlier event exactly (same id, same content: the first is kept) and
/// which use an earlier event's id with other content (both are kept, with a note), decided
/// once everything is read.
///
/// Deciding while reading needed every id's first use at hand: a table of 32 bytes per id, 420 MB
/// at 10M events, the largest thing a run held. Instead each event writes a 32-byte record (its
/// id's 128-bit hash, its content digest, its sequence number) into partitions by id hash, which
/// a large run writes to its temporary file; `resolve` replays each partition in input order
/// through a table of that partition's ids alone. All uses of an id fall in one partition, in
/// input order, so the answer is the one a single table gives.
///
/// While reading, a `SeenIDFilter` names the events whose id may have been used before (the
/// suspects). Only they can turn out duplicates or reuses, so only their line is kept (a reused
/// id's note names the id, and its findings' fingerprints hash its content), and only the counts
/// of suspects wait for the answer.
struct DuplicateCheck {
    /// An event whose id may have been used before (every duplicate is one): 32 bytes.
    struct Suspect {
        var sequence: UInt64
        var time: Timestamp
        /// Where its id and line are kept.
        var line: Int
        /// Look-alike relay addresses it holds: they count only if the event is kept.
        var lookAlikes: Int32
    }

    /// An event that uses an earlier event's id with other content.
    struct Reuse {
        var suspect: Suspect
        var id: String
        /// The subject of the event that reuses the id (empty when its content names none).
        var subject: String
        /// The sequence number of the id's first use.
        var firstUse: UInt64
        /// `Fingerprint.contentKey` of the event's content, which tells its findings apart from
        /// those of the id's other uses.
        var contentKey: String
    }

    struct Outcome {
        /// The sequence numbers of exact duplicates of earlier events.
        var duplicates: Set<UInt64> = []
        /// In input order.
        var reuses: [Reuse] = []
    }

    /// What each event writes: 32 bytes, whatever the length of its id.
    private struct Record {
        var high: Int
        var low: Int
        var digest: UInt64
        var sequence: UInt64
    }

    private var filter = SeenIDFilter()
    /// The ids of logs read after inputs given after them (`expect`), asked for the events of
    /// those inputs until the logs read last begin (`stopExpecting`).
    private var expected = SeenIDFilter()
    private var consultsExpected = true
    private var records: PartitionedArena
    /// Each suspect's id and line, in input order.
    private var lines: PackedArena
    /// In input order.
    private(set) var suspects: [Suspect] = []
    /// Whether every record came in input order (no log read last to be joined): each
    /// partition is then replayed as it is read back, a chunk at a time.
    private var recordsInInputOrder = true
    private var lastSequence: UInt64 = 0

    /// Everything in memory: small runs and rule examples.
    init() {
        records = PartitionedArena()
        lines = PackedArena()
    }

    /// Records and kept lines go to `spill` as their chunks fill.
    init(layout: PartitionedArena.Layout, spillingTo spill: SpillFile) {
        records = PartitionedArena(layout: layout, spillingTo: spill)
        lines = PackedArena(spillingTo: spill, largestChunk: layout.largestChunk)
    }

    /// Takes note of an id that an input read later gives at an earlier place in the input
    /// order (a log joined by Apple user id, read last): an event read before it that has this id
    /// may turn out the repeat, so it must be a suspect.
    mutating func expect(_ key: IDKey) { _ = expected.insert(key) }

    /// The logs read last begin: their own events are not suspects for their ids being expected
    /// (each would be kept and mapped again), only for an id read before, as any event is.
    mutating func stopExpecting() {
        consultsExpected = false
        expected = SeenIDFilter()
    }

    /// Makes room for about `ids` more ids, an estimate.
    mutating func reserveCapacity(_ ids: Int) { filter.reserveCapacity(ids) }

    /// Records one event, in input order; returns whether it is a suspect, whose fate `resolve`
    /// tells.
    mutating func record(
        key: IDKey, digest: ContentDigest, id: UnsafeBufferPointer<UInt8>, sequence: UInt64, time: Timestamp, lookAlikes: Int,
        line: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        record(key: key, digest: digest, id: id, sequence: sequence, time: time, lookAlikes: lookAlikes) { keep in keep(line) }
    }

    /// Records one event whose line is made only if it is a suspect: a mapped record's event
    /// has no line of its own, and its canonical text was a seventh of the time it took.
    mutating func record(
        key: IDKey, digest: ContentDigest, id: UnsafeBufferPointer<UInt8>, sequence: UInt64, time: Timestamp, lookAlikes: Int,
        line withLine: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void
    ) -> Bool {
        let record = Record(high: key.high, low: key.low, digest: digest.value, sequence: sequence)
        if sequence < lastSequence { recordsInInputOrder = false }
        lastSequence = sequence
        let partition = records.partition(ofHash: UInt64(bitPattern: Int64(key.high)))
        withUnsafeBytes(of: record) { _ = records.partitions[partition].append(raw: $0) }
        let seen = filter.insert(key)
        guard seen || consultsExpected && expected.contains(key) else { return false }
        var position = 0
        withLine { line in
            position = lines.append(line) { head in
                head.string(bytes: id)
                head.count(line.count)
            }
        }
        suspects.append(Suspect(sequence: sequence, time: time, line: position, lookAlikes: Int32(clamping: lookAlikes)))
        return true
    }

    /// Replays the records, a partition at a time on `parallelism` threads, and reads back the
    /// lines of the reuses; lets go of everything but the suspects.
    mutating func resolve(parallelism: Int) throws(SpillError) -> Outcome {
        var partitions = records.partitions
        records = PartitionedArena()
        // No suspect, no id used twice: nothing to replay.
        guard !suspects.isEmpty else { return Outcome() }
        let indices = Array(partitions.indices)
        let box = PartitionBox(partitions)
        partitions = []
        let inOrder = recordsInInputOrder
        let found = Linter.parallelMap(indices, parallelism: parallelism, serialUpTo: 1) { index in
            Result { () throws(SpillError) in try Self.replay(box.take(index), inInputOrder: inOrder) }
        }
        var outcome = Outcome()
        var reused: [UInt64: UInt64] = [:]
        for result in found {
            let (duplicates, reuses) = try result.get()
            outcome.duplicates.formUnion(duplicates)
            for (sequence, firstUse) in reuses { reused[sequence] = firstUse }
        }
        guard !reused.isEmpty else { return outcome }
        // The lines are read back a chunk at a time, in the order they were kept.
        var loaded: Int?
        for suspect in suspects {
            guard let firstUse = reused[suspect.sequence] else { continue }
            if loaded != lines.chunk(of: suspect.line) {
                if let loaded { lines.forget(chunk: loaded) }
                try lines.load(chunk: lines.chunk(of: suspect.line))
                loaded = lines.chunk(of: suspect.line)
            }
            var reader = lines.reader(at: suspect.line)
            let id = reader.string()
            let content = reader.rawBytes(count: reader.count()).withUnsafeBufferPointer { try? JSONParser.parseDocument($0) }
            var subject = ""
            if case .object(let members)? = content, case .string(let text)? = members["subject"] { subject = text }
            outcome.reuses.append(
                Reuse(
                    suspect: suspect, id: id, subject: subject, firstUse: firstUse,
                    contentKey: Fingerprint.contentKey((content ?? .null).canonicalText)))
        }
        lines = PackedArena()
        // In input order: suspects are in the order read, and a log joined by Apple user id is
        // read last.
        outcome.reuses.sort { $0.suspect.sequence < $1.suspect.sequence }
        return outcome
    }

    /// One partition's records in input order through a table of their ids: the duplicates, and
    /// the reuses with their id's first use. Records are written in the order they are read,
    /// which is the input order but for a log read last to be joined: then they are sorted.
    private static func replay(
        _ partition: consuming PackedArena, inInputOrder: Bool
    ) throws(SpillError) -> ([UInt64], [(UInt64, UInt64)]) {
        var arena = partition
        var inOrder = inInputOrder
        if !inOrder {
            try arena.load()
            var previous: UInt64 = 0
            inOrder = true
            arena.forEachChunk { chunk in
                for offset in stride(from: 0, to: chunk.count, by: MemoryLayout<Record>.size) where inOrder {
                    let sequence = chunk.loadUnaligned(fromByteOffset: offset, as: Record.self).sequence
                    inOrder = sequence >= previous
                    previous = sequence
                }
            }
        }
        if !inOrder {
            var records: [Record] = []
            records.reserveCapacity(arena.byteCount / MemoryLayout<Record>.size)
            arena.forEachChunk { chunk in
                for offset in stride(from: 0, to: chunk.count, by: MemoryLayout<Record>.size) {
                    records.append(chunk.loadUnaligned(fromByteOffset: offset, as: Record.self))
                }
            }
            records.sort { $0.sequence < $1.sequence }
            arena = PackedArena()
            records.withUnsafeBytes { _ = arena.append(raw: $0) }
        }
        var seen = EventIDTable()
        // Room for the records' ids, up to a few million: the records of one id repeated need
        // one entry, and a table for each of 30 million duplicates took a gigabyte.
        seen.reserveCapacity(min(arena.byteCount / MemoryLayout<Record>.size, 1 << 22))
        // A set per id: one id given to 800,000 different contents was checked against every
        // content before, quadratic in the lines.
        var otherContents: [IDKey: Set<ContentDigest>] = [:]
        var duplicates: [UInt64] = []
        var reuses: [(UInt64, UInt64)] = []
        try arena.consumeChunks { chunk in
            for offset in stride(from: 0, to: chunk.count, by: MemoryLayout<Record>.size) {
                let record = chunk.loadUnaligned(fromByteOffset: offset, as: Record.self)
                let key = IDKey(high: record.high, low: record.low)
                let digest = ContentDigest(value: record.digest)
                guard let first = seen.recordFirstUse(of: key, EventIDTable.FirstUse(digest: digest, sequence: record.sequence))
                else { continue }
                if first.digest == digest || otherContents[key]?.contains(digest) == true {
                    duplicates.append(record.sequence)
                } else {
                    reuses.append((record.sequence, first.sequence))
                    otherContents[key, default: []].insert(digest)
                }
            }
        }
        return (duplicates, reuses)
    }
}

/// Hands each partition to the one worker that replays it, and lets go of it there.
private final class PartitionBox: @unchecked Sendable {
    private let partitions: UnsafeMutableBufferPointer<PackedArena>

    init(_ partitions: [PackedArena]) {
        self.partitions = .allocate(capacity: partitions.count)
        _ = self.partitions.initialize(from: partitions)
    }

    deinit {
        _ = partitions.deinitialize()
        partitions.deallocate()
    }

    /// Each index is taken once, by one worker.
    func take(_ index: Int) -> PackedArena {
        defer { partitions[index] = PackedArena() }
        return partitions[index]
    }
}
