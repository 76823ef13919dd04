/// A 128-bit hash of an event id: the key of the duplicate check, 16 bytes however long the id.
struct IDKey: Hashable, Sendable {
    let high: Int
    let low: Int

    /// The standard (seeded SipHash) hash and a 64-bit FNV-1a of the bytes: two independent
    /// halves for one SipHash run.
    init(_ id: String) {
        var hasher = Hasher()
        hasher.combine(id)
        (high, low) = (hasher.finalize(), Int(bitPattern: UInt(FNV1a.hash(id))))
    }

    /// A key from the halves `EventIDTable` stores.
    init(high: Int, low: Int) {
        self.high = high
        self.low = low
    }
}
