/// Where in an exported user its problem lies. `firebase auth:export` writes a user over a dozen
/// lines or more (two-space indent, a line a member, providers nested below): a problem with
/// its `createdAt` or third provider entry named the line of the user's `{`, and the reader had
/// to look for the member by hand.
extension FirebaseJSONExportReader {
    /// The line of the member `problem` names (and of its entry, for a list), in the user whose
    /// object starts at `start`, on line `line`; that line when the problem names no member or
    /// the member is not found. The user was read before, so it is read again only up to the
    /// member, and only for a user in error.
    static func line(of problem: InputProblem, inUserAt start: Int, onLine line: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let member = problem.member else { return line }
        var parser = JSONParser(bytes: bytes, offset: start)
        var found: Int?
        let keys = JSONKeys([member])
        do throws(JSONParser.SyntaxError) {
            guard var object = try parser.openObject(depth: 1) else { return line }
            repeat {
                if try parser.memberKey(in: keys, of: &object) != nil, found == nil {
                    parser.skipWhitespace()
                    found = parser.offset
                    if let element = problem.element, parser.currentByte == UInt8(ascii: "[") {
                        found = try Self.offset(ofElement: element, &parser) ?? found
                    }
                    break
                }
                try parser.skipValue(depth: 2)
            } while try parser.nextMember(of: &object)
        } catch {
            return line
        }
        guard let found else { return line }
        var newlines = 0
        for index in start..<found where bytes[index] == 0x0A { newlines += 1 }
        return line + newlines
    }

    /// Where the array at the parser's offset holds its entry `element`; nil when it is shorter.
    private static func offset(ofElement element: Int, _ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Int? {
        var index = 0
        var found: Int?
        try parser.parseArray(depth: 2) { parser throws(JSONParser.SyntaxError) in
            parser.skipWhitespace()
            if index == element { found = parser.offset }
            index += 1
            try parser.skipValue(depth: 3)
        }
        return found
    }
}
