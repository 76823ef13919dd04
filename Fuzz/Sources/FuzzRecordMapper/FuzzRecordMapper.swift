import FuzzSupport
@testable import RelayLintCore

@main enum FuzzRecordMapperMain {
    static func main() { runFuzzer(fuzzRecordMapper) }
}

/// The built-in log mappings (Cloud Logging entries, Apple notifications) on any bytes, as a log
/// reader hands them over: each mapping parses the record along its layout (only the members it
/// reads are built, the rest checked and skipped) and maps it, and must come to exactly what the
/// same mapping comes to reading the record whole (the same outcome, or the same syntax error at
/// the same offset). Each event a record gives is validated as the log reader does. Never a
/// crash.
private func fuzzRecordMapper(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(data, count)
    let location = SourceLocation(file: "fuzz.jsonl", line: 1)
    for (projecting, whole) in mappers {
        let projected = Result { () throws(JSONParser.SyntaxError) in try projecting.map(parsing: bytes) }
        let read = Result { () throws(JSONParser.SyntaxError) in try whole.map(parsing: bytes) }
        guard projected == read else {
            fatalError("mapping '\(projecting.mapping.id)' reads the record along its layout as \(projected), whole as \(read)")
        }
        if case .success = read, let record = try? JSONParser.parseDocument(bytes) {
            guard projecting.recognizes(record) == whole.recognizes(record), projecting.map(record) == whole.map(record) else {
                fatalError("mapping '\(projecting.mapping.id)' maps a parsed record along its layout and whole differently")
            }
        }
        guard case .success(.events(let events)) = projected else { continue }
        for (number, event) in events.enumerated() {
            _ = MappedEvents.event(from: event, appleAccounts: appleAccounts, location: location, sequence: UInt64(number))
        }
    }
    return 0
}

/// Each built-in mapping's mapper along its layout, and the same reading records whole; made
/// once (the fuzzer runs one input at a time).
nonisolated(unsafe) private let mappers: [(RecordMapper, RecordMapper)] = {
    guard let set = try? MappingSet.load(userPaths: []) else { fatalError("the built-in mappings do not load") }
    return set.mappings.map { mapping in
        (
            RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil)),
            RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil), projecting: false)
        )
    }
}()

private let appleAccounts: AppleAccountIndex = {
    var index = AppleAccountIndex()
    index.add(appleID: "001234.abcdef", subject: "u1")
    return index
}()
