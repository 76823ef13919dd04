import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an `--events` file holds, recognised from its first record: relaylint events, or the
/// records of a log format a mapping describes (Cloud Logging entries, Apple notifications, a
/// team's own log). A file that is none of them is refused with what it looks like instead.
enum EventLogFormat {
    case native
    case mapped(LogMapping)

    /// The name `--events-format` gives relaylint's own format; `auto` recognises a file.
    public static let nativeName = "relaylint"
    public static let automatic = "auto"

    /// The format a `--events-format` name stands for; nil for `auto`. An unknown name is an
    /// error at the file it was given for.
    static func named(_ name: String, mappings: [LogMapping], path: String) throws(InputError) -> EventLogFormat? {
        if name == automatic { return nil }
        if name == nativeName { return .native }
        if let mapping = mappings.first(where: { $0.id == name }) { return .mapped(mapping) }
        throw InputError.refused([
            Diagnostic(.error, unknownNameMessage(name, mappings: mappings) ?? "", at: SourceLocation(file: path))
        ])
    }

    /// What is wrong with a `--events-format` name, with the known ones; nil for a known name.
    static func unknownNameMessage(_ name: String, mappings: [LogMapping]) -> String? {
        let known = [automatic, nativeName] + mappings.map(\.id)
        guard !known.contains(name) else { return nil }
        var message = "unknown events format '\(name)'"
        if let suggestion = SchemaReader.closest(to: name, in: known) { message += "; did you mean '\(suggestion)'?" }
        return message + " (known: \(known.joined(separator: ", ")))"
    }

    /// How much of a file is looked at to recognise it, at least: more when its first record
    /// is longer, up to `InputLimits.lineBytes` past its start.
    static let sniffLimit = 1 << 20

    /// Recognises a file's format; `mappings` are tried in order after relaylint's own format.
    /// A gzip file is recognised by what it holds. From a pipe (`--events -`, `<(…)`), the bytes
    /// read to recognise it are handed back in `opened` with the open pipe: the reader takes them
    /// first, then reads on from that pipe.
    static func recognize(path: String, mappings: [LogMapping]) throws(InputError) -> (format: EventLogFormat, opened: OpenedInput?) {
        if GzipStream.isGzip(path: path) {
            let prefix = try gzipPrefix(path: path)
            let format = try prefix.bytes.withUnsafeBufferPointer { bytes throws(InputError) in
                try recognize(prefix: bytes, isWhole: prefix.isWhole, path: path, mappings: mappings)
            }
            return (format, nil)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return (.native, nil) }
        // Through links (`stat`): a link to a file is a file, closed here and read again in its
        // turn; only a pipe or a device is read on through this descriptor.
        let isRegular = FileBytes.isRegularFile(path)
        let descriptor = handle.fileDescriptor
        var prefix = try readPrefix(path: path, stopEarly: !isRegular) { buffer, count in read(descriptor, buffer, count) }
        var recognised = try prefix.bytes.withUnsafeBufferPointer { bytes throws(InputError) in
            try recognition(prefix: bytes, isWhole: prefix.isWhole, path: path, mappings: mappings, canReadMore: !isRegular)
        }
        if recognised == nil {
            // From a pipe, read to its first record only: a first record that is a JSON object of
            // no format may be an invalid one of a log the records after it tell (`laterFormat`),
            // so more is read, as much as a file's prefix, and it is recognised again.
            prefix = try readPrefix(path: path, stopEarly: false, startingWith: prefix.bytes) { buffer, count in
                read(descriptor, buffer, count)
            }
            recognised = try prefix.bytes.withUnsafeBufferPointer { bytes throws(InputError) in
                try recognition(prefix: bytes, isWhole: prefix.isWhole, path: path, mappings: mappings, canReadMore: false)
            }
        }
        // A recognition that cannot read more always decides.
        let format = recognised ?? .native
        if isRegular {
            try? handle.close()
            return (format, nil)
        }
        // A pipe is read on through the same descriptor: a FIFO opened again would wait for a
        // writer that may be gone, and one closed meanwhile would break a writer still writing.
        return (format, OpenedInput(prefix: prefix.bytes, handle: handle))
    }

