/// An event as the dataset holds it from the moment it is read until its subject is evaluated.
///
/// Millions of events wait in memory for their subject's turn, so they wait packed: the id,
/// the fields and the rarely set parts go into one byte buffer, the few strings every event
/// repeats (type, app) stay shared, and the file is an index into the dataset's file table.
/// An `Event` held 600 bytes or so in five to ten allocations (the fields list, every string
/// longer than 15 bytes); a stored event is 56 bytes and one buffer of about a hundred. The evaluation unpacks a
/// subject's events just before it replays them, and the unpacked event equals the event stored.
struct StoredEvent: Sendable {
    let time: Timestamp
    let sequence: UInt64
    let type: String
    let app: String?
    /// id, location (the file as an index into the dataset's `sourceFiles`), discriminator and
    /// fields, in `Packer`'s format.
    let packed: [UInt8]

    /// Packs an event read from one of `sourceFiles`' files (`file` is its index there).
    init(_ event: Event, file: Int) {
        time = event.time
        sequence = event.sequence
        type = event.type
        app = event.app
        var packer = Packer()
        packer.bytes.reserveCapacity(event.id.utf8.count + 12 + event.fields.count * 40)
        packer.string(event.id)
        packer.count(file)
        packer.count(event.location.line)
        packer.count(event.location.column.map { $0 + 1 } ?? 0)
        if let discriminator = event.discriminator {
            packer.count(1)
            packer.string(discriminator)
        } else {
            packer.count(0)
        }
        packer.count(event.fields.count)
        for (key, value) in event.fields {
            packer.string(key)
            packer.value(value)
        }
        packed = packer.bytes
    }

    /// The event as it was stored; `subject` is the subject's id (not stored per event).
    func event(subject: String, sourceFiles: [String]) -> Event {
        var reader = Unpacker(bytes: packed)
        let id = reader.string()
        let file = reader.count()
        let line = reader.count()
        let columnPlusOne = reader.count()
        let discriminator = reader.count() == 1 ? reader.string() : nil
        let fieldCount = reader.count()
        var fields: [EventFields.Element] = []
        fields.reserveCapacity(fieldCount)
        for _ in 0..<fieldCount {
            let key = reader.string()
            fields.append((key, reader.value()))
        }
        var event = Event(
            id: id, time: time, subject: subject, type: type, app: app, fields: EventFields(sortedUniqueMembers: fields),
            location: SourceLocation(file: sourceFiles[file], line: line, column: columnPlusOne == 0 ? nil : columnPlusOne - 1),
            sequence: sequence)
        event.discriminator = discriminator
        return event
    }
}

/// Writes counts (LEB128), strings (count and UTF-8) and JSON values (a tag, then the payload).
private struct Packer {
    var bytes: [UInt8] = []

    mutating func count(_ value: Int) {
        var rest = UInt(value)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func string(_ text: String) {
        count(text.utf8.count)
        bytes.append(contentsOf: text.utf8)
    }

    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(ValueTag.null.rawValue)
        case .bool(let flag): bytes.append((flag ? ValueTag.true : ValueTag.false).rawValue)
        case .string(let text):
            bytes.append(ValueTag.string.rawValue)
            string(text)
        case .number(let number):
            bytes.append(ValueTag.number.rawValue)
            string(number.text)
            withUnsafeBytes(of: number.value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .array(let elements):
            bytes.append(ValueTag.array.rawValue)
            count(elements.count)
            for element in elements { self.value(element) }
        case .object(let members):
            bytes.append(ValueTag.object.rawValue)
            count(members.count)
            for (key, member) in members {
                string(key)
                self.value(member)
            }
        }
    }
}

/// Reads what `Packer` wrote, in the same order.
private struct Unpacker {
    let bytes: [UInt8]
    var offset = 0

    mutating func count() -> Int {
        var value: UInt = 0
        var shift: UInt = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= UInt(byte & 0x7F) << shift
            if byte < 0x80 { return Int(value) }
            shift += 7
        }
    }

    mutating func string() -> String {
        let length = count()
        defer { offset += length }
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<offset + length]), as: UTF8.self)
        }
    }

    mutating func value() -> JSONValue {
        let tag = ValueTag(rawValue: bytes[offset])
        offset += 1
        switch tag {
        case .null?: return .null
        case .false?: return .bool(false)
        case .true?: return .bool(true)
        case .string?: return .string(string())
        case .number?:
            let text = string()
            var bits: UInt64 = 0
            for index in 0..<8 { bits |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
            offset += 8
            return .number(JSONNumber(text: text, value: Double(bitPattern: bits)))
        case .array?:
            let count = count()
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(value()) }
            return .array(elements)
        case .object?:
            let count = count()
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(count)
            for _ in 0..<count {
                let key = string()
                members[key] = value()
            }
            return .object(members)
        case nil: preconditionFailure("StoredEvent: unknown value tag; the packer and the unpacker disagree")
        }
    }
}

private enum ValueTag: UInt8 {
    case null, `false`, `true`, string, number, array, object
}
