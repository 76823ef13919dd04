/// FNV-1a, 64-bit, over a string's UTF-8 bytes: a fixed, seedless hash, so that it is the same
/// on every machine and in every run (`--shard` slices by it), and cheap next to `Hasher`.
enum FNV1a {
    static func hash(_ text: String) -> UInt64 {
        text.withUTF8Bytes(hash(bytes:))
    }

    static func hash(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
