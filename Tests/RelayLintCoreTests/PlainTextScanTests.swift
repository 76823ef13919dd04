@testable import RelayLintCore
import Testing

/// The word-at-a-time scan stops exactly where a byte-by-byte scan does.
@Suite struct PlainTextScanTests {
    static func naiveEnd(in bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x5C, bytes[index] >= 0x20 { index += 1 }
        return index
    }

    @Test func theScanStopsWhereAByteByByteScanStops() {
        // Every special byte (quote, backslash, each control byte) at every place of a 40-byte
        // text of ordinary bytes (ASCII, UTF-8 lead and trail bytes, 0x7F, 0xFF), from every start.
        let ordinary: [UInt8] = Array("a-Z ~é€\u{7F}".utf8) + [0xFF, 0x21, 0x5B, 0x5D]
        let special: [UInt8] = [0x22, 0x5C] + Array(0..<0x20)
        for mark in special {
            for place in [0, 1, 7, 8, 9, 15, 16, 23, 31, 39] {
                var text = (0..<40).map { ordinary[$0 % ordinary.count] }
                text[place] = mark
                text.withUnsafeBufferPointer { buffer in
                    for start in 0...text.count {
                        #expect(PlainTextScan.end(in: buffer, from: start) == Self.naiveEnd(in: text, from: start))
                    }
                }
            }
        }
        let plain = (0..<21).map { ordinary[$0 % ordinary.count] }
        #expect(plain.withUnsafeBufferPointer { PlainTextScan.end(in: $0, from: 0) } == 21)
    }

    static func naiveEndOfWhitespace(in bytes: [UInt8], from start: Int) -> (end: Int, lineFeeds: Int) {
        var index = start
        var lineFeeds = 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
            if bytes[index] == 0x0A { lineFeeds += 1 }
            index += 1
        }
        return (index, lineFeeds)
    }

    /// Whitespace is skipped a word at a time up to exactly the first other byte, whichever
    /// byte that is (one a bit away from a whitespace byte, such as 0x0B, 0x21 or 0xA0, too),
    /// and the line feeds on the way are all counted.
    @Test func whitespaceEndsWhereAByteByByteScanEndsIt() {
        let whitespace: [UInt8] = [0x20, 0x0A, 0x09, 0x0D, 0x0A, 0x20, 0x20]
        let others: [UInt8] = [0x00, 0x08, 0x0B, 0x0C, 0x0E, 0x1F, 0x21, 0x2A, 0x22, 0x5B, 0x7B, 0x7F, 0x8A, 0xA0, 0xA9, 0xFF]
        for other in others {
            for place in [0, 1, 7, 8, 9, 15, 16, 23, 31, 39] {
                var text = (0..<40).map { whitespace[$0 % whitespace.count] }
                text[place] = other
                text.withUnsafeBufferPointer { buffer in
                    for start in 0...text.count {
                        let scan = PlainTextScan.endOfWhitespace(in: buffer, from: start)
                        let naive = Self.naiveEndOfWhitespace(in: text, from: start)
                        #expect(scan.end == naive.end && scan.lineFeeds == naive.lineFeeds, "\(other) at \(place) from \(start)")
                    }
                }
            }
        }
        let blank = (0..<43).map { whitespace[$0 % whitespace.count] }
        let scan = blank.withUnsafeBufferPointer { PlainTextScan.endOfWhitespace(in: $0, from: 0) }
        #expect(scan.end == 43 && scan.lineFeeds == Self.naiveEndOfWhitespace(in: blank, from: 0).lineFeeds)
    }
}
