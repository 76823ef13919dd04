/// An event's non-reserved fields, as a short list sorted by name.
///
/// Events carry two to five such fields and millions of events stay in memory until their
/// subject is evaluated: a sorted array is about half the size of a `Dictionary` of the same
/// members and costs no hashing to build. Lookups scan the few members. Iteration is in name
/// order, so whatever walks the fields does so alike in every run.
public struct EventFields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSONValue)

    /// Sorted by key; keys are unique.
    private var members: [Element]

    public init(_ members: [String: JSONValue]) {
        self.members = members.sorted { $0.key < $1.key }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { $1 }))
    }

    /// Members already sorted by key, keys unique (as another `EventFields` iterates them).
    init(sortedUniqueMembers: [Element]) {
        members = sortedUniqueMembers
    }

    public subscript(name: String) -> JSONValue? {
        for member in members where member.key == name { return member.value }
        return nil
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[Element]> { members.makeIterator() }

    public static func == (lhs: EventFields, rhs: EventFields) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
