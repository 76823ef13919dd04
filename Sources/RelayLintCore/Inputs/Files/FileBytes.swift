import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads input files in large blocks, hashing them on the way, so a log never has to be held in
/// memory as a whole and its SHA-256 costs no second pass.
struct FileBytes {
    static let blockSize = 4 << 20

    /// Calls `body` with runs of complete lines — each run a buffer of whole lines, every line
    /// but possibly the file's last ending in `\n` — and returns the hex SHA-256 of the whole file.
    /// Runs are about `blockSize` long, so that a caller can split one into lines and work on
    /// them in parallel; the file is never held as a whole.
    ///
    /// Each run is read straight into an array of its own that `body` may keep (its slice shares
    /// it); only the partial line at its end is copied, to begin the next run. (Read as `Data`,
    /// appended to a run and copied again by the log reader, a block cost two copies on the
    /// reading thread, which the parse workers wait for.) The hash is worked out on a queue of
    /// its own while `body` runs.
    ///
    /// A gzip file is read decompressed (its hash is that of the compressed file); a pipe
    /// `opened` to recognise its format is read on, its first bytes first.
    ///
    /// A partial line longer than `lineLimit` throws `LineTooLong` (its number is the caller's):
    /// without a newline, `/dev/zero` would grow it until memory runs out. From a pipe or device
    /// (`opened`), a run ends as soon as it holds a whole line and nothing more is ready to read,
    /// so that a writer still writing does not hold back the lines it wrote.
    ///
    /// `recordsEnd` says where the whole records of a run end, for records other than lines (a
    /// streamed JSON array's elements: `ArrayRunScan`); `lineLimit` then caps a partial record.
    static func forEachRun(
        path: String, opened: OpenedInput? = nil, lineLimit: Int = InputLimits.lineBytes,
        recordsEnd: ((UnsafeBufferPointer<UInt8>) -> Int?)? = nil, _ body: (ArraySlice<UInt8>) throws -> Void
    ) throws -> String {
        let gzip = opened == nil && GzipStream.isGzip(path: path) ? try GzipStream(path: path) : nil
        guard let handle = opened?.handle ?? FileHandle(forReadingAtPath: path) else {
            throw InputError.unreadable(path: path, reason: FileBytes.openFailureReason(path))
        }
        defer { if opened == nil { try? handle.close() } }
        let prefix = opened?.prefix ?? []
        let descriptor = handle.fileDescriptor
        let source: (UnsafeMutableRawPointer, Int) throws -> Int = { buffer, count in
            if let gzip { return try gzip.read(into: buffer, count: count) }
            return systemRead(descriptor, buffer, count)
        }
        let hasher = BackgroundSHA256()
        defer { hasher.wait() }
        // A regular file is read as it is when each block is read: one cut short meanwhile
        // (`logrotate`'s `copytruncate`) would read as a shorter log, its last line cut, and one
        // rewritten as a mix of two. Its version when opened is compared with its version once read.
        let version = opened == nil && gzip == nil ? FileVersion(descriptor: descriptor) : nil
        func checkUnchanged() throws(InputError) { try version?.checkUnchanged(descriptor: descriptor, path: path) }
        do {
            try readRuns()
        } catch {
            // What the reader met after the change (a cut line) says nothing of the file.
            try checkUnchanged()
            throw error
        }
        try checkUnchanged()
        if let gzip {
            hasher.wait()
            return try gzip.compressedSHA256()
        }
        return FileBytes.hex(hasher.finalize())

        func readRuns() throws {
            var carried: [UInt8] = prefix
            if !prefix.isEmpty { hasher.update(prefix, 0..<prefix.count) }
            while true {
                let (run, atEnd) = try readBlock(
                    from: source, after: carried, path: path, streaming: opened == nil ? nil : descriptor, limit: lineLimit + 1)
                // Nothing new is the end only when the read said so: from a pipe whose writer paused,
                // a block returns with nothing new while it holds whole lines (the first bytes read
                // to recognise the format), and ending there cut the log short without a word.
                guard run.count > carried.count || !atEnd else { break }
                // A gzip file's hash is the compressed file's, which its stream works out as it reads.
                if gzip == nil { hasher.update(run, carried.count..<run.count) }
                let end = run.withUnsafeBufferPointer { bytes in
                    recordsEnd.map { $0(bytes) } ?? FileBytes.indexOfLastNewline(in: bytes).map { $0 + 1 }
                }
                guard let end, end > 0 else {
                    if run.count > lineLimit { throw LineTooLong(line: nil, leading: run.withUnsafeBufferPointer(Self.leadingWhitespace)) }
                    carried = run
                    continue
                }
                carried = Array(run[end...])
                try body(run[..<end])
            }
            if !carried.isEmpty { try body(carried[...]) }
        }
    }

