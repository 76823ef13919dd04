/// The keys an object reader looks for (`JSONParser.parseObject(depth:keys:members:)`), by
/// position. A handful at most, so they are compared one by one.
struct JSONKeys: Sendable {
    let names: [String]
    private let spellings: [[UInt8]]

    init(_ names: [String]) {
        self.names = names
        spellings = names.map { Array($0.utf8) }
    }

    /// The position of a key given as the bytes of an unescaped ASCII string.
    func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        spellings.firstIndex { spelling in spelling.withUnsafeBufferPointer { $0.hasSameBytes(as: key) } }
    }

    /// The position of a decoded key (compared as `String`s are, as a dictionary's keys).
    func index(of key: String) -> Int? { names.firstIndex(of: key) }
}
