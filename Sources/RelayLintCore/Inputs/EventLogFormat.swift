import Foundation

/// What an `--events` file holds, recognised from its first record: relaylint events, or the
/// records of a log format a mapping describes (Cloud Logging entries, Apple notifications, a
/// team's own log). A file that is none of them is refused with what it looks like instead.
enum EventLogFormat {
    case native
    case mapped(LogMapping)

    /// How much of a file is looked at to recognise it.
    static let sniffLimit = 1 << 20

    /// Recognises a file's format; `mappings` are tried in order after relaylint's own format.
    /// Files whose size is unknown before reading (pipes) are read as relaylint events.
    static func recognize(path: String, mappings: [LogMapping]) throws(InputError) -> EventLogFormat {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return .native }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .native }
        defer { try? handle.close() }
        let prefix = [UInt8]((try? handle.read(upToCount: sniffLimit)) ?? Data())
        return try prefix.withUnsafeBufferPointer { bytes throws(InputError) in
            try recognize(prefix: bytes, isWhole: bytes.count < sniffLimit, path: path, mappings: mappings)
        }
    }

    static func recognize(
        prefix bytes: UnsafeBufferPointer<UInt8>, isWhole: Bool, path: String, mappings: [LogMapping]
    ) throws(InputError) -> EventLogFormat {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        var parser = JSONParser(bytes: bytes, offset: start)
        parser.skipWhitespace()
        // Empty: nothing to recognise; read as relaylint events (which counts no record).
        guard parser.offset < bytes.count else { return .native }
        let head = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[parser.offset..<min(bytes.count, parser.offset + 512)]), as: UTF8.self)
        if head.range(of: #"^\{\s*"users"\s*:"#, options: .regularExpression) != nil {
            throw refusal(path, "this is a Firebase account export (firebase auth:export): pass it with --accounts")
        }
        var first: JSONValue?
        if bytes[parser.offset] == UInt8(ascii: "[") {
            var element = JSONParser(bytes: bytes, offset: parser.offset + 1)
            element.skipWhitespace()
            first = try? element.parseValue(depth: 1)
            if first == nil, isWhole || element.offset < bytes.count {
                // An array whose first element does not parse: the reader reports where.
                return mappings.first.map(EventLogFormat.mapped) ?? .native
            }
        } else {
            let lineEnd =
                UnsafeBufferPointer(rebasing: bytes[parser.offset...]).firstIndex(of: 0x0A).map { $0 + parser.offset } ?? bytes.count
            first = try? JSONParser.parseDocument(UnsafeBufferPointer(rebasing: bytes[parser.offset..<lineEnd]))
            if first == nil { return try notJSON(head, path: path) }
        }
        guard let first else { return .native }
        if case .object(let members) = first,
            members["id"] != nil && members["type"] != nil && members["subject"] != nil && members["time"] != nil
        {
            return .native
        }
        for mapping in mappings {
            let scope = MappingScope(record: first, tokens: TokenReader(keys: nil))
            if (try? mapping.recognize.holds(in: scope)) == true { return .mapped(mapping) }
        }
        if case .object(let members) = first {
            if members["apps"] != nil { throw refusal(path, "this is an app manifest: pass it with --manifest") }
            if members["events"] != nil || members["id"] != nil && members["type"] != nil {
                // Looks like relaylint events with a field missing: the reader says which.
                return .native
            }
            let keys = members.keys.sorted().prefix(8).map { "'\($0)'" }.joined(separator: ", ")
            throw refusal(
                path,
                "the first record is a JSON object with keys \(keys), which is none of the formats relaylint reads: "
                    + "relaylint events (id, time, subject, type), \(mappings.map(\.title).joined(separator: ", ")); "
                    + "for a log of your own, write a mapping and pass it with --mapping")
        }
        // Not an object: the relaylint reader says so at its line ("expected a JSON object").
        return .native
    }

    private static func notJSON(_ head: String, path: String) throws(InputError) -> EventLogFormat {
        let firstLine = head.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        if firstLine.contains(","), !firstLine.contains("{") {
            throw refusal(path, "this looks like CSV: a Firebase account export in CSV goes to --accounts; logs must be JSON")
        }
        if firstLine.hasPrefix("apps:") || firstLine.hasPrefix("rules:") || firstLine.hasPrefix("id:") || firstLine.hasPrefix("mapping:")
            || firstLine.hasPrefix("#") || firstLine.hasPrefix("---")
        {
            throw refusal(path, "this looks like YAML (a manifest, rule, mapping or configuration file), not a log")
        }
        // Not JSON at all: the relaylint reader reports the line and column.
        return .native
    }

    private static func refusal(_ path: String, _ message: String) -> InputError {
        .invalidRecords([Diagnostic(.error, message, at: SourceLocation(file: path, line: 1))])
    }
}
