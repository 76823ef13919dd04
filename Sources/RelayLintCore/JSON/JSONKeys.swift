/// The keys an object reader looks for (`JSONParser.parseObject(depth:keys:members:)`), by
/// position. A handful at most, so they are compared one by one.
struct JSONKeys: Sendable {
    let names: [String]
    private let spellings: [[UInt8]]

    /// Whether a name holds a character beyond ASCII, which a plain ASCII key may equal as a
    /// `String` without the same bytes (U+212A KELVIN SIGN and "K").
    private let hasNonASCIIName: Bool

    init(_ names: [String]) {
        self.names = names
        spellings = names.map { Array($0.utf8) }
        hasNonASCIIName = spellings.contains { $0.contains { $0 >= 0x80 } }
    }

    /// The position of a key given as the bytes of an unescaped ASCII string.
    func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        if let index = spellings.firstIndex(where: { spelling in spelling.withUnsafeBufferPointer { $0.hasSameBytes(as: key) } }) {
            return index
        }
        // Keys are the same when a dictionary would take them for one (`String` equality).
        return hasNonASCIIName ? index(of: String(decoding: key, as: UTF8.self)) : nil
    }

    /// The position of a decoded key (compared as `String`s are, as a dictionary's keys).
    func index(of key: String) -> Int? { names.firstIndex(of: key) }
}
