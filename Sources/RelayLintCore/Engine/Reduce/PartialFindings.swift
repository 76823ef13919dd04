import Foundation

/// The findings of a partial, written and read by hand.
///
/// Findings are nearly all of a partial (99% of its bytes at 1M events). Through Foundation's
/// `Codable` encoder and decoder they were the cost of partitioning: encoding a tenth of each
/// partition run, and decoding 8 partials of a 10M-event run 5.6 s on two threads, most of
/// `merge`. A finding is read straight from the bytes with `JSONParser` (a `JSONValue` tree of
/// each one cost about as much as `Codable`: building and freeing dictionaries). The JSON keeps
/// the shape `Codable` gives a `Finding` (the same keys, an absent key for nil); only the
/// suppression of a suppressed finding, which is rare, still goes through `Codable`.
enum PartialFindings {
    /// Writes a finding, keys in ascending order as `Codable` with `.sortedKeys` writes them.
    static func write(_ finding: Finding, to writer: inout CompactJSONWriter) {
        writer.object { writer in
            writer.key("app")
            writer.string(finding.app)
            if let event = finding.event {
                writer.key("event")
                writer.string(event)
            }
            writer.key("evidence")
            writer.array(finding.evidence) { write($1, to: &$0) }
            writer.key("expected")
            writer.string(finding.expected)
            writer.key("fingerprint")
            writer.string(finding.fingerprint)
            if let location = finding.location {
                writer.key("location")
                write(location, to: &writer)
            }
            writer.key("message")
            writer.string(finding.message)
            writer.key("rule")
            writer.string(finding.rule)
            writer.key("severity")
            writer.string(finding.severity.rawValue)
            writer.key("subject")
            writer.string(finding.subject)
            if let suppression = finding.suppression {
                writer.key("suppression")
                writer.value(codableValue(of: suppression))
            }
            if let time = finding.time {
                writer.key("time")
                writer.string(time.description)
            }
        }
    }

    private static let findingKeys = JSONKeys([
        "rule", "severity", "subject", "app", "event", "time", "message", "fingerprint", "location", "expected", "evidence",
        "suppression",
    ])

    /// Reads the finding at the parser's offset. A value of the wrong kind, or a missing one, is
    /// an error at its offset, as a syntax error is.
    static func finding(from parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) -> Finding {
        parser.skipWhitespace()
        let start = parser.offset
        var strings: [String?] = Array(repeating: nil, count: 12)
        var severity: Severity?
        var time: Timestamp?
        var location: SourceLocation?
        var evidence: [Evidence]?
        var suppression: JSONValue?
        try parser.parseObject(depth: depth, keys: findingKeys) { index, parser throws(JSONParser.SyntaxError) in
            switch index {
            case 1: severity = try enumerated(&parser, "a severity")
            case 4: strings[4] = try optionalString(&parser, depth: depth + 1)
            case 5: time = try skipNull(&parser, depth: depth + 1) ? nil : timestamp(&parser)
            case 8: location = try skipNull(&parser, depth: depth + 1) ? nil : self.location(&parser, depth: depth + 1)
            case 10:
                var list: [Evidence] = []
                try parser.parseArray(depth: depth + 1) { parser throws(JSONParser.SyntaxError) in
                    list.append(try self.evidence(&parser, depth: depth + 2))
                }
                evidence = list
            case 11: suppression = try skipNull(&parser, depth: depth + 1) ? nil : parser.parseValue(depth: depth + 1)
            case let index?: strings[index] = try string(&parser)
            case nil: try parser.skipValue(depth: depth + 1)
            }
        }
        func required(_ index: Int, _ name: String) throws(JSONParser.SyntaxError) -> String {
            guard let text = strings[index] else { throw missing(name, in: "a finding", at: start) }
            return text
        }
        guard let severity else { throw missing("severity", in: "a finding", at: start) }
        guard let evidence else { throw missing("evidence", in: "a finding", at: start) }
        var finding = Finding(
            rule: try required(0, "rule"), severity: severity, subject: try required(2, "subject"), app: try required(3, "app"),
            event: strings[4], time: time, message: try required(6, "message"), fingerprint: try required(7, "fingerprint"),
            location: location, expected: try required(9, "expected"), evidence: evidence)
        if let suppression {
            do {
                var writer = CompactJSONWriter()
                writer.value(suppression)
                finding.suppression = try JSONDecoder().decode(Suppression.self, from: Data(writer.bytes))
            } catch {
                throw JSONParser.SyntaxError(offset: start, reason: "a finding whose suppression is not one: \(error)")
            }
        }
        return finding
    }

    // MARK: Evidence and locations

