/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// It reports the byte offset of the first error so callers can name the line and column, and
/// exposes its primitives so that the account-export reader can stream the `users` array and
/// remember where each user starts.
struct JSONParser: ~Copyable {
    /// A syntax error at a byte offset of the parsed buffer.
    struct SyntaxError: Error, Equatable {
        var offset: Int
        var reason: String
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset: Int
    /// How deep values may nest: deeper input is refused before it can exhaust the stack.
    static let maximumDepth = 512
    /// The keys of the objects being read, innermost last: a repeated key is an error, not a
    /// value that silently replaces another (`"type":"account.deleted", …, "type":"signin"`).
    /// One stack for all the nesting, so an object costs no allocation of its own.
    private var keyStack: [ObjectKey] = []
    /// The values `parseValue` may still build: unbounded for a document, `InputLimits.recordValues`
    /// for one record of a log (`forRecord`), whose values are built into memory where its bytes
    /// were only mapped: 16 MiB of `[0,0,…]` took 1.3 GB.
    var valuesLeft = Int.max

    init(bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// A parser for one record of a log: it builds at most `InputLimits.recordValues` values.
    static func forRecord(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0) -> JSONParser {
        var parser = JSONParser(bytes: bytes, offset: offset)
        parser.valuesLeft = InputLimits.recordValues
        return parser
    }

    /// Parses one record of a log as `parseDocument` parses a document, building at most
    /// `InputLimits.recordValues` values.
    static func parseRecord(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser.forRecord(bytes)
        return try parser.parseWhole()
    }

    static func parseRecord(_ text: String) throws(SyntaxError) -> JSONValue {
        let result: Result<JSONValue, SyntaxError> = text.withUTF8Bytes { buffer in
            Result { () throws(SyntaxError) in try parseRecord(buffer) }
        }
        return try result.get()
    }

    /// Parses one complete document: a value with only whitespace around it.
    static func parseDocument(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseWhole()
    }

    /// The value from the current offset to the end, with only whitespace around it.
    private mutating func parseWhole() throws(SyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if !isAtEnd { throw error("unexpected text after the JSON value") }
        return value
    }

    static func parseDocument(_ text: String) throws(SyntaxError) -> JSONValue {
        let result: Result<JSONValue, SyntaxError> = text.withUTF8Bytes { buffer in
            Result { () throws(SyntaxError) in try parseDocument(buffer) }
        }
        return try result.get()
    }

    var isAtEnd: Bool { offset >= bytes.count }

    /// Continues at another offset, after a caller read a stretch by other means.
    mutating func move(to offset: Int) { self.offset = offset }
    var currentByte: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    func error(_ reason: String) -> SyntaxError { SyntaxError(offset: offset, reason: reason) }

    /// Consumes `byte` after optional whitespace, or fails naming what was expected.
    mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
        skipWhitespace()
        guard currentByte == byte else { throw error("expected \(what)") }
        offset += 1
    }

    /// Consumes `byte` after optional whitespace if it is there.
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        if currentByte == byte {
            offset += 1
            return true
        }
        return false
    }

    mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONValue {
        skipWhitespace()
        guard let byte = currentByte else { throw error("unexpected end of input, expected a value") }
        valuesLeft -= 1
        guard valuesLeft >= 0 else {
            throw error(
                "a record of more than \(InputLimits.recordValues) values (numbers, strings, lists and objects), which no log record comes near"
            )
        }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Self.printable(byte))', expected a value")
        }
    }

    /// Reads past the value at the current offset, accepting and rejecting exactly what
    /// `parseValue` does (with the same errors), without building it: the members of an exported
    /// user that nothing reads (display names, photo URLs, MFA details, custom claims) were half
    /// of the export's parse as dictionaries and strings.
    mutating func skipValue(depth: Int) throws(SyntaxError) {
        skipWhitespace()
        switch currentByte ?? 0 {
        case UInt8(ascii: "{"):
            guard var object = try openObject(depth: depth) else { return }
            repeat {
                _ = try memberKey(of: &object)
                try skipValue(depth: depth + 1)
            } while try nextMember(of: &object)
        case UInt8(ascii: "["):
            try parseArray(depth: depth) { parser throws(SyntaxError) in try parser.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        // The literals as `parseValue` reads them, without a value made and destroyed.
        case UInt8(ascii: "t"): try parseLiteral("true")
        case UInt8(ascii: "f"): try parseLiteral("false")
        case UInt8(ascii: "n"): try parseLiteral("null")
        default: _ = try parseValue(depth: depth)  // an error: nothing to build
        }
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try parseObject(depth: depth) { key, parser throws(SyntaxError) in members[key] = try parser.parseValue(depth: depth + 1) }
        return .object(members)
    }

    /// Reads the object at the current offset member by member without building it: `member`
    /// gets each key and must read its value (at `depth + 1`) with the parser it is handed. A
    /// reader that needs a few members of a large object (an exported user) skips the dictionary;
    /// `parseValue` reads every object through here, so both accept and reject the same text.
    mutating func parseObject(
        depth: Int, members member: (String, inout JSONParser) throws(SyntaxError) -> Void
    ) throws(SyntaxError) {
        guard var object = try openObject(depth: depth) else { return }
        defer { close(object) }
        repeat {
            let key = try memberKey(of: &object)
            try member(text(of: key), &self)
        } while try nextMember(of: &object)
    }

    /// Reads the object at the current offset as `parseObject(depth:members:)` does, handing
    /// `member` the index of each key in `keys` (nil for any other key) instead of the key: an
    /// unescaped ASCII key is matched by its bytes, without making a `String` of it.
    mutating func parseObject(
        depth: Int, keys: JSONKeys, members member: (Int?, inout JSONParser) throws(SyntaxError) -> Void
    ) throws(SyntaxError) {
        guard var object = try openObject(depth: depth) else { return }
        defer { close(object) }
        repeat {
            try member(try memberKey(in: keys, of: &object), &self)
        } while try nextMember(of: &object)
    }

    /// An object being read a member at a time (`openObject`, `memberKey`, `nextMember`): where
    /// its keys start on the parser's key stack, and the set they are checked through once
    /// there are many. A reader on the hot path loops over members itself rather than handing
    /// `parseObject` a closure: the closures and their thunks were a fifth of a log's parse.
    struct ObjectReading {
        fileprivate let base: Int
        fileprivate var manyKeys: Set<String>?
        /// A bit for each plain key read so far, by a hash of its bytes (`keyBit`): a key whose
        /// bit is clear is new, without comparing it with the others. Pairwise comparisons were a
        /// quarter of a Cloud Logging entry's parse (136 of them for a response of 17 keys).
        fileprivate var seenBits: (UInt64, UInt64) = (0, 0)
        /// Whether a key that is not plain was read: any later key is compared with all of them,
        /// as an escape may spell a plain key.
        fileprivate var hasDecodedKey = false
    }

    /// Consumes the `{` of the object at the current offset; for an empty object its `}` too,
    /// and then nil: there is no member to read.
    mutating func openObject(depth: Int) throws(SyntaxError) -> ObjectReading? {
        skipWhitespace()
        guard currentByte == UInt8(ascii: "{") else { throw error("expected an object") }
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        offset += 1
        if consume(UInt8(ascii: "}")) { return nil }
        // Room for the keys of a record at once: grown from empty, the stack was copied six
        // times for every log record.
        if keyStack.capacity == 0 { keyStack.reserveCapacity(40) }
        return ObjectReading(base: keyStack.count, manyKeys: nil)
    }

    /// Reads the next member's key and its `:`, and gives the key's index in `keys` (nil for any
    /// other key); the member's value is next.
    mutating func memberKey(in keys: JSONKeys, of object: inout ObjectReading) throws(SyntaxError) -> Int? {
        try memberKey(in: keys, among: keys.names.indices, of: &object)
    }

    /// Reads the next member's key and its `:`, and gives the key's index among the names of
    /// `keys` at `positions` (nil for any other key).
    mutating func memberKey(in keys: JSONKeys, among positions: Range<Int>, of object: inout ObjectReading) throws(SyntaxError)
        -> Int?
    {
        switch try memberKey(of: &object) {
        case .ascii(let range): keys.index(of: UnsafeBufferPointer(rebasing: bytes[range]), among: positions)
        case .text(let text): keys.index(of: text, among: positions)
        }
    }

    /// After a member's value: consumes the `,` before the next member and gives true, or the
    /// object's `}` and gives false.
    mutating func nextMember(of object: inout ObjectReading) throws(SyntaxError) -> Bool {
        if consume(UInt8(ascii: ",")) { return true }
        try expect(UInt8(ascii: "}"), "',' or '}' in an object")
        close(object)
        return false
    }

    /// Forgets the keys of an object read to its end, or abandoned on an error.
    private mutating func close(_ object: ObjectReading) {
        keyStack.removeLast(keyStack.count - object.base)
    }

    /// Reads a key and its `:`, and notes the key as one of the object's (`note`).
    private mutating func memberKey(of object: inout ObjectReading) throws(SyntaxError) -> ObjectKey {
        skipWhitespace()
        guard currentByte == UInt8(ascii: "\"") else { throw error("expected a string key") }
        let quote = offset
        let key: ObjectKey
        if let closing = closingQuoteOfPlainString() {
            key = .ascii(quote + 1..<closing)
            offset = closing + 1
        } else {
            key = .text(try parseString())
        }
        try note(key, openingQuote: quote, of: &object)
        try expect(UInt8(ascii: ":"), "':' after an object key")
        return key
    }

    /// Where the string at the current offset ends, when it is printable ASCII without escapes
    /// up to its closing quote, and so valid as it is; nil for any other (an escape, a byte over
    /// 0x7F, an error), which `parseString` decides and explains.
    private func closingQuoteOfPlainString() -> Int? {
        let end = endOfPlainRun(from: offset + 1, stopsAtNonASCII: true)
        return end < bytes.count && bytes[end] == UInt8(ascii: "\"") ? end : nil
    }

    /// The first index from `start` of a quote, a backslash, a control character or, when
    /// `stopsAtNonASCII`, a byte over 0x7F (the end of the buffer when there is none). Strings
    /// are most of a log's bytes, so they are looked at eight bytes at a time: a word holds
    /// none of those bytes exactly when none of the tests below finds one, and the first it
    /// finds is the first there is (a key is mostly shorter than two words: finding the byte
    /// one at a time was most of the scan).
    private func endOfPlainRun(from start: Int, stopsAtNonASCII: Bool) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                // The buffer's first byte as the word's lowest, on any byte order.
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let quotes = word ^ (ones &* 0x22)
                let backslashes = word ^ (ones &* 0x5C)
                // A zero byte in `quotes` or `backslashes`; a byte below 0x20 in `word`.
                var found = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
                if stopsAtNonASCII { found |= word }
                found &= highs
                // A test may also mark bytes after the first one it finds (a borrow runs upward),
                // never one before: the lowest mark is the first byte that ends the run.
                if found != 0 { return index + found.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || (stopsAtNonASCII && byte >= 0x80) {
                return index
            }
            index += 1
        }
        return index
    }

    /// A key of an object being read, as `note` compares it.
    private enum ObjectKey {
        /// Printable ASCII without escapes: its bytes in the buffer are its text.
        case ascii(Range<Int>)
        /// Any other key, decoded.
        case text(String)
    }

    /// Adds the key just read (its opening quote at `quote`) to the object's keys, or fails when
    /// the object already has it. Keys are the same when the parsed object's dictionary would
    /// take them for one (Swift `String` equality): exactly then would one value replace the
    /// other. Plain ASCII keys, nearly all of them, compare by their bytes where they lie; an
    /// object of more than 32 keys is checked through a set rather than pair by pair.
    private mutating func note(_ key: ObjectKey, openingQuote quote: Int, of object: inout ObjectReading) throws(SyntaxError) {
        switch key {
        // Once the keys are in a set, every key goes into it: one left out would pass as new
        // when it came again.
        case .ascii(let range) where !object.hasDecodedKey && object.manyKeys == nil:
            let bit = keyBit(of: range)
            let isSeen = bit < 64 ? object.seenBits.0 & (1 << bit) != 0 : object.seenBits.1 & (1 << (bit - 64)) != 0
            if bit < 64 { object.seenBits.0 |= 1 << bit } else { object.seenBits.1 |= 1 << (bit - 64) }
            if !isSeen {
                keyStack.append(key)
                return
            }
        case .ascii: break
        case .text: object.hasDecodedKey = true
        }
        let base = object.base
        if object.manyKeys == nil, keyStack.count - base >= 32 {
            var set: Set<String> = []
            for index in base..<keyStack.count { set.insert(text(of: keyStack[index])) }
            object.manyKeys = set
        }
        var repeated = false
        if object.manyKeys != nil {
            repeated = !object.manyKeys!.insert(text(of: key)).inserted
        } else {
            for index in base..<keyStack.count where sameKey(keyStack[index], key) {
                repeated = true
                break
            }
        }
        if repeated {
            let name = text(of: key).shortened()
            throw SyntaxError(offset: quote, reason: "duplicate key '\(name)' in an object")
        }
        keyStack.append(key)
    }

    /// A bit (0 to 127) for the plain key at `range`, from its length and its first and last
    /// eight bytes: the same for the same bytes wherever they lie.
    private func keyBit(of range: Range<Int>) -> UInt64 {
        var word = word(at: range.lowerBound, count: min(8, range.count))
        if range.count > 8 {
            let last = self.word(at: range.upperBound - 8, count: 8)
            word ^= last << 29 | last >> 35
        }
        return ((word ^ UInt64(range.count)) &* 0x9E37_79B9_7F4A_7C15) >> 57
    }

    /// The `count` (at most 8) bytes at `start` as a little-endian number. Inlined into
    /// `keyBit`: a call for each of a key's two words was a fifth of the cost of noting a key.
    @inline(__always)
    private func word(at start: Int, count: Int) -> UInt64 {
        if let base = bytes.baseAddress, start + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: start, as: UInt64.self))
            return count == 8 ? word : word & ((1 << (8 * UInt64(count))) &- 1)
        }
        var word: UInt64 = 0
        for index in 0..<count { word |= UInt64(bytes[start + index]) << (8 * UInt64(index)) }
        return word
    }

    private func text(of key: ObjectKey) -> String {
        switch key {
        case .ascii(let range): String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .text(let text): text
        }
    }

    private func sameKey(_ a: ObjectKey, _ b: ObjectKey) -> Bool {
        switch (a, b) {
        case (.ascii(let first), .ascii(let second)):
            guard first.count == second.count else { return false }
            return UnsafeBufferPointer(rebasing: bytes[first]).hasSameBytes(as: UnsafeBufferPointer(rebasing: bytes[second]))
        case (.text(let first), .text(let second)): return first == second
        default: return text(of: a) == text(of: b)
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
        var elements: [JSONValue] = []
        try parseArray(depth: depth) { parser throws(SyntaxError) in elements.append(try parser.parseValue(depth: depth + 1)) }
        return .array(elements)
    }

    /// Reads the array at the current offset element by element: `element` must read each one
    /// (at `depth + 1`) with the parser it is handed, as `parseObject(depth:members:)` does members.
    mutating func parseArray(depth: Int, elements element: (inout JSONParser) throws(SyntaxError) -> Void) throws(SyntaxError) {
        skipWhitespace()
        guard currentByte == UInt8(ascii: "[") else { throw error("expected an array") }
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        offset += 1
        if consume(UInt8(ascii: "]")) { return }
        repeat {
            try element(&self)
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"), "',' or ']' in an array")
    }

    private mutating func parseLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw error("invalid literal, expected \(literal)") }
        let pointer = literal.utf8Start
        for index in 0..<count where bytes[offset + index] != pointer[index] {
            throw error("invalid literal, expected \(literal)")
        }
        offset += count
    }

    mutating func parseString() throws(SyntaxError) -> String {
        let start = offset
        offset += 1
        let contentStart = offset
        // Fast path: no escapes. A run of ASCII is valid UTF-8 as it is, and is made into a
        // `String` without the generic validation (a tenth of the parse of a log's strings).
        offset = endOfPlainRun(from: contentStart, stopsAtNonASCII: true)
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") {
            let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<offset])
            offset += 1
            return String(decoding: slice, as: UTF8.self)
        }
        offset = endOfPlainRun(from: offset, stopsAtNonASCII: false)
        if offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<offset])
                offset += 1
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw SyntaxError(offset: start, reason: "string is not valid UTF-8")
                }
                return text
            }
            if byte < 0x20 { throw error("control character in a string (escape it)") }
            // A backslash: the escapes are decoded below.
        }
        // Decoded in room for the whole string as written, taken once: decoding never lengthens
        // it (an escape of n bytes stands for at most n bytes). Grown as a list, one run at a
        // time, the JSON a Cloud Logging entry holds in a string (`rawUserInfo`) cost two
        // allocations and a generic append for each run between its escaped quotes.
        let (extent, isASCII) = extentOfEscapedString(from: contentStart)
        let decoded = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(extent, bytes.count) - contentStart)
        defer { decoded.deallocate() }
        var count = 0
        func put(_ run: UnsafeBufferPointer<UInt8>) {
            precondition(count + run.count <= decoded.count, "a decoded string is longer than its text")
            if let source = run.baseAddress, !run.isEmpty { (decoded.baseAddress! + count).initialize(from: source, count: run.count) }
            count += run.count
        }
        func put(_ byte: UInt8) {
            precondition(count < decoded.count, "a decoded string is longer than its text")
            decoded[count] = byte
            count += 1
        }
        put(UnsafeBufferPointer(rebasing: bytes[contentStart..<offset]))
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                let text = UnsafeBufferPointer(rebasing: decoded[..<count])
                // Escapes decode to whole, valid scalars, so text whose own bytes are ASCII is
                // valid UTF-8 as decoded.
                if isASCII { return String(decoding: text, as: UTF8.self) }
                guard let text = String(validating: text, as: UTF8.self) else {
                    throw SyntaxError(offset: start, reason: "string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                offset += 1
                guard let escaped = currentByte else { break }
                offset += 1
                switch escaped {
                case UInt8(ascii: "\""): put(0x22)
                case UInt8(ascii: "\\"): put(0x5C)
                case UInt8(ascii: "/"): put(0x2F)
                case UInt8(ascii: "b"): put(0x08)
                case UInt8(ascii: "f"): put(0x0C)
                case UInt8(ascii: "n"): put(0x0A)
                case UInt8(ascii: "r"): put(0x0D)
                case UInt8(ascii: "t"): put(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard currentByte == UInt8(ascii: "\\"), offset + 1 < bytes.count,
                            bytes[offset + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired UTF-16 surrogate in a \\u escape") }
                        offset += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw error("unpaired UTF-16 surrogate in a \\u escape")
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("unpaired UTF-16 surrogate in a \\u escape")
                    }
                    for unit in String(Unicode.Scalar(code)!).utf8 { put(unit) }
                default:
                    offset -= 1
                    throw error("invalid escape '\\\(Self.printable(escaped))' in a string")
                }
            default:
                if byte < 0x20 { throw error("control character in a string (escape it)") }
                // The plain run up to the next escape or quote, copied at once.
                let end = endOfPlainRun(from: offset, stopsAtNonASCII: false)
                put(UnsafeBufferPointer(rebasing: bytes[offset..<end]))
                offset = end
            }
        }
        throw SyntaxError(offset: start, reason: "unterminated string")
    }

    /// Where the string whose text starts at `start` stops: its closing quote, a control
    /// character or the end of the buffer (or one past it, after a backslash at the end); and
    /// whether its bytes up to there are ASCII. Escaped bytes are passed over, so an escaped
    /// quote does not end it.
    private func extentOfEscapedString(from start: Int) -> (end: Int, isASCII: Bool) {
        var index = start
        var isASCII = true
        while true {
            index = endOfPlainRun(from: index, stopsAtNonASCII: true)
            guard index < bytes.count else { return (index, isASCII) }
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index += 2
            case 0x80...:
                isASCII = false
                index += 1
            default:
                return (index, isASCII)
            }
        }
    }

    /// Reads past a string as `parseString` does, without making it when it is plain ASCII.
    mutating func skipString() throws(SyntaxError) {
        if let quote = closingQuoteOfPlainString() {
            offset = quote + 1
        } else {
            _ = try parseString()
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            code = code << 4 | digit
            offset += 1
        }
        return code
    }

    mutating func parseNumber() throws(SyntaxError) -> JSONNumber {
        let start = offset
        let text = try scanNumber()
        guard let value = Double(text), value.isFinite else {
            throw SyntaxError(offset: start, reason: "number out of range")
        }
        return JSONNumber(text: text, value: value)
    }

    /// Reads past a number as `parseNumber` does, with the same errors, without building it:
    /// its text is made only for the rare number that may be out of range (the timestamps in a
    /// Cloud Logging entry's `rawUserInfo` each cost a `String` and a generic search of it).
    private mutating func skipNumber() throws(SyntaxError) {
        let start = offset
        let extent = try scanNumberExtent()
        // Without an exponent, only a number of more than 308 digits can be out of range.
        if extent.count > 300 || bytes[extent].contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[extent]), as: UTF8.self)), value.isFinite
            else {
                throw SyntaxError(offset: start, reason: "number out of range")
            }
        }
    }

    /// The number at the current offset when it is an integer as JSON writes one (no fraction,
    /// no exponent, no leading zero) that fits an `Int`, read without making its text; nil, with
    /// the offset unchanged, for anything else. For readers of files relaylint wrote itself.
    mutating func parseInteger() -> Int? {
        var index = offset
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let firstDigit = index
        var value = 0
        while index < bytes.count, Self.isDigit(bytes[index]) {
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
            index += 1
        }
        let digits = index - firstDigit
        guard digits > 0, !(digits > 1 && bytes[firstDigit] == UInt8(ascii: "0")) else { return nil }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) { return nil }
        offset = index
        return negative ? -value : value
    }

    /// The text of the number at the current offset, checked against JSON's grammar.
    private mutating func scanNumber() throws(SyntaxError) -> String {
        let extent = try scanNumberExtent()
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[extent]), as: UTF8.self)
    }

    /// Where the number at the current offset lies, checked against JSON's grammar.
    private mutating func scanNumberExtent() throws(SyntaxError) -> Range<Int> {
        let start = offset
        if currentByte == UInt8(ascii: "-") { offset += 1 }
        guard let first = currentByte, Self.isDigit(first) else { throw error("invalid number") }
        if first == UInt8(ascii: "0") {
            offset += 1
            if let next = currentByte, Self.isDigit(next) { throw error("invalid number (leading zero)") }
        } else {
            skipDigits()
        }
        if currentByte == UInt8(ascii: ".") {
            offset += 1
            guard let digit = currentByte, Self.isDigit(digit) else { throw error("invalid number (digit expected after '.')") }
            skipDigits()
        }
        if currentByte == UInt8(ascii: "e") || currentByte == UInt8(ascii: "E") {
            offset += 1
            if currentByte == UInt8(ascii: "+") || currentByte == UInt8(ascii: "-") { offset += 1 }
            guard let digit = currentByte, Self.isDigit(digit) else { throw error("invalid number (digit expected in exponent)") }
            skipDigits()
        }
        return start..<offset
    }

    private mutating func skipDigits() {
        while let byte = currentByte, Self.isDigit(byte) { offset += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}
