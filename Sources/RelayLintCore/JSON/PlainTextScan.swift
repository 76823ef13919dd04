/// Finds where the plain part of a JSON string, or a run of whitespace between values, ends a
/// word at a time: the readers step over millions of string bytes that are neither a quote, a
/// backslash nor a control character, and a hostile file over gigabytes of whitespace.
enum PlainTextScan {
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

    /// The index of the quote that closes the string whose opening quote is at `quote` (the
    /// end of `bytes` if none): its plain runs a word at a time, an escape two bytes at once.
    /// The scans that only step over strings (value counts, an element's end) read no more.
    static func closingQuote(ofStringAt quote: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = end(in: bytes, from: quote + 1)
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index = end(in: bytes, from: index + (bytes[index] == UInt8(ascii: "\\") ? 2 : 1))
        }
        return min(index, bytes.count)
    }

    /// The first index at or after `start` that is not JSON whitespace (space, tab, line feed,
    /// carriage return; the end of `bytes` if none), and how many line feeds lie before it.
    /// Whole words of whitespace are skipped at once: a 5 MB gzip file of an export holding 4 GiB
    /// of spaces was scanned a byte at a time, for most of a minute.
    static func endOfWhitespace(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, lineFeeds: Int) {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let ones: UInt64 = 0x0101_0101_0101_0101
        // The top bit of each byte of `word` that equals `byte`, exactly (no borrow reaches into
        // the next byte, as it can in the shorter test `end(in:from:)` uses).
        func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
            let difference = word ^ (ones &* UInt64(byte))
            return ~(((difference & lows) &+ lows) | difference) & ~lows
        }
        // Most calls are at a byte that is no whitespace (a scan calls this at every byte
        // outside strings): told by that byte alone.
        if start < bytes.count, bytes[start] > 0x20 { return (start, 0) }
        var index = start
        var lineFeeds = 0
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let feeds = equal(word, 0x0A)
                guard equal(word, 0x20) | feeds | equal(word, 0x09) | equal(word, 0x0D) == ~lows else { break }
                lineFeeds += feeds.nonzeroBitCount
                index += 8
            }
        }
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: lineFeeds += 1
            case 0x20, 0x09, 0x0D: break
            default: return (index, lineFeeds)
            }
            index += 1
        }
        return (index, lineFeeds)
    }
}