    /// The first bytes of an input up to the first byte of its first record (or its end, or
    /// `InputLimits.lineBytes` of blank text), for a log of a named format (`--events-format`):
    /// it is not recognised, so no cap on its first record applies, but its reader must still
    /// know whether a JSON array starts it.
    static func bytesToFirstRecord(from source: (UnsafeMutableRawPointer, Int) throws(InputError) -> Int) throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        let blockSize = 1 << 16
        let block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { block.deallocate() }
        // Each block is looked at once: the bytes before it are blank already.
        while bytes.count < InputLimits.lineBytes {
            let got = try source(block, blockSize)
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            let new = UnsafeRawBufferPointer(start: block, count: got)
            bytes.append(contentsOf: new)
            if firstRecordByte(in: new) != nil { break }
        }
        return bytes
    }

    /// Refuses an archive given as a log of a named format (`--events-format`), whose reader
    /// would read its headers as lines: `opened` holds a pipe's first bytes; a file's (a gzip
    /// file's decompressed) are read here.
    static func refuseArchive(path: String, opened: OpenedInput?) throws(InputError) {
        var start: [UInt8]
        if let opened {
            start = opened.prefix
        } else if GzipStream.isGzip(path: path) {
            let stream = try GzipStream(path: path)
            let block = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16)
            defer { block.deallocate() }
            var filled = 0
            while filled < 512 {
                let got = try stream.read(into: block + filled, count: 512 - filled)
                if got == 0 { break }
                filled += got
            }
            start = Array(UnsafeRawBufferPointer(start: block, count: filled))
        } else {
            guard let handle = FileHandle(forReadingAtPath: path) else { return }
            defer { try? handle.close() }
            start = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
        }
        if let archive = start.withUnsafeBufferPointer(ArchiveFormat.refusal(startOf:)) { throw refusal(path, archive) }
    }

    /// A pipe or device read as a log of a named format, opened, with its first bytes read
    /// (`bytesToFirstRecord`), so that it is read as its writer writes it as a recognised one
    /// is; nil for a regular file or a gzip file, which their readers open themselves.
    static func openedForNamedFormat(path: String) throws(InputError) -> OpenedInput? {
        guard !FileBytes.isRegularFile(path), !GzipStream.isGzip(path: path), let handle = FileHandle(forReadingAtPath: path) else {
            return nil
        }
        let descriptor = handle.fileDescriptor
        let prefix = try bytesToFirstRecord { buffer, count in read(descriptor, buffer, count) }
        return OpenedInput(prefix: prefix, handle: handle)
    }

    /// The first decompressed bytes of a gzip file, as far as recognising it needs.
    static func gzipPrefix(path: String) throws(InputError) -> (bytes: [UInt8], isWhole: Bool) {
        let stream = try GzipStream(path: path)
        return try readPrefix(path: path, stopEarly: false) { buffer, count throws(InputError) in
            try stream.read(into: buffer, count: count)
        }
    }

    /// The first bytes of a file: at least `sniffLimit` (or all there is) and the whole first
    /// record. From a pipe (`stopEarly`) it stops as soon as the first record is complete (a
    /// line, or the first element of an array), so that a writer still writing does not hold
    /// the answer back. A first record longer than `InputLimits.lineBytes` is refused: the
    /// format would be guessed from part of it. `start` holds what was read of it before.
    private static func readPrefix(
        path: String, stopEarly: Bool, startingWith start: [UInt8] = [],
        from source: (UnsafeMutableRawPointer, Int) throws(InputError) -> Int
    ) throws(InputError) -> (bytes: [UInt8], isWhole: Bool) {
        var bytes = start
        var scan = FirstRecordScan()
        let blockSize = 1 << 16
        let block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { block.deallocate() }
        while true {
            let complete = bytes.withUnsafeBufferPointer { scan.scan($0) }
            if (scan.end ?? bytes.count) - (scan.recordStart ?? 0) > InputLimits.lineBytes {
                throw firstRecordTooLong(bytes, scan: scan, path: path)
            }
            if complete, stopEarly || bytes.count >= sniffLimit { return (bytes, false) }
            let got = try source(block, complete ? min(blockSize, sniffLimit - bytes.count) : blockSize)
            if got < 0, errno == EINTR { continue }
            if got <= 0 { return (bytes, true) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: block, count: got))
        }
    }

    /// Why a log whose first record does not end within the cap on a line is not recognised.
    private static func firstRecordTooLong(_ bytes: [UInt8], scan: FirstRecordScan, path: String) -> InputError {
        guard let start = scan.recordStart else {
            return refusal(
                path,
                "stopped reading: more than \(InputLimits.describe(InputLimits.lineBytes)) of blank lines before the first record, "
                    + "the cap on one line of a log")
        }
        let line = bytes[..<start].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        guard scan.isArray else { return EventLogReader.lineTooLong(path: path, at: line, limit: InputLimits.lineBytes) }
        // Blank space alone past the cap after the `[`: no element is long, the space before
        // the first is.
        if bytes[(start + 1)..<min(bytes.count, start + 1 + InputLimits.lineBytes)].allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            return refusal(
                path,
                "stopped reading: more than \(InputLimits.describe(InputLimits.lineBytes)) of blank space before the array's first element, "
                    + "the cap on the first record of a log read to recognise its format", line: line)
        }
        return .refused([
            Diagnostic(
                .error,
                "stopped reading: the array's first element is longer than \(InputLimits.describe(InputLimits.lineBytes)), "
                    + "the cap on one record of a log read to recognise its format; name the format with --events-format",
                at: SourceLocation(file: path, line: line))
        ])
    }

    /// Where the first record of a log starts: past whitespace and a byte order mark.
    static func firstRecordByte<Bytes: Collection<UInt8>>(in bytes: Bytes) -> Bytes.Index? {
        bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    }

    /// The format of the input whose first bytes are `bytes` (the whole input when `isWhole`).
    static func recognize(
        prefix bytes: UnsafeBufferPointer<UInt8>, isWhole: Bool, path: String, mappings: [LogMapping]
    ) throws(InputError) -> EventLogFormat {
        // One that cannot read more always decides.
        try recognition(prefix: bytes, isWhole: isWhole, path: path, mappings: mappings, canReadMore: false) ?? .native
    }

    /// The format of the input whose first bytes are `bytes`; nil, when `canReadMore` and the
    /// bytes are not the whole input, where the lines that follow may tell: a first record that
    /// is a JSON object of no format with no record after it in the bytes (`laterFormat`), or a
    /// first line of text with no record after it (a banner before the log, or a text log).
    private static func recognition(
        prefix bytes: UnsafeBufferPointer<UInt8>, isWhole: Bool, path: String, mappings: [LogMapping], canReadMore: Bool
    ) throws(InputError) -> EventLogFormat? {
        if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B {
            // A gzip file given by path is decompressed before it gets here; this is one on a
            // pipe, whose bytes relaylint does not decompress (or a file compressed twice).
            throw refusal(
                path,
                "this is gzip-compressed data: relaylint decompresses a .gz file given by its path; "
                    + "pass the file itself, or decompress it into the pipe (gunzip -c FILE | relaylint check --events -)")
        }
        // An archive (a sink's folder packed with `tar czf`, its gzip layer taken off as for any
        // .gz) or another compression: its headers ran into each file's first line.
        if let archive = ArchiveFormat.refusal(startOf: bytes) { throw refusal(path, archive) }
        // UTF-16 or UTF-32 (as Windows tools write "Unicode" text) was called CSV or not JSON at
        // its first character.
        if let encoding = TextEncoding.otherThanUTF8(startOf: bytes) { throw refusal(path, encoding) }
        // Random bytes (an image, an archive other than gzip, /dev/urandom) were called CSV when
        // a comma came first. Text has hardly a control character but tab, CR and LF. NUL is
        // left to the readers, which name its line: a log may hold a run of them where a crash
        // left its tail unwritten.
        let leading = bytes.prefix(512)
        let controls = leading.count { $0 > 0 && $0 < 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }
        if controls >= 8, controls * 20 > leading.count {
            throw refusal(path, "this is binary data, not text: relaylint reads logs as UTF-8 JSON")
        }
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        var parser = JSONParser(bytes: bytes, offset: start)
        parser.skipWhitespace()
        // Empty: nothing to recognise; read as relaylint events (which counts no record).
        guard parser.offset < bytes.count else { return .native }
        // The line the first record starts on, after blank lines: where a refusal of the whole
        // file by its first record is told.
        let startLine = 1 + UnsafeBufferPointer(rebasing: bytes[..<parser.offset]).count { $0 == 0x0A }
        let head = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[parser.offset..<min(bytes.count, parser.offset + 512)]), as: UTF8.self)
        if head.range(of: #"^\{\s*"users"\s*:"#, options: .regularExpression) != nil {
            throw refusal(path, "this is a Firebase account export (firebase auth:export): pass it with --accounts", line: startLine)
        }
        try refuseArrayAfterUnicodeBlankLines(bytes, from: parser.offset, line: startLine, path: path)
        var first: JSONValue?
        // Where the record recognised starts: a refusal names its line.
        var firstOffset = parser.offset
        if bytes[parser.offset] == UInt8(ascii: "[") {
            // Lines of a JSON array ended by a carriage return alone: valid JSON, but every
            // finding and error of it was told at line 1.
            if Self.endsLinesInCarriageReturnOnly(UnsafeBufferPointer(rebasing: bytes[parser.offset...])) {
                throw refusal(path, Self.carriageReturnRefusal(convertedTo: "FILE.json"), line: startLine)
            }
            var element = JSONParser.forRecord(bytes, offset: parser.offset + 1)
            // The first element that is an object tells the format. Elements that are not
            // objects (`1`, `null`), or not JSON while the array's structure holds, are invalid
            // records of any log and tell nothing of it: told by the first, the whole array was
            // read as one invalid record, and a Cloud Logging array with a broken first entry as
            // Apple's notifications.
            while true {
                element.skipWhitespace()
                let offset = element.offset
                element.valuesLeft = InputLimits.recordValues
                var failure: Int?
                do {
                    let value = try element.parseValue(depth: 1)
                    (first, firstOffset) = (value, offset)
                    if value.objectValue != nil { break }
                } catch {
                    failure = error.offset
                    if first == nil { firstOffset = offset }
                }
                if let failure {
                    guard let end = ArrayElementEnd.afterMisspeltValue(ofElementAt: offset, failingAt: failure, in: bytes),
                        bytes[end] == UInt8(ascii: ",")
                    else { break }
                    element.move(to: end + 1)
                } else {
                    element.skipWhitespace()
                    guard element.consume(UInt8(ascii: ",")) else { break }
                }
            }
            // What `jq -s` makes of two `gcloud` arrays: read as lines, each line of it was an
            // invalid record of its own (288 for 6 entries), and with --skip-invalid a clean run.
            if case .array? = first {
                throw refusal(
                    path,
                    "this is a JSON array of arrays (as `jq -s` makes of several arrays), not a log: a log is one array of "
                        + "records (`jq '[.[][]]'` flattens it) or one record per line; or give each array's file to --events",
                    line: startLine)
            }
            if first == nil, isWhole || element.offset < bytes.count {
                // An array none of whose first elements parses: the reader reports where, as
                // records of the first format whose keys the bytes mention (a broken Cloud
                // Logging entry was labelled as Apple's notifications).
                let text = UnsafeBufferPointer(rebasing: bytes[firstOffset...])
                let mentioned = mappings.first { KeyMentions(RecordProjection.recognizedKeys($0), all: false).match(text) }
                return (mentioned ?? mappings.first).map(EventLogFormat.mapped) ?? .native
            }
        } else {
            let lineEnd =
                UnsafeBufferPointer(rebasing: bytes[parser.offset...]).firstIndex(of: 0x0A).map { $0 + parser.offset } ?? bytes.count
            // Anywhere in the prefix: after a first line of other text (a progress meter), the
            // records' line was read as one invalid record.
            if let cr = Self.carriageReturnBetweenRecords(in: UnsafeBufferPointer(rebasing: bytes[parser.offset...])) {
                let line = startLine + UnsafeBufferPointer(rebasing: bytes[parser.offset..<(parser.offset + cr)]).count { $0 == 0x0A }
                throw refusal(path, Self.carriageReturnRefusal(), line: line)
            }
            first = try? JSONParser.parseRecord(UnsafeBufferPointer(rebasing: bytes[parser.offset..<lineEnd]))
            if first == nil {
                // A first line that is not JSON (a write cut short, a stray `WARNING: …` captured
                // with the log) tells nothing of the format; the first line that is a JSON object
                // does. Read as relaylint events, a Cloud Logging file after one bad line gave
                // every entry as invalid, and with --skip-invalid a clean run. Only a file with
                // no such line is told by its first line (YAML, CSV, JSON over several lines).
                if let next = firstJSONLine(in: bytes, from: lineEnd, isWhole: isWhole, objectsOnly: true) {
                    (first, firstOffset) = next
                } else {
                    _ = try notJSON(head, path: path, line: startLine)
                    // No line is a JSON object, none starts as a record does (a record longer
                    // than the prefix, cut), and the first does not either: a text log or a web
                    // page given for the log. Read as relaylint events, each line was an invalid
                    // record, and with --skip-invalid a clean run.
                    if let refusal = textRefusal(head), !anyLineStartsAsARecord(in: bytes, from: lineEnd) {
                        // From a pipe, the lines after the first are not here yet.
                        if canReadMore, !isWhole { return nil }
                        throw Self.refusal(
                            path,
                            isWhole
                                ? refusal
                                : refusal + " (no line of its first MiB is one; to read it anyway, name its format with --events-format)",
                            line: startLine)
                    }
                    guard let next = firstJSONLine(in: bytes, from: lineEnd, isWhole: isWhole) else { return .native }
                    (first, firstOffset) = next
                }
            }
            // A line that is JSON but no object tells nothing of the format either.
            if let value = first, value.objectValue == nil,
                let next = firstJSONLine(in: bytes, from: lineEnd, isWhole: isWhole, objectsOnly: true)
            {
                (first, firstOffset) = next
            }
        }
        guard let first else { return .native }
        let isArray = bytes[parser.offset] == UInt8(ascii: "[")
        if let format = format(of: first, inArray: isArray, mappings: mappings) { return format }
        // A first record with a field missing (an event without `id`, an entry without
        // `insertId`) is an invalid record of its log, not a log of no format: the first record
        // of the prefix that is of a format decides, and the reader reports the one before at
        // its line (counted and listed with --skip-invalid). The whole log was refused.
        if case .object = first {
            if let format = laterFormat(in: bytes, after: firstOffset, inArray: isArray, isWhole: isWhole, mappings: mappings) {
                return format
            }
            // From a pipe, read to its first record: the records after it are not here yet.
            if canReadMore, !isWhole { return nil }
        }
        // Where the record looked at starts, for a refusal.
        let line = 1 + UnsafeBufferPointer(rebasing: bytes[..<min(firstOffset, bytes.count)]).count { $0 == 0x0A }
        // An array of relaylint events whose first element lacks a field is told as an array
        // of events too, not by the keys of that element.
        let laterEvent = { () -> Bool in
            laterRecord(in: bytes, after: firstOffset, inArray: true, isWhole: isWhole) { record in
                record.objectValue.map(isNativeEvent) == true ? true : nil
            } ?? false
        }
        if case .object(let members) = first, isNativeEvent(members) || (isArray && laterEvent()) {
            // Read as JSON Lines, an array of events was a thousand invalid lines, and with
            // --skip-invalid a run that checked nothing.
            throw refusal(
                path,
                "this is a JSON array of relaylint events; relaylint reads its own events as JSON Lines, one per line "
                    + "(jq -c '.[]' writes them so)",
                line: line)
        }
        if case .object(let members) = first {
            // A report holds `apps` too: told first, or it was called a manifest.
            if members["findings"] != nil, members["tool"] != nil, members["shard"] != nil {
                throw refusal(path, "this is the report of one shard (--shard), not a log: pass it to relaylint merge", line: line)
            }
            if members["findings"] != nil, members["tool"] != nil {
                throw refusal(
                    path, "this is a relaylint report, not a log: pass it with --baseline to report only findings new since it",
                    line: line)
            }
            if members["evaluation"] != nil, members["partition"] != nil {
                throw refusal(path, "this is a partial of a partitioned run, not a log: pass it to relaylint merge", line: line)
            }
            if members["apps"] != nil { throw refusal(path, "this is an app manifest: pass it with --manifest", line: line) }
            if members["id"] == nil, members["type"] == nil, case .array(let keys)? = members["keys"],
                keys.contains(where: { $0.objectValue?["kty"] != nil })
            {
                throw refusal(path, keySetRefusal, line: line)
            }
            if members["events"] != nil || members["id"] != nil && members["type"] != nil {
                // Looks like relaylint events with a field missing: the reader says which.
                return .native
            }
            // Each key shortened: a key of megabytes made a message of megabytes.
            let keys = members.keys.sorted().prefix(8).map { "'\($0.shortened())'" }.joined(separator: ", ")
            throw refusal(
                path,
                (members.isEmpty ? "the first record is an empty JSON object" : "the first record is a JSON object with keys \(keys)")
                    + ", which is none of the formats relaylint reads: "
                    + (["relaylint events (id, time, subject, type)"] + mappings.map(\.title)).joined(separator: ", ") + "; "
                    + "for a log of your own, write a mapping and pass it with --mapping",
                line: line)
        }
        // Not an object: the relaylint reader says so at its line ("expected a JSON object").
        return .native
    }

    /// The format a record is of: relaylint events (as JSON Lines), or the first mapping that
    /// recognises it; nil for none.
    private static func format(of record: JSONValue, inArray: Bool, mappings: [LogMapping]) -> EventLogFormat? {
        if case .object(let members) = record, isNativeEvent(members), !inArray { return .native }
        for mapping in mappings where RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil)).recognizes(record) {
            return .mapped(mapping)
        }
        return nil
    }

    /// How many records after the first are looked at for one of a format.
    static let recordsLookedAt = 100

    /// The format of the first of the next `recordsLookedAt` records after the one at `start`
    /// (lines, or elements of the array the prefix starts) that is of one, among the whole
    /// records of the prefix; nil for none.
    private static func laterFormat(
        in bytes: UnsafeBufferPointer<UInt8>, after start: Int, inArray: Bool, isWhole: Bool, mappings: [LogMapping]
    ) -> EventLogFormat? {
        laterRecord(in: bytes, after: start, inArray: inArray, isWhole: isWhole) { format(of: $0, inArray: inArray, mappings: mappings) }
    }

    /// What `answer` gives for the first of the next `recordsLookedAt` records after the one at
    /// `start` for which it gives anything, among the whole records of the prefix.
    private static func laterRecord<Answer>(
        in bytes: UnsafeBufferPointer<UInt8>, after start: Int, inArray: Bool, isWhole: Bool, _ answer: (JSONValue) -> Answer?
    ) -> Answer? {
        var parser = JSONParser(bytes: bytes, offset: start)
        if inArray { guard (try? parser.skipValue(depth: 1)) != nil else { return nil } }
        for _ in 0..<recordsLookedAt {
            let record: JSONValue
            if inArray {
                parser.valuesLeft = InputLimits.recordValues
                guard parser.consume(UInt8(ascii: ",")), let element = try? parser.parseValue(depth: 1) else { return nil }
                record = element
            } else {
                let lineEnd = UnsafeBufferPointer(rebasing: bytes[parser.offset...]).firstIndex(of: 0x0A).map { $0 + parser.offset }
                guard let lineEnd, let next = firstJSONLine(in: bytes, from: lineEnd + 1, isWhole: isWhole, objectsOnly: true) else {
                    return nil
                }
                record = next.value
                parser.move(to: next.start)
            }
            if let found = answer(record) { return found }
        }
        return nil
    }

    /// Whether a record is one of relaylint's own events: it has their four required fields.
    static func isNativeEvent(_ members: [String: JSONValue]) -> Bool {
        members["id"] != nil && members["type"] != nil && members["subject"] != nil && members["time"] != nil
    }

    /// The first line at or after `start` that is a JSON document, among the whole lines of the
    /// prefix (the last one only when the prefix is the whole input).
    private static func firstJSONLine(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, isWhole: Bool, objectsOnly: Bool = false
    ) -> (value: JSONValue, start: Int)? {
        var lineStart = start
        while lineStart < bytes.count {
            let newline = UnsafeBufferPointer(rebasing: bytes[lineStart...]).firstIndex(of: 0x0A).map { $0 + lineStart }
            guard let lineEnd = newline ?? (isWhole ? bytes.count : nil) else { return nil }
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            if firstRecordByte(in: line) != nil, let value = try? JSONParser.parseRecord(line), !objectsOnly || value.objectValue != nil {
                return (value, lineStart)
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// Where the first carriage return stands alone between two records (`{…}\r{…}`,
    /// `"…"\r"…"`), as classic Mac tools and Excel's "CSV (Macintosh)" end lines; nil when none
    /// does. Read as one line, a log of them was one invalid record, and with --skip-invalid a
    /// clean run. No JSON line holds one: between a record's end and another's start, JSON puts
    /// a `,` or `:`. A line of other text that holds some (a progress meter captured with the
    /// log, `0%\r50%\r100%`) is one bad line, and the records after it are read.
    static func carriageReturnBetweenRecords(in text: UnsafeBufferPointer<UInt8>) -> Int? {
        // One pass: the last byte of content on the line so far, and a carriage return after a
        // record's end waiting for what follows it (a run of them was looked back over each).
        var lastContent: UInt8?
        var afterRecord: Int?
        // Whether the `[` at `index` opens a JSON array: a progress bar's `[#####   ]` does not.
        func opensValue(after index: Int) -> Bool {
            guard let next = text[(index + 1)...].first(where: { $0 != 0x20 && $0 != 0x09 }) else { return false }
            return Array("{[]\"-0123456789tfn".utf8).contains(next)
        }
        for (index, byte) in text.enumerated() {
            switch byte {
            case 0x0D:
                if afterRecord == nil, let last = lastContent, last == UInt8(ascii: "}") || last == UInt8(ascii: "]") || last == 0x22 {
                    afterRecord = index
                }
            case 0x20, 0x09: continue
            case 0x0A:
                lastContent = nil
                afterRecord = nil
            default:
                if let cr = afterRecord,
                    byte == UInt8(ascii: "{") || byte == 0x22 || (byte == UInt8(ascii: "[") && opensValue(after: index))
                {
                    return cr
                }
                afterRecord = nil
                lastContent = byte
            }
        }
        return nil
    }

    /// Whether JSON text is written over lines ended by a carriage return alone: no line feed, and
    /// a carriage return with more text after it. Valid JSON (a carriage return is whitespace),
    /// but every place in it was told at line 1; an editor shows its lines.
    static func endsLinesInCarriageReturnOnly(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !text.contains(0x0A), let cr = text.firstIndex(of: 0x0D),
            let last = text.lastIndex(where: { ![0x20, 0x09, 0x0D].contains($0) })
        else { return false }
        return cr < last
    }

    /// Refuses a JSON array after lines of whitespace that JSON does not take for whitespace (a
    /// no-break space, a form feed): blank lines of a log of lines, they made the array's file
    /// a log of lines, each line of it an invalid record, and with --skip-invalid a clean run.
    private static func refuseArrayAfterUnicodeBlankLines(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, line: Int, path: String
    ) throws(InputError) {
        var offset = start
        var blankLines = 0
        while offset < bytes.count {
            let end = UnsafeBufferPointer(rebasing: bytes[offset...]).firstIndex(of: 0x0A).map { $0 + offset } ?? bytes.count
            let text = UnsafeBufferPointer(rebasing: bytes[offset..<end])
            guard EventLogReader.isBlank(text) else {
                if blankLines > 0, firstRecordByte(in: text).map({ text[$0] == UInt8(ascii: "[") }) == true {
                    throw refusal(
                        path,
                        "this is a JSON array after \(blankLines == 1 ? "a line" : "\(blankLines) lines") of whitespace JSON does not "
                            + "allow before it (a no-break space, a form feed): remove \(blankLines == 1 ? "it" : "them")",
                        line: line)
                }
                return
            }
            blankLines += 1
            offset = end + 1
        }
    }

    /// What a file whose lines end in a carriage return alone is told, with the name its
    /// converted copy may take (`FILE.jsonl`, `FILE.csv`).
    static func carriageReturnRefusal(convertedTo copy: String = "FILE.jsonl") -> String {
        "this file's lines end in a carriage return alone (as classic Mac tools write them), which relaylint does not "
            + "take for line ends: convert them first (tr '\\r' '\\n' < FILE > \(copy))"
    }

    /// What Apple's key set given as a log is told.
    private static let keySetRefusal =
        "this is a JSON Web Key Set (Apple's public keys): pass it with --apple-keys to verify notifications' signatures"

    private static func notJSON(_ head: String, path: String, line: Int) throws(InputError) -> EventLogFormat {
        let firstLine = head.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        // Any `key: value` line is YAML's (`name: x` too): no log record starts so.
        let yamlKey = firstLine.range(of: #"^[A-Za-z_][A-Za-z0-9_.-]*:(\s|$)"#, options: .regularExpression) != nil
        if yamlKey || firstLine.hasPrefix("#") || firstLine.hasPrefix("---") {
            throw refusal(path, "this looks like YAML (a manifest, rule, mapping or configuration file), not a log", line: line)
        }
        // A lone '{' on the first line: one JSON value over several lines, as `jq .` and most
        // editors write it. Each of its lines was an invalid record of its own.
        if firstLine.trimmingCharacters(in: .whitespacesAndNewlines) == "{" {
            // relaylint's own JSON report, as it writes it (its keys sorted, `apps` first, with
            // a space before each colon): named as such.
            if head.range(of: #"^\{\s*"apps" : \["#, options: .regularExpression) != nil,
                head.contains("\"createsAccounts\"") || head.contains("\"findings\" : ")
            {
                throw refusal(
                    path,
                    "this looks like a relaylint report, not a log: pass it with --baseline to report only findings new since it "
                        + "(or, a shard's report, to relaylint merge)",
                    line: line)
            }
            // Apple's key set as `https://appleid.apple.com/auth/keys` serves it, pretty-printed.
            if head.range(of: #"^\{\s*"keys"\s*:\s*\[\s*\{"#, options: .regularExpression) != nil, head.contains("\"kty\"") {
                throw refusal(path, keySetRefusal, line: line)
            }
            throw refusal(
                path,
                "this looks like JSON written over several lines (pretty-printed, as `jq .` writes it); a log holds one record "
                    + "per line (`jq -c .` writes them so) or one JSON array",
                line: line)
        }
        // A JSON record starts with '{' (or '[', or a token's '"'); a Firebase CSV row starts with
        // its uid, and may hold '{' further on (custom claims in the 28th column).
        let start = firstLine.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.first
        if firstLine.contains(","), start != "{", start != "[", start != "\"" {
            throw refusal(path, "this looks like CSV: a Firebase account export in CSV goes to --accounts; logs must be JSON", line: line)
        }
        // Not JSON at all: the relaylint reader reports the line and column.
        return .native
    }

    /// Whether a line from `start` starts as a JSON record does (`{` or `[`, after blanks),
    /// complete or cut at the prefix's end.
    private static func anyLineStartsAsARecord(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var lineStart = start
        while lineStart < bytes.count {
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart...])
            if let first = line.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }),
                first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
            {
                return true
            }
            guard let newline = line.firstIndex(of: 0x0A) else { return false }
            lineStart += newline + 1
        }
        return false
    }

    /// What a first line that starts as no JSON record does (`{`, `[`, `"`) looks like: markup
    /// (an HTML error page saved in place of the log, XML) or plain text (a text log); nil for one
    /// that starts as a record, broken, which the reader reports at its line and column.
    private static func textRefusal(_ head: String) -> String? {
        guard let start = head.unicodeScalars.first(where: { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }),
            !["{", "[", "\""].contains(start)
        else { return nil }
        if start == "<" {
            return "this looks like HTML or XML (a web page, such as an error page saved in place of the log?), not a log: "
                + "relaylint reads logs of JSON records, one per line (JSON Lines) or in one JSON array"
        }
        return "this looks like plain text, not JSON: relaylint reads logs of JSON records, one per line (JSON Lines) "
            + "or in one JSON array"
    }

    private static func refusal(_ path: String, _ message: String, line: Int = 1) -> InputError {
        .refused([Diagnostic(.error, message, at: SourceLocation(file: path, line: line))])
    }
}
