/// Where in an exported user its problem lies. `firebase auth:export` writes a user over a dozen
/// lines or more (two-space indent, a line a member, providers nested below): a problem with
/// its `createdAt` or third provider entry named the line of the user's `{`, and the reader had
/// to look for the member by hand.
extension FirebaseJSONExportReader {
    /// Where a user read at `location` (its first line), its object at `start`, is told: a
    /// problem at the line of the place it names (`line(of:inUserAt:onLine:in:)`), an account at
    /// its first line.
    static func location(
        of user: Result<AccountRecord, InputProblem>, inUserAt start: Int, at location: SourceLocation, in bytes: UnsafeBufferPointer<UInt8>
    ) -> SourceLocation {
        guard case .failure(let problem) = user, !problem.place.isEmpty else { return location }
        return SourceLocation(file: location.file, line: line(of: problem, inUserAt: start, onLine: location.line, in: bytes))
    }

    /// The line of the place `problem` names (a member, a member of it, an entry of a list), in
    /// the user whose object starts at `start`, on line `line`: as deep as the user's bytes
    /// follow the place, that line when it names none. The user was read before, so it is read
    /// again only up to the place, and only for a user in error.
    static func line(of problem: InputProblem, inUserAt start: Int, onLine line: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var parser = JSONParser(bytes: bytes, offset: start)
        var found = start
        for (depth, step) in problem.place.enumerated() {
            parser.skipWhitespace()
            let reached: Int?
            do throws(JSONParser.SyntaxError) {
                switch step {
                case .member(let name): reached = try offset(ofMember: name, &parser, depth: depth + 1)
                case .entry(let index): reached = try offset(ofEntry: index, &parser, depth: depth + 1)
                }
            } catch {
                reached = nil
            }
            guard let reached else { break }
            found = reached
            parser.move(to: reached)
        }
        var newlines = 0
        for index in start..<found where bytes[index] == 0x0A { newlines += 1 }
        return line + newlines
    }

    /// Where the object at the parser's offset holds the value of its member `name`; nil when it
    /// is no object or has no such member.
    private static func offset(ofMember name: String, _ parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) -> Int? {
        guard parser.currentByte == UInt8(ascii: "{"), var object = try parser.openObject(depth: depth) else { return nil }
        let keys = JSONKeys([name])
        repeat {
            if try parser.memberKey(in: keys, of: &object) != nil {
                parser.skipWhitespace()
                return parser.offset
            }
            try parser.skipValue(depth: depth + 1)
        } while try parser.nextMember(of: &object)
        return nil
    }

    /// Where the list at the parser's offset holds its entry `index`; nil when it is no list or
    /// is shorter.
    private static func offset(ofEntry index: Int, _ parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) -> Int? {
        guard parser.currentByte == UInt8(ascii: "[") else { return nil }
        var position = 0
        var found: Int?
        try parser.parseArray(depth: depth) { parser throws(JSONParser.SyntaxError) in
            parser.skipWhitespace()
            if position == index { found = parser.offset }
            position += 1
            try parser.skipValue(depth: depth + 1)
        }
        return found
    }
}
