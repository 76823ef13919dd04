import Foundation

/// The findings of a partial, converted by hand to and from relaylint's own JSON tree.
///
/// Findings are nearly all of a partial (99% of its bytes at 1M events). Through Foundation's
/// `Codable` encoder and decoder they were the cost of partitioning: encoding a tenth of each
/// partition run, and decoding 8 partials of a 10M-event run 5.6 s on two threads, most of
/// `merge`. The JSON keeps the shape `Codable` gives a `Finding` (the same keys, an absent key
/// for nil), so a partial reads the same whichever wrote it; only the suppression of a suppressed
/// finding, which is rare, still goes through `Codable`.
enum PartialFindings {
    /// A finding or part of one that is not what a partial holds.
    struct ShapeError: Error, CustomStringConvertible {
        var description: String
    }

    static func value(of finding: Finding) -> JSONValue {
        var members: [String: JSONValue] = [
            "rule": .string(finding.rule),
            "severity": .string(finding.severity.rawValue),
            "subject": .string(finding.subject),
            "app": .string(finding.app),
            "message": .string(finding.message),
            "fingerprint": .string(finding.fingerprint),
            "expected": .string(finding.expected),
            "evidence": .array(finding.evidence.map(value(of:))),
        ]
        if let event = finding.event { members["event"] = .string(event) }
        if let time = finding.time { members["time"] = .string(time.description) }
        if let location = finding.location { members["location"] = value(of: location) }
        if let suppression = finding.suppression { members["suppression"] = codableValue(of: suppression) }
        return .object(members)
    }

    static func finding(from value: JSONValue) throws(ShapeError) -> Finding {
        let members = try object(value, "a finding")
        var finding = Finding(
            rule: try string(members, "rule"),
            severity: try severity(members),
            subject: try string(members, "subject"),
            app: try string(members, "app"),
            event: try optionalString(members, "event"),
            time: try members["time"].map { value throws(ShapeError) in try timestamp(value, "time") },
            message: try string(members, "message"),
            fingerprint: try string(members, "fingerprint"),
            location: try members["location"].map { value throws(ShapeError) in try location(value) },
            expected: try string(members, "expected"),
            evidence: try array(members, "evidence").map { value throws(ShapeError) in try evidence(value) })
        if let suppression = members["suppression"] {
            finding.suppression = try codable(Suppression.self, from: suppression, "suppression")
        }
        return finding
    }

    // MARK: The parts of a finding

    private static func value(of evidence: Evidence) -> JSONValue {
        var members: [String: JSONValue] = [
            "role": .string(evidence.role.rawValue),
            "event": .string(evidence.event),
            "type": .string(evidence.type),
            "time": .string(evidence.time.description),
            "location": value(of: evidence.location),
        ]
        if let note = evidence.note { members["note"] = .string(note) }
        return .object(members)
    }

    private static func evidence(_ value: JSONValue) throws(ShapeError) -> Evidence {
        let members = try object(value, "evidence")
        let roleName = try string(members, "role")
        guard let role = Evidence.Role(rawValue: roleName) else { throw ShapeError(description: "unknown evidence role '\(roleName)'") }
        return Evidence(
            role: role, event: try string(members, "event"), type: try string(members, "type"),
            time: try timestamp(members["time"], "time"), location: try location(members["location"]),
            note: try optionalString(members, "note"))
    }

    private static func value(of location: SourceLocation) -> JSONValue {
        var members: [String: JSONValue] = ["file": .string(location.file), "line": .number(JSONNumber(Double(location.line)))]
        if let column = location.column { members["column"] = .number(JSONNumber(Double(column))) }
        return .object(members)
    }

    private static func location(_ value: JSONValue?) throws(ShapeError) -> SourceLocation {
        let members = try object(value, "a location")
        return SourceLocation(
            file: try string(members, "file"), line: try integer(members["line"], "line"),
            column: try members["column"].map { value throws(ShapeError) in try integer(value, "column") })
    }

    private static func severity(_ members: [String: JSONValue]) throws(ShapeError) -> Severity {
        let name = try string(members, "severity")
        guard let severity = Severity(rawValue: name) else { throw ShapeError(description: "unknown severity '\(name)'") }
        return severity
    }

    // MARK: Members

    private static func object(_ value: JSONValue?, _ what: String) throws(ShapeError) -> [String: JSONValue] {
        guard case .object(let members)? = value else { throw ShapeError(description: "\(what) is not a JSON object") }
        return members
    }

    private static func array(_ members: [String: JSONValue], _ key: String) throws(ShapeError) -> [JSONValue] {
        guard case .array(let elements)? = members[key] else { throw ShapeError(description: "'\(key)' is missing or not an array") }
        return elements
    }

    private static func string(_ members: [String: JSONValue], _ key: String) throws(ShapeError) -> String {
        guard case .string(let text)? = members[key] else { throw ShapeError(description: "'\(key)' is missing or not a string") }
        return text
    }

    private static func optionalString(_ members: [String: JSONValue], _ key: String) throws(ShapeError) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw ShapeError(description: "'\(key)' is not a string")
        }
    }

    private static func integer(_ value: JSONValue?, _ key: String) throws(ShapeError) -> Int {
        guard case .number(let number)? = value, let integer = Int(exactly: number.value) else {
            throw ShapeError(description: "'\(key)' is missing or not an integer")
        }
        return integer
    }

    private static func timestamp(_ value: JSONValue?, _ key: String) throws(ShapeError) -> Timestamp {
        guard case .string(let text)? = value, let time = Timestamp(rfc3339: text) else {
            throw ShapeError(description: "'\(key)' is missing or not an RFC 3339 time")
        }
        return time
    }

    // MARK: Through Codable (the rare parts)

    private static func codableValue<Value: Encodable>(of value: Value) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A suppression is strings and dates as strings: it always encodes and parses back.
        guard let data = try? encoder.encode(value),
            let tree = try? data.withUnsafeBytes({ bytes throws(JSONParser.SyntaxError) in
                try JSONParser.parseDocument(bytes.bindMemory(to: UInt8.self))
            })
        else { return .null }
        return tree
    }

    private static func codable<Value: Decodable>(_ type: Value.Type, from value: JSONValue, _ key: String) throws(ShapeError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(value.sortedText.utf8))
        } catch {
            throw ShapeError(description: "'\(key)' is not a \(key): \(error)")
        }
    }
}