    private static func write(_ evidence: Evidence, to writer: inout CompactJSONWriter) {
        writer.object { writer in
            writer.key("event")
            writer.string(evidence.event)
            writer.key("location")
            write(evidence.location, to: &writer)
            if let note = evidence.note {
                writer.key("note")
                writer.string(note)
            }
            writer.key("role")
            writer.string(evidence.role.rawValue)
            writer.key("time")
            writer.string(evidence.time.description)
            writer.key("type")
            writer.string(evidence.type)
        }
    }

    private static let evidenceKeys = JSONKeys(["role", "event", "type", "time", "location", "note"])

    private static func evidence(_ parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) -> Evidence {
        parser.skipWhitespace()
        let start = parser.offset
        var role: Evidence.Role?
        var event: String?
        var type: String?
        var time: Timestamp?
        var location: SourceLocation?
        var note: String?
        try parser.parseObject(depth: depth, keys: evidenceKeys) { index, parser throws(JSONParser.SyntaxError) in
            switch index {
            case 0: role = try enumerated(&parser, "an evidence role")
            case 1: event = try string(&parser)
            case 2: type = try string(&parser)
            case 3: time = try timestamp(&parser)
            case 4: location = try self.location(&parser, depth: depth + 1)
            case 5: note = try optionalString(&parser, depth: depth + 1)
            default: try parser.skipValue(depth: depth + 1)
            }
        }
        guard let role, let event, let type, let time, let location else {
            throw missing("one of role, event, type, time and location", in: "evidence", at: start)
        }
        return Evidence(role: role, event: event, type: type, time: time, location: location, note: note)
    }

    private static func write(_ location: SourceLocation, to writer: inout CompactJSONWriter) {
        writer.object { writer in
            if let column = location.column {
                writer.key("column")
                writer.int(column)
            }
            writer.key("file")
            writer.string(location.file)
            writer.key("line")
            writer.int(location.line)
        }
    }

    private static let locationKeys = JSONKeys(["file", "line", "column"])

    private static func location(_ parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) -> SourceLocation {
        parser.skipWhitespace()
        let start = parser.offset
        var file: String?
        var line: Int?
        var column: Int?
        try parser.parseObject(depth: depth, keys: locationKeys) { index, parser throws(JSONParser.SyntaxError) in
            switch index {
            case 0: file = try string(&parser)
            case 1: line = try integer(&parser)
            case 2: column = try skipNull(&parser, depth: depth + 1) ? nil : integer(&parser)
            default: try parser.skipValue(depth: depth + 1)
            }
        }
        guard let file, let line else { throw missing("file or line", in: "a location", at: start) }
        return SourceLocation(file: file, line: line, column: column)
    }

    // MARK: Values

    private static func string(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> String {
        parser.skipWhitespace()
        guard parser.currentByte == UInt8(ascii: "\"") else {
            throw JSONParser.SyntaxError(offset: parser.offset, reason: "expected a string")
        }
        return try parser.parseString()
    }

    private static func optionalString(_ parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) -> String? {
        try skipNull(&parser, depth: depth) ? nil : string(&parser)
    }

    /// Reads a `null` at the parser's offset, if there is one: `Codable` reads an optional
    /// member that is null as absent.
    private static func skipNull(_ parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) -> Bool {
        parser.skipWhitespace()
        guard parser.currentByte == UInt8(ascii: "n") else { return false }
        _ = try parser.parseValue(depth: depth)  // `null`, or an error for any other word
        return true
    }

    private static func enumerated<Value: RawRepresentable<String>>(
        _ parser: inout JSONParser, _ what: String
    ) throws(JSONParser.SyntaxError) -> Value {
        parser.skipWhitespace()
        let at = parser.offset
        let name = try string(&parser)
        guard let value = Value(rawValue: name) else { throw JSONParser.SyntaxError(offset: at, reason: "'\(name)' is not \(what)") }
        return value
    }

    private static func integer(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Int {
        parser.skipWhitespace()
        guard let integer = parser.parseInteger() else {
            throw JSONParser.SyntaxError(offset: parser.offset, reason: "expected an integer")
        }
        return integer
    }

    private static func timestamp(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Timestamp {
        parser.skipWhitespace()
        let at = parser.offset
        let text = try string(&parser)
        guard let time = Timestamp(rfc3339: text) else { throw JSONParser.SyntaxError(offset: at, reason: "expected an RFC 3339 time") }
        return time
    }

    private static func missing(_ what: String, in container: String, at offset: Int) -> JSONParser.SyntaxError {
        JSONParser.SyntaxError(offset: offset, reason: "\(container) without \(what)")
    }

    /// A value through `Codable` as a tree (a suppression: strings, and a location).
    private static func codableValue<Value: Encodable>(of value: Value) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and integers: it always encodes and parses back.
        guard let data = try? encoder.encode(value),
            let tree = try? data.withUnsafeBytes({ bytes throws(JSONParser.SyntaxError) in
                try JSONParser.parseDocument(bytes.bindMemory(to: UInt8.self))
            })
        else { return .null }
        return tree
    }
}
