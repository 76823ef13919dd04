/// Which event ids may have been read before: a blocked Bloom filter of about 16 bits per id.
///
/// The duplicate check decides after reading, from records it writes away, which events repeat
/// an earlier id; this filter tells it, while reading, the few events it must keep more of (their
/// line, for the note and the fingerprint of a reused id). "No" is certain: such an id was never
/// added. "Maybe" is wrong for about one new id in a thousand when the filter is full (less
/// while it fills), which costs only the kept line.
///
/// 10M ids take 20 MB here, against 420 MB for a table of every id's first use.
struct SeenIDFilter {
    /// One filter of a fixed size; when it holds its capacity, a next one twice as large takes the
    /// new ids (a Bloom filter cannot grow: it does not keep its keys), and a lookup asks all.
    private struct Generation {
        /// 512-bit blocks (8 words, one cache line): all of an id's bits lie in one block.
        var words: [UInt64]
        let capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            words = Array(repeating: 0, count: max(1, capacity / 32) * 8)
        }

        /// The block's first word and the id's mixed low half, whose 7 positions of 9 bits are
        /// its bits in the block.
        func place(of key: IDKey) -> (block: Int, bits: UInt64) {
            let blocks = UInt64(words.count / 8)
            let block = Int(UInt64(bitPattern: Int64(key.high)).multipliedFullWidth(by: blocks).high) * 8
            var mixed = UInt64(bitPattern: Int64(key.low)) &* 0x9E37_79B9_7F4A_7C15
            mixed ^= mixed >> 31
            return (block, mixed)
        }

        /// The word of `words` and the mask in it of one of an id's 7 bits.
        static func bit(_ position: Int, at place: (block: Int, bits: UInt64)) -> (word: Int, mask: UInt64) {
            let bit = Int(truncatingIfNeeded: place.bits >> (9 * UInt64(position))) & 511
            return (place.block + bit >> 6, 1 << UInt64(bit & 63))
        }

        func contains(_ key: IDKey) -> Bool {
            let place = place(of: key)
            return (0..<7).allSatisfy { position in
                let (word, mask) = Self.bit(position, at: place)
                return words[word] & mask != 0
            }
        }

        mutating func insert(_ key: IDKey) {
            let place = place(of: key)
            for position in 0..<7 {
                let (word, mask) = Self.bit(position, at: place)
                words[word] |= mask
            }
            count += 1
        }
    }

    private var generations: [Generation] = []

    /// Makes room for `ids` more ids (an estimate, from a log's size), so that they share one
    /// filter: a filter sized for them, unless the last one has room.
    mutating func reserveCapacity(_ ids: Int) {
        let free = generations.last.map { $0.capacity - $0.count } ?? 0
        guard ids > free else { return }
        generations.append(Generation(capacity: max(1 << 16, ids + ids / 8)))
    }

    /// Adds an id; returns whether it may have been added before (false: certainly not).
    mutating func insert(_ key: IDKey) -> Bool {
        for index in generations.indices where generations[index].contains(key) { return true }
        // Past its estimate (or with none: a pipe), each next filter is twice the last, so that a
        // log of any size takes a few filters, each asked for every id.
        if generations.last.map({ $0.count >= $0.capacity }) ?? true { reserveCapacity(max(1, (generations.last?.capacity ?? 0) * 2)) }
        generations[generations.count - 1].insert(key)
        return false
    }

    /// Whether an id may have been added (false: certainly not).
    func contains(_ key: IDKey) -> Bool { generations.contains { $0.contains(key) } }

    /// The filter's memory, for tests.
    var bytes: Int { generations.reduce(0) { $0 + $1.words.count * 8 } }
}
