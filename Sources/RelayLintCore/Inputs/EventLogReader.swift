import Dispatch

/// Reads a relaylint action log (JSON Lines, contract §2.2) as a stream of validated events.
///
/// The file is read in runs of whole lines; each run's lines are parsed on several threads (the
/// fast scanner first, the strict parser where it declines) and then handed over in line order,
/// so what the caller sees does not depend on the number of threads.
struct EventLogReader {
    /// What one non-blank line turned out to be.
    enum Record {
        /// A valid event, with its content's digest.
        case event(Event, digest: ContentDigest)
        case invalid(Diagnostic)
    }

    let path: String
    /// The file's position among the `--events` files; it orders equal timestamps across files.
    let fileIndex: Int
    /// Threads that parse a run's lines.
    var parallelism = 1

    /// The input order of a line: file first, then line.
    static func sequence(fileIndex: Int, line: Int) -> UInt64 { UInt64(fileIndex) << 40 | UInt64(line) }

    static func fileAndLine(of sequence: UInt64) -> (fileIndex: Int, line: Int) {
        (Int(sequence >> 40), Int(sequence & (1 << 40 - 1)))
    }

    /// What the caller receives for one non-blank line.
    enum Delivery<Prepared> {
        /// A valid event, as `prepare` made it on a parse thread.
        case event(Prepared)
        case invalid(Diagnostic)
    }

    /// Turns a parsed event into what the caller keeps, on the parse thread `worker`
    /// (`0..<parallelism`), appending any bytes it wants to keep to that thread's `bytes`.
    typealias Preparation<Prepared> =
        @Sendable (_ event: consuming Event, _ digest: ContentDigest, _ worker: Int, _ bytes: inout [UInt8]) -> Prepared

