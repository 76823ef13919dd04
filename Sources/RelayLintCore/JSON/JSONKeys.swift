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
    func index(of key: UnsafeBufferPointer<UInt8>) -> Int? { index(of: key, among: names.indices) }

    /// The position of a decoded key (compared as `String`s are, as a dictionary's keys).
    func index(of key: String) -> Int? { index(of: key, among: names.indices) }

    /// The position of a key given as the bytes of an unescaped ASCII string, among the names at
    /// `positions` only (`RecordLayout` keeps the keys of all its objects in one list).
    func index(of key: UnsafeBufferPointer<UInt8>, among positions: Range<Int>) -> Int? {
        for position in positions where spellings[position].withUnsafeBufferPointer({ $0.hasSameBytes(as: key) }) {
            return position
        }
        // Keys are the same when a dictionary would take them for one (`String` equality).
        return hasNonASCIIName ? index(of: String(decoding: key, as: UTF8.self), among: positions) : nil
    }

    /// The position of a decoded key among the names at `positions` only.
    func index(of key: String, among positions: Range<Int>) -> Int? { names[positions].firstIndex(of: key) }
}
