import FuzzSupport
@testable import RelayLintCore

@main enum FuzzJSONParserMain {
    static func main() { runFuzzer(fuzzJSONParser) }
}

/// The strict JSON parser on any bytes: it returns a value or a syntax error, never crashes,
/// what it accepts round-trips through its canonical text (the duplicate check relies on it), and
/// an accepted text has no repeated key: the value holds every member the text writes.
private func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(data, count)
    guard let value = try? JSONParser.parseDocument(bytes) else { return 0 }
    // A repeated key accepted leaves one member out, as a dictionary keeps one of the two; the
    // members a valid text writes are its colons outside strings.
    guard memberCount(of: value) == colonsOutsideStrings(bytes) else { fatalError("a repeated key was accepted") }
    let text = value.canonicalText
    guard let again = try? JSONParser.parseDocument(text) else { fatalError("canonical text does not parse: \(text)") }
    guard again == value, again.canonicalText == text else { fatalError("canonical text does not round-trip: \(text)") }
    return 0
}

private func memberCount(of value: JSONValue) -> Int {
    switch value {
    case .object(let members): members.count + members.values.reduce(0) { $0 + memberCount(of: $1) }
    case .array(let elements): elements.reduce(0) { $0 + memberCount(of: $1) }
    default: 0
    }
}

/// The colons of a valid JSON text that are not inside a string.
private func colonsOutsideStrings(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var colons = 0
    var inString = false
    var escaped = false
    for byte in bytes {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
        } else if byte == UInt8(ascii: "\"") {
            inString = true
        } else if byte == UInt8(ascii: ":") {
            colons += 1
        }
    }
    return colons
}
