import FuzzSupport
@testable import RelayLintCore

@main enum FuzzRecordMapperMain {
    static func main() { runFuzzer(fuzzRecordMapper) }
}

/// The built-in log mappings (Cloud Logging entries, Apple notifications) on any record: each
/// record that parses as JSON is recognised and mapped by every built-in mapping, and each event
/// it gives is validated as the log reader does. Events, a skip with its reason, or invalid;
/// never a crash.
private func fuzzRecordMapper(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let record = try? JSONParser.parseDocument(fuzzInput(data, count)) else { return 0 }
    let location = SourceLocation(file: "fuzz.jsonl", line: 1)
    for mapping in builtInMappings {
        let tokens = TokenReader(keys: nil)
        _ = try? mapping.recognize.holds(in: MappingScope(record: record, tokens: tokens))
        guard case .events(let events) = RecordMapper(mapping: mapping, tokens: tokens).map(record) else { continue }
        for (number, event) in events.enumerated() {
            _ = MappedEvents.event(from: event, appleAccounts: appleAccounts, location: location, sequence: UInt64(number))
        }
    }
    return 0
}

private let builtInMappings: [LogMapping] = {
    guard let set = try? MappingSet.load(userPaths: []) else { fatalError("the built-in mappings do not load") }
    return set.mappings
}()

private let appleAccounts: AppleAccountIndex = {
    var index = AppleAccountIndex()
    index.add(appleID: "001234.abcdef", subject: "u1")
    return index
}()
