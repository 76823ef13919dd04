/// Where a top-level JSON array read from a stream (a `gcloud` array on a pipe or in a gzip file)
/// can be cut into runs of whole elements, so that it is read a run at a time as JSON Lines are,
/// never held whole: a 5 MB gzip file of 4 GiB of JSON took 4 GiB.
///
/// A run starts where the one before ended: at the stream's start (whitespace, a byte order mark,
/// the `[`), or past a `,` between two elements and the blank space after it; a run may be blank
/// space alone. The scan follows strings and nesting only; the elements are parsed strictly
/// afterwards (`MappedLogReader.RecordCursor`), which reports anything the structure hides.
/// Once the array's `]` is seen, the rest of the stream is text after the array, handed over as
/// it comes.
struct ArrayRunScan {
    /// Whether a run handed over held the array's `[`.
    private(set) var opened = false
    /// Whether a run handed over held the array's `]`.
    private(set) var closed = false

    /// Just past the last whole element of `bytes`, which start where the last run ended; nil
    /// when no element ends there yet.
    mutating func end(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if closed { return bytes.count }
        var index = 0
        if !opened {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains(bytes[index]) { index += 1 }
            guard index < bytes.count else { return nil }
            // Not an array after all: the strict reading says what it is.
            guard bytes[index] == UInt8(ascii: "[") else { return bytes.count }
            index += 1
        }
        // Blank space between two elements holds nothing, and is handed over as it comes: held
        // until the next element began, 17 MiB of it was refused as an element past the cap on
        // one, at a line that depended on the sizes of the reads.
        if opened, PlainTextScan.endOfWhitespace(in: bytes, from: index).end == bytes.count { return bytes.isEmpty ? nil : bytes.count }
        var nesting = JSONNesting()
        var last: Int?
        while index < bytes.count {
            if nesting.inString {
                index = PlainTextScan.end(in: bytes, from: index)
                guard index < bytes.count else { break }
                if bytes[index] == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if bytes[index] == UInt8(ascii: "\"") { nesting.inString = false }
                index += 1
                continue
            }
            index = PlainTextScan.endOfWhitespace(in: bytes, from: index).end
            guard index < bytes.count else { break }
            switch nesting.follow(bytes[index]) {
            // Past the comma and the blank space after it: the next run starts at its element.
            case .comma: last = PlainTextScan.endOfWhitespace(in: bytes, from: index + 1).end
            case .close:
                // The array's end, or a stray `}` the strict reading reports: either way the rest
                // is handed over as it comes.
                opened = true
                closed = true
                return bytes.count
            case nil: break
            }
            index += 1
        }
        if last != nil { opened = true }
        return last
    }
}
