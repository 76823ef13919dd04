import Dispatch

/// Reads a relaylint action log (JSON Lines, contract §2.2) as a stream of validated events.
///
/// The file is read in runs of whole lines; each run's lines are parsed on several threads (the
/// fast scanner first, the strict parser where it declines) and then handed over in line order,
/// so what the caller sees does not depend on the number of threads.
struct EventLogReader {
    /// Lines parsed at a time: a block of short lines is split into runs of at most this many,
    /// since a run holds a delivery slot per line until it is handed over (a 4 MiB block of
    /// one-byte lines took 690 MB). Real logs' blocks hold fewer lines than this.
    static let linesPerRun = 1 << 15
    let path: String
    /// The file's position among the `--events` files; it orders equal timestamps across files.
    let fileIndex: Int
    /// Threads that parse a run's lines.
    var parallelism = 1
    /// A pipe already opened (and begun) to recognise its format.
    var opened: OpenedInput?
    /// The longest line read (`InputLimits.lineBytes`).
    var lineLimit = InputLimits.lineBytes

    /// The input order of a line: file first, then line.
    static func sequence(fileIndex: Int, line: Int) -> UInt64 { UInt64(fileIndex) << 40 | UInt64(line) }

    static func fileAndLine(of sequence: UInt64) -> (fileIndex: Int, line: Int) {
        (Int(sequence >> 40), Int(sequence & (1 << 40 - 1)))
    }

    /// What the caller receives for one non-blank line.
    enum Delivery {
        /// A valid event, prepared on a parse thread (packed, with what the ingest needs).
        case event(PreparedEvent)
        case invalid(Diagnostic)
    }

    /// What one parse thread works with: its own scanner and view of the name table.
    struct Worker {
        var scanner = FlatEventScanner()
        var names: NameTable.Cache
        let preparation: PreparedEvent.Preparation
        /// The log's index in the name table.
        let file: Int

        init(names: NameTable, preparation: PreparedEvent.Preparation, path: String) {
            self.names = NameTable.Cache(names)
            self.preparation = preparation
            file = self.names.index(of: path)
        }
    }

