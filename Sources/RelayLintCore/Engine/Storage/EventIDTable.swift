/// The first use of every event id of one partition of the duplicate check's records, to
/// recognise exact duplicates: an open-addressing table of 32-byte entries (the id's 128-bit
/// hash, the content digest, the sequence number), sized once for the partition's ids and kept
/// at most four fifths full.
///
/// A `[IDKey: (ContentDigest, UInt64)]` holds the same entries, but in a power-of-two number
/// of buckets at most three quarters full. When one table held every id of a log, 10M ids took
/// 2^24 buckets, 537 MB (420 MB sized to the ids); a partition's table takes a few megabytes.
struct EventIDTable {
    struct FirstUse: Equatable {
        var digest: ContentDigest
        var sequence: UInt64
    }

    private struct Entry {
        var high: Int
        var low: Int
        var digest: ContentDigest
        /// `free` for an empty slot (no line has that sequence number).
        var sequence: UInt64
    }

    private static let free = UInt64.max
    private static let noDigest = ContentDigest(.null)
    private var entries: [Entry] = []
    private(set) var count = 0

    /// Makes room for about `ids` ids in all, so that the table does not grow (and hold the old
    /// and the new entries at once) while it is filled; 10% more fit before it grows.
    mutating func reserveCapacity(_ ids: Int) {
        let slots = ids + ids * 3 / 8 + 1
        if slots > entries.count { rehash(slots: slots) }
    }

    /// Records the first use of an id; when the id was already used, returns that first use
    /// and keeps it.
    mutating func recordFirstUse(of key: IDKey, _ use: FirstUse) -> FirstUse? {
        if (count + 1) * 5 > entries.count * 4 { rehash(slots: max(16, entries.count + entries.count / 2)) }
        return entries.withUnsafeMutableBufferPointer { entries in
            var slot = Self.start(of: key, among: entries.count)
            while entries[slot].sequence != Self.free {
                if entries[slot].high == key.high, entries[slot].low == key.low {
                    return FirstUse(digest: entries[slot].digest, sequence: entries[slot].sequence)
                }
                slot = slot + 1 == entries.count ? 0 : slot + 1
            }
            entries[slot] = Entry(high: key.high, low: key.low, digest: use.digest, sequence: use.sequence)
            count += 1
            return nil
        }
    }

    /// A slot from the hash's high bits, spread over any table size without a division.
    private static func start(of key: IDKey, among slots: Int) -> Int {
        Int(UInt64(bitPattern: Int64(key.high)).multipliedFullWidth(by: UInt64(slots)).high)
    }

    private mutating func rehash(slots: Int) {
        let old = entries
        entries = Array(repeating: Entry(high: 0, low: 0, digest: Self.noDigest, sequence: Self.free), count: slots)
        count = 0
        for entry in old where entry.sequence != Self.free {
            _ = recordFirstUse(
                of: IDKey(high: entry.high, low: entry.low), FirstUse(digest: entry.digest, sequence: entry.sequence))
        }
    }
}
