/// What an expression can see while one record is mapped: the record as its mapper's layout
/// holds it, the mapping's named values, the current list item, and the worker's token reader
/// and memo. One per mapper, begun again for each record.
///
/// A named value (`let:`) is worked out when an expression first reads it, then kept for the
/// rest of the record: a Cloud Logging entry that is skipped never parses the JSON inside its
/// response, and one that gives a sign-in parses it once. A value nothing reads is never worked
/// out, so it cannot make its record invalid either.
final class MappingScope {
    /// Binds the paths of the mapping the named values come from.
    let binder: PathBinder
    /// The record, a value for each node of `binder.layout`.
    var slots = RecordSlots()
    let tokens: TokenReader
    let memo: MappingMemo
    /// The element of the `for_each` list an event is being made for (`$item`).
    var item: JSONValue?
    /// The named values, their paths bound.
    private let lets: [(name: String, value: MappingExpression)]
    /// The projection a `parse_json` value is read along, by the position of its `let`.
    private let projections: [RecordProjection?]
    private var values: [NamedValue]

    private enum NamedValue {
        case unread
        case reading
        case read(JSONValue?)
    }

    /// - Parameter projections: by the position of each `let` (none for a shorter list).
    init(
        binder: PathBinder, lets: [(name: String, value: MappingExpression)] = [], projections: [RecordProjection?] = [],
        tokens: TokenReader, memo: MappingMemo = MappingMemo()
    ) {
        self.binder = binder
        self.lets = lets
        self.projections = lets.indices.map { projections.indices.contains($0) ? projections[$0] : nil }
        self.tokens = tokens
        self.memo = memo
        values = Array(repeating: .unread, count: lets.count)
    }

    /// A scope of no mapping, in which a record is read whole (a test of an expression).
    convenience init(record: JSONValue, tokens: TokenReader) {
        let layout = RecordLayout(nil)
        self.init(binder: PathBinder(layout: layout), tokens: tokens)
        layout.fill(record, into: &slots)
    }

    /// Forgets the named values of the record before.
    func begin() {
        item = nil
        for index in values.indices { values[index] = .unread }
    }

    /// The value of the named value at `index` of the mapping's `let`; nil when it has none.
    func value(at index: Int) throws(MappingFailure) -> JSONValue? {
        switch values[index] {
        case .read(let value):
            return value
        case .reading:
            // The loader lets a value read only those declared before it; kept as a guard.
            throw MappingFailure("the value '$\(lets[index].name)' is defined through itself")
        case .unread:
            values[index] = .reading
            let value: JSONValue?
            if let projection = projections[index], case .parseJSON(let inner) = lets[index].value {
                value = try MappingExpression.parseJSON(try inner.evaluate(in: self), from: inner, projection: projection)
            } else {
                value = try lets[index].value.evaluate(in: self)
            }
            values[index] = .read(value)
            return value
        }
    }
}
