import Dispatch

/// Reads a log in a format a `LogMapping` describes: one JSON record per line (blank lines
/// skipped), or one JSON array of records (as `gcloud logging read --format=json` prints it),
/// each record mapped to events or skipped with its reason.
///
/// Records are parsed, mapped, validated and packed on several threads, a slice at a time
/// (`RecordPipeline`), while the caller files those done, and handed over in record order: what the
/// caller sees does not depend on the number of threads, and the caller's single thread only
/// files prepared events, as it does for relaylint's own log.
struct MappedLogReader: Sendable {
    let path: String
    let fileIndex: Int
    let mapping: LogMapping
    let keys: SigningKeySet?
    /// Who holds each Apple user id; complete when a log joined through it is read.
    let appleAccounts: AppleAccountIndex
    var parallelism = 1
    /// A pipe already opened (and begun) to recognise its format.
    var opened: OpenedInput?

    /// A record's events, prepared on a worker: packed into `bytes` (each event's packed form,
    /// id and subject), with each event's content, whose canonical JSON the duplicate check keeps
    /// for the rare event whose id may have been used before.
    struct PreparedRecord {
        var events: [PreparedEvent] = []
        var bytes: [UInt8] = []
        var contents: [JSONValue] = []
    }

    /// What one record became.
    enum Delivery {
        case events(PreparedRecord)
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

    /// Bits of an event's sequence number below the record's line: a record gives at most
    /// 1024 events (a batch deletion names up to 1000 accounts).
    static let eventBits = 10

    /// What one thread works with: its own copy of the mapping and the projections made from
    /// it (no object of them is shared with another thread), token reader, memo and view of the
    /// name table.
    final class Worker: @unchecked Sendable {
        let projection: RecordProjection?
        /// Made once: a mapper made per record copied the whole mapping each time.
        let mapper: RecordMapper
        let tokens: TokenReader
        var names: NameTable.Cache
        let file: Int
        let preparation: PreparedEvent.Preparation

        init(mapping: LogMapping, keys: SigningKeySet?, names: NameTable, path: String, preparation: PreparedEvent.Preparation) {
            let mapping = mapping.copyForThread()
            projection = RecordProjection.of(mapping)
            tokens = TokenReader(keys: keys)
            mapper = RecordMapper(
                mapping: mapping, tokens: tokens, memo: MappingMemo(), parsedValueProjections: RecordProjection.ofParsedValues(mapping))
            self.names = NameTable.Cache(names)
            file = self.names.index(of: path)
            self.preparation = preparation
        }
    }

