import Foundation

/// The first invalid UTF-8 byte of each line that has one, as 1-based line and byte column,
/// found as they are asked for: a file of millions of bad lines held as a list took 16 bytes a
/// line before its reader could stop at the cap on invalid records.
struct InvalidUTF8Lines: Sequence, IteratorProtocol {
    private var scalars: Unicode.UTF8.ForwardParser
    private var bytes: Data.Iterator
    private var line = 1
    private var lineStart = 0
    private var offset = 0
    /// An ASCII file, told in one pass, has none to look for.
    private var isDone: Bool

    init(_ data: Data) {
        isDone = data.withUnsafeBytes { bytes in !bytes.contains { $0 >= 0x80 } }
        bytes = data.makeIterator()
        scalars = Unicode.UTF8.ForwardParser()
    }

    mutating func next() -> (line: Int, column: Int)? {
        guard !isDone else { return nil }
        var found: (line: Int, column: Int)? = nil
        while true {
            switch scalars.parseScalar(from: &bytes) {
            case .valid(let encoded):
                offset += encoded.count
                if encoded.count == 1, encoded.first == 0x0A {
                    line += 1
                    lineStart = offset
                    if let found { return found }
                }
            case .error(let length):
                if found == nil { found = (line, offset - lineStart + 1) }
                offset += length
            case .emptyInput:
                isDone = true
                return found
            }
        }
    }
}
