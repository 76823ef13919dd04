/// The log reader's fast path: reads the common shape of an event line — one flat JSON object
/// whose values are unescaped strings, numbers, booleans or null — straight into an `Event`,
/// without building a `JSONValue` tree for the whole line.
///
/// It is deliberately partial. Whatever it does not recognise as that shape and as a valid event
/// (escapes, nested values, a repeated key, a missing or mistyped reserved field, an unusual
/// time, invalid UTF-8, any syntax error) makes it return nil, and the caller parses the line
/// with the strict `JSONParser` and `Event.make`, which decide and explain. So the fast path never
/// has to reproduce an error message, and where it answers it answers as the strict path would
/// (the tests compare both on every line they have).
struct FlatEventScanner {
    /// Strings met again and again (keys, event types, app ids), kept once: a key of 16 bytes
    /// or more would otherwise cost an allocation on every line.
    private var interned: [(bytes: [UInt8], text: String)] = []
    private static let internLimit = 128

    /// The event and its content digest, or nil to defer to the strict path.
    mutating func scan(
        _ line: UnsafeBufferPointer<UInt8>, location: SourceLocation, sequence: UInt64
    ) -> (event: Event, digest: ContentDigest)? {
        var cursor = Cursor(bytes: line)
        cursor.skipWhitespace()
        guard cursor.take(UInt8(ascii: "{")) else { return nil }
        var id: String?
        var subject: String?
        var type: String?
        var app: String?
        var appIsNull = false
        var time: Timestamp?
        var timeValue: JSONValue?
        var fields: [EventFields.Element] = []
        fields.reserveCapacity(6)
        var seenKeys: [UnsafeBufferPointer<UInt8>] = []
        var digest = ContentDigest.Accumulator()
        cursor.skipWhitespace()
        if cursor.take(UInt8(ascii: "}")) { return nil }
        while true {
            cursor.skipWhitespace()
            // Keys are ASCII in practice; other keys could be canonically equal with different
            // bytes, which only the strict parser's dictionary handles as the same key.
            guard let keyBytes = cursor.plainString(), !keyBytes.contains(where: { $0 >= 0x80 }) else { return nil }
            // A repeated key: the strict parser keeps the last value; let it decide.
            for seen in seenKeys where seen.elementsEqual(keyBytes) { return nil }
            seenKeys.append(keyBytes)
            cursor.skipWhitespace()
            guard cursor.take(UInt8(ascii: ":")) else { return nil }
            cursor.skipWhitespace()
            guard let byte = cursor.current else { return nil }
            let reserved = Self.reservedField(keyBytes)
            if byte == UInt8(ascii: "\"") {
                guard let valueBytes = cursor.plainString() else { return nil }
                switch reserved {
                case .time?:
                    guard let parsed = Timestamp(rfc3339Bytes: valueBytes) else { return nil }
                    time = parsed
                    timeValue = .string(String(decoding: valueBytes, as: UTF8.self))
                case .type?, .app?:
                    guard let text = intern(valueBytes) else { return nil }
                    if reserved == .type { type = text } else { app = text }
                case .id?, .subject?:
                    guard let text = Self.text(valueBytes) else { return nil }
                    if reserved == .id { id = text } else { subject = text }
                case nil:
                    guard let key = intern(keyBytes), let text = Self.text(valueBytes) else { return nil }
                    fields.append((key, .string(text)))
                    digest.add(key, .string(text))
                }
            } else {
                guard let value = cursor.scalarValue() else { return nil }
                switch reserved {
                case .time?:
                    guard case .number(let number) = value, let parsed = Timestamp(epochMilliseconds: number) else { return nil }
                    time = parsed
                    timeValue = value
                case .app?:
                    guard value == .null else { return nil }
                    appIsNull = true
                case .id?, .subject?, .type?: return nil
                case nil:
                    guard let key = intern(keyBytes) else { return nil }
                    fields.append((key, value))
                    digest.add(key, value)
                }
            }
            cursor.skipWhitespace()
            if cursor.take(UInt8(ascii: ",")) { continue }
            guard cursor.take(UInt8(ascii: "}")) else { return nil }
            break
        }
        cursor.skipWhitespace()
        guard cursor.isAtEnd, let id, let subject, let type, let time, let timeValue else { return nil }
        digest.add("id", .string(id))
        digest.add("subject", .string(subject))
        digest.add("type", .string(type))
        digest.add("time", timeValue)
        if let app { digest.add("app", .string(app)) } else if appIsNull { digest.add("app", .null) }
        let event = Event(
            id: id, time: time, subject: subject, type: type, app: app, fields: EventFields(uniqueMembers: fields), location: location,
            sequence: sequence)
        return (event, digest.digest)
    }

    private enum ReservedField { case id, time, subject, type, app }

    private static func reservedField(_ key: UnsafeBufferPointer<UInt8>) -> ReservedField? {
        switch key.count {
        case 2 where key[0] == UInt8(ascii: "i") && key[1] == UInt8(ascii: "d"): return .id
        case 3 where key.elementsEqual("app".utf8): return .app
        case 4 where key.elementsEqual("time".utf8): return .time
        case 4 where key.elementsEqual("type".utf8): return .type
        case 7 where key.elementsEqual("subject".utf8): return .subject
        default: return nil
        }
    }

    /// The string of validated UTF-8 bytes without escapes, or nil when the bytes are not UTF-8.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        for byte in bytes where byte >= 0x80 { return String(validating: bytes, as: UTF8.self) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        for entry in interned where entry.bytes.count == bytes.count && entry.bytes.elementsEqual(bytes) { return entry.text }
        guard let text = Self.text(bytes) else { return nil }
        if interned.count < Self.internLimit { interned.append((Array(bytes), text)) }
        return text
    }
}

/// A position in one line, with the few JSON productions the fast path accepts.
private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    var isAtEnd: Bool { offset >= bytes.count }
    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        offset += 1
        return true
    }

    /// A string without escapes or control characters: the bytes between the quotes.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<offset - 1])
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            offset += 1
        }
        return nil
    }

    /// A number, `true`, `false` or `null`; nil for anything else (objects and arrays included).
    mutating func scalarValue() -> JSONValue? {
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number().map(JSONValue.number)
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        for index in 0..<count where bytes[offset + index] != word.utf8Start[index] { return false }
        offset += count
        return true
    }

    /// A number, read by the strict parser itself, so that both paths accept and spell numbers
    /// alike; nil where the parser would report an error.
    private mutating func number() -> JSONNumber? {
        var parser = JSONParser(bytes: bytes, offset: offset)
        guard let number = try? parser.parseNumber() else { return nil }
        offset = parser.offset
        return number
    }
}
