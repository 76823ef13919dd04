/// Reads a relaylint action log (JSON Lines, contract §2.2) as a stream of validated events.
struct EventLogReader {
    /// What one non-blank line turned out to be.
    enum Record {
        /// A valid event, with its content's digest and its parsed line (for the rare reused id).
        case event(Event, digest: ContentDigest, value: JSONValue)
        case invalid(Diagnostic)
    }

    let path: String
    /// The file's position among the `--events` files; it orders equal timestamps across files.
    let fileIndex: Int

    /// The input order of a line: file first, then line.
    static func sequence(fileIndex: Int, line: Int) -> UInt64 { UInt64(fileIndex) << 40 | UInt64(line) }

    /// Reads every line, handing each non-blank one to `body`; returns the file's SHA-256 and the
    /// number of non-blank lines.
    func read(_ body: (Record) throws -> Void) throws -> (sha256: String, records: Int) {
        var records = 0
        let sha256 = try FileBytes.forEachLine(path: path) { line, number in
            guard !EventLogReader.isBlank(line) else { return }
            records += 1
            try body(parse(line, lineNumber: number))
        }
        return (sha256, records)
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) -> Record {
        let location = SourceLocation(file: path, line: lineNumber)
        let value: JSONValue
        do throws(JSONParser.SyntaxError) {
            value = try JSONParser.parseDocument(line)
        } catch {
            let column = FileBytes.lineAndColumn(of: error.offset, in: line).column
            return .invalid(
                Diagnostic(
                    .error, "invalid JSON: \(error.reason)",
                    at: SourceLocation(file: path, line: lineNumber, column: column)))
        }
        switch Event.make(
            from: value, location: location,
            sequence: EventLogReader.sequence(fileIndex: fileIndex, line: lineNumber))
        {
        case .success(let event): return .event(event, digest: ContentDigest(value), value: value)
        case .failure(let problem): return .invalid(Diagnostic(.error, problem.reason, at: location))
        }
    }

    /// Blank means whitespace only (contract §2.4); JSON's own whitespace plus Unicode White_Space.
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var allASCIIWhitespace = true
        for byte in line {
            switch byte {
            case 0x20, 0x09, 0x0B, 0x0C, 0x0D: continue
            default: allASCIIWhitespace = false
            }
            break
        }
        if allASCIIWhitespace { return true }
        guard line.contains(where: { $0 >= 0x80 }) else { return false }
        return String(decoding: line, as: UTF8.self).allSatisfy(\.isWhitespace)
    }
}

/// A 128-bit digest of an event's content as a JSON value, to recognise exact duplicates
/// without keeping the text of every event. Hashing the parsed value directly is independent of
/// key order (dictionary hashing), whitespace and number spelling (numbers hash their exact
/// decimal form), and needs no canonical string.
struct ContentDigest: Hashable, Sendable {
    let high: Int
    let low: Int

    init(_ value: JSONValue) {
        var first = Hasher()
        first.combine(0x5eed_0001)
        first.combine(value)
        var second = Hasher()
        second.combine(0x5eed_0002)
        second.combine(value)
        high = first.finalize()
        low = second.finalize()
    }
}
