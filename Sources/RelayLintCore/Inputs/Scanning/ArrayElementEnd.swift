/// Where an element of a JSON array that does not parse ends, by its brackets and quotes alone:
/// an element that is not JSON while the structure around it holds (a time without quotes) is an
/// invalid record of its own, as a bad line of JSON Lines is, and the elements after it are read
/// (`MappedLogReader`), and recognised (`EventLogFormat`).
enum ArrayElementEnd {
    /// Where the element at `first` ends by its brackets and quotes alone: at the `,` or `]`
    /// after it, outside strings, each bracket it opens closed by its own kind; nil when the
    /// bytes end first, a bracket closes one of the other kind or one the element did not
    /// open, or the element is empty (`[1,,2]`, a trailing comma).
    static func structural(ofElementAt first: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var closers: [UInt8] = []
        var index = first
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                // Past the string: its plain runs a word at a time, an escape two bytes at once.
                index = PlainTextScan.end(in: bytes, from: index + 1)
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index = PlainTextScan.end(in: bytes, from: index + (bytes[index] == UInt8(ascii: "\\") ? 2 : 1))
                }
                guard index < bytes.count else { return nil }
            case UInt8(ascii: "{"): closers.append(UInt8(ascii: "}"))
            case UInt8(ascii: "["): closers.append(UInt8(ascii: "]"))
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","):
                if let closer = closers.last {
                    if bytes[index] == closer {
                        closers.removeLast()
                    } else if bytes[index] != UInt8(ascii: ",") {
                        return nil
                    }
                } else {
                    guard bytes[index] != UInt8(ascii: "}") else { return nil }
                    return EventLogReader.isBlank(UnsafeBufferPointer(rebasing: bytes[first..<index])) ? nil : index
                }
            default: break
            }
            index += 1
        }
        return nil
    }
}
