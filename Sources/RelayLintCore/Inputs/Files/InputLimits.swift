#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What relaylint agrees to hold, or to wait for, from one input before it refuses it.
///
/// An input can be endless (`/dev/zero`, a pipe whose writer never stops) or shaped by someone
/// else (an export of user-chosen strings, a `.relaylint.yml` in a pull request). Past these
/// caps the run stops with an error at the file and line where the cap was crossed, so that CI
/// fails in seconds instead of filling the machine's memory. Each cap is far above what a real
/// input of its kind needs; README's "What relaylint promises on bad input" lists them.
///
/// The readers take each cap as a parameter whose default is the value here, so that tests can
/// exercise them with small ones.
enum InputLimits {
    /// The longest line of a log (JSON Lines), and of a CSV export read from a pipe: no event,
    /// log entry or account record comes near it.
    static let lineBytes = 16 << 20
    /// The most JSON values a record of a log may hold where relaylint reads it whole (a mapping
    /// that reads the record or a member whole, the first record looked at to tell the format):
    /// about 90 MB of them. A Cloud Logging entry holds at most 256 KB, a few thousand values.
    static let recordValues = 1_000_000
    /// The largest YAML or JSON document read whole: rules, configuration, manifest, mappings,
    /// Apple's keys. A YAML document takes about a hundred times its size once composed (a node
    /// per scalar): 64 MiB of `[a,a,a,…]` took 6.5 GB, 4 MiB takes about 400 MB.
    static let documentBytes = 4 << 20
    /// The largest JSON report read back whole: a baseline, a report to explain, a shard's report
    /// to merge. Decoded, a report takes about four times its size (745 MB took 3 GB, and 980 MB
    /// stopped the process under a 4 GB limit); one of 100,000 findings is about 100 MB.
    static let reportBytes = 512 << 20
    /// The largest subject map: its rows are the accounts whose Apple user id neither the export
    /// nor the logs show, thousands at most, and each row takes some 270 bytes once read (5 million
    /// rows, 273 MB, took 1.4 GB).
    static let subjectMapBytes = 64 << 20
    /// The most JSON values such a document may hold (`JSONValueCount`), past
    /// `documentValues`: one every `documentBytesPerValue` bytes. It is decoded whole, about
    /// fifty bytes a value, so 32 million take some 1.6 GB, and one every 16 bytes about three
    /// times the document. A report of relaylint's holds one value every 40 bytes or so, a
    /// partial of a partitioned run one every 30.
    static let documentValues = 32_000_000
    static let documentBytesPerValue = 16
    /// The most bytes of an account export or a mapped log read into memory: from a pipe, a
    /// device or a gzip file. A regular file is mapped, not read, and has no cap.
    static let streamedBytes = 4 << 30
    /// How many times the compressed bytes read so far a gzip file read into memory may expand
    /// to, once past `gzipExpansionGrace` (checked as it is read, so that a bomb stops early):
    /// JSON and CSV compress about 5 to 20 times, a decompression bomb about 1,000 (4.7 MB of
    /// gzip held 4.5 GiB of spaces, and took 4.2 GB and half a minute to be refused at
    /// `streamedBytes`). A file past it may still be read once decompressed to a regular file,
    /// which is mapped rather than read.
    static let gzipExpansion = 200
    /// What a gzip file read into memory may expand to before its expansion is looked at: a
    /// small file of repeated text may expand as much as it likes.
    static let gzipExpansionGrace = 64 << 20
    /// The most bytes the events of one mapped record may take once made: eight times the
    /// record, and at least 1 MiB. A record's values are copied into each of its events, and its
    /// id into each `#N` id: one Cloud Logging entry of a 1 MB `insertId` and 1,000 accounts
    /// deleted took 3.1 GB, and a 16 MiB line could have taken 50 GB.
    static func eventBytes(ofRecord recordBytes: Int) -> Int { max(1 << 20, recordBytes.multipliedReportingOverflow(by: 8).partialValue) }

