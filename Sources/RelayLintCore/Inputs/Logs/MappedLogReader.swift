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
    /// The other formats `--events` reads, to say what a record that is not of this one is.
    var otherMappings: [LogMapping] = []
    let keys: SigningKeySet?
    /// Who holds each Apple user id; complete when a log joined through it is read.
    let appleAccounts: AppleAccountIndex
    var parallelism = 1
    /// A pipe already opened (and begun) to recognise its format.
    var opened: OpenedInput?

    /// The events of a slice of records, prepared on a worker: packed into `bytes` (each
    /// event's packed form, id and subject). One for all the records of a slice: three lists per
    /// record were three allocations on the worker and three frees on the reading thread, which
    /// contended for malloc's locks.
    ///
    /// What a mapping made of each record is not kept: the duplicate check needs it only for the
    /// rare event whose id may have been used before, and the reading thread maps that record
    /// again (`ContentReplay`). Kept, it was freed on the reading thread,
    /// a tenth of that thread's work.
    struct PreparedBatch {
        var events: [PreparedEvent] = []
        var bytes: [UInt8] = []
    }

    /// A record as the reading thread gets it with its outcome: the line it starts on, and its
    /// bytes, valid while the reading thread looks at it.
    struct DeliveredRecord {
        let line: Int
        /// For an element of a JSON array, the column it starts at (`RecordSpan`).
        let column: Int?
        let bytes: UnsafeBufferPointer<UInt8>

        /// Where the record starts, for a note that points at it.
        func location(in path: String) -> SourceLocation { SourceLocation(file: path, line: line, column: column) }
    }

    /// What one record became.
    enum Delivery {
        /// Its events, at these positions of its slice's `PreparedBatch`, and how many more it
        /// would have given but for naming no subject (`RecordMapper.eventsLeftOutWithoutSubject`).
        /// `passedOver` counts the notifications among them joined to an account that took
        /// their Apple user id after another had (`AppleAccountIndex.passesOver`).
        case events(Range<Int>, leftOutWithoutSubject: Int, passedOver: Int = 0)
        /// Skipped for `reason`; `otherFormat` names the format of a record that is not of the
        /// mapping's but of another one relaylint reads (`Worker.otherFormat(of:)`).
        case skipped(reason: String, detail: String?, otherFormat: String? = nil)
        case invalid(Diagnostic)
    }

    /// What `Worker.otherFormat(of:)` calls relaylint's own events.
    static let nativeFormat = "relaylint events"
    /// What `Worker.otherFormat(of:)` calls a record of no format relaylint reads.
    static let unknownFormat = "no known format"

    /// What the whole file held besides its records.
    struct Totals {
        var sha256 = ""
        var records = 0
        var tokensDecoded = 0
        var tokensVerified = 0
        /// Records that gave events without a signed token, of a format whose records may carry
        /// one (Apple's decoded claims): nothing could verify them.
        var unsignedRecords = 0
    }

    /// Bits of an event's sequence number below the record's line: a record gives at most
    /// 1024 events (a batch deletion names up to 1000 accounts).
    static let eventBits = 10

    /// What one thread works with: a mapping no other worker reads and the mapper made from it
    /// (no object of them is shared with another worker), token reader, memo and view of the
    /// name table.
    final class Worker: @unchecked Sendable {
        /// Made once: a mapper made per record copied the whole mapping each time.
        let mapper: RecordMapper
        let tokens: TokenReader
        var names: NameTable.Cache
        let file: Int
        let preparation: PreparedEvent.Preparation
        /// The log's path, for the location of every event this worker makes.
        let path: String
        /// Whether the format's records may carry a signed token.
        let readsSignedTokens: Bool
        /// Records this worker mapped to events without decoding a token (`Totals`).
        var unsignedRecords = 0
        /// The events of the record being mapped, the list kept from record to record.
        var events: [RecordMapper.MappedEvent] = []
        /// The other formats relaylint reads (`MappedLogReader.otherMappings`), each through a
        /// mapper of this worker's own, made when a record first needs them.
        private let otherMappings: [LogMapping]
        private lazy var otherMappers = otherMappings.map { mapping in
            (
                mapper: RecordMapper(mapping: mapping.copyForThread(), tokens: TokenReader(keys: nil)),
                keys: KeyMentions(RecordProjection.recognizedKeys(mapping), all: false)
            )
        }
        /// What a relaylint event holds: its four required fields.
        private static let nativeKeys = KeyMentions(["id", "time", "subject", "type"], all: true)
        /// The keys the log's own format recognises its records by, any one of them.
        private lazy var ownKeys = KeyMentions(RecordProjection.recognizedKeys(mapper.mapping), all: false)

        /// - Parameter mapping: one no other worker reads (`LogMapping.copyForThread`).
        init(
            mapping: LogMapping, otherMappings: [LogMapping], keys: SigningKeySet?, names: NameTable, path: String,
            preparation: PreparedEvent.Preparation
        ) {
            self.otherMappings = otherMappings
            readsSignedTokens = mapping.readsSignedTokens
            tokens = TokenReader(keys: keys)
            mapper = RecordMapper(mapping: mapping, tokens: tokens, memo: MappingMemo())
            self.names = NameTable.Cache(names)
            file = self.names.index(of: path)
            // The path and the relay domains in storage of this worker's own: every event
            // retains and releases them, and storage shared with the other workers made each of
            // those an atomic operation on a line of memory the cores take from each other.
            self.path = String(decoding: Array(path.utf8), as: UTF8.self)
            self.preparation = PreparedEvent.Preparation(
                relayDomains: RelayDomains(preparation.relayDomains.domains), shard: preparation.shard)
        }

        /// What a record that is not of the log's format is instead: relaylint events, or the
        /// id of another mapping that recognises it; `unknownFormat` for one that holds none of
        /// the keys the log's own format recognises its records by (`{"ts": …, "action": …}` in
        /// a Cloud Logging file: counted under the log's reason, it went unremarked); nil for
        /// anything else (another service's entry in a sink, which is one of the format).
        func otherFormat(of record: UnsafeBufferPointer<UInt8>) -> String? {
            // Parsed only when its bytes mention the keys of a format (`KeyMentions`).
            let mayBeNative = Self.nativeKeys.match(record)
            let candidates = otherMappers.filter { $0.keys.match(record) }
            if mayBeNative || !candidates.isEmpty, let value = try? JSONParser.parseRecord(record), case .object(let members) = value {
                if mayBeNative, EventLogFormat.isNativeEvent(members) { return MappedLogReader.nativeFormat }
                if let other = candidates.first(where: { $0.mapper.recognizes(value) }) { return "'\(other.mapper.mapping.id)'" }
            }
            return ownKeys.match(record) ? nil : MappedLogReader.unknownFormat
        }
    }

    /// Hands each record's outcome to `body` in file order with the record's line.
    func read(
        names: NameTable, preparation: PreparedEvent.Preparation,
        _ body: (consuming Delivery, _ record: DeliveredRecord, _ batch: PreparedBatch) throws -> Void
    ) throws(InputError) -> Totals {
        // The first worker reads the mapping the reader was given, which no other thread reads
        // while the log is read; each other one a copy of its own, made by loading the mapping's
        // text again (a copy for the first too was a serial 5 ms before any record was read).
        let workers = (0..<max(1, parallelism)).map { number in
            Worker(
                mapping: number == 0 ? mapping : mapping.copyForThread(), otherMappings: otherMappings, keys: keys, names: names,
                path: path, preparation: preparation)
        }
        var totals = try forEachRun { cursor, bytes in try deliver(cursor, in: bytes, workers: workers, body) }
        totals.tokensDecoded = workers.reduce(0) { $0 + $1.tokens.decoded }
        totals.tokensVerified = workers.reduce(0) { $0 + $1.tokens.verified }
        totals.unsignedRecords = workers.reduce(0) { $0 + $1.unsignedRecords }
        return totals
    }

    /// Hands `records` each run of the log's records (a cursor over them, and the bytes it reads)
    /// as the log comes: a file mapped whole, a pipe or a gzip file a run at a time; `records`
    /// says how many records it took.
    private func forEachRun(
        _ records: (RecordCursor, UnsafeBufferPointer<UInt8>) throws -> Int
    ) throws(InputError) -> Totals {
        if let prefix = try streamedPrefix() { return try readStreaming(startingWith: prefix, records) }
        return try readWhole(records)
    }

    /// The first bytes of a log read a run of records at a time, or nil for one read whole.
    ///
    /// A log on a pipe is streamed, so that a bad first record is reported while the writer
    /// still writes, and a long stream is never held whole; so is a log in a gzip file, which
    /// would otherwise be decompressed into memory whole (a 5 MB file of one line and 5 GiB of
    /// newlines took 4.2 GB). JSON Lines come a run of lines at a time, a gcloud array a run of
    /// elements at a time (`ArrayRunScan`). A regular file is mapped rather than read.
    private func streamedPrefix() throws(InputError) -> [UInt8]? {
        let prefix: [UInt8]
        if let opened {
            prefix = opened.prefix
        } else if GzipStream.isGzip(path: path) {
            // Decompressed again, up to its first record (named formats are not recognised).
            let stream = try GzipStream(path: path)
            prefix = try EventLogFormat.bytesToFirstRecord { buffer, count throws(InputError) in try stream.read(into: buffer, count: count)
            }
        } else {
            return nil
        }
        return prefix
    }

    /// A regular file, mapped (a pipe and a gzip file are streamed: `streamedPrefix`).
    private func readWhole(_ records: (RecordCursor, UnsafeBufferPointer<UInt8>) throws -> Int) throws(InputError) -> Totals {
        let file = try MappedFile(path: path, opened: opened, capped: Self.caps)
        var totals = Totals()
        // Hashed on a thread of its own while the records are mapped: it was a serial tenth of
        // the run before any record was read.
        let digest = FileDigest()
        let hashing = DispatchGroup()
        DispatchQueue.global().async(group: hashing) { digest.value = file.sha256(releasing: false) }
        defer { hashing.wait() }
        do {
            try file.withBytes { bytes in
                totals.records = try records(RecordCursor(bytes: bytes, path: path), bytes)
            }
        } catch let error as InputError {
            // A file cut short under the reader reads as zeros past its new end: what is wrong
            // then is the file's change, not the bytes it made the reader meet.
            try file.checkUnchanged()
            throw error
        } catch {
            try file.checkUnchanged()
            throw InputError.unreadable(path: path, reason: "\(error)")
        }
        hashing.wait()
        totals.sha256 = digest.value
        try file.checkUnchanged()
        return totals
    }

    /// JSON Lines on a pipe or in a gzip file, a run of whole lines at a time as the native log
    /// is read (`FileBytes.forEachRun`: hashed on the way, a line capped at
    /// `InputLimits.lineBytes`); `prefix` is the log's first bytes.
    private func readStreaming(
        startingWith prefix: [UInt8], _ records: (RecordCursor, UnsafeBufferPointer<UInt8>) throws -> Int
    ) throws(InputError) -> Totals {
        if prefix.first == 0 {
            throw InputError.refused([
                Diagnostic(
                    .error, "stopped reading: a NUL byte, which no text input holds (a binary file or a device?)",
                    at: SourceLocation(file: path, line: 1, column: 1))
            ])
        }
        if let start = EventLogFormat.firstRecordByte(in: prefix), prefix[start] == UInt8(ascii: "[") {
            return try readStreamingArray(records)
        }
        var totals = Totals()
        var nextLine = 1
        do {
            totals.sha256 = try FileBytes.forEachRun(path: path, opened: opened) { run in
                try run.withUnsafeBufferPointer { bytes in
                    let lines = RecordCursor.measure(bytes, limit: InputLimits.lineBytes)
                    if let long = lines.firstLong { throw FileBytes.LineTooLong(line: nextLine + long) }
                    totals.records += try records(RecordCursor(lines: bytes, firstLine: nextLine), bytes)
                    nextLine += lines.count
                }
            }
        } catch let error as InputError {
            throw error
        } catch let error as FileBytes.LineTooLong {
            throw EventLogReader.lineTooLong(path: path, at: error.line ?? nextLine, limit: InputLimits.lineBytes)
        } catch {
            throw InputError.unreadable(path: path, reason: "\(error)")
        }
        return totals
    }

    /// A gcloud array on a pipe or in a gzip file, a run of whole elements at a time
    /// (`ArrayRunScan`), as JSON Lines are read: an element is capped at `InputLimits.lineBytes`,
    /// and errors name the stream's line and column.
    private func readStreamingArray(_ records: (RecordCursor, UnsafeBufferPointer<UInt8>) throws -> Int) throws(InputError) -> Totals {
        var totals = Totals()
        var scan = ArrayRunScan()
        var place = RecordCursor.ArrayRunPlace.start
        // Where the next run starts in the stream.
        var line = 1
        var column = 1
        // Runs cut where the scan said: the last one may not be (the rest of the stream at its
        // end, and all of it when it fit in the bytes read to recognise the format), and is
        // scanned as it is handed over, so that its `]` counts.
        var cut = 0
        var handedOver = 0
        let recordsEnd = { (bytes: UnsafeBufferPointer<UInt8>) -> Int? in
            let end = scan.end(of: bytes)
            if end != nil { cut += 1 }
            return end
        }
        do {
            totals.sha256 = try FileBytes.forEachRun(path: path, opened: opened, recordsEnd: recordsEnd) { run in
                try run.withUnsafeBufferPointer { bytes in
                    handedOver += 1
                    if handedOver > cut { _ = scan.end(of: bytes) }
                    let cursor = RecordCursor(arrayRun: bytes, path: path, place: place, line: line, column: column)
                    totals.records += try records(cursor, bytes)
                    // Columns count Unicode scalars, as `FileBytes.lineAndColumn` does: the bytes
                    // that start none are not counted.
                    let isScalarStart = { (byte: UInt8) in byte & 0xC0 != 0x80 }
                    // Nor is a byte order mark at the stream's start.
                    let hasMark = place == .start && bytes.starts(with: [0xEF, 0xBB, 0xBF])
                    if let lastNewline = bytes.lastIndex(of: 0x0A) {
                        line += bytes[...lastNewline].count { $0 == 0x0A }
                        column = 1 + bytes[(lastNewline + 1)...].count(where: isScalarStart)
                    } else {
                        column += bytes.count(where: isScalarStart) - (hasMark ? 1 : 0)
                    }
                    place = scan.closed ? .after : .element
                }
            }
        } catch let error as InputError {
            throw error
        } catch let error as FileBytes.LineTooLong {
            // Where the element starts: past the whitespace the run starts with.
            let leading = error.leading
            let place =
                leading.lineBreaks > 0
                ? SourceLocation(file: path, line: line + leading.lineBreaks, column: leading.bytesAfter + 1)
                : SourceLocation(file: path, line: line, column: column + leading.bytesAfter)
            throw InputError.refused([Diagnostic(.error, RecordCursor.elementTooLong, at: place)])
        } catch {
            throw InputError.unreadable(path: path, reason: "\(error)")
        }
        // A stream that ends inside the array, just past a `,` or before its first element.
        guard scan.closed else {
            throw InputError.refused([
                Diagnostic(
                    .error, "stopped reading: invalid JSON: unexpected end of input, expected a value",
                    at: SourceLocation(file: path, line: line, column: column))
            ])
        }
        return totals
    }

    /// Maps the records `cursor` finds in `bytes` on the workers' threads and hands each
    /// outcome to `body` in order; returns how many records there were.
    private func deliver(
        _ cursor: RecordCursor, in bytes: UnsafeBufferPointer<UInt8>, workers: [Worker],
        _ body: (consuming Delivery, _ record: DeliveredRecord, _ batch: PreparedBatch) throws -> Void
    ) throws -> Int {
        let pipeline = RecordPipeline(cursor: cursor, bytes: bytes)
        let shared = SharedBytes(bytes: bytes)
        let threads = DispatchGroup()
        for worker in workers {
            DispatchQueue.global().async(group: threads) {
                pipeline.work { span, batch in map(span, bytes: shared.bytes, worker: worker, into: &batch) }
            }
        }
        defer {
            pipeline.cancel()
            threads.wait()
        }
        while var slice = pipeline.next() {
            for index in slice.spans.indices {
                let span = slice.spans[index]
                let record = DeliveredRecord(line: span.line, column: span.column, bytes: UnsafeBufferPointer(rebasing: bytes[span.bytes]))
                try body(slice.outcomes[index].take()!, record, slice.batch)
            }
        }
        if let error = pipeline.syntaxError { throw error }
        if let line = pipeline.longLine { throw EventLogReader.lineTooLong(path: path, at: line, limit: InputLimits.lineBytes) }
        return pipeline.records
    }

    /// The caps on a log read into memory (a file that cannot be mapped; pipes, devices and gzip
    /// files are streamed): a log that starts with a NUL byte stops at its first block instead
    /// of filling 4 GiB first, while a NUL line further on is an invalid record like any other
    /// (`--skip-invalid` skips it). Lines are not capped: a gcloud array may be one long line.
    static var caps: CappedRead {
        var caps = MappedFile.defaultCaps
        caps.refusesLeadingNUL = true
        return caps
    }

    /// A record's place: its bytes, the line it starts on, and for an element of a JSON array
    /// the column (in Unicode scalars) where it starts: a `gcloud` array written on one line
    /// holds every record on line 1, and an error must say which.
    struct RecordSpan: Sendable {
        var bytes: Range<Int>
        var line: Int
        var column: Int? = nil
    }

    /// The records of a file, found a slice at a time: its non-blank lines, or the elements of
    /// its top-level array, each searched for as it is needed, so that mapping starts at once
    /// and only a slice's places are held (an array of 10 million `{}` held 24 to 48 bytes of
    /// place for each element of a 30 MB file before the first was mapped).
    struct RecordCursor {
        private var offset: Int
        private var line = 1
        /// The line the bytes start on.
        private var firstLine = 1
        private var count: Int
        /// For a top-level array: how far its elements were found, and the error that ended them.
        private var array: ArrayScan?

        private struct ArrayScan {
            var path: String
            /// Whether the `[` was read.
            var opened = false
            /// Whether the `]` was read: what follows may only be whitespace.
            var closed = false
            var finished = false
            /// Where the text starts: past a byte order mark, which no editor shows as a column
            /// (nor does a line of JSON Lines count it).
            var textStart = 0
            /// Up to where newlines were counted into `line`.
            var counted = 0
            /// The Unicode scalars on `line` before `counted`, and whether `line` is still the
            /// first line of the bytes (a run's first line starts at `firstColumn`).
            var scalarsOnLine = 0
            var onFirstLine = true
            /// For a run of a streamed array (`ArrayRunScan`): the run may end after a `,`, and
            /// its first line starts at this column.
            var isRun = false
            var firstColumn = 1
        }

        init(bytes: UnsafeBufferPointer<UInt8>, path: String) {
            count = bytes.count
            offset = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
            var parser = JSONParser(bytes: bytes, offset: offset)
            parser.skipWhitespace()
            if parser.offset < bytes.count, bytes[parser.offset] == UInt8(ascii: "[") {
                array = ArrayScan(path: path, textStart: offset, counted: offset)
                offset = parser.offset
            }
        }

        /// Where a run of a streamed array stands in the array (`ArrayRunScan`).
        enum ArrayRunPlace {
            /// At the stream's start: whitespace, a byte order mark, then the `[`.
            case start
            /// Past a `,`: the next element.
            case element
            /// Past the `]`: only whitespace may follow.
            case after
        }

        /// The elements of a run of a streamed array, which starts at `place`, at `line` and
        /// `column` of the stream.
        init(arrayRun bytes: UnsafeBufferPointer<UInt8>, path: String, place: ArrayRunPlace, line: Int, column: Int) {
            count = bytes.count
            self.line = line
            firstLine = line
            offset = place == .start && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
            array = ArrayScan(
                path: path, opened: place != .start, closed: place == .after, textStart: offset, counted: offset, isRun: true,
                firstColumn: column)
        }

        /// The lines of a run of whole lines (`FileBytes.forEachRun`), numbered from `firstLine`;
        /// a byte order mark is skipped on the stream's first line only.
        init(lines bytes: UnsafeBufferPointer<UInt8>, firstLine: Int) {
            count = bytes.count
            line = firstLine
            let bom = firstLine == 1 && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
            offset = bom ? 3 : 0
        }

        /// How many lines a run of whole lines holds (one for each newline, and one for a last
        /// line without one: the stream's end), and the first (counted from 0) longer than `limit`.
        static func measure(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> (count: Int, firstLong: Int?) {
            var lines = 0
            var offset = 0
            var firstLong: Int?
            while offset < bytes.count {
                let empty = FileBytes.endOfEmptyLines(in: bytes, from: offset)
                lines += empty.count
                offset = empty.end
                guard offset < bytes.count else { break }
                let end = FileBytes.indexOfNewline(in: bytes, from: offset) ?? bytes.count
                if firstLong == nil, end - offset > limit { firstLong = lines }
                offset = end + 1
                lines += 1
            }
            return (lines, firstLong)
        }

        var isAtEnd: Bool { array.map(\.finished) ?? (offset >= count) }

        /// The first line longer than `InputLimits.lineBytes`, where the records stopped (JSON
        /// Lines only: a gcloud array may be one long line).
        private(set) var longLine: Int?

        /// Where a top-level array stopped being JSON, once its elements were found up to there:
        /// the records before it were read, and the run fails with it as it did when the whole
        /// array was checked first.
        private(set) var syntaxError: InputError?

        /// Up to `limit` more records.
        mutating func next(_ limit: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [RecordSpan] {
            if array != nil { return nextElements(limit, in: bytes) }
            var spans: [RecordSpan] = []
            spans.reserveCapacity(limit)
            while spans.count < limit, offset < count {
                if bytes[offset] == 0x0A || bytes[offset] == 0x0D {
                    let empty = FileBytes.endOfEmptyLines(in: UnsafeBufferPointer(rebasing: bytes[..<count]), from: offset)
                    line += empty.count
                    offset = empty.end
                    guard offset < count else { break }
                }
                let newline = FileBytes.indexOfNewline(in: bytes, from: offset) ?? count
                // The cap on one line of a log holds for a file as for a pipe or a gzip file,
                // which stop there: the same log must not read differently by how it came.
                if newline - offset > InputLimits.lineBytes {
                    longLine = line
                    offset = count
                    break
                }
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

        /// The extents of up to `limit` more elements of the top-level array (found by skipping,
        /// serially; parsed later), accepting and rejecting what `JSONParser.parseArray` does.
        private mutating func nextElements(_ limit: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [RecordSpan] {
            guard var scan = array, !scan.finished else { return [] }
            defer { array = scan }
            var spans: [RecordSpan] = []
            var parser = JSONParser(bytes: bytes, offset: offset)
            // Counted as the elements are found, once over the bytes: a column worked out from
            // its line's start for each element of a one-line array of a million was quadratic.
            func start(of offset: Int) -> (line: Int, column: Int) {
                for index in scan.counted..<offset {
                    let byte = bytes[index]
                    if byte == 0x0A {
                        line += 1
                        scan.scalarsOnLine = 0
                        scan.onFirstLine = false
                    } else if byte & 0xC0 != 0x80 {
                        scan.scalarsOnLine += 1
                    }
                }
                scan.counted = offset
                return (line, scan.scalarsOnLine + (scan.onFirstLine ? scan.firstColumn : 1))
            }
            do throws(JSONParser.SyntaxError) {
                if scan.closed {
                    try Self.finish(&parser, &scan)
                } else if !scan.opened {
                    scan.opened = true
                    try parser.expect(UInt8(ascii: "["), "an array")
                    if parser.consume(UInt8(ascii: "]")) { try Self.finish(&parser, &scan) }
                }
                while spans.count < limit, !scan.finished {
                    parser.skipWhitespace()
                    // A run of a streamed array may end in, or be, blank space after a `,`: the
                    // next run holds the element (a stream that ends there is told by its reader).
                    if scan.isRun, parser.isAtEnd {
                        scan.finished = true
                        break
                    }
                    let first = parser.offset
                    do {
                        try parser.skipValue(depth: 1)
                    } catch {
                        // An element that breaks only at a misspelt value (a time without quotes)
                        // is an invalid record of its own, as a line of JSON Lines is: handed
                        // over, its parse tells the error at its place, and `--skip-invalid`
                        // reads on. Any other break stops the array here (`ArrayElementEnd`).
                        guard let end = ArrayElementEnd.afterMisspeltValue(ofElementAt: first, failingAt: error.offset, in: bytes) else {
                            throw error
                        }
                        parser.move(to: end)
                    }
                    // From a stream, one element at a time is held, up to the cap on a line.
                    if scan.isRun, parser.offset - first > InputLimits.lineBytes {
                        scan.finished = true
                        syntaxError = InputError.refused([
                            Diagnostic(
                                .error, Self.elementTooLong, at: place(of: first, in: bytes, scan)
                            )
                        ])
                        break
                    }
                    let place = start(of: first)
                    spans.append(RecordSpan(bytes: first..<parser.offset, line: place.line, column: place.column))
                    if parser.consume(UInt8(ascii: ",")) {
                        // A run of a streamed array ends past a `,`: the next run goes on.
                        continue
                    }
                    try parser.expect(UInt8(ascii: "]"), "',' or ']' in an array")
                    try Self.finish(&parser, &scan)
                }
                offset = parser.offset
            } catch {
                scan.finished = true
                // "Stopped reading": past a break in the array's structure its entries cannot be
                // told apart, and `--skip-invalid` does not read on (the run's hint says so).
                syntaxError = InputError.refused([
                    Diagnostic(
                        .error, "stopped reading: invalid JSON: \(error.reason)",
                        at: place(of: error.offset, in: bytes, scan))
                ])
            }
            return spans
        }

        /// Why a streamed array stopped at an element longer than the cap on a line.
        static let elementTooLong =
            "stopped reading: an element of the JSON array is longer than \(InputLimits.describe(InputLimits.lineBytes)) "
            + "(from a pipe or a gzip file, relaylint holds one element at a time)"

        /// The line and column of `offset` of the bytes, whose text (from `scan.textStart`) starts
        /// at `firstLine`, column `scan.firstColumn`.
        private func place(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>, _ scan: ArrayScan) -> SourceLocation {
            let text = UnsafeBufferPointer(rebasing: bytes[scan.textStart...])
            let position = FileBytes.lineAndColumn(of: max(offset - scan.textStart, 0), in: text)
            return SourceLocation(
                file: scan.path, line: firstLine + position.line - 1,
                column: position.line == 1 ? scan.firstColumn + position.column - 1 : position.column)
        }

        /// After the array's `]`: only whitespace may follow.
        private static func finish(_ parser: inout JSONParser, _ scan: inout ArrayScan) throws(JSONParser.SyntaxError) {
            parser.skipWhitespace()
            if !parser.isAtEnd { throw parser.error("unexpected text after the array") }
            scan.finished = true
        }
    }

    /// Parses, maps, validates and prepares one record on a worker, into its slice's batch.
    private func map(_ span: RecordSpan, bytes: UnsafeBufferPointer<UInt8>, worker: Worker, into batch: inout PreparedBatch) -> Delivery {
        let record = UnsafeBufferPointer(rebasing: bytes[span.bytes])
        let location = SourceLocation(file: worker.path, line: span.line)
        // Where a problem of the record is told: an array's element by its column too.
        let problemLocation = SourceLocation(file: path, line: span.line, column: span.column)
        let tokensBefore = worker.tokens.decoded
        worker.events.removeAll(keepingCapacity: true)
        let verdict: RecordMapper.Verdict
        do throws(JSONParser.SyntaxError) {
            verdict = try worker.mapper.map(parsing: record, into: &worker.events)
        } catch {
            let position = FileBytes.lineAndColumn(of: error.offset, in: record)
            let column = position.line == 1 ? (span.column ?? 1) + position.column - 1 : position.column
            return .invalid(
                Diagnostic(
                    .error, "invalid JSON: \(error.reason)",
                    at: SourceLocation(file: path, line: span.line + position.line - 1, column: column)))
        }
        switch verdict {
        case .events:
            if worker.readsSignedTokens, worker.tokens.decoded == tokensBefore { worker.unsignedRecords += 1 }
        case .skipped(let reason, let detail):
            let otherFormat = worker.mapper.lastSkippedIsUnrecognized ? worker.otherFormat(of: record) : nil
            return .skipped(reason: reason, detail: detail, otherFormat: otherFormat)
        case .invalid(let reason): return .invalid(Diagnostic(.error, "\(reason) (mapping '\(mapping.id)')", at: problemLocation))
        }
        guard worker.events.count < 1 << MappedLogReader.eventBits else {
            return .invalid(Diagnostic(.error, "a record gives \(worker.events.count) events; at most 1023 are read", at: problemLocation))
        }
        // Validated (and joined) as a whole: a record gives all its events or none. Each event
        // is moved out of the list while it is read, then put back: read in the list, it was
        // copied (a retain and a release of every value it holds) for each call.
        let first = batch.events.count
        let bytesBefore = batch.bytes.count
        let limit = InputLimits.eventBytes(ofRecord: record.count)
        var passedOver = 0
        let failure: (reason: String, invalid: Bool)? = worker.events.withUnsafeMutableBufferPointer { events in
            for number in events.indices {
                let sequence = EventLogReader.sequence(fileIndex: fileIndex, line: span.line << MappedLogReader.eventBits | number)
                let slot = events.baseAddress! + number
                var event = slot.move()
                let result = MappedEvents.event(from: event, appleAccounts: appleAccounts, location: location, sequence: sequence)
                if case .event(let made) = result {
                    // A subject joined by Apple user id is added; the others are there already.
                    if let appleID = event.appleID {
                        event.subject = .string(made.subject)
                        if appleAccounts.passesOver(appleID, at: made.time) { passedOver += 1 }
                    }
                    batch.events.append(
                        worker.preparation.prepare(made, digest: event.contentDigest, names: &worker.names, into: &batch.bytes))
                }
                slot.initialize(to: event)
                if batch.bytes.count - bytesBefore > limit {
                    return (
                        "the record's events would take more than \(InputLimits.describe(limit)) (eight times the record, at least 1 MiB)",
                        true
                    )
                }
                switch result {
                case .event: continue
                case .skipped(let reason): return (reason, false)
                case .invalid(let reason): return (reason, true)
                }
            }
            return nil
        }
        if let failure {
            batch.events.removeSubrange(first...)
            batch.bytes.removeSubrange(bytesBefore...)
            guard failure.invalid else { return .skipped(reason: failure.reason, detail: nil) }
            return .invalid(Diagnostic(.error, "\(failure.reason) (mapping '\(mapping.id)')", at: problemLocation))
        }
        return .events(
            first..<batch.events.count, leftOutWithoutSubject: worker.mapper.eventsLeftOutWithoutSubject, passedOver: passedOver)
    }
}

extension MappedLogReader {
    /// The ids of the events the log's records give, read on one thread without joining them or
    /// verifying a signature: a log joined by Apple user id is read after every other input, and
    /// the duplicate check must know its ids before the inputs given after it are read, to tell
    /// which of two uses of an id comes first in the order given. A record that does not map is
    /// passed over here; reading the log says what is wrong with it.
    func eventIDs(_ body: (String) -> Void) throws(InputError) {
        // A mapper for each thread, each mapping a batch of records at a time; the batches' ids
        // are handed on in the log's order. On one thread, this pass took as long as the read.
        let mappers = (0..<max(1, parallelism)).map { _ in
            IDMapper(mapper: RecordMapper(mapping: mapping.copyForThread(), tokens: TokenReader(keys: nil)))
        }
        _ = try forEachRun { cursor, bytes in
            var cursor = cursor
            var records = 0
            while !cursor.isAtEnd {
                var batches: [[MappedLogReader.RecordSpan]] = []
                while batches.count < mappers.count {
                    let spans = cursor.next(1024, in: bytes)
                    if spans.isEmpty { break }
                    batches.append(spans)
                }
                if batches.isEmpty { break }
                records += batches.reduce(0) { $0 + $1.count }
                // One batch is mapped on this thread: `concurrentPerform` runs a single iteration here.
                let shared = SharedBytes(bytes: bytes)
                let work = IDBatches(mappers: mappers, batches: batches)
                DispatchQueue.concurrentPerform(iterations: batches.count) { number in
                    work.mappers[number].ids(of: work.batches[number], in: shared.bytes)
                }
                for mapper in mappers.prefix(batches.count) { mapper.found.forEach(body) }
            }
            return records
        }
        // A pipe held in a temporary file (`OpenedInput.spooled`) is read again from its start.
        opened?.rewind()
    }

    /// What the events of a record held, as the worker that mapped it made them, for the rare
    /// event whose id may have been used before (the duplicate check compares contents): the
    /// record is mapped again on the reading thread, by a mapper made the first time one is
    /// needed.
    final class ContentReplay {
        private let mapping: LogMapping
        private let keys: SigningKeySet?
        private var mapper: RecordMapper?

        init(mapping: LogMapping, keys: SigningKeySet?) {
            self.mapping = mapping
            self.keys = keys
        }

        /// Event `number` of the record at `record`, a subject joined by Apple user id set to
        /// `subject`, the one the event was joined to; nil if the record no longer gives that
        /// event, which a mapping's determinism rules out.
        func content(ofEvent number: Int, in record: UnsafeBufferPointer<UInt8>, subject: String) -> RecordMapper.MappedEvent? {
            let mapper = self.mapper ?? RecordMapper(mapping: mapping, tokens: TokenReader(keys: keys))
            self.mapper = mapper
            var events: [RecordMapper.MappedEvent] = []
            guard (try? mapper.map(parsing: record, into: &events)) == .events, events.indices.contains(number) else { return nil }
            var event = events[number]
            if event.appleID != nil { event.subject = .string(subject) }
            return event
        }
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
