import Crypto
import Foundation

/// Splits account exports (JSON) and relaylint logs (JSON Lines) by subject into N partitions,
/// one pass over each file (`relaylint split`): partition K gets the records whose subject
/// hashes to K (`Shard`, FNV-1a of the UTF-8 id modulo N).
///
/// Every record keeps its line and column: a partition's file holds blank lines (and spaces)
/// where the other partitions' records stood, so that findings and notes point at the original
/// file's lines. A record without a subject (invalid JSON, no `subject`/`localId`) goes to
/// partition 1, whose run reports it as a single run would.
public struct SubjectSplitter {
    /// One file to split.
    public struct Input: Sendable {
        public var path: String
        public var kind: InputKind

        public init(path: String, kind: InputKind) {
            self.path = path
            self.kind = kind
        }
    }

    public let count: Int
    public let directory: String

    public init(count: Int, directory: String) {
        self.count = count
        self.directory = directory
    }

    /// The name each input's part has in every partition folder: its own file name, or, when an
    /// earlier input has that name, the name numbered by the input's place (`3-events.jsonl`)
    /// and, if that is taken too, by the next free number. A numbered name that was another
    /// input's own silently wrote one input's part over the other's.
    public static func fileNames(of paths: [String]) -> [String] {
        var names: [String] = []
        for path in paths {
            let own = (path as NSString).lastPathComponent
            var name = own
            var number = names.count + 1
            while names.contains(name) || (name != own && paths.contains { ($0 as NSString).lastPathComponent == name }) {
                name = "\(number)-\(own)"
                number += 1
            }
            names.append(name)
        }
        return names
    }

    /// The folder of partition K (1-based): `partition-K-of-N`.
    public static func folderName(_ index: Int, of count: Int) -> String { "partition-\(index)-of-\(count)" }

    /// Splits every input, writes `sources.json` and `data-end.txt`, and returns the sources.
    /// Written into a folder of its own inside the output folder, then moved into place: a split
    /// that fails leaves the output folder as it was (an earlier split whole), where the files it
    /// had written looked like a split a run could be given.
    public func split(_ inputs: [Input]) throws(DiagnosticsError) -> PartitionMerger.Sources {
        let staging = "\(directory)/.relaylint-split-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let sources = try SubjectSplitter(count: count, directory: staging).splitInPlace(inputs)
        let names = (1...count).map { Self.folderName($0, of: count) } + ["sources.json", "data-end.txt"]
        do {
            for name in names {
                let target = "\(directory)/\(name)"
                if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
                try FileManager.default.moveItem(atPath: "\(staging)/\(name)", toPath: target)
            }
        } catch {
            throw DiagnosticsError([
                Diagnostic(
                    .error, "cannot move the partitions into place: \(InputError.systemReason(error))", at: SourceLocation(file: directory))
            ])
        }
        return sources
    }

