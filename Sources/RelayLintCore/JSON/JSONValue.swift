/// A parsed JSON value.
///
/// relaylint parses JSON itself rather than through `JSONSerialization` so that booleans stay
/// booleans, numbers keep their spelling (epoch milliseconds with fractions convert exactly), and
/// syntax errors carry a byte offset that becomes a line and column.
public enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    /// Boxed: a `JSONNumber` is 40 bytes and would make every value, and so every field of
    /// every event held in memory, that large; numbers are rare in logs.
    indirect case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The string payload, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// A deterministic serialization where equal JSON values give equal text: keys sorted,
    /// no whitespace, numbers by value. Duplicate detection compares events through it.
    public var canonicalText: String {
        var output = ""
        appendCanonical(to: &output)
        return output
    }

    /// As `canonicalText`, but numbers as they were written: for messages, where `1e0` for the
    /// `1` a record holds reads as a mistake of its own.
    var sortedText: String {
        var output = ""
        appendCanonical(to: &output, numbersAsWritten: true)
        return output
    }

    private func appendCanonical(to output: inout String, numbersAsWritten: Bool = false) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let number): output += numbersAsWritten ? number.text : number.canonicalText
        case .string(let value): output += JSONValue.quoted(value)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.appendCanonical(to: &output, numbersAsWritten: numbersAsWritten)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                output += JSONValue.quoted(key)
                output += ":"
                members[key]!.appendCanonical(to: &output, numbersAsWritten: numbersAsWritten)
            }
            output += "}"
        }
    }

    /// The text a report shows for a field value: strings bare, everything else as JSON, its
    /// numbers as written (`{"phone":14155550199}`: as `14155550199e0` it was neither the record's
    /// text nor a number the masker reads).
    public var displayText: String {
        switch self {
        case .string(let value): return value
        case .number(let number): return number.text
        default: return sortedText
        }
    }

    /// Quotes and escapes a string as a JSON string literal.
    public static func quoted(_ value: String) -> String {
        var output = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
        return output
    }
}

/// A JSON number that remembers how it was written.
///
/// Two numbers are equal when their values are equal (`1`, `1.0` and `1e0` are the same), as the
/// contract's duplicate rule asks; the text is kept for exact conversions such as epoch
/// milliseconds with a fraction.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as it appeared in the input.
    public let text: String
    /// The number's value as a double.
    public let value: Double
    /// The exact decimal value as `[-]digits e exponent` without leading or trailing zeros:
    /// equal for `1`, `1.0`, `10e-1`, different for numbers a double cannot tell apart.
    let normalized: String

    /// The value of a string that holds a number as JSON writes one (`15`, `-1.5e3`), as a rule
    /// compares a number with a string; nil for any other text. `Double(_:)` also read `0xF`,
    /// `inf` and `nan`, so `equals: 15` matched the string "0xF".
    static func value(written text: String) -> Double? {
        // A JSON number starts with a minus or a digit and ends with a digit: no space around it.
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first),
            let last = text.utf8.last, (0x30...0x39).contains(last),
            case .number(let number)? = try? JSONParser.parseDocument(text)
        else { return nil }
        return number.value
    }

    public init(text: String, value: Double) {
        self.text = text
        self.value = value
        self.normalized = JSONNumber.normalize(text)
    }

    public init(_ value: Double) {
        self.init(text: JSONNumber.format(value), value: value)
    }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool { lhs.normalized == rhs.normalized }
    public func hash(into hasher: inout Hasher) { hasher.combine(normalized) }

    public var description: String { text }

    /// The exact, spelling-independent form used for duplicate detection.
    var canonicalText: String { normalized }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9.0e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Normalises a JSON number's text exactly (no rounding through `Double`).
    static func normalize(_ text: String) -> String {
        var text = text
        if let integer = text.withUTF8(normalizedInteger) { return integer }
        var body = Substring(text)
        var negative = false
        if body.first == "-" {
            negative = true
            body = body.dropFirst()
        }
        var exponent = 0
        if let marker = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let parsed = Int(body[body.index(after: marker)...].drop { $0 == "+" }), abs(parsed) < 1_000_000_000 else {
                return text
            }
            exponent = parsed
            body = body[..<marker]
        }
        var digits = String(body)
        if let dot = body.firstIndex(of: ".") {
            let fraction = body[body.index(after: dot)...]
            digits = String(body[..<dot]) + fraction
            exponent -= fraction.count
        }
        digits = String(digits.drop { $0 == "0" })
        while digits.hasSuffix("0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { return "0" }
        return (negative ? "-" : "") + digits + "e" + String(exponent)
    }

    /// `normalize` of an integer (`[-]digits`), worked out on its bytes; nil for any other text.
    /// Nearly every number a log holds is one (Apple's `event_time`, epoch milliseconds), and
    /// the general path, a few strings made and cut for each, was a sixth of the time a log of
    /// Apple's notifications took.
    private static func normalizedInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let sign = bytes.first == UInt8(ascii: "-") ? 1 : 0
        guard bytes.count > sign, bytes[sign...].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var first = sign
        while first < bytes.count, bytes[first] == 0x30 { first += 1 }
        if first == bytes.count { return "0" }
        var end = bytes.count
        while bytes[end - 1] == 0x30 { end -= 1 }
        return (sign == 1 ? "-" : "") + String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self) + "e"
            + String(bytes.count - end)
    }
}
