/// Where a structural scan of JSON stands (strings and nesting only, not a parse): the scans that
/// cut an array into its elements before they are parsed strictly (`ArrayRunScan`,
/// `UsersArrayScan`) follow brackets and quotes alike and differ only in what they do at a
/// boundary.
struct JSONNesting {
    /// Brackets open inside the array being cut.
    private(set) var depth = 0
    /// Whether the scan is inside a string: the caller passes over its bytes (escapes included)
    /// and sets this back at its closing quote.
    var inString = false

    /// A byte of the array itself: a `,` between two elements, or a closing bracket (its `]`, or
    /// a stray `}` the strict parse reports).
    enum Boundary: Equatable {
        case comma
        case close(UInt8)
    }

    /// Follows `byte`, read outside a string; the boundary it is, if any.
    mutating func follow(_ byte: UInt8) -> Boundary? {
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            guard depth > 0 else { return .close(byte) }
            depth -= 1
        case UInt8(ascii: ","): if depth == 0 { return .comma }
        default: break
        }
        return nil
    }
}
