/// A compact byte form for what millions of records keep in memory while the inputs are read:
/// counts as LEB128, strings as their length and UTF-8, JSON values as a tag and a payload.
/// `StoredEvents` and `StoredAccount` write with `PackedWriter` and read back with `PackedReader`
/// in the same order, mostly through a `PackedArena`; nothing else reads these bytes, and they
/// never leave the process.
struct PackedWriter {
    var bytes: [UInt8] = []

    mutating func count(_ value: Int) {
        precondition(value >= 0, "PackedWriter: a count is never negative")
        unsigned(UInt64(value))
    }

    private mutating func unsigned(_ value: UInt64) { Self.append(unsigned: value, to: &bytes) }

    /// LEB128: seven bits a byte, low bits first, the top bit set on all bytes but the last.
    static func append(unsigned value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// How many bytes `count(value)` writes.
    static func byteCount(ofCount value: Int) -> Int { max(1, (Int.bitWidth - value.leadingZeroBitCount + 6) / 7) }

    /// Eight bytes as they are: for values that use all 64 bits (timestamps in nanoseconds).
    mutating func fixed(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A signed number, zigzag-encoded so that small negatives stay short.
    mutating func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func string(_ text: String) {
        text.withUTF8Bytes { string(bytes: $0) }
    }

    /// A string given as its UTF-8 bytes: the same bytes `string(_:)` writes for it.
    mutating func string(bytes text: UnsafeBufferPointer<UInt8>) {
        count(text.count)
        bytes.append(contentsOf: text)
    }

    /// A string value given as its UTF-8 bytes: the same bytes `value(.string(…))` writes for it.
    mutating func stringValue(bytes text: UnsafeBufferPointer<UInt8>) {
        bytes.append(ValueTag.string.rawValue)
        string(bytes: text)
    }

    /// nil as 0, a string as its length plus one and its UTF-8.
    mutating func optionalString(_ text: String?) {
        guard let text else { return count(0) }
        count(text.utf8.count + 1)
        bytes.append(contentsOf: text.utf8)
    }

    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(ValueTag.null.rawValue)
        case .bool(let flag): bytes.append((flag ? ValueTag.true : ValueTag.false).rawValue)
        case .string(let text): text.withUTF8Bytes { stringValue(bytes: $0) }
        case .number(let number):
            bytes.append(ValueTag.number.rawValue)
            string(number.text)
            fixed(number.value.bitPattern)
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

/// Reads what `PackedWriter` wrote, in the same order.
struct PackedReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func count() -> Int { Int(unsigned()) }

    private mutating func unsigned() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func fixed() -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += 8
        return value
    }

    mutating func signed() -> Int64 {
        let zigzag = unsigned()
        return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    }

    mutating func string() -> String { text(length: count()) }

    mutating func optionalString() -> String? {
        let lengthPlusOne = count()
        return lengthPlusOne == 0 ? nil : text(length: lengthPlusOne - 1)
    }

    private mutating func text(length: Int) -> String {
        defer { offset += length }
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<offset + length]), as: UTF8.self)
        }
    }

    /// The next `count` bytes as they were written (`PackedWriter` appends them to `bytes`).
    mutating func rawBytes(count: Int) -> ArraySlice<UInt8> {
        defer { offset += count }
        return bytes[offset..<offset + count]
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
            return .number(JSONNumber(text: text, value: Double(bitPattern: fixed())))
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
        case nil: preconditionFailure("PackedReader: unknown value tag; the writer and the reader disagree")
        }
    }
}

private enum ValueTag: UInt8 {
    case null, `false`, `true`, string, number, array, object
}
