/// A 128-bit hash of an event id: the key of the duplicate check, 16 bytes however long the id.
/// Ids are told apart by their UTF-8 bytes, as JSON tells strings apart.
struct IDKey: Hashable, Sendable {
    let high: Int
    let low: Int

    init(_ id: String) {
        self = id.withUTF8Bytes(IDKey.init(bytes:))
    }

    /// The standard (seeded SipHash) hash and a 64-bit FNV-1a of the bytes: two independent
    /// halves for one SipHash run.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        (high, low) = (hasher.finalize(), Int(bitPattern: UInt(FNV1a.hash(bytes: bytes))))
    }

    /// A key from the halves `EventIDTable` stores.
    init(high: Int, low: Int) {
        self.high = high
        self.low = low
    }
}
