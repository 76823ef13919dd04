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
}
