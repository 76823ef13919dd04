import Dispatch

/// Reads a log in a format a `LogMapping` describes: one JSON record per line (blank lines
/// skipped), or one JSON array of records (as `gcloud logging read --format=json` prints it),
/// each record mapped to events or skipped with its reason.
///
/// Records are parsed and mapped on several threads, a batch at a time, and handed over in
/// record order, so that what the caller sees does not depend on the number of threads.
struct MappedLogReader {
    let path: String
    let mapping: LogMapping
    let keys: SigningKeySet?
    var parallelism = 1
    /// What was read from a pipe to recognise its format; it comes before the rest.
    var prefix: [UInt8] = []

    /// What one record became.
    enum Delivery {
        case events([RecordMapper.MappedEvent])
        case skipped(reason: String, detail: String?)
        case invalid(Diagnostic)
    }

    /// What the whole file held besides its records.
    struct Totals {
        var sha256 = ""
        var records = 0
        var tokensDecoded = 0
        var tokensVerified = 0
    }

    private static let batchSize = 2048
    /// Bits of an event's sequence number below the record's line: a record gives at most
    /// 1024 events (a batch deletion names up to 1000 accounts).
    static let eventBits = 10

    /// Hands each record's outcome to `body` in file order with the record's line.
    func read(_ body: (Delivery, _ line: Int) throws -> Void) throws(InputError) -> Totals {
        let file = try MappedFile(path: path, prefix: prefix)
        var totals = Totals()
        totals.sha256 = file.sha256()
        let workers = (0..<max(1, parallelism)).map { _ in TokenReader(keys: keys) }
        do {
            try file.withBytes { bytes in
                let records = try MappedLogReader.records(in: bytes, path: path)
                totals.records = records.count
                var start = 0
                while start < records.count {
                    let batch = Array(records[start..<min(records.count, start + MappedLogReader.batchSize)])
                    start += batch.count
                    let outcomes = mapBatch(batch, bytes: bytes, workers: workers)
                    for (record, outcome) in zip(batch, outcomes) { try body(outcome, record.line) }
                }
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError.unreadable(path: path, reason: "\(error)")
        }
        try file.checkUnchanged()
        totals.tokensDecoded = workers.reduce(0) { $0 + $1.decoded }
        totals.tokensVerified = workers.reduce(0) { $0 + $1.verified }
        return totals
    }

    /// A record's place: its bytes and the line it starts on.
    struct RecordSpan: Sendable {
        var bytes: Range<Int>
        var line: Int
    }

    /// The records of a file: its non-blank lines, or the elements of its top-level array.
    static func records(in bytes: UnsafeBufferPointer<UInt8>, path: String) throws(InputError) -> [RecordSpan] {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        var parser = JSONParser(bytes: bytes, offset: start)
        parser.skipWhitespace()
        guard parser.offset < bytes.count, bytes[parser.offset] == UInt8(ascii: "[") else {
            return FileBytes.lineRanges(in: UnsafeBufferPointer(rebasing: bytes[start...]), firstLine: 1).compactMap { line in
                let range = line.bytes.lowerBound + start..<line.bytes.upperBound + start
                return EventLogReader.isBlank(UnsafeBufferPointer(rebasing: bytes[range]))
                    ? nil : RecordSpan(bytes: range, line: line.number)
            }
        }
        // An array: its elements' extents are found here (serially, by skipping), parsed later.
        var spans: [RecordSpan] = []
        var line = 1
        var counted = 0
        func lineOf(_ offset: Int) -> Int {
            for index in counted..<offset where bytes[index] == 0x0A { line += 1 }
            counted = offset
            return line
        }
        do throws(JSONParser.SyntaxError) {
            try parser.parseArray(depth: 0) { element throws(JSONParser.SyntaxError) in
                element.skipWhitespace()
                let first = element.offset
                try element.skipValue(depth: 1)
                spans.append(RecordSpan(bytes: first..<element.offset, line: lineOf(first)))
            }
            parser.skipWhitespace()
            if parser.offset < bytes.count { throw parser.error("unexpected text after the array") }
        } catch {
            let position = FileBytes.lineAndColumn(of: error.offset, in: bytes)
            throw InputError.invalidRecords([
                Diagnostic(
                    .error, "invalid JSON: \(error.reason)", at: SourceLocation(file: path, line: position.line, column: position.column))
            ])
        }
        return spans
    }

    private func mapBatch(_ batch: [RecordSpan], bytes: UnsafeBufferPointer<UInt8>, workers: [TokenReader]) -> [Delivery] {
        let parts = batch.count >= 64 ? workers.count : 1
        let results = UnsafeMutableBufferPointer<Delivery?>.allocate(capacity: batch.count)
        results.initialize(repeating: nil)
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        let shared = SharedBatch(results: results, bytes: bytes)
        let work: @Sendable (Int) -> Void = { part in
            let mapper = RecordMapper(mapping: mapping, tokens: workers[part])
            for index in batch.count * part / parts..<batch.count * (part + 1) / parts {
                shared.results[index] = map(batch[index], bytes: shared.bytes, mapper: mapper)
            }
        }
        if parts > 1 {
            DispatchQueue.concurrentPerform(iterations: parts, execute: work)
        } else {
            work(0)
        }
        return results.map { $0! }
    }

    private func map(_ span: RecordSpan, bytes: UnsafeBufferPointer<UInt8>, mapper: RecordMapper) -> Delivery {
        let record = UnsafeBufferPointer(rebasing: bytes[span.bytes])
        let value: JSONValue
        do throws(JSONParser.SyntaxError) {
            value = try JSONParser.parseDocument(record)
        } catch {
            let position = FileBytes.lineAndColumn(of: error.offset, in: record)
            return .invalid(
                Diagnostic(
                    .error, "invalid JSON: \(error.reason)",
                    at: SourceLocation(file: path, line: span.line + position.line - 1, column: position.column)))
        }
        switch mapper.map(value) {
        case .events(let events): return .events(events)
        case .skipped(let reason, let detail): return .skipped(reason: reason, detail: detail)
        case .invalid(let reason):
            return .invalid(Diagnostic(.error, "\(reason) (mapping '\(mapping.id)')", at: SourceLocation(file: path, line: span.line)))
        }
    }
}

/// The batch's result slots and the file's bytes, shared by the threads of one batch: each
/// writes its own slots, and the reader reads them after all finished.
private struct SharedBatch: @unchecked Sendable {
    let results: UnsafeMutableBufferPointer<MappedLogReader.Delivery?>
    let bytes: UnsafeBufferPointer<UInt8>
}
