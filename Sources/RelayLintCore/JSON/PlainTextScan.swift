/// Finds where the plain part of a JSON string ends, a word at a time: the readers step over
/// millions of string bytes that are neither a quote, a backslash nor a control character.
enum PlainTextScan {
    /// Eight spaces as one little- or big-endian word: pretty-printed JSON is indented in them.
    static let eightSpaces = UInt64(0x2020_2020_2020_2020)

    /// The first index at or after `start` holding `"`, `\\` or a byte below 0x20 (the end of
    /// `bytes` if none). Whole 8-byte words of other bytes are skipped at once, by the classic
    /// test for a zero byte (`word ^ pattern`) and for a byte below 0x20.
    static func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                // A byte below 0x20 borrows when 0x20 is taken from it (and has its top bit clear).
                let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                if special & highs != 0 { break }
                index += 8
            }
        }
        while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x5C, bytes[index] >= 0x20 { index += 1 }
        return index
    }
}
