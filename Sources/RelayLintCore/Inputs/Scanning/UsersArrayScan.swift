/// The users of an export's `users` array found a batch at a time by a structural scan (strings
/// and nesting only), for the parallel read to parse each strictly: the places of all the users
/// found before the first was parsed took 24 to 48 bytes each, so `{"users":[1,1,1,…]}` of 30 MB
/// held 455 MB.
///
/// The scan accepts what any JSON array's structure allows; a user it hands over may still be
/// invalid JSON, which the strict parse finds. It fails (nil) where the structure is broken: the
/// sequential read then reports the error exactly.
struct UsersArrayScan {
    /// A user's bytes, from its first byte to just before the `,` or `]` after it, and its line.
    typealias Element = (bytes: Range<Int>, line: Int)

    private let bytes: UnsafeBufferPointer<UInt8>
    private var nesting = JSONNesting()
    private var index: Int
    private var line: Int
    private var elementStart: Int
    private var elementStartLine: Int
    private var found = 0
    /// Just past the array's `]`, once the scan reached it.
    private(set) var end: Int?

    /// A scan of the array whose `[` is at `arrayStart`, on line `line`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, arrayStart: Int, line: Int) {
        self.bytes = bytes
        index = arrayStart + 1
        elementStart = arrayStart + 1
        self.line = line
        elementStartLine = line
    }

    var isFinished: Bool { end != nil }

    /// Up to `limit` more users, none once the array ended; nil where its structure is broken.
    mutating func next(_ limit: Int) -> [Element]? {
        var elements: [Element] = []
        while end == nil, elements.count < limit {
            guard let element = nextElement() else { return nil }
            if let element { elements.append(element) }
        }
        return elements
    }

    /// The next user (nil for none: the array ended empty), or nil where the structure is broken.
    private mutating func nextElement() -> Element?? {
        while index < bytes.count {
            if nesting.inString {
                // The bytes of a string, eight at a time up to its end, an escape or a line break.
                index = PlainTextScan.end(in: bytes, from: index)
                guard index < bytes.count else { break }
            } else {
                // Indentation and line breaks, a word at a time.
                let whitespace = PlainTextScan.endOfWhitespace(in: bytes, from: index)
                index = whitespace.end
                line += whitespace.lineFeeds
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            if nesting.inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    if index < bytes.count, bytes[index] == 0x0A { line += 1 }
                } else if byte == UInt8(ascii: "\"") {
                    nesting.inString = false
                }
            } else {
                switch nesting.follow(byte) {
                case .close(let bracket):
                    guard bracket == UInt8(ascii: "]") else { return nil }
                    let boundary = index
                    index += 1
                    end = index
                    // `[` + whitespace + `]` is an empty array; otherwise the last user ends here.
                    if found == 0 && PlainTextScan.endOfWhitespace(in: bytes, from: elementStart).end >= boundary { return .some(nil) }
                    return close(at: boundary).map { .some($0) } ?? nil
                case .comma:
                    let boundary = index
                    index += 1
                    return close(at: boundary).map { .some($0) } ?? nil
                case nil: break
                }
            }
            index += 1
        }
        return nil
    }

    /// The user that ends at `boundary` (a `,` or the `]`), past its leading whitespace; nil for
    /// none (`[1,,2]`).
    private mutating func close(at boundary: Int) -> Element? {
        let whitespace = PlainTextScan.endOfWhitespace(in: bytes, from: elementStart)
        let first = min(whitespace.end, boundary)
        let firstLine = elementStartLine + whitespace.lineFeeds
        elementStart = boundary + 1
        elementStartLine = line
        guard first < boundary else { return nil }
        found += 1
        return (first..<boundary, firstLine)
    }
}
