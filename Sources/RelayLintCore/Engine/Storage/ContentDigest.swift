/// A digest of an event's content as a JSON value, to recognise exact duplicates without
/// keeping the text of every event. It is only ever compared between events with the same id,
/// so 64 bits make a false "duplicate" a 2⁻⁶⁴ chance per pair; the duplicate check writes one
/// per event, so every byte counts (10M events).
///
/// Content is compared as JSON tells values apart: independent of key order (members are
/// combined commutatively), whitespace, escapes and number spelling (numbers hash their exact
/// decimal form), and strings by their UTF-8 bytes — as subject ids and names are — so that the
/// fast scanner can digest a line's bytes without making a `String` of them. The strict parser
/// and the fast scanner compute it member by member in the same way.
struct ContentDigest: Hashable, Sendable {
    let value: UInt64

    init(_ value: JSONValue) {
        var accumulator = Accumulator()
        if case .object(let members) = value {
            for (key, member) in members { accumulator.add(key, member) }
        } else {
            accumulator.add("", value)
        }
        self = accumulator.digest
    }

    /// A digest as `value` gave it (the duplicate check writes digests away and reads them back).
    init(value: UInt64) { self.value = value }

    /// Combines an object's members in any order.
    struct Accumulator {
        private var sum: UInt64 = 0
        private var mixed: UInt64 = 0
        private var count: UInt64 = 0

        mutating func add(_ key: String, _ value: JSONValue) {
            var hasher = WyHash()
            ContentDigest.combine(key, into: &hasher)
            ContentDigest.combine(value, into: &hasher)
            add(memberHash: hasher.state)
        }

        /// A member whose value is a string, as UTF-8 bytes without escapes.
        mutating func add(key: UnsafeBufferPointer<UInt8>, string: UnsafeBufferPointer<UInt8>) {
            var hasher = WyHash()
            hasher.combine(key)
            hasher.combine(UInt64(Tag.string.rawValue))
            hasher.combine(string)
            add(memberHash: hasher.state)
        }

        /// A member whose value is given as a `JSONValue` (a number, a boolean, null).
        mutating func add(key: UnsafeBufferPointer<UInt8>, value: JSONValue) {
            var hasher = WyHash()
            hasher.combine(key)
            ContentDigest.combine(value, into: &hasher)
            add(memberHash: hasher.state)
        }

        private mutating func add(memberHash hash: UInt64) {
            sum &+= hash
            // A second, differently mixed sum, so that members whose hashes cancel out in one
            // sum do not in the other.
            var spread = hash &* 0x9E37_79B9_7F4A_7C15
            spread ^= spread >> 29
            mixed &+= spread &* 0xBF58_476D_1CE4_E5B9
            count += 1
        }

        var digest: ContentDigest {
            var folded = (sum ^ count) &* 0xFF51_AFD7_ED55_8CCD
            folded ^= folded >> 33
            return ContentDigest(value: folded ^ mixed)
        }
    }

    private enum Tag: UInt8 { case null, `false`, `true`, string, number, array, object }

    /// A string's bytes (`WyHash` mixes in their count, so adjacent strings cannot trade bytes).
    private static func combine(_ text: String, into hasher: inout WyHash) {
        text.withUTF8Bytes { hasher.combine($0) }
    }

    private static func combine(_ value: JSONValue, into hasher: inout WyHash) {
        switch value {
        case .null: hasher.combine(UInt64(Tag.null.rawValue))
        case .bool(let flag): hasher.combine(UInt64((flag ? Tag.true : Tag.false).rawValue))
        case .string(let text):
            hasher.combine(UInt64(Tag.string.rawValue))
            combine(text, into: &hasher)
        case .number(let number):
            hasher.combine(UInt64(Tag.number.rawValue))
            combine(number.canonicalText, into: &hasher)
        case .array(let elements):
            hasher.combine(UInt64(Tag.array.rawValue))
            hasher.combine(UInt64(elements.count))
            for element in elements { combine(element, into: &hasher) }
        case .object(let members):
            hasher.combine(UInt64(Tag.object.rawValue))
            hasher.combine(UInt64(members.count))
            // In byte order of the keys: a dictionary's own order differs from run to run.
            for key in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                combine(key, into: &hasher)
                combine(members[key]!, into: &hasher)
            }
        }
    }
}