    /// `read(2)`, named apart from the many `read`s in scope (one per platform's C library).
    static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(descriptor, buffer, count)
        #else
            Darwin.read(descriptor, buffer, count)
        #endif
    }

    /// A line longer than the cap of `forEachRun`.
    struct LineTooLong: Error {
        /// The line's number, when its reader knows it.
        var line: Int?
        /// The whitespace the partial record starts with (a streamed array's element starts past
        /// it): its line breaks, and the bytes after the last one (all of it without one).
        var leading: (lineBreaks: Int, bytesAfter: Int) = (0, 0)
    }

    /// The line breaks of the whitespace `bytes` start with, and the bytes after the last one.
    static func leadingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> (lineBreaks: Int, bytesAfter: Int) {
        var lineBreaks = 0
        var bytesAfter = 0
        for byte in bytes {
            switch byte {
            case 0x0A:
                lineBreaks += 1
                bytesAfter = 0
            case 0x20, 0x09, 0x0D: bytesAfter += 1
            default: return (lineBreaks, bytesAfter)
            }
        }
        return (lineBreaks, bytesAfter)
    }

    /// `prefix` followed by up to `blockSize` bytes read from `descriptor` (fewer only at the
    /// end of the input), in one new array; as many as `prefix` holds when that is more, so that
    /// a line of many blocks is copied a logarithmic number of times, not once per block (but
    /// never past `limit` bytes of a partial line: that is as much as its caller looks at).
    /// From a `streaming` descriptor it returns early once it holds a newline and nothing more is
    /// ready; `atEnd` tells that apart from the end of the input (a read of 0 bytes).
    private static func readBlock(
        from source: (UnsafeMutableRawPointer, Int) throws -> Int, after prefix: [UInt8], path: String, streaming: Int32?, limit: Int
    ) throws -> (bytes: [UInt8], atEnd: Bool) {
        var failure: Int32 = 0
        var atEnd = false
        let growth = prefix.count < limit ? min(max(blockSize, prefix.count), max(limit - prefix.count, 1 << 16)) : blockSize
        var holdsLine = streaming != nil && prefix.contains(0x0A)
        let block = try [UInt8](unsafeUninitializedCapacity: prefix.count + growth) { buffer, count in
            _ = buffer.initialize(from: prefix)
            count = prefix.count
            while count < buffer.count {
                if let streaming, holdsLine, !isReadable(streaming) { return }
                let got = try source(buffer.baseAddress! + count, buffer.count - count)
                if got > 0 {
                    if streaming != nil, !holdsLine { holdsLine = memchr(buffer.baseAddress! + count, 0x0A, got) != nil }
                    count += got
                } else if got == 0 {
                    atEnd = true
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        guard failure == 0 else {
            throw InputError.unreadable(
                path: path, reason: readFailureReason(path, POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)))
        }
        return (block, atEnd)
    }

    /// Whether a read from `descriptor` would return at once (data or the end).
    private static func isReadable(_ descriptor: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }

    /// A SHA-256 fed on a serial queue: blocks are hashed in the order given, and `finalize`
    /// waits for the last.
    private final class BackgroundSHA256: @unchecked Sendable {
        /// Touched only on `queue`.
        private var hasher = SHA256()
        private let queue = DispatchQueue(label: "relaylint.sha256")

        /// Hashes `range` of `bytes`, which the queue keeps until then.
        func update(_ bytes: [UInt8], _ range: Range<Int>) {
            queue.async { bytes[range].withUnsafeBytes { self.hasher.update(bufferPointer: $0) } }
        }

        func finalize() -> SHA256.Digest { queue.sync { hasher.finalize() } }

        /// Waits for the blocks given so far (so that nothing runs on after an error).
        func wait() { queue.sync {} }
    }

    /// Whether `path` names a regular file (not a pipe, a device or a link to one).
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The problem with a file found by listing a folder (of rules or mappings), when it is not
    /// a regular file: a link to `/dev/stdout` or a FIFO, which a pull request can add, would be
    /// read until its writer stops (with output on a pipe, never). A file named on the command
    /// line may be a pipe (`--rules <(…)`); one found in a folder has no reason to be.
    static func listedFileProblem(_ path: String) -> InputError? {
        guard !isRegularFile(path) else { return nil }
        return .unreadable(
            path: path, reason: "not a regular file (a device, a pipe or a link to one); a folder's rule and mapping files must be files")
    }

    /// About how many non-empty lines a file holds: its size over the mean length (per non-empty
    /// line) of its first mebibyte; 0 when it cannot be read. Lets a caller size a table once
    /// instead of growing it. Empty lines do not count: a partition written by `split` is mostly
    /// empty lines, and counting them sized each partition's tables for the whole log.
    static func estimatedLineCount(path: String) -> Int {
        // Only a regular file is sampled: opening a named pipe to sample it would connect to its
        // writer and, closed, drop what it wrote before the real read.
        guard isRegularFile(path), let handle = FileHandle(forReadingAtPath: path) else { return 0 }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0, (try? handle.seek(toOffset: 0)) != nil,
            let sample = try? handle.read(upToCount: 1 << 20), !sample.isEmpty
        else { return 0 }
        var lines = 0
        var previous: UInt8 = 0x0A
        for byte in sample {
            if byte == 0x0A, previous != 0x0A { lines += 1 }
            previous = byte
        }
        let estimate = Int(Double(max(lines, 1)) * Double(size) / Double(sample.count))
        // No event is shorter than `{"id":"","time":0,"subject":"","type":""}`: a first mebibyte
        // of blank or short lines must not size a table for a billion ids.
        return min(estimate, Int(size) / 41 + 1)
    }

    /// The non-empty lines of a run of whole lines: byte ranges without the `\n` or `\r\n` (and
    /// without a UTF-8 byte order mark on the file's first line), numbered from `firstLine`; and
    /// how many lines the run holds, empty ones included.
    ///
    /// Empty lines are left out because a partition written by `split` keeps every other
    /// partition's line as an empty one (so that line numbers stay the original file's): at 8
    /// partitions, seven lines in eight are empty, and a slot for each cost more than the events.
    static func lineRanges(
        in run: UnsafeBufferPointer<UInt8>, firstLine: Int
    ) -> (ranges: [(bytes: Range<Int>, number: Int)], lineCount: Int) {
        var ranges: [(bytes: Range<Int>, number: Int)] = []
        var lineStart = 0
        var number = firstLine
        while lineStart < run.count {
            if run[lineStart] == 0x0A || run[lineStart] == 0x0D {
                let empty = endOfEmptyLines(in: run, from: lineStart)
                number += empty.count
                lineStart = empty.end
                if empty.count > 0 { continue }
            }
            let newline = FileBytes.indexOfNewline(in: run, from: lineStart) ?? run.count
            var start = lineStart
            var end = newline
            if end > start, run[end - 1] == 0x0D { end -= 1 }
            if number == 1, end - start >= 3, run[start] == 0xEF, run[start + 1] == 0xBB, run[start + 2] == 0xBF { start += 3 }
            if end > start { ranges.append((start..<end, number)) }
            number += 1
            lineStart = newline + 1
        }
        return (ranges, number - firstLine)
    }

    /// Reads a whole (small) file: manifests, rules, configuration (account exports are mapped,
    /// see `MappedFile`). Read to the end rather than by size: a pipe (`--manifest <(…)`) has none.
    /// Stops at `limit` bytes and at a NUL byte (`CappedRead`): `/dev/zero` ends at once.
    static func read(
        path: String, limit: Int = InputLimits.documentBytes, kind: String = "a YAML or JSON document"
    ) throws(InputError) -> (data: Data, sha256: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError.unreadable(path: path, reason: openFailureReason(path))
        }
        defer { try? handle.close() }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw InputError.unreadable(path: path, reason: "is a directory")
        }
        let data = Data(try CappedRead(maxBytes: limit, kind: kind).read(path: path, descriptor: handle.fileDescriptor))
        return (data, sha256(of: data))
    }

    static func sha256(of data: Data) -> String { hex(SHA256.hash(data: data)) }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in digest {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Just past the empty lines (`\n`, `\r\n`) from `start`, and how many there are. Runs of
    /// them are stepped over a word at a time: a 4 MB gzip file of nothing but line breaks was
    /// split with a `memchr` call for each, for minutes.
    static func endOfEmptyLines(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, count: Int) {
        var index = start
        var count = 0
        while index < bytes.count {
            if index + 8 <= bytes.count, let base = bytes.baseAddress {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                if word == 0x0A0A_0A0A_0A0A_0A0A {
                    index += 8
                    count += 8
                    continue
                }
                // `\r\n` four times, the first byte lowest.
                if word == 0x0A0D_0A0D_0A0D_0A0D {
                    index += 8
                    count += 4
                    continue
                }
            }
            if bytes[index] == 0x0A {
                index += 1
            } else if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                index += 2
            } else {
                break
            }
            count += 1
        }
        return (index, count)
    }

    static func indexOfNewline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        let base = bytes.baseAddress! + start
        guard let found = memchr(base, 0x0A, bytes.count - start) else { return nil }
        return start + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
    }

    private static func indexOfLastNewline(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        // Lines are short: the last newline is near the end of a block.
        var index = bytes.count - 1
        while index >= 0 {
            if bytes[index] == 0x0A { return index }
            index -= 1
        }
        return nil
    }

    /// Why a file could not be read: a directory opens but does not read, and a missing file
    /// is said in three words rather than Foundation's sentence.
    static func readFailureReason(_ path: String, _ error: any Error) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return openFailureReason(path) }
        if isDirectory.boolValue { return "is a directory" }
        return error.localizedDescription
    }

    static func openFailureReason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            // The link itself is there: it leads nowhere (a loop, or a target that is gone).
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
                return "a symbolic link that leads to no file (a loop, or its target is gone)"
            }
            return "no such file"
        }
        return isDirectory.boolValue ? "is a directory" : "permission denied"
    }

    /// `lineAndColumn` of each of `offsets`, given in increasing order, in one pass over the
    /// bytes: one pass each was quadratic for a JWKS of many keys on one line.
    static func linesAndColumns(of offsets: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> [(line: Int, column: Int)] {
        var (line, column, index) = (1, 1, 0)
        return offsets.map { offset in
            while index < min(offset, bytes.count) {
                if bytes[index] == 0x0A {
                    (line, column) = (line + 1, 1)
                } else if bytes[index] & 0xC0 != 0x80 {
                    column += 1
                }
                index += 1
            }
            return (line, column)
        }
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset, for syntax errors.
    static func lineAndColumn(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        var column = 1
        for index in lineStart..<end where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return (line, column)
    }
}
