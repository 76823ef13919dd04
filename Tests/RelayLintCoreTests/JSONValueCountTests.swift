import Foundation
@testable import RelayLintCore
import Testing

/// A document read whole is refused when it holds more values than its cap, counted before
/// anything is decoded; what lies inside strings does not count.
@Suite struct JSONValueCountTests {
    static func offsetPast(_ limit: Int, in text: String) -> Int? {
        Array(text.utf8).withUnsafeBufferPointer { JSONValueCount.offsetPast(limit, in: $0) }
    }

    @Test func aDocumentWithinItsCapPasses() {
        // An object, a list, three numbers and a string: six values.
        let text = #"{"a":[1,2,3],"b":"x,y[{"}"#
        #expect(Self.offsetPast(6, in: text) == nil)
        #expect(Self.offsetPast(5, in: text) == Array(text.utf8).firstIndex(of: UInt8(ascii: "]")).map { $0 + 1 })
    }

    @Test func commasAndBracketsInsideStringsDoNotCount() {
        let text = #"["a\"b,c,[{", "\\", "d"]"#
        #expect(Self.offsetPast(4, in: text) == nil)
        // The third value starts after the comma that follows "\\".
        let third = text.utf8.count - #", "d"]"#.utf8.count
        #expect(Self.offsetPast(3, in: text) == third)
    }

    @Test func theRefusalNamesTheLineAndColumnWhereTheCapIsPassed() {
        let data = Data("[\n0,\n0,\n0]".utf8)
        #expect(throws: Never.self) { try JSONValueCount.check(data, path: "report.json", kind: "a JSON report", limit: 4) }
        do {
            try JSONValueCount.check(data, path: "report.json", kind: "a JSON report", limit: 3)
            Issue.record("a document past its cap was read")
        } catch {
            let diagnostic = error.diagnostics[0]
            #expect(diagnostic.location == SourceLocation(file: "report.json", line: 3, column: 2))
            #expect(diagnostic.message.hasPrefix("stopped reading: a JSON report of more than 3 values"))
        }
    }

    /// A large document may hold one value every 16 bytes: a partial of a partitioned run holds
    /// one every 30, and one of 1 GB held 36 million, past the 32 million of a smaller one.
    @Test func aLargeDocumentMayHoldAValueEverySixteenBytes() {
        #expect(JSONValueCount.limit(forBytes: 0) == 32_000_000)
        #expect(JSONValueCount.limit(forBytes: 512 << 20) == 33_554_432)
        #expect(JSONValueCount.limit(forBytes: 1_050_000_000) > 1_050_000_000 / 30)
        #expect(JSONValueCount.limit(forBytes: 150_000_000) < 150_000_000 / 2)
    }

    @Test func aStringLeftOpenEndsTheCount() {
        #expect(Self.offsetPast(2, in: #"["a,b,c"#) == nil)
        #expect(Self.offsetPast(2, in: #"["a\"#) == nil)
    }
}
