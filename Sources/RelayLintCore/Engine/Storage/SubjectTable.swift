/// The dataset's subjects by id: each subject's entry, found by its id's bytes.
///
/// A `[String: Dataset.Subject]` cost about 240 bytes per subject with 2M subjects: buckets of
/// 80 bytes in a table a power of two in size and at most three quarters full, and a heap
/// string per id. Here a subject costs its 64-byte entry, its id's bytes, the end of its id
/// (8 bytes), its hash (8), and two to four 4-byte slots of an index kept at most half full.
///
/// Ids are told apart by their UTF-8 bytes, as JSON tells strings apart and as `--shard`
/// hashes them: the precomposed and the decomposed `café` are two subjects. (Keyed by
/// `String`, they were one subject in a single run but could fall into two shards.)
struct SubjectTable: Sendable {
    /// The subjects in the order they were first seen.
    private var entries: [Dataset.Subject] = []
    /// Per subject: FNV-1a of its id (the shard hash, see `Shard`).
    private var hashes: [UInt64] = []
    /// Per subject: where its id ends in `idBytes` (it starts where the one before ends).
    private var idEnds: [Int] = []
    private var idBytes: [UInt8] = []
    /// Open addressing by hash: an entry's index, or -1 for a free slot. A power of two in size.
    private var slots: [Int32] = []

    var count: Int { hashes.count }

    /// The hash the table (and `--shard`) keys a subject id by.
    static func hash(of id: String) -> UInt64 { FNV1a.hash(id) }

    /// The same for an id given as its UTF-8 bytes.
    static func hash(bytes id: UnsafeBufferPointer<UInt8>) -> UInt64 { FNV1a.hash(bytes: id) }

    subscript(index: Int) -> Dataset.Subject {
        get { entries[index] }
        _modify { yield &entries[index] }
    }

    /// The subject's id hash (FNV-1a of its bytes).
    func hash(at index: Int) -> UInt64 { hashes[index] }

    /// The id of the subject at `index`.
    func id(at index: Int) -> String {
        idBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[idRange(at: index)]), as: UTF8.self) }
    }

    private func idRange(at index: Int) -> Range<Int> { (index == 0 ? 0 : idEnds[index - 1])..<idEnds[index] }

    /// The index of the subject with this id, or nil; `hash` is `SubjectTable.hash(of: id)`.
    func index(of id: String, hash: UInt64) -> Int? {
        id.withUTF8Bytes { index(of: $0, hash: hash) }
    }

    /// The same for an id given as its UTF-8 bytes.
    func index(of id: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        var slot = Self.start(hash, slots.count)
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { return nil }
            if hashes[entry] == hash, hasID(id, at: entry) { return entry }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    /// The index of the subject with this id, added (with no events and no account) when new.
    mutating func insert(_ id: String, hash: UInt64) -> Int {
        id.withUTF8Bytes { insert($0, hash: hash) }
    }

    /// The same for an id given as its UTF-8 bytes (the log reader's).
    mutating func insert(_ id: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int {
        if let existing = index(of: id, hash: hash) { return existing }
        if (entries.count + 1) * 2 > slots.count { grow() }
        let entry = entries.count
        entries.append(Dataset.Subject())
        hashes.append(hash)
        idBytes.append(contentsOf: id)
        idEnds.append(idBytes.count)
        place(entry)
        return entry
    }

    /// Frees the index that finds subjects by id, once nothing is looked up any more (the
    /// evaluation only walks the subjects); `index(of:hash:)` finds nothing afterwards.
    mutating func dropLookupIndex() { slots = [] }

    /// Frees the entries once the evaluation has taken what it needs of them; the ids and
    /// hashes stay, and the subscript finds nothing afterwards.
    mutating func dropEntries() { entries = [] }

    /// The indices of all subjects in `String` order of their ids, the report's subject order,
    /// ids that `String` holds equal (two spellings of `café`) in byte order. ASCII ids are
    /// compared as bytes (the same order), their first 8 bytes as one integer; any other pair
    /// as `String`s, made once for the ids that need them.
    ///
    /// It runs while every subject is in memory, at the peak between reading and evaluating: it
    /// keeps 8 bytes per subject besides the result (an optional prefix, a byte range and an
    /// optional `String` per id took 120 MB for 2M subjects).
    func indicesInIDOrder() -> [Int] {
        idBytes.withUnsafeBufferPointer { all in
            func id(_ index: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: all[idRange(at: index)]) }
            // An ASCII prefix never has its top bit set: all ones stands for "not ASCII".
            let notASCII = UInt64.max
            var texts: [Int: String] = [:]
            let prefixes = (0..<count).map { index -> UInt64 in
                let bytes = id(index)
                guard bytes.allSatisfy({ $0 < 0x80 }) else {
                    texts[index] = String(decoding: bytes, as: UTF8.self)
                    return notASCII
                }
                var prefix: UInt64 = 0
                for (position, byte) in bytes.prefix(8).enumerated() { prefix |= UInt64(byte) << (56 - 8 * position) }
                return prefix
            }
            var order = Array(0..<count)
            order.sort { a, b in
                let (left, right) = (prefixes[a], prefixes[b])
                if left != notASCII, right != notASCII, left != right { return left < right }
                if left == notASCII || right == notASCII {
                    let (left, right) = (
                        texts[a] ?? String(decoding: id(a), as: UTF8.self), texts[b] ?? String(decoding: id(b), as: UTF8.self)
                    )
                    if left != right { return left < right }
                }
                return id(a).lexicographicallyPrecedes(id(b))
            }
            return order
        }
    }

    /// How many slots a lookup of the id at `index` probes (1 when it sits where its hash
    /// starts): how well the ids are spread, which the tests check.
    func probes(at index: Int) -> Int {
        var slot = Self.start(hashes[index], slots.count)
        var count = 1
        while Int(slots[slot]) != index {
            slot = (slot + 1) & (slots.count - 1)
            count += 1
        }
        return count
    }

    private func hasID(_ bytes: UnsafeBufferPointer<UInt8>, at entry: Int) -> Bool {
        idBytes.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[idRange(at: entry)]).hasSameBytes(as: bytes) }
    }

    /// A secret of this process, mixed into every slot: FNV-1a is public and unseeded, so ids
    /// whose slots all fall together are found by brute force in a second, and each one then
    /// probed past all the others (200,000 such subjects took 27 s, 400,000 over a minute). The
    /// shard and partition hash stays FNV-1a: only where a subject sits in memory depends on it.
    private static let seed = UInt64.random(in: .min ... .max)

    /// The first slot to probe: FNV-1a's low bits are weakly mixed, so they are mixed first
    /// (the finalizer of MurmurHash3), with the process's seed.
    private static func start(_ hash: UInt64, _ slotCount: Int) -> Int {
        var mixed = hash ^ seed
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        return Int(truncatingIfNeeded: mixed) & (slotCount - 1)
    }

    private mutating func place(_ entry: Int) {
        var slot = Self.start(hashes[entry], slots.count)
        while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = Int32(entry)
    }

    private mutating func grow() {
        // A billion subjects would take 64 GB of entries alone: far beyond any machine this runs on.
        precondition(entries.count < Int(Int32.max) / 2, "SubjectTable: more than a billion subjects")
        slots = Array(repeating: -1, count: max(16, slots.count * 2))
        for entry in entries.indices { place(entry) }
    }
}
