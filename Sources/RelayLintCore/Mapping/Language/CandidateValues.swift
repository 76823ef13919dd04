/// The values of a mapping's `in:` test, in the order written, and as a set once there are many:
/// a list of 200,000 values was searched for every record (20,000 records: 4.1 s).
struct CandidateValues: Sendable, Equatable {
    /// As written: a table of method names reads them (`TemplateDispatch`).
    let values: [JSONValue]
    private let set: Set<JSONValue>?

    /// Lists shorter than this are searched: a set costs more to make than it saves.
    static let shortestIndexed = 16

    init(_ values: [JSONValue]) {
        self.values = values
        set = values.count >= Self.shortestIndexed ? Set(values) : nil
    }

    /// Whether `value` is one of the values (JSON equality, numbers by value).
    func contains(_ value: JSONValue) -> Bool {
        if let set { return set.contains(value) }
        return values.contains(value)
    }

    static func == (lhs: CandidateValues, rhs: CandidateValues) -> Bool { lhs.values == rhs.values }
}
