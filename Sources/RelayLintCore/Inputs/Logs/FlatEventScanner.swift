/// The log reader's fast path: reads the common shape of an event line — one flat JSON object
/// whose values are unescaped strings, numbers, booleans or null — straight into the event's
/// packed form (`StoredEvents`), without making an `Event`, a `JSONValue` or a `String` of it:
/// names (keys, the type, the app) become indices into the name table through a small cache of
/// their bytes, and the id, the subject and the string values are copied as bytes.
///
/// It is deliberately partial. Whatever it does not recognise as that shape and as a valid event
/// (escapes, nested values, a repeated key, a key that is not ASCII, a missing or mistyped
/// reserved field, an unusual time, invalid UTF-8, any syntax error) makes it return nil, and the
/// caller parses the line with the strict `JSONParser` and `Event.make`, which decide and
/// explain. So the fast path never has to reproduce an error message, and where it answers it
/// answers as the strict path would: the same packed bytes, digest and prepared event (the tests
/// compare both on every line they have).
struct FlatEventScanner {
    /// Names met again and again (keys, event types, apps) by their bytes, with their index in
    /// the name table: most lines then cost no lookup in the shared table and no `String`.
    private var known: [(bytes: [UInt8], name: Int)] = []
    private static let knownLimit = 128
    /// The most fields a line may have for this path (`scan`).
    static let pairwiseKeyLimit = 32
    /// The current line's non-reserved fields; kept from line to line for its capacity.
    private var fields: [Field] = []

    /// A non-reserved field: where its key and value lie in the line.
    private struct Field {
        var key: Range<Int>
        /// The key's index in the name table, once the line is known to be an event.
        var name: Int
        /// A string value's bytes (between the quotes) when `scalar` is nil.
        var string: Range<Int>
        var scalar: JSONValue?
    }

    /// The prepared event, its packed form, id and subject appended to `bytes`; nil to defer to
    /// the strict path. `file` is the log's index in the name table.
    mutating func scan(
        _ line: UnsafeBufferPointer<UInt8>, sequence: UInt64, file: Int, names: inout NameTable.Cache,
        preparation: PreparedEvent.Preparation, into bytes: inout [UInt8]
    ) -> PreparedEvent? {
        var cursor = Cursor(bytes: line)
        cursor.skipWhitespace()
        guard cursor.take(UInt8(ascii: "{")) else { return nil }
        var id: Range<Int>?
        var subject: Range<Int>?
        var type: Range<Int>?
        var app: Range<Int>?
        var sawApp = false
        var time: Timestamp?
        var timeText: Range<Int>?
        var timeNumber: JSONValue?
        fields.removeAll(keepingCapacity: true)
        func text(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: line[range]) }
        cursor.skipWhitespace()
        if cursor.take(UInt8(ascii: "}")) { return nil }
        while true {
            cursor.skipWhitespace()
            // Keys are ASCII in practice; other keys could be canonically equal with different
            // bytes, which only the strict parser's dictionary handles as the same key.
            guard let key = cursor.plainString(), !line[key].contains(where: { $0 >= 0x80 }) else { return nil }
            cursor.skipWhitespace()
            guard cursor.take(UInt8(ascii: ":")) else { return nil }
            cursor.skipWhitespace()
            guard let byte = cursor.current else { return nil }
            let reserved = Self.reservedField(UnsafeBufferPointer(rebasing: line[key]))
            // A repeated key: the strict parser rejects it, naming the key; let it say so.
            switch reserved {
            case .id?: guard id == nil else { return nil }
            case .subject?: guard subject == nil else { return nil }
            case .type?: guard type == nil else { return nil }
            case .time?: guard time == nil else { return nil }
            case .app?: guard !sawApp else { return nil }
            case nil:
                // Compared pair by pair, as an event has a handful of fields; a line of more is
                // left to the strict parser, which checks many keys through a set (400,000 keys
                // on one line took minutes here).
                guard fields.count < Self.pairwiseKeyLimit else { return nil }
                for field in fields where field.key.count == key.count && text(field.key).hasSameBytes(as: text(key)) { return nil }
            }
            if byte == UInt8(ascii: "\"") {
                guard let value = cursor.plainString(), Self.isValidUTF8(UnsafeBufferPointer(rebasing: line[value])) else { return nil }
                switch reserved {
                case .time?:
                    guard let parsed = Timestamp(rfc3339Bytes: UnsafeBufferPointer(rebasing: line[value])) else { return nil }
                    (time, timeText) = (parsed, value)
                case .type?: type = value
                case .app?: (app, sawApp) = (value, true)
                case .id?: id = value
                case .subject?: subject = value
                case nil: fields.append(Field(key: key, name: -1, string: value, scalar: nil))
                }
            } else {
                guard let value = cursor.scalarValue() else { return nil }
                switch reserved {
                case .time?:
                    guard case .number(let number) = value, let parsed = Timestamp(epochMilliseconds: number) else { return nil }
                    (time, timeNumber) = (parsed, value)
                case .app?:
                    guard value == .null else { return nil }
                    sawApp = true
                case .id?, .subject?, .type?: return nil
                case nil: fields.append(Field(key: key, name: -1, string: 0..<0, scalar: value))
                }
            }
            cursor.skipWhitespace()
            if cursor.take(UInt8(ascii: ",")) { continue }
            guard cursor.take(UInt8(ascii: "}")) else { return nil }
            break
        }
        cursor.skipWhitespace()
        guard cursor.isAtEnd, let id, let subject, let type, let time else { return nil }
        // A subject id past the cap is invalid input: the strict path says so.
        guard subject.count <= SubjectID.longestBytes else { return nil }
        // Names are looked up once the line is an event: a declined line leaves none behind.
        for index in fields.indices { fields[index].name = name(of: fields[index].key, in: line, names: &names) }

