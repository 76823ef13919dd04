import FuzzSupport
@testable import RelayLintCore

@main enum FuzzEventLineMain {
    static func main() { runFuzzer(fuzzEventLine) }
}

/// The log reader's fast event scanner against the strict parser, on any line: where the fast
/// scanner answers, the strict parser must accept the line too and prepare the same event (type,
/// app, time, order, id and subject, content digest, look-alikes, packed bytes); where the fast
/// scanner declines, the strict parser decides alone. A disagreement stops the fuzzer, as a
/// crash does. (`FastPathAgreementTests` holds the same comparison for the lines the tests know.)
private func fuzzEventLine(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let line = fuzzInput(data, count)
    let names = NameTable()
    let sequence = EventLogReader.sequence(fileIndex: reader.fileIndex, line: 1)

    var fastWorker = EventLogReader.Worker(names: names, preparation: preparation, path: reader.path)
    var fastBytes: [UInt8] = [0xAA]  // a worker's buffer holds the events before
    let fast = fastWorker.scanner.scan(
        line, sequence: sequence, file: fastWorker.file, names: &fastWorker.names, preparation: preparation, into: &fastBytes)

    var strictWorker = EventLogReader.Worker(names: names, preparation: preparation, path: reader.path)
    var strictBytes: [UInt8] = []
    let strict = reader.strictParse(line, lineNumber: 1, worker: &strictWorker, into: &strictBytes)

    guard let a = fast else { return 0 }
    guard case .event(let b) = strict else {
        fatalError("the fast scanner accepts a line the strict parser rejects: \(String(decoding: line, as: UTF8.self))")
    }
    let location = SourceLocation(file: reader.path, line: 1)
    let agrees =
        a.type == b.type && a.app == b.app && a.time == b.time && a.sequence == b.sequence
        && (a.location ?? location) == (b.location ?? location) && a.idKey == b.idKey && a.subjectHash == b.subjectHash
        && a.digest == b.digest && a.inShard == b.inShard
        && a.lookAlikes.map { [$0.field, $0.text] } == b.lookAlikes.map { [$0.field, $0.text] }
        && fastBytes[a.packed] == strictBytes[b.packed] && fastBytes[a.id] == strictBytes[b.id]
        && fastBytes[a.subject] == strictBytes[b.subject]
    if !agrees {
        fatalError("the fast scanner and the strict parser prepare different events: \(String(decoding: line, as: UTF8.self))")
    }
    return 0
}

private let reader = EventLogReader(path: "events.jsonl", fileIndex: 0)
private let preparation = PreparedEvent.Preparation(relayDomains: RelayDomains(), shard: Shard(index: 1, count: 2))