    /// Splits every input into the partition folders of `directory`.
    private func splitInPlace(_ inputs: [Input]) throws(DiagnosticsError) -> PartitionMerger.Sources {
        var sources: [PartitionMerger.Sources.Input] = []
        var dataEnd: Timestamp?
        do {
            for index in 1...count {
                try FileManager.default.createDirectory(
                    atPath: "\(directory)/\(SubjectSplitter.folderName(index, of: count))", withIntermediateDirectories: true)
            }
        } catch {
            throw DiagnosticsError([
                Diagnostic(
                    .error, "cannot make the partition folders: \(InputError.systemReason(error))", at: SourceLocation(file: directory))
            ])
        }
        for (input, name) in zip(inputs, Self.fileNames(of: inputs.map(\.path))) {
            // Mapped, and read as its bytes: a gzip file is refused below, by its first bytes.
            let file: MappedFile
            do { file = try MappedFile(path: input.path, decompressing: false) } catch { throw DiagnosticsError(error.diagnostics) }
            let data = file.data
            // A file changed while it is split is told as such, before what its change made it
            // look like (zeros past a cut end are no export, and no log).
            func checkUnchanged() throws(DiagnosticsError) {
                do { try file.checkUnchanged() } catch { throw DiagnosticsError(error.diagnostics) }
            }
            if input.kind == .events {
                do { try Self.refuseMappedLog(data, path: input.path) } catch {
                    try checkUnchanged()
                    throw error
                }
            }
            let flushAt = PartitionWriter.bufferBytes(partitions: count)
            var writers = (1...count).map {
                PartitionWriter(path: "\(directory)/\(SubjectSplitter.folderName($0, of: count))/\(name)", flushAt: flushAt)
            }
            let last = data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                return input.kind == .accounts ? splitExport(bytes, into: &writers) : splitLog(bytes, into: &writers)
            }
            if let last { dataEnd = max(dataEnd ?? last, last) }
            let sha256 = FileBytes.hex(SHA256.hash(data: data))
            // Split and hashed as one version of the file, or refused.
            try checkUnchanged()
            if input.kind == .accounts, !isExport(data) {
                throw DiagnosticsError([
                    Diagnostic(
                        .error, "not a Firebase JSON export ({\"users\": [...]}): split reads JSON exports",
                        at: SourceLocation(file: input.path))
                ])
            }
            for index in writers.indices {
                do { try writers[index].close() } catch {
                    throw DiagnosticsError([Diagnostic(.error, "cannot write: \(error)", at: SourceLocation(file: writers[index].path))])
                }
            }
            sources.append(.init(path: input.path, kind: input.kind, sha256: sha256))
        }
        let result = PartitionMerger.Sources(partitions: count, dataEnd: dataEnd, inputs: sources)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            try ((try encoder.encode(result)) + Data("\n".utf8)).write(to: URL(fileURLWithPath: "\(directory)/sources.json"))
            try Data("\(dataEnd.map(\.description) ?? "")\n".utf8).write(to: URL(fileURLWithPath: "\(directory)/data-end.txt"))
        } catch {
            throw DiagnosticsError([Diagnostic(.error, "cannot write: \(error)", at: SourceLocation(file: "\(directory)/sources.json"))])
        }
        return result
    }

    /// Whether the export is valid JSON, an object with `users`: checked without building it
    /// (a tree of the whole export was an eighth of a split's time).
    private func isExport(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            // After a byte order mark, as check reads an export.
            var parser = JSONParser(bytes: bytes, offset: SubjectSplitter.byteOrderMarkLength(bytes))
            var hasUsers = false
            do throws(JSONParser.SyntaxError) {
                parser.skipWhitespace()
                try parser.parseObject(depth: 0, keys: SubjectSplitter.usersKey) { key, parser throws(JSONParser.SyntaxError) in
                    if key != nil { hasUsers = true }
                    try parser.skipValue(depth: 1)
                }
                parser.skipWhitespace()
                return hasUsers && parser.isAtEnd
            } catch {
                return false
            }
        }
    }

    /// 3 when `bytes` start with a UTF-8 byte order mark, else 0: check skips one at the start of
    /// a log or an export, and split sent a log's first line to the first partition as one of no
    /// subject, whose check then refused it as another partition's.
    private static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    private static let usersKey = JSONKeys(["users"])
    private static let logKeys = JSONKeys(["subject", "time", "id", "type", "app"])
    private static let userKeys = JSONKeys(["localId"])

    /// The partition (0-based) of a record's subject (`subject`, or `localId` in an export) and,
    /// for an event `check` takes as valid, its time; 0 without a subject. Only the members
    /// `keys` names are built, the rest checked and skipped (building every record whole was 70%
    /// of a split's time); a record that is not valid JSON goes to the first partition, whose
    /// check reports it. An invalid event's time is none: it was the data's end of every
    /// partition, whose `--skip-invalid` runs then decided their windows past the merge's end.
    private func slot(of record: UnsafeBufferPointer<UInt8>, keys: JSONKeys) -> (slot: Int, time: Timestamp?) {
        var parser = JSONParser.forRecord(record)
        var subject: JSONValue?
        // The members of `keys` past the subject, by position (`logKeys`: time, id, type, app).
        var reserved: [JSONValue?] = [nil, nil, nil, nil]
        do throws(JSONParser.SyntaxError) {
            parser.skipWhitespace()
            try parser.parseObject(depth: 0, keys: keys) { key, parser throws(JSONParser.SyntaxError) in
                switch key {
                case 0?: subject = try parser.parseValue(depth: 1)
                case let position? where keys.names.count > 1: reserved[position - 1] = try parser.parseValue(depth: 1)
                default: try parser.skipValue(depth: 1)
                }
            }
            parser.skipWhitespace()
            guard parser.isAtEnd else { return (0, nil) }
        } catch {
            return (0, nil)
        }
        guard let name = subject?.stringValue else { return (0, nil) }
        var time: Timestamp? = nil
        if keys.names.count > 1,
            case .success(let event) = Event.make(
                id: reserved[1], time: reserved[0], subject: subject, type: reserved[2], app: reserved[3], sortedFields: [],
                location: SourceLocation(file: ""), sequence: 0)
        {
            time = event.time
        }
        return (Shard.slot(of: name, among: count), time)
    }

    /// split reads relaylint's own events, whose subject each line names. A log of another
    /// format (Cloud Logging, Apple's notifications) went through as "(no events)", and every
    /// partition's check then failed on subjects outside it.
    private static func refuseMappedLog(_ data: Data, path: String) throws(DiagnosticsError) {
        let at = SourceLocation(file: path, line: 1)
        if data.starts(with: [0x1F, 0x8B]) {
            throw DiagnosticsError([
                Diagnostic(
                    .error, "this is gzip-compressed: split reads uncompressed relaylint events; decompress it first (gunzip -k)", at: at)
            ])
        }
        let mappings = (try? MappingSet.load(userPaths: []).mappings) ?? []
        // The whole file is at hand: recognition reads its first record, however long.
        let recognized: Result<EventLogFormat, InputError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return Result { () throws(InputError) in
                try EventLogFormat.recognize(prefix: bytes, isWhole: true, path: path, mappings: mappings)
            }
        }
        let format: EventLogFormat
        switch recognized {
        case .success(let recognizedFormat): format = recognizedFormat
        case .failure(let error):
            // What the file is, without `check`'s advice on where to pass it (split has no
            // --manifest or --mapping).
            var what = error.diagnostics.first?.message ?? "not a log"
            for end in [", which is none", ": "] { if let cut = what.range(of: end) { what = String(what[..<cut.lowerBound]) } }
            throw DiagnosticsError([Diagnostic(.error, "\(what): split reads relaylint events (id, time, subject, type) only", at: at)])
        }
        guard case .mapped(let mapping) = format else { return }
        throw DiagnosticsError([
            Diagnostic(
                .error,
                "this is a log of \(mapping.title) ('\(mapping.id)'): split reads relaylint events only; "
                    + "partition such a log with your own engine, or check it in one run",
                at: at)
        ])
    }

    /// Each line to its subject's partition, a blank line to the others; returns the latest time.
    private func splitLog(_ bytes: UnsafeBufferPointer<UInt8>, into writers: inout [PartitionWriter]) -> Timestamp? {
        var latest: Timestamp?
        var start = 0
        while start < bytes.count {
            let end = FileBytes.indexOfNewline(in: bytes, from: start) ?? bytes.count
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let terminated = end < bytes.count
            let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            let record = start == 0 ? UnsafeBufferPointer(rebasing: line[SubjectSplitter.byteOrderMarkLength(line)...]) : line
            let (slot, time) = blank ? (-1, nil) : slot(of: record, keys: SubjectSplitter.logKeys)
            if let time { latest = max(latest ?? time, time) }
            for index in writers.indices {
                if index == slot { writers[index].write(line) }
                if terminated { writers[index].write(byte: UInt8(ascii: "\n")) }
            }
            start = end + 1
        }
        return latest
    }

    /// Each user of `{"users": [...]}` to its partition, in place, whitespace elsewhere.
    private func splitExport(_ bytes: UnsafeBufferPointer<UInt8>, into writers: inout [PartitionWriter]) -> Timestamp? {
        // The elements of the users array: where each starts and ends, by a scan that knows strings.
        var elements: [Range<Int>] = []
        var depth = 0
        var inString = false
        var escaped = false
        var arrayDepth = -1
        var elementStart = -1
        var lastKey: Range<Int>?
        var stringStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 1 { lastKey = stringStart..<index + 1 }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                stringStart = index
                if depth == 2, arrayDepth == 1, elementStart < 0 { elementStart = index }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 2, arrayDepth == 1, elementStart < 0 { elementStart = index }
                if depth == 1, byte == UInt8(ascii: "["), arrayDepth < 0,
                    let key = lastKey, Array(UnsafeBufferPointer(rebasing: bytes[key])) == Array("\"users\"".utf8)
                {
                    arrayDepth = 1
                }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 2, arrayDepth == 1, elementStart >= 0 {
                    elements.append(elementStart..<index + 1)
                    elementStart = -1
                }
                if depth == 1, arrayDepth == 1 { arrayDepth = 2 }
            default:
                break
            }
        }
        var emitted = Array(repeating: false, count: writers.count)
        // What comes before the first user (`{"users": [`) is every partition's.
        var position = elements.first?.lowerBound ?? 0
        for index in writers.indices { writers[index].write(UnsafeBufferPointer(rebasing: bytes[..<position])) }
        for element in elements {
            let (slot, _) = slot(of: UnsafeBufferPointer(rebasing: bytes[element]), keys: SubjectSplitter.userKeys)
            let gap = UnsafeBufferPointer(rebasing: bytes[position..<element.lowerBound])
            for index in writers.indices {
                if index == slot {
                    // The comma before the element stays only after an element of this partition.
                    if emitted[index] {
                        writers[index].write(gap)
                    } else {
                        for byte in gap { writers[index].write(byte: byte == UInt8(ascii: ",") ? 0x20 : byte) }
                    }
                    writers[index].write(UnsafeBufferPointer(rebasing: bytes[element]))
                    emitted[index] = true
                } else {
                    writers[index].writeBlank(UnsafeBufferPointer(rebasing: bytes[position..<element.upperBound]))
                }
            }
            position = element.upperBound
        }
        for index in writers.indices { writers[index].write(UnsafeBufferPointer(rebasing: bytes[position...])) }
        return nil
    }
}