    /// Invalid records met without `--skip-invalid` before the run stops: enough to show what is
    /// wrong with a file, few enough that a file of nothing else stops at once.
    static let invalidRecords = 1000

    /// Invalid records a run with `--skip-invalid` lists in its report; the others are counted.
    static let listedInvalidRecords = 1000

    /// Reasons and details of skipped records an input lists (a method and its code, as
    /// `failed call: SignUp code 7`); records of any other detail are counted under their reason
    /// as `SkippedRecords.unlistedDetails`. A log's details come from its records: a million
    /// distinct method names made a 121 MB JSON report.
    static let listedSkipDetails = 1000

    /// Why reading stopped at `invalidRecords`, said before the records met; `skippable` when
    /// `--skip-invalid` would have read on.
    static func stoppedAfterInvalid(_ count: Int, skippable: Bool = true) -> String {
        "stopped reading after \(count) invalid records; fix them" + (skippable ? ", or pass --skip-invalid to skip them" : "")
    }

    /// A cap for messages: "16 MiB", or bytes when it is not a whole number of mebibytes.
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }
}

/// Reads an input whole into memory, up to its caps, for the readers that need all of it at once
/// and cannot map it (a pipe, a device, a gzip file, a small document).
struct CappedRead {
    /// The most bytes read.
    var maxBytes: Int
    /// What the input is, for the message: "a YAML or JSON document".
    var kind: String
    /// The longest line; nil for none (a JSON document may be one line).
    var maxLineBytes: Int?
    /// Whether a NUL byte ends the read: no YAML or JSON document can hold one, and `/dev/zero`
    /// or a binary file then stops at its first block.
    var refusesNUL = true
    /// Whether a NUL as the very first byte ends the read, for inputs where a NUL further on is
    /// an invalid record of its own (a log: a dying writer pads with NULs, and `--skip-invalid`
    /// must still be able to skip that line): `/dev/zero` still stops at once.
    var refusesLeadingNUL = false
    /// How many times the compressed bytes read so far a gzip file may expand to, once past
    /// `expansionGrace` (`InputLimits.gzipExpansion`).
    var expansionLimit = InputLimits.gzipExpansion
    var expansionGrace = InputLimits.gzipExpansionGrace

