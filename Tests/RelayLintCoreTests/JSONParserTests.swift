@testable import RelayLintCore
import Testing

@Suite struct JSONParserTests {
    @Test func parsesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parseDocument(#"{"a":"x\"y\\z\/\n\u00e9\ud83d\ude00","b":[1,-2.5e3,true,false,null]}"#)
        #expect(value.objectValue?["a"] == .string("x\"y\\z/\né😀"))
        #expect(value.objectValue?["b"] == .array([.number(JSONNumber(1)), .number(JSONNumber(-2500)), .bool(true), .bool(false), .null]))
    }

    @Test func numbersEqualByValueNotSpelling() throws {
        let a = try JSONParser.parseDocument(#"{"n": 1.0, "m": [1e2]}"#)
        let b = try JSONParser.parseDocument(#"{ "m":[100],"n":1 }"#)
        #expect(a == b)
        #expect(a.canonicalText == b.canonicalText)
    }

    @Test(arguments: [
        (#"{"a":1,}"#, 7), (#"{"a" 1}"#, 5), ("[1,2", 4), (#""abc"#, 0), (#"{"a":01}"#, 6), (#"{"a":"\x"}"#, 7),
        (#"{"a":tru}"#, 5), (#"{"a":"\ud800"}"#, 12), ("{} x", 3), ("", 0),
    ])
    func reportsTheOffsetOfSyntaxErrors(input: String, offset: Int) {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parseDocument(input) }
        do {
            _ = try JSONParser.parseDocument(input)
        } catch {
            #expect(error.offset == offset, "\(error.reason)")
        }
    }

    @Test func rejectsRawControlCharactersAndInvalidUTF8() {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parseDocument("\"a\u{01}b\"") }
        let invalid: [UInt8] = [0x22, 0xFF, 0x22]
        #expect(throws: JSONParser.SyntaxError.self) {
            try invalid.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parseDocument(deep) }
    }
}