/// A partition's output file, buffered.
struct PartitionWriter {
    let path: String
    private var buffer: [UInt8] = []
    private var handle: FileHandle?
    private var failure: (any Error)?
    /// How many bytes are held before they are written.
    private let flushAt: Int

    /// The bytes each of `partitions` writers holds: 64 MiB in all, at most 1 MiB each. Every
    /// partition gets a line break for each line of a log, so with 1 MiB each, 4,096 partitions
    /// held 1.2 GB of line breaks of a 300 KB file.
    static func bufferBytes(partitions: Int) -> Int { max(4096, min(1 << 20, (64 << 20) / max(1, partitions))) }

    init(path: String, flushAt: Int = 1 << 20) {
        self.path = path
        self.flushAt = flushAt
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = FileHandle(forWritingAtPath: path)
        buffer.reserveCapacity(flushAt)
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushAt { flush() }
    }

    mutating func write(byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= flushAt { flush() }
    }

    /// The bytes' line breaks, then a space for each byte after the last one: what follows keeps
    /// its line and column.
    mutating func writeBlank(_ bytes: UnsafeBufferPointer<UInt8>) {
        var sinceBreak = 0
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                write(byte: byte)
                sinceBreak = 0
            } else {
                sinceBreak += 1
            }
        }
        buffer.append(contentsOf: repeatElement(0x20, count: sinceBreak))
        if buffer.count >= flushAt { flush() }
    }

    private mutating func flush() {
        guard let handle, failure == nil else { return }
        do { try handle.write(contentsOf: buffer) } catch { failure = error }
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() throws {
        flush()
        if handle == nil { throw CocoaError(.fileWriteUnknown) }
        if let failure { throw failure }
        try handle?.close()
    }
}