    /// Reads every line, handing each non-blank one to `body` in line order with its bytes and
    /// the bytes its worker appended (the packed event, its id and subject; both valid only
    /// during the call); returns the file's SHA-256 and the number of non-blank lines.
    ///
    /// With several threads, a run is parsed while the caller consumes the run before it; the
    /// events are prepared on the parse threads, so that the caller's single thread only files
    /// them.
    func read(
        names: NameTable, preparation: PreparedEvent.Preparation, progress: (_ bytesRead: Int) -> Void = { _ in },
        _ body: (consuming Delivery, _ line: UnsafeBufferPointer<UInt8>, _ prepared: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws -> (sha256: String, records: Int) {
        var records = 0
        var bytesDelivered = 0
        var nextLine = 1
        let workers = WorkerPool(
            Array(repeating: Worker(names: names, preparation: preparation, path: path), count: max(1, parallelism)))
        func deliver(_ run: ParsedRun) throws {
            try run.bytes.withUnsafeBufferPointer { bytes in
                for part in 0..<run.parts {
                    try run.prepared[part].withUnsafeBufferPointer { prepared in
                        for index in run.lines(of: part) {
                            // Moved out, not copied.
                            guard let record = run.records[index].take() else { continue }
                            records += 1
                            try body(record, UnsafeBufferPointer(rebasing: bytes[run.lines[index].bytes]), prepared)
                        }
                    }
                }
            }
            bytesDelivered += run.byteCount
            progress(bytesDelivered)
        }
        // The run the workers are parsing: while they do, this thread files the run before it,
        // then reads and splits the next (done before dispatching, that left the workers idle
        // for a sixth of the reading); `forEachRun` hashes on a queue of its own.
        var parsing: (run: ParsedRun, group: DispatchGroup)?
        defer { parsing?.group.wait() }
        /// Parses a run of lines on the workers, and delivers the run parsed before it.
        func parse(_ bytes: ArraySlice<UInt8>, lines: [(bytes: Range<Int>, number: Int)], byteCount: Int) throws {
            let parts = workers.count > 1 && lines.count >= 256 ? workers.count : 1
            let run = ParsedRun(bytes: bytes, lines: lines, byteCount: byteCount, parts: parts)
            let parsed = parsing.map { pending in
                pending.group.wait()
                return pending.run
            }
            let group = DispatchGroup()
            if parts > 1 {
                for part in 0..<parts {
                    DispatchQueue.global().async(group: group) {
                        run.parse(part: part, reader: self, worker: &workers.workers[part])
                    }
                }
            } else {
                run.parse(part: 0, reader: self, worker: &workers.workers[0])
            }
            if let parsed { try deliver(parsed) }
            if opened != nil {
                // A pipe or device: its lines are reported now, not once its writer writes
                // more (a bad first line must not wait for a writer that never ends).
                group.wait()
                try deliver(run)
            } else {
                parsing = (run, group)
            }
        }
        let sha256: String
        do {
            sha256 = try FileBytes.forEachRun(path: path, opened: opened, lineLimit: lineLimit) { bytes in
                let (lines, lineCount) = bytes.withUnsafeBufferPointer { FileBytes.lineRanges(in: $0, firstLine: nextLine) }
                if let long = lines.first(where: { $0.bytes.count > lineLimit }) { throw FileBytes.LineTooLong(line: long.number) }
                nextLine += lineCount
                // At most `linesPerRun` lines at a time; each run accounts for its block's bytes
                // up to the next run's first line, for the progress display.
                var counted = 0
                for start in stride(from: 0, to: max(lines.count, 1), by: EventLogReader.linesPerRun) {
                    let end = min(start + EventLogReader.linesPerRun, lines.count)
                    let boundary = end < lines.count ? lines[end].bytes.lowerBound : bytes.count
                    let slice = start == 0 && end == lines.count ? lines : Array(lines[start..<end])
                    try parse(bytes, lines: slice, byteCount: boundary - counted)
                    counted = boundary
                }
            }
        } catch let error as FileBytes.LineTooLong {
            // The lines before it are delivered first; a partial line that grew too long is the
            // one after the last line split off.
            if let pending = parsing {
                pending.group.wait()
                parsing = nil
                try deliver(pending.run)
            }
            throw Self.lineTooLong(path: path, at: error.line ?? nextLine, limit: lineLimit)
        }
        if let pending = parsing {
            pending.group.wait()
            parsing = nil
            try deliver(pending.run)
        }
        return (sha256, records)
    }

    /// Why a log stopped being read at a line longer than `limit` (`FileBytes.LineTooLong`).
    static func lineTooLong(path: String, at line: Int, limit: Int) -> InputError {
        .refused([
            Diagnostic(
                .error, "stopped reading: a line longer than \(InputLimits.describe(limit)), the cap on one line of a log",
                at: SourceLocation(file: path, line: line))
        ])
    }

    /// The fast scanner's answer, else the strict parser's; the packed event goes to `bytes`.
    func parse(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, worker: inout Worker, into bytes: inout [UInt8]) -> Delivery {
        let sequence = EventLogReader.sequence(fileIndex: fileIndex, line: lineNumber)
        if let prepared = worker.scanner.scan(
            line, sequence: sequence, file: worker.file, names: &worker.names, preparation: worker.preparation, into: &bytes)
        {
            return .event(prepared)
        }
        return strictParse(line, lineNumber: lineNumber, worker: &worker, into: &bytes)
    }

    /// The general path: any JSON, and the reason when the line is not a valid event.
    func strictParse(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, worker: inout Worker, into bytes: inout [UInt8]) -> Delivery {
        switch strictParse(line, lineNumber: lineNumber) {
        case .event(let event, let digest): .event(worker.preparation.prepare(event, digest: digest, names: &worker.names, into: &bytes))
        case .invalid(let diagnostic): .invalid(diagnostic)
        }
    }

    /// What the strict parser made of a line.
    enum StrictParse {
        /// A valid event, with its content's digest.
        case event(Event, digest: ContentDigest)
        case invalid(Diagnostic)
    }

    /// The strict parser's event and its content's digest, or why the line is not a valid event.
    func strictParse(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) -> StrictParse {
        let location = SourceLocation(file: path, line: lineNumber)
        let value: JSONValue
        do throws(JSONParser.SyntaxError) {
            value = try JSONParser.parseRecord(line)
        } catch {
            let column = FileBytes.lineAndColumn(of: error.offset, in: line).column
            return .invalid(
                Diagnostic(
                    .error, "invalid JSON: \(error.reason)",
                    at: SourceLocation(file: path, line: lineNumber, column: column)))
        }
        switch Event.make(
            from: value, location: location,
            sequence: EventLogReader.sequence(fileIndex: fileIndex, line: lineNumber))
        {
        case .success(let event): return .event(event, digest: ContentDigest(value))
        case .failure(let problem): return .invalid(Diagnostic(.error, problem.reason, at: location))
        }
    }

    /// Blank means whitespace only (contract §2.4); JSON's own whitespace plus Unicode White_Space.
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line {
            switch byte {
            case 0x20, 0x09, 0x0B, 0x0C, 0x0D: continue
            // A line is decided by its first other byte: an ASCII one is no whitespace (every
            // record starts so; the whole line was scanned for a byte over 0x7F before, and a
            // line holding one was decoded whole).
            case ..<0x80: return false
            // Unicode whitespace, rare: the whole line by characters, as a grapheme may join
            // a space to what follows it.
            default: return String(decoding: line, as: UTF8.self).allSatisfy(\.isWhitespace)
            }
        }
        return true
    }
}

/// One run of whole lines, parsed and prepared by worker threads into per-line records.
private final class ParsedRun: @unchecked Sendable {
    let bytes: ArraySlice<UInt8>
    let lines: [(bytes: Range<Int>, number: Int)]
    /// The bytes of the block this run accounts for, for the progress display.
    let byteCount: Int
    let parts: Int
    /// One slot per non-empty line; nil for blank ones. Workers write disjoint ranges, and the reader
    /// reads only after all of them finished.
    let records: UnsafeMutableBufferPointer<EventLogReader.Delivery?>
    /// The bytes each part's preparation appended.
    let prepared: UnsafeMutableBufferPointer<[UInt8]>