    /// Reads every line, handing each non-blank one to `body` in line order with its bytes and
    /// the bytes its worker appended (both valid only during the call); returns the file's
    /// SHA-256 and the number of non-blank lines.
    ///
    /// With several threads, a run is parsed while the caller consumes the run before it; the
    /// events are prepared (packed, say) on the parse threads, so that the caller's single thread
    /// only files them and never has to free them.
    func read<Prepared>(
        progress: (_ bytesRead: Int) -> Void = { _ in }, prepare: @escaping Preparation<Prepared>,
        _ body: (consuming Delivery<Prepared>, _ line: UnsafeBufferPointer<UInt8>, _ prepared: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws -> (sha256: String, records: Int) {
        var records = 0
        var bytesDelivered = 0
        var nextLine = 1
        let workers = max(1, parallelism)
        let scanners = ScannerPool(count: workers)
        var previous: ParsedRun<Prepared>?
        func deliver(_ run: ParsedRun<Prepared>) throws {
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
            bytesDelivered += run.bytes.count
            progress(bytesDelivered)
        }
        let sha256 = try FileBytes.forEachRun(path: path) { buffer in
            let lines = FileBytes.lineRanges(in: buffer, firstLine: nextLine)
            nextLine += lines.count
            let parts = workers > 1 && lines.count >= 256 ? workers : 1
            let run = ParsedRun<Prepared>(bytes: Array(buffer), lines: lines, parts: parts)
            guard parts > 1 else {
                run.parse(part: 0, reader: self, scanners: scanners, prepare: prepare)
                if let previous { try deliver(previous) }
                previous = run
                return
            }
            let group = DispatchGroup()
            for worker in 0..<parts {
                DispatchQueue.global().async(group: group) {
                    run.parse(part: worker, reader: self, scanners: scanners, prepare: prepare)
                }
            }
            defer { group.wait() }
            if let previous { try deliver(previous) }
            previous = run
        }
        if let previous { try deliver(previous) }
        return (sha256, records)
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) -> Record {
        var scanner = FlatEventScanner()
        return parse(line, lineNumber: lineNumber, scanner: &scanner)
    }

    /// The fast scanner's answer, else the strict parser's.
    func parse(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, scanner: inout FlatEventScanner) -> Record {
        let location = SourceLocation(file: path, line: lineNumber)
        let sequence = EventLogReader.sequence(fileIndex: fileIndex, line: lineNumber)
        if let (event, digest) = scanner.scan(line, location: location, sequence: sequence) {
            return .event(event, digest: digest)
        }
        return strictParse(line, lineNumber: lineNumber)
    }

    /// The general path: any JSON, and the reason when the line is not a valid event.
    func strictParse(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) -> Record {
        let location = SourceLocation(file: path, line: lineNumber)
        let value: JSONValue
        do throws(JSONParser.SyntaxError) {
            value = try JSONParser.parseDocument(line)
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
        var allASCIIWhitespace = true
        for byte in line {
            switch byte {
            case 0x20, 0x09, 0x0B, 0x0C, 0x0D: continue
            default: allASCIIWhitespace = false
            }
            break
        }
        if allASCIIWhitespace { return true }
        guard line.contains(where: { $0 >= 0x80 }) else { return false }
        return String(decoding: line, as: UTF8.self).allSatisfy(\.isWhitespace)
    }
}

/// One run of whole lines, parsed and prepared by worker threads into per-line records.
private final class ParsedRun<Prepared>: @unchecked Sendable {
    let bytes: [UInt8]
    let lines: [(bytes: Range<Int>, number: Int)]
    let parts: Int
    /// One slot per line; nil for blank lines. Workers write disjoint ranges, and the reader
    /// reads only after all of them finished.
    let records: UnsafeMutableBufferPointer<EventLogReader.Delivery<Prepared>?>
    /// The bytes each part's preparation appended.
    let prepared: UnsafeMutableBufferPointer<[UInt8]>

    init(bytes: [UInt8], lines: [(bytes: Range<Int>, number: Int)], parts: Int) {
        self.bytes = bytes
        self.lines = lines
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

    /// Parses and prepares the lines of one part with that part's scanner.
    func parse(part: Int, reader: EventLogReader, scanners: ScannerPool, prepare: EventLogReader.Preparation<Prepared>) {
        var output: [UInt8] = []
        bytes.withUnsafeBufferPointer { bytes in
            for index in lines(of: part) {
                let line = UnsafeBufferPointer(rebasing: bytes[lines[index].bytes])
                guard !EventLogReader.isBlank(line) else { continue }
                switch reader.parse(line, lineNumber: lines[index].number, scanner: &scanners.scanners[part]) {
                case .event(let event, let digest): records[index] = .event(prepare(event, digest, part, &output))
                case .invalid(let diagnostic): records[index] = .invalid(diagnostic)
                }
            }
        }
        prepared[part] = output
    }
}

/// One scanner per worker; a worker only ever uses its own.
private final class ScannerPool: @unchecked Sendable {
    let scanners: UnsafeMutableBufferPointer<FlatEventScanner>

    init(count: Int) {
        scanners = .allocate(capacity: count)
        scanners.initialize(repeating: FlatEventScanner())
    }

    deinit {
        _ = scanners.deinitialize()
        scanners.deallocate()
    }
}

/// A digest of an event's content as a JSON value, to recognise exact duplicates without
/// keeping the text of every event. It is only ever compared between events with the same id,
/// so 64 bits make a false "duplicate" a 2⁻⁶⁴ chance per pair; the duplicate check writes one
/// per event, so every byte counts (10M events). It is independent of key order (members are
/// combined commutatively), whitespace and number spelling (numbers hash their exact decimal
/// form), and the strict parser and the fast scanner compute it member by member in the same way.
struct ContentDigest: Hashable, Sendable {
    let value: UInt64

    init(_ value: JSONValue) {
        var accumulator = Accumulator()
        if case .object(let members) = value {
            for (key, member) in members { accumulator.add(key, member) }
        } else {
            accumulator.add("", value)
        }
        self = accumulator.digest
    }

    /// A digest as `value` gave it (the duplicate check writes digests away and reads them back).
    init(value: UInt64) { self.value = value }

    /// Combines an object's members in any order.
    struct Accumulator {
        private var sum: UInt64 = 0
        private var mixed: UInt64 = 0
        private var count: UInt64 = 0

        mutating func add(_ key: String, _ value: JSONValue) {
            var hasher = Hasher()
            hasher.combine(key)
            hasher.combine(value)
            let hash = UInt64(bitPattern: Int64(hasher.finalize()))
            sum &+= hash
            // A second, differently mixed sum, so that members whose hashes cancel out in one
            // sum do not in the other.
            var spread = hash &* 0x9E37_79B9_7F4A_7C15
            spread ^= spread >> 29
            mixed &+= spread &* 0xBF58_476D_1CE4_E5B9
            count += 1
        }

        var digest: ContentDigest {
            var folded = (sum ^ count) &* 0xFF51_AFD7_ED55_8CCD
            folded ^= folded >> 33
            return ContentDigest(value: folded ^ mixed)
        }
    }
}
