@testable import RelayLintCore
import Testing

@Suite struct JSONParserTests {
    @Test func parsesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parseDocument(#"{"a":"x\"y\\z\/\n\u00e9\ud83d\ude00","b":[1,-2.5e3,true,false,null]}"#)
        #expect(value.objectValue?["a"] == .string("x\"y\\z/\né😀"))
        #expect(value.objectValue?["b"] == .array([.number(JSONNumber(1)), .number(JSONNumber(-2500)), .bool(true), .bool(false), .null]))
    }

    /// A report shows a value that is an object or a list with its numbers as the record wrote
    /// them: `14155550199e0` was neither the record's text nor a number the masker reads.
    @Test func aValueIsShownWithItsNumbersAsWritten() throws {
        let value = try JSONParser.parseDocument(#"{"phone": 14155550199, "n": [1.50, 2e3]}"#)
        #expect(value.displayText == #"{"n":[1.50,2e3],"phone":14155550199}"#)
    }

    @Test func numbersEqualByValueNotSpelling() throws {
        let a = try JSONParser.parseDocument(#"{"n": 1.0, "m": [1e2]}"#)
        let b = try JSONParser.parseDocument(#"{ "m":[100],"n":1 }"#)
        #expect(a == b)
        #expect(a.canonicalText == b.canonicalText)
    }

    /// Integers are normalised on their bytes, other numbers through their parts: both give
    /// one form for one value.
    @Test(arguments: [
        ("0", "0"), ("-0", "0"), ("7", "7e0"), ("-7", "-7e0"), ("1773181867481", "1773181867481e0"), ("1200", "12e2"),
        ("-1200", "-12e2"), ("007", "7e0"), ("12.00", "12e0"), ("1.2e3", "12e2"), ("0.0", "0"), ("-0.5", "-5e-1"),
    ])
    func numbersNormaliseToOneFormPerValue(text: String, normalized: String) {
        #expect(JSONNumber.normalize(text) == normalized)
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

    /// A repeated key is an error at the repeated key, not a value that replaces the first
    /// one; the same key in another object, nested or beside, is not repeated.
    @Test(arguments: [
        (#"{"id":"e1","type":"account.deleted","type":"signin"}"#, 36, "type"),
        (#"{"a":{"b":1,"c":2,"b":3}}"#, 18, "b"), (#"[{"a":1},{"a":2,"a":3}]"#, 16, "a"),
        (#"{"type":1,"\u0074ype":2}"#, 10, "type"), (#"{"é":1,"\u00e9":2}"#, 8, "é"),
        (#"{"e\u0301":1,"é":2}"#, 13, "é"), (#"{"":1,"":2}"#, 6, ""),
    ])
    func repeatedKeysAreErrors(input: String, offset: Int, key: String) {
        #expect {
            try JSONParser.parseDocument(input)
        } throws: { error in
            let error = error as? JSONParser.SyntaxError
            return error?.offset == offset && error?.reason == "duplicate key '\(key)' in an object"
        }
        expectSkipAgreesWithParse(Array(input.utf8))
    }

    @Test func theSameKeyInOtherObjectsIsNotRepeated() throws {
        let value = try JSONParser.parseDocument(#"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":{"b":1}}"#)
        #expect(value.objectValue?.count == 3)
    }

    /// Past 32 keys an object is checked through a set: the repeat is still found, at its place.
    @Test func aRepeatedKeyInALargeObjectIsFound() throws {
        let keys = (0..<100).map { #""k\#($0)":\#($0)"# }
        let valid = "{" + keys.joined(separator: ",") + "}"
        #expect(try JSONParser.parseDocument(valid).objectValue?.count == 100)
        let repeated = "{" + keys.joined(separator: ",") + #","k7":0}"#
        #expect {
            try JSONParser.parseDocument(repeated)
        } throws: { error in
            let error = error as? JSONParser.SyntaxError
            return error?.offset == valid.utf8.count && error?.reason.contains("'k7'") == true
        }
        expectSkipAgreesWithParse(Array(repeated.utf8))
    }

    /// Keys are first told apart by a hash of their bytes: the same key must hash alike at any
    /// length and wherever it lies, the last key of a buffer (read without a word past its end)
    /// included, or a repeat would pass.
    @Test(arguments: 0...20) func aRepeatedKeyIsFoundAtAnyLengthAndPlace(length: Int) {
        let key = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        let others = (0..<20).map { #""o\#($0)":0"# }.joined(separator: ",")
        for input in [#"{"\#(key)":1,\#(others),"\#(key)":2}"#, #"{\#(others),"\#(key)":1,"\#(key)":2}"#] {
            #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parseDocument(input) }
            expectSkipAgreesWithParse(Array(input.utf8))
        }
    }

    /// Past 32 keys, the first key whose hash bit is already set puts the keys in a set; every
    /// key after it must go into the set too, or a key seen once there would pass as new again.
    @Test func aRepeatAfterTheKeysWentIntoASetIsFound() {
        let padding = (0..<32).map { #""k\#($0)":0"# }.joined(separator: ",")
        // "c1" collides with one of the 32 keys' bits (found by trying), which builds the set.
        let input = "{" + padding + #","c1":0,"z4":1,"z4":2}"#
        #expect {
            try JSONParser.parseDocument(input)
        } throws: { error in
            (error as? JSONParser.SyntaxError)?.reason == "duplicate key 'z4' in an object"
        }
        expectSkipAgreesWithParse(Array(input.utf8))
        // Whatever key comes after the set is built, its repeat is found. (One repeated key tried
        // after keys of its own choosing, as this loop did first, always met its bit set by an
        // earlier key, and so never the case above.)
        for name in (0..<40).map({ "r\($0)" }) {
            let repeated = "{" + padding + #","c1":0,"\#(name)":1,"\#(name)":2}"#
            #expect(throws: JSONParser.SyntaxError.self, "\(name)") { try JSONParser.parseDocument(repeated) }
        }
    }

    /// Keys alike in length, start and end but not the same are all kept.
    @Test func keysAlikeButNotTheSameAreNotRepeats() throws {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcde")
        let keys = letters.map { #""callerSupplied\#($0)UserAgent":0"# }
        #expect(try JSONParser.parseDocument("{" + keys.joined(separator: ",") + "}").objectValue?.count == 31)
        let short = letters.map { #""\#($0)":0"# }
        #expect(try JSONParser.parseDocument("{" + short.joined(separator: ",") + "}").objectValue?.count == 31)
    }

    /// `skipValue` accepts and rejects what `parseValue` does, with the same error, and ends
    /// where it ends: exported users' unread members go through it.
    @Test(arguments: [
        #"{"a":1,}"#, #"{"a" 1}"#, "[1,2", #""abc"#, #"{"a":01}"#, #"{"a":"\x"}"#, #"{"a":tru}"#, #"{"a":"\ud800"}"#, "",
        #"{"a":"x\"y\\z\/\n\u00e9\ud83d\ude00","b":[1,-2.5e3,true,false,null]} "#, #"[{}, [], "", 0, -0.5E+2]"#, "nul",
        "\"a\u{01}b\"", #""Zoë""#, "1e999", "[\"\u{7F}\"]", #"{"\u0061": {"b": [{"c": "d"}]}}"#, "{,}", "[,]", #"{"a"}"#,
        // Numbers are skipped without being built: the grammar and the range still decide.
        "-", "-x", "1.", "1.e5", "1e", "1e+", "-0", "1E-400", "[1e308, 2e308]", String(repeating: "9", count: 320),
        String(repeating: "9", count: 300), "1760971852114", "[0.5,-7,3E2]",
    ])
    func skippingAValueAcceptsAndRejectsAsParsingIt(input: String) {
        expectSkipAgreesWithParse(Array(input.utf8))
    }

    @Test func skippingAgreesOnInvalidUTF8AndDeepNesting() {
        expectSkipAgreesWithParse([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D])
        expectSkipAgreesWithParse([0x22, 0xC3, 0xA9, 0x22])
        expectSkipAgreesWithParse(Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8))
        expectSkipAgreesWithParse(Array((String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)).utf8))
    }

    private func expectSkipAgreesWithParse(_ bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        bytes.withUnsafeBufferPointer { buffer in
            var parsing = JSONParser(bytes: buffer)
            var skipping = JSONParser(bytes: buffer)
            let parsed = Result { () throws(JSONParser.SyntaxError) in _ = try parsing.parseValue(depth: 0) }
            let skipped = Result { () throws(JSONParser.SyntaxError) in try skipping.skipValue(depth: 0) }
            switch (parsed, skipped) {
            case (.success, .success):
                #expect(skipping.offset == parsing.offset, sourceLocation: sourceLocation)
            case (.failure(let expected), .failure(let actual)):
                #expect(actual == expected, sourceLocation: sourceLocation)
            default:
                Issue.record("parse: \(parsed), skip: \(skipped)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Strings are scanned eight bytes at a time: a quote, a backslash, a control character or
    /// a non-ASCII byte at any place in a word, or in the bytes after the last whole word, is
    /// still found, and parsing and skipping still agree on it.
    @Test(
        arguments: [
            (Array(#"\""#.utf8), "\""), (Array(#"\n"#.utf8), "\n"), ([0xC3, 0xA9], "é"), ([0x7F], "\u{7F}"), ([0x01], nil),
            ([0x1F], nil), ([0xFF], nil),
        ] as [([UInt8], String?)])
    func aStringIsReadAlikeWhereverItsSpecialByteLies(special: [UInt8], decoded: String?) throws {
        for before in 0..<19 {
            for after in [0, 1, 7, 8, 9] {
                let prefix = String(repeating: "a", count: before)
                let suffix = String(repeating: "b", count: after)
                let bytes = [0x5B, 0x22] + Array(prefix.utf8) + special + Array(suffix.utf8) + [0x22, 0x5D]
                expectSkipAgreesWithParse(bytes)
                let parsed = try? bytes.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
                #expect(parsed == decoded.map { .array([.string(prefix + $0 + suffix)]) }, "\(before) before, \(after) after")
            }
        }
    }

    /// A key is matched by its bytes wherever a byte that is no plain ASCII lies in it.
    @Test func aKeyWithAnEscapeLateInItIsStillDecoded() throws {
        let keys = JSONKeys(["abcdefghij\"k"])
        var text = #"{"abcdefghij\"k":1,"abcdefghijk":2}"#
        var found: [Int?] = []
        try text.withUTF8 { bytes in
            var parser = JSONParser(bytes: bytes)
            try parser.parseObject(depth: 0, keys: keys) { index, parser throws(JSONParser.SyntaxError) in
                found.append(index)
                try parser.skipValue(depth: 1)
            }
        }
        #expect(found == [0, nil])
    }

    /// `parseInteger` reads exactly the integers JSON writes that fit an `Int`, and leaves
    /// anything else where it was for the full parser.
    @Test(arguments: [
        ("0,", 0 as Int?, 1), ("-12}", -12, 3), ("9223372036854775807", Int.max, 19),
        ("01", nil, 0), ("1.5", nil, 0), ("1e3", nil, 0), ("-", nil, 0), ("9223372036854775808", nil, 0), ("\"1\"", nil, 0),
    ])
    func parseIntegerReadsOnlyPlainIntegers(text: String, value: Int?, end: Int) {
        var copy = text
        copy.withUTF8 { bytes in
            var parser = JSONParser(bytes: bytes)
            #expect(parser.parseInteger() == value)
            #expect(parser.offset == end)
        }
    }
}
