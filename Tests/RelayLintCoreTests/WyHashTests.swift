@testable import RelayLintCore
import Testing

/// `WyHash` is `wyhash_final3` for inputs up to 48 bytes (it leaves out the reference's three-lane
/// loop for longer ones); these are the reference implementation's published test vectors.
@Suite struct WyHashTests {
    @Test(
        arguments: [
            ("", 0, 0x42bc_986d_c5ee_c4d3),
            ("a", 1, 0x8450_8dc9_03c3_1551),
            ("abc", 2, 0x0bc5_4887_cfc9_ecb1),
            ("message digest", 3, 0x6e2f_f329_8208_a67c),
            ("abcdefghijklmnopqrstuvwxyz", 4, 0x9a64_e42e_8971_95b9),
        ] as [(String, UInt64, UInt64)])
    func shortInputsHashAsTheReference(text: String, seed: UInt64, expected: UInt64) {
        var text = text
        let hash = text.withUTF8 { WyHash.hash(UnsafeRawBufferPointer($0), seed: seed) }
        #expect(hash == expected)
    }

    /// Every length up to 40 reads only its own bytes: a change after the end changes nothing,
    /// and a change of any byte inside changes the hash.
    @Test func everyByteCountsAndNoneBeyond() {
        var bytes = [UInt8](repeating: 0x61, count: 48)
        for count in 0...40 {
            let hash = bytes.withUnsafeBytes { WyHash.hash(UnsafeRawBufferPointer(rebasing: $0[..<count]), seed: 7) }
            bytes[count] ^= 0x20
            let afterTheEnd = bytes.withUnsafeBytes { WyHash.hash(UnsafeRawBufferPointer(rebasing: $0[..<count]), seed: 7) }
            bytes[count] ^= 0x20
            #expect(afterTheEnd == hash, "length \(count)")
            for index in 0..<count {
                bytes[index] ^= 0x01
                let changed = bytes.withUnsafeBytes { WyHash.hash(UnsafeRawBufferPointer(rebasing: $0[..<count]), seed: 7) }
                bytes[index] ^= 0x01
                #expect(changed != hash, "length \(count), byte \(index)")
            }
        }
    }

    /// Lengths are mixed in, so that strings hashed one after the other cannot trade bytes.
    @Test func consecutiveStringsCannotTradeBytes() {
        func hash(_ parts: [String]) -> UInt64 {
            var hasher = WyHash(seed: 1)
            for var part in parts { part.withUTF8 { hasher.combine($0) } }
            return hasher.state
        }
        #expect(hash(["ab", "c"]) != hash(["a", "bc"]))
        #expect(hash(["", "abc"]) != hash(["abc", ""]))
    }
}
