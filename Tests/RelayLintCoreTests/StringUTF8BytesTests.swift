import Foundation
@testable import RelayLintCore
import Testing

/// Hashing, packing and comparing names read a string's bytes in place; they must be the bytes
/// the string is, whatever its size, its script, or how it was made.
@Suite struct StringUTF8BytesTests {
    @Test(arguments: [
        "", "a", "fifteen bytes..", "sixteen bytes...", "é", "e\u{301}", "ünïcödé address@privaterelay.appleid.com",
        String(repeating: "0123456789", count: 50),
    ])
    func theBytesAreTheStringsUTF8(text: String) {
        #expect(text.withUTF8Bytes { Array($0) } == Array(text.utf8))
    }

    /// Strings made otherwise: from a slice, by Foundation (whose strings may not lie in one
    /// piece on every platform; here they do, and the copy `withUTF8Bytes` falls back on is not
    /// reached).
    @Test func stringsMadeOtherwiseGiveTheirBytesToo() {
        let whole = "prefix-" + String(repeating: "ü", count: 20) + "-suffix"
        let slice = String(whole.dropFirst(7).dropLast(7))
        #expect(slice.withUTF8Bytes { Array($0) } == Array(slice.utf8))
        let bridged = NSString(string: whole).appending("!")
        #expect(bridged.withUTF8Bytes { Array($0) } == Array(bridged.utf8))
    }
}