        var digest = ContentDigest.Accumulator()
        digest.add(key: Self.key("id"), string: text(id))
        digest.add(key: Self.key("subject"), string: text(subject))
        digest.add(key: Self.key("type"), string: text(type))
        if let timeText { digest.add(key: Self.key("time"), string: text(timeText)) }
        if let timeNumber { digest.add(key: Self.key("time"), value: timeNumber) }
        if let app { digest.add(key: Self.key("app"), string: text(app)) } else if sawApp { digest.add(key: Self.key("app"), value: .null) }
        var lookAlikes: [(field: String, text: String)] = []
        for field in fields {
            if let scalar = field.scalar {
                digest.add(key: text(field.key), value: scalar)
            } else {
                digest.add(key: text(field.key), string: text(field.string))
            }
        }
        // Sorted by key, as `EventFields` holds them: byte order is `String` order for ASCII keys.
        fields.sort { line[$0.key].lexicographicallyPrecedes(line[$1.key]) }
        for field in fields where field.scalar == nil && preparation.relayDomains.isLookAlike(bytes: text(field.string)) {
            lookAlikes.append((String(decoding: text(field.key), as: UTF8.self), String(decoding: text(field.string), as: UTF8.self)))
        }

        let typeName = name(of: type, in: line, names: &names)
        // An empty one names no app, as `Event.make` reads it.
        let appName = app.flatMap { $0.isEmpty ? nil : name(of: $0, in: line, names: &names) }
        let start = bytes.count
        var writer = PackedWriter(bytes: consume bytes)
        let lineNumber = EventLogReader.fileAndLine(of: sequence).line
        let head = StoredEvents.Head(
            time: time, sequence: sequence, type: typeName, app: appName, file: file, line: lineNumber, column: nil)
        let idBytes = head.write(id: text(id), fieldCount: fields.count, into: &writer)
        for field in fields {
            writer.count(field.name)
            if let scalar = field.scalar { writer.value(scalar) } else { writer.stringValue(bytes: text(field.string)) }
        }
        let packed = start..<writer.bytes.count
        writer.bytes.append(contentsOf: text(subject))
        bytes = writer.bytes
        var prepared = bytes.withUnsafeBufferPointer { buffer in
            preparation.prepared(
                type: typeName, app: appName, time: time, sequence: sequence, location: nil, digest: digest.digest,
                lookAlikes: lookAlikes, packed: packed, id: idBytes, subject: packed.upperBound..<buffer.count, in: buffer)
        }
        prepared.appleID = appleID(in: line)
        prepared.linkNote = linkNote(type: text(type), in: line)
        return prepared
    }

    /// The note of a link or unlink that names no identity, as the strict path finds it; nil,
    /// without making a `String`, for any other event.
    private func linkNote(type: UnsafeBufferPointer<UInt8>, in line: UnsafeBufferPointer<UInt8>) -> String? {
        guard type.count == 15 || type.count == 17,
            type.hasSameBytes(as: Self.key("identity.linked"))
                || type.hasSameBytes(as: Self.key("identity.unlinked"))
        else { return nil }
        var kind: String?
        var provider: String?
        for field in fields where field.scalar == nil {
            let key = UnsafeBufferPointer(rebasing: line[field.key])
            let value = { String(decoding: UnsafeBufferPointer(rebasing: line[field.string]), as: UTF8.self) }
            if key.count == 4, key.hasSameBytes(as: Self.key("kind")) { kind = value() }
            if key.count == 8, key.hasSameBytes(as: Self.key("provider")) { provider = value() }
        }
        return LinkWithoutIdentity.note(type: String(decoding: type, as: UTF8.self), kind: kind, provider: provider)
    }

    /// The `value` of an event with `provider: apple.com` (an Apple user id), as the strict path
    /// finds it; nil for any other event, without making a `String`.
    private func appleID(in line: UnsafeBufferPointer<UInt8>) -> String? {
        var provider: Field?
        var value: Field?
        for field in fields where field.scalar == nil {
            let key = UnsafeBufferPointer(rebasing: line[field.key])
            if key.count == 8, key.hasSameBytes(as: Self.key("provider")) { provider = field }
            if key.count == 5, key.hasSameBytes(as: Self.key("value")) { value = field }
        }
        guard let provider, let value,
            UnsafeBufferPointer(rebasing: line[provider.string]).count == 9,
            UnsafeBufferPointer(rebasing: line[provider.string]).hasSameBytes(as: Self.key("apple.com"))
        else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: line[value.string]), as: UTF8.self)
    }

    private enum ReservedField { case id, time, subject, type, app }

    private static func reservedField(_ key: UnsafeBufferPointer<UInt8>) -> ReservedField? {
        switch key.count {
        case 2 where key[0] == UInt8(ascii: "i") && key[1] == UInt8(ascii: "d"): return .id
        // `memcmp` through `hasSameBytes`: `elementsEqual` over a `String.UTF8View` went a byte
        // at a time (~2% of the workers' samples).
        case 3 where key.hasSameBytes(as: Self.key("app")): return .app
        case 4 where key.hasSameBytes(as: Self.key("time")): return .time
        case 4 where key.hasSameBytes(as: Self.key("type")): return .type
        case 7 where key.hasSameBytes(as: Self.key("subject")): return .subject
        default: return nil
        }
    }

    /// A reserved key's bytes, for the digest.
    private static func key(_ name: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    }

    /// Whether the bytes are UTF-8; a `String` is made only for the rare value that is not ASCII.
    private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return String(validating: bytes, as: UTF8.self) != nil }
        return true
    }

    /// The name-table index of the (valid UTF-8) bytes at `range`.
    private mutating func name(of range: Range<Int>, in line: UnsafeBufferPointer<UInt8>, names: inout NameTable.Cache) -> Int {
        let bytes = UnsafeBufferPointer(rebasing: line[range])
        for entry in known where entry.bytes.count == bytes.count && entry.bytes.withUnsafeBufferPointer({ $0.hasSameBytes(as: bytes) }) {
            return entry.name
        }
        let name = names.index(of: String(decoding: bytes, as: UTF8.self))
        if known.count < Self.knownLimit { known.append((Array(bytes), name)) }
        return name
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
    mutating func plainString() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = offset
        offset = PlainTextScan.end(in: bytes, from: offset)
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
        offset += 1
        return start..<offset - 1
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
