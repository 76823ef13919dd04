/// wyhash (Wang Yi's `wyhash_final3`, without its 48-byte three-lane loop): a seeded 64-bit
/// hash of a byte string built on one 64×64→128-bit multiply per 16 bytes.
///
/// The content digest hashes every member of every event (seven per event in the benchmark's
/// logs, 70M at 10M events). `Hasher` (SipHash-1-3) spent ~4% of a run's samples on them; wyhash
/// passes SMHasher and costs a fraction of that on short strings. What it gives up, resistance
/// to collisions chosen by someone who knows the seed, does not matter here: the seed is random
/// per process (`Hasher`'s), and a digest is compared only between events with the same id.
struct WyHash {
    private(set) var state: UInt64

    /// A hasher whose seed is `Hasher`'s per-process one (fixed under
    /// `SWIFT_DETERMINISTIC_HASHING`, as every other hash of the run).
    static let processSeed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x7779_6861_7368 as UInt64)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }()

    init(seed: UInt64 = WyHash.processSeed) { state = seed }

    /// Mixes in a byte string and its length, so that consecutive strings cannot trade bytes.
    mutating func combine(_ bytes: UnsafeBufferPointer<UInt8>) {
        state = Self.hash(UnsafeRawBufferPointer(bytes), seed: state)
    }

    /// Mixes in one small value (a type tag, a count).
    mutating func combine(_ value: UInt64) {
        state = Self.mix(state ^ Self.secret0 ^ value, Self.secret1)
    }

    private static let secret0: UInt64 = 0xa076_1d64_78bd_642f
    private static let secret1: UInt64 = 0xe703_7ed1_a0b4_28db

    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var seed = seed ^ secret0
        let count = bytes.count
        var a: UInt64 = 0
        var b: UInt64 = 0
        if let base = bytes.baseAddress {
            if count <= 16 {
                if count >= 4 {
                    // Two overlapping pairs of 4-byte reads cover 4 to 16 bytes.
                    let step = (count >> 3) << 2
                    a = load4(base, 0) << 32 | load4(base, step)
                    b = load4(base, count - 4) << 32 | load4(base, count - 4 - step)
                } else if count > 0 {
                    a = UInt64(bytes[0]) << 16 | UInt64(bytes[count >> 1]) << 8 | UInt64(bytes[count - 1])
                }
            } else {
                var offset = 0
                var left = count
                while left > 16 {
                    seed = mix(load8(base, offset) ^ secret1, load8(base, offset + 8) ^ seed)
                    offset += 16
                    left -= 16
                }
                a = load8(base, count - 16)
                b = load8(base, count - 8)
            }
        }
        return mix(secret1 ^ UInt64(count), mix(a ^ secret1, b ^ seed))
    }

    private static func load8(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static func load4(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }
}
