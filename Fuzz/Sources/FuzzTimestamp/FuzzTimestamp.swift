import FuzzSupport
@testable import RelayLintCore

@main enum FuzzTimestampMain {
    static func main() { runFuzzer(fuzzTimestamp) }
}

/// The timestamp parsers (RFC 3339, epoch-millisecond digits, epoch milliseconds as a JSON
/// number) on any text: a time that parses prints (and buckets by day) without trapping, and its
/// printed form parses back to the same instant.
private func fuzzTimestamp(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(data, count)
    let text = String(decoding: bytes, as: UTF8.self)
    var times: [Timestamp] = []
    if case .valid(let time) = Timestamp.parse(rfc3339Bytes: bytes) { times.append(time) }
    if let time = Timestamp(epochMillisecondDigits: text) { times.append(time) }
    if case .number(let number)? = try? JSONParser.parseDocument(bytes), let time = Timestamp(epochMilliseconds: number) {
        times.append(time)
    }
    for time in times {
        let printed = time.description
        _ = time.utcDay
        _ = Timestamp.utcDay(number: time.utcDayNumber)
        guard case .valid(let again) = Timestamp.parse(rfc3339: printed), again == time else {
            fatalError("\(printed) does not parse back to the time it was printed from")
        }
    }
    return 0
}