    init(bytes: ArraySlice<UInt8>, lines: [(bytes: Range<Int>, number: Int)], byteCount: Int, parts: Int) {
        self.bytes = bytes
        self.lines = lines
        self.byteCount = byteCount
        self.parts = parts
        records = .allocate(capacity: lines.count)
        records.initialize(repeating: nil)
        prepared = .allocate(capacity: parts)
        prepared.initialize(repeating: [])
    }

    deinit {
        _ = records.deinitialize()
        records.deallocate()
        _ = prepared.deinitialize()
        prepared.deallocate()
    }

    /// The lines of a part: equal slices.
    func lines(of part: Int) -> Range<Int> { lines.count * part / parts..<lines.count * (part + 1) / parts }

    /// Parses and prepares the lines of one part with that part's worker.
    func parse(part: Int, reader: EventLogReader, worker: inout EventLogReader.Worker) {
        var output: [UInt8] = []
        bytes.withUnsafeBufferPointer { bytes in
            for index in lines(of: part) {
                let line = UnsafeBufferPointer(rebasing: bytes[lines[index].bytes])
                guard !EventLogReader.isBlank(line) else { continue }
                records[index] = reader.parse(line, lineNumber: lines[index].number, worker: &worker, into: &output)
            }
        }
        prepared[part] = output
    }
}

/// One worker per parse thread; a thread only ever uses its own.
private final class WorkerPool: @unchecked Sendable {
    let workers: UnsafeMutableBufferPointer<EventLogReader.Worker>
    var count: Int { workers.count }

    init(_ workers: [EventLogReader.Worker]) {
        self.workers = .allocate(capacity: workers.count)
        _ = self.workers.initialize(from: workers)
    }

    deinit {
        _ = workers.deinitialize()
        workers.deallocate()
    }
}
