#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the first record of a log ends, found as its bytes arrive: its first line, or the first
/// element of its top-level array. Recognising a log's format needs the whole first record (a
/// Cloud Logging entry cut at 1 MiB parsed as nothing, and the file was read as relaylint
/// events); this says when enough has been read, each byte looked at once however the record
/// is split into blocks. It only follows brackets and strings: the record is parsed afterwards.
struct FirstRecordScan {
    private enum State {
        case leading, line, arrayStart, scalar
        /// Inside the first element: its open brackets, whether in a string, after a backslash.
        case value(depth: Int, inString: Bool, escaped: Bool)
    }
    private var state = State.leading
    private var offset = 0
    /// Where the first record starts (past whitespace and a byte order mark), once seen.
    private(set) var recordStart: Int?
    /// Whether the first record is a top-level array's element.
    private(set) var isArray = false
    /// Just past the first record, once it is complete.
    private(set) var end: Int?

    /// Looks at the bytes not yet seen of `bytes`, which grow between calls; true once the
    /// first record is complete.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        while end == nil, offset < bytes.count {
            let byte = bytes[offset]
            switch state {
            case .leading:
                if ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains(byte) {
                    recordStart = offset
                    isArray = byte == UInt8(ascii: "[")
                    state = isArray ? .arrayStart : .line
                }
            case .line:
                // The rest of the line at once: a long record is one `memchr`.
                let newline = memchr(bytes.baseAddress! + offset, 0x0A, bytes.count - offset)
                guard let newline else {
                    offset = bytes.count
                    return false
                }
                offset = UnsafeRawPointer(newline) - UnsafeRawPointer(bytes.baseAddress!)
                end = offset
            case .arrayStart:
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D: break
                case UInt8(ascii: "{"), UInt8(ascii: "["): state = .value(depth: 1, inString: false, escaped: false)
                case UInt8(ascii: "\""): state = .value(depth: 0, inString: true, escaped: false)
                case UInt8(ascii: "]"): end = offset + 1
                default: state = .scalar
                }
            case .scalar:
                if [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]")].contains(byte) { end = offset }
            case .value(var depth, var inString, var escaped):
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 0 { end = offset + 1 }
                    }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { end = offset + 1 }
                }
                state = .value(depth: depth, inString: inString, escaped: escaped)
            }
            offset += 1
        }
        return end != nil
    }
}
