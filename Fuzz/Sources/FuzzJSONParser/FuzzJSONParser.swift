import FuzzSupport
@testable import RelayLintCore

@main enum FuzzJSONParserMain {
    static func main() { runFuzzer(fuzzJSONParser) }
}

/// The strict JSON parser on any bytes: it returns a value or a syntax error, never crashes, and
/// what it accepts round-trips through its canonical text (the duplicate check relies on it).
private func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(data, count)
    guard let value = try? JSONParser.parseDocument(bytes) else { return 0 }
    let text = value.canonicalText
    guard let again = try? JSONParser.parseDocument(text) else { fatalError("canonical text does not parse: \(text)") }
    guard again == value, again.canonicalText == text else { fatalError("canonical text does not round-trip: \(text)") }
    return 0
}