    /// Reads from `source` (`prefix` first) to the end or to the first cap crossed.
    /// - Parameter compressedBytesRead: for a gzip file, how many of its compressed bytes were
    ///   read so far: what it expands to is capped at `expansionLimit` times them.
    func read(
        path: String, prefix: [UInt8] = [], compressedBytesRead: (() -> Int)? = nil,
        from source: (UnsafeMutableRawPointer, Int) throws(InputError) -> Int
    ) throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        var lineStart = 0
        // Each block is checked as it arrives: its NULs found and, when lines are capped, its
        // lines measured. Lines are otherwise counted only for a message.
        func check(from start: Int) throws(InputError) {
            let found: (nul: Int?, longLine: Int?) = bytes.withUnsafeBufferPointer { buffer in
                let base = buffer.baseAddress!
                let end = buffer.count
                let nul = refusesNUL ? memchr(base + start, 0, end - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } : nil
                guard let maxLineBytes else { return (nul, nil) }
                let limit = nul ?? end
                var index = start
                while index < limit, let newline = memchr(base + index, 0x0A, limit - index) {
                    let offset = UnsafeRawPointer(newline) - UnsafeRawPointer(base)
                    if offset - lineStart > maxLineBytes { return (nil, lineStart) }
                    lineStart = offset + 1
                    index = offset + 1
                }
                return (nul, limit - lineStart > maxLineBytes ? lineStart : nil)
            }
            if let longLine = found.longLine, let maxLineBytes {
                throw refusal(
                    "stopped reading: a line longer than \(InputLimits.describe(maxLineBytes)), the cap on one line of \(kind)",
                    at: longLine)
            }
            // Gzip on a pipe (`--accounts <(cat accounts.json.gz)`): its NUL bytes were called a
            // binary file or a device.
            if start == 0, bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B {
                throw refusal(
                    "stopped reading: this is gzip-compressed data, which relaylint decompresses only for a log or an account "
                        + "export given by its path; decompress it (gunzip -c FILE)", at: 0)
            }
            if start == 0, let encoding = TextEncoding.otherThanUTF8(startOf: bytes) {
                throw refusal("stopped reading: " + encoding, at: 0)
            }
            if refusesLeadingNUL, start == 0, bytes.first == 0 {
                throw refusal("stopped reading: a NUL byte, which no text input holds (a binary file or a device?)", at: 0, column: true)
            }
            if let nul = found.nul {
                throw refusal("stopped reading: a NUL byte, which no text input holds (a binary file or a device?)", at: nul, column: true)
            }
        }
        func refusal(_ message: String, at offset: Int, column: Bool = false) -> InputError {
            let position = bytes.withUnsafeBufferPointer { FileBytes.lineAndColumn(of: offset, in: $0) }
            return .refused([
                Diagnostic(.error, message, at: SourceLocation(file: path, line: position.line, column: column ? position.column : nil))
            ])
        }
        bytes.append(contentsOf: prefix.prefix(maxBytes + 1))
        try check(from: 0)
        let blockSize = 1 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { block.deallocate() }
        while bytes.count <= maxBytes {
            let start = bytes.count
            let got = try source(block, blockSize)
            if got == 0 { break }
            if got < 0 {
                guard errno == EINTR else {
                    throw InputError.unreadable(path: path, reason: String(cString: strerror(errno)))
                }
                continue
            }
            try grow(&bytes, toHold: bytes.count + got, path: path)
            bytes.append(contentsOf: UnsafeBufferPointer(start: block.assumingMemoryBound(to: UInt8.self), count: got))
            try check(from: start)
            if let compressedBytesRead, bytes.count > expansionGrace {
                let compressed = compressedBytesRead()
                if bytes.count / expansionLimit > compressed {
                    throw refusal(
                        "stopped reading: the gzip file expands to more than \(expansionLimit) times the compressed bytes read "
                            + "(\(bytes.count >> 20) MiB from its first \(compressed) bytes), far more than \(kind) compresses (a decompression bomb?); "
                            + "decompress it to a file to read it anyway: a regular file is mapped, not read into memory",
                        at: bytes.count)
                }
            }
        }
        guard bytes.count <= maxBytes else {
            throw refusal("stopped reading: more than \(InputLimits.describe(maxBytes)), the cap on \(kind)", at: maxBytes)
        }
        return bytes
    }

    /// Makes room in `bytes` for `count` bytes: doubling, as an append does, but never past the
    /// cap and a block (doubling a 2.1 GB read asked for 4.3 GB, past the 4 GiB cap), and asked
    /// of `malloc` first, so that a read the machine has no memory for is an error at its file,
    /// not a crash (an array that cannot grow stops the process).
    private func grow(_ bytes: inout [UInt8], toHold count: Int, path: String) throws(InputError) {
        guard count > bytes.capacity else { return }
        let capacity = max(count, min(bytes.capacity * 2, maxBytes + (1 << 20)))
        guard let probe = malloc(capacity) else {
            throw InputError.unreadable(
                path: path, reason: "not enough memory to read \(InputLimits.describe(capacity)) of \(kind)")
        }
        free(probe)
        bytes.reserveCapacity(capacity)
    }

    /// Reads an open descriptor with `read(2)`.
    func read(path: String, prefix: [UInt8] = [], descriptor: Int32) throws(InputError) -> [UInt8] {
        try read(path: path, prefix: prefix) { buffer, count in FileBytes.systemRead(descriptor, buffer, count) }
    }
}