    /// Hands each record's outcome to `body` in file order with the record's line.
    func read(
        names: NameTable, preparation: PreparedEvent.Preparation, _ body: (consuming Delivery, _ line: Int) throws -> Void
    ) throws(InputError) -> Totals {
        let file = try MappedFile(path: path, opened: opened, capped: Self.caps(opened: opened))
        var totals = Totals()
        // Hashed on a thread of its own while the records are mapped: it was a serial tenth of
        // the run before any record was read.
        let digest = FileDigest()
        let hashing = DispatchGroup()
        DispatchQueue.global().async(group: hashing) { digest.value = file.sha256(releasing: false) }
        defer { hashing.wait() }
        let workers = (0..<max(1, parallelism)).map { _ in
            Worker(mapping: mapping, keys: keys, names: names, path: path, preparation: preparation)
        }
        do {
            try file.withBytes { bytes in
                let pipeline = RecordPipeline(cursor: try RecordCursor(bytes: bytes, path: path), bytes: bytes)
                let shared = SharedBytes(bytes: bytes)
                let threads = DispatchGroup()
                for worker in workers {
                    DispatchQueue.global().async(group: threads) {
                        pipeline.work { span in map(span, bytes: shared.bytes, worker: worker) }
                    }
                }
                defer {
                    pipeline.cancel()
                    threads.wait()
                }
                while var slice = pipeline.next() {
                    for index in slice.spans.indices {
                        try body(slice.outcomes[index].take()!, slice.spans[index].line)
                    }
                }
                totals.records = pipeline.records
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError.unreadable(path: path, reason: "\(error)")
        }
        hashing.wait()
        totals.sha256 = digest.value
        try file.checkUnchanged()
        totals.tokensDecoded = workers.reduce(0) { $0 + $1.tokens.decoded }
        totals.tokensVerified = workers.reduce(0) { $0 + $1.tokens.verified }
        return totals
    }

    /// The caps on a log read into memory (a pipe, a device, a gzip file): a log that starts
    /// with a NUL byte (`/dev/zero`, a stream of zeros) stops at its first block instead of
    /// filling 4 GiB first, while a NUL line further on is an invalid record like any other
    /// (`--skip-invalid` skips it); and JSON Lines on a pipe have the native log's cap on one line
    /// (a gcloud array may be one long line, and a gzip file's first bytes are not known here).
    static func caps(opened: OpenedInput?) -> CappedRead {
        var caps = MappedFile.defaultCaps
        caps.refusesLeadingNUL = true
        if let prefix = opened?.prefix, let start = EventLogFormat.firstRecordByte(in: prefix), prefix[start] != UInt8(ascii: "[") {
            caps.maxLineBytes = InputLimits.lineBytes
        }
        return caps
    }

    /// A record's place: its bytes and the line it starts on.
    struct RecordSpan: Sendable {
        var bytes: Range<Int>
        var line: Int
    }

    /// The records of a file, found a slice at a time: its non-blank lines (searched for as
    /// they are needed, so that mapping starts at once), or the elements of its
    /// top-level array (whose extents only a pass over the whole array can find).
    struct RecordCursor {
        private var offset: Int
        private var line = 1
        private var elements: [RecordSpan]?
        private var count: Int

        init(bytes: UnsafeBufferPointer<UInt8>, path: String) throws(InputError) {
            count = bytes.count
            offset = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
            var parser = JSONParser(bytes: bytes, offset: offset)
            parser.skipWhitespace()
            if parser.offset < bytes.count, bytes[parser.offset] == UInt8(ascii: "[") {
                elements = try Self.elements(of: &parser, in: bytes, path: path)
                offset = 0
                count = elements!.count
            }
        }

        var isAtEnd: Bool { offset >= count }

        /// Up to `limit` more records.
        mutating func next(_ limit: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [RecordSpan] {
            if let elements {
                let end = min(count, offset + limit)
                defer { offset = end }
                return Array(elements[offset..<end])
            }
            var spans: [RecordSpan] = []
            spans.reserveCapacity(limit)
            while spans.count < limit, offset < count {
                let newline = FileBytes.indexOfNewline(in: bytes, from: offset) ?? count
                var end = newline
                if end > offset, bytes[end - 1] == 0x0D { end -= 1 }
                if !EventLogReader.isBlank(UnsafeBufferPointer(rebasing: bytes[offset..<end])) {
                    spans.append(RecordSpan(bytes: offset..<end, line: line))
                }
                line += 1
                offset = newline + 1
            }
            return spans
        }

        /// The extents of a top-level array's elements (found by skipping, serially; parsed later).
        private static func elements(
            of parser: inout JSONParser, in bytes: UnsafeBufferPointer<UInt8>, path: String
        ) throws(InputError) -> [RecordSpan] {
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
                        .error, "invalid JSON: \(error.reason)",
                        at: SourceLocation(file: path, line: position.line, column: position.column))
                ])
            }
            return spans
        }
    }

    /// Parses, maps, validates and prepares one record on a worker.
    private func map(_ span: RecordSpan, bytes: UnsafeBufferPointer<UInt8>, worker: Worker) -> Delivery {
        let record = UnsafeBufferPointer(rebasing: bytes[span.bytes])
        let location = SourceLocation(file: path, line: span.line)
        let value: JSONValue
        do throws(JSONParser.SyntaxError) {
            if let projection = worker.projection {
                value = try projection.parseDocument(record)
            } else {
                value = try JSONParser.parseDocument(record)
            }
        } catch {
            let position = FileBytes.lineAndColumn(of: error.offset, in: record)
            return .invalid(
                Diagnostic(
                    .error, "invalid JSON: \(error.reason)",
                    at: SourceLocation(file: path, line: span.line + position.line - 1, column: position.column)))
        }
        let mapped: [RecordMapper.MappedEvent]
        switch worker.mapper.map(value) {
        case .events(let events): mapped = events
        case .skipped(let reason, let detail): return .skipped(reason: reason, detail: detail)
        case .invalid(let reason): return .invalid(Diagnostic(.error, "\(reason) (mapping '\(mapping.id)')", at: location))
        }
        guard mapped.count < 1 << MappedLogReader.eventBits else {
            return .invalid(Diagnostic(.error, "a record gives \(mapped.count) events; at most 1023 are read", at: location))
        }
        // Validated (and joined) as a whole: a record gives all its events or none.
        var prepared = PreparedRecord()
        for (number, event) in mapped.enumerated() {
            let sequence = EventLogReader.sequence(fileIndex: fileIndex, line: span.line << MappedLogReader.eventBits | number)
            switch MappedEvents.event(from: event, appleAccounts: appleAccounts, location: location, sequence: sequence) {
            case .event(let made):
                var content = event.members
                // A subject joined by Apple user id is added; the others are there already.
                if event.appleID != nil { content["subject"] = .string(made.subject) }
                let object = JSONValue.object(content)
                prepared.events.append(
                    worker.preparation.prepare(made, digest: ContentDigest(object), names: &worker.names, into: &prepared.bytes))
                prepared.contents.append(object)
            case .skipped(let reason): return .skipped(reason: reason, detail: nil)
            case .invalid(let reason): return .invalid(Diagnostic(.error, "\(reason) (mapping '\(mapping.id)')", at: location))
            }
        }
        return .events(prepared)
    }
}

/// The file's bytes, read by every worker.
private struct SharedBytes: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
}

/// The file's SHA-256, written by the hashing thread and read after it finished.
private final class FileDigest: @unchecked Sendable {
    var value = ""
}
