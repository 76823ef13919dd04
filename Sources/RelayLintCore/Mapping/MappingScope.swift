/// What an expression can see while one record is mapped: the record, the mapping's named
/// values, the current list item, and the worker's token reader and memo.
///
/// A named value (`let:`) is worked out when an expression first reads it, then kept for the
/// rest of the record: a Cloud Logging entry that is skipped never parses the JSON inside its
/// response, and one that gives a sign-in parses it once. A value nothing reads is never worked
/// out, so it cannot make its record invalid either.
final class MappingScope {
    let record: JSONValue
    let tokens: TokenReader
    let memo: MappingMemo
    /// The element of the `for_each` list an event is being made for (`$item`).
    var item: JSONValue?
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
        record: JSONValue, lets: [(name: String, value: MappingExpression)] = [],
        projections: [RecordProjection?] = [], tokens: TokenReader, memo: MappingMemo = MappingMemo()
    ) {
        self.record = record
        self.lets = lets
        self.projections =
            projections.count == lets.count ? projections : lets.indices.map { projections.indices.contains($0) ? projections[$0] : nil }
        self.tokens = tokens
        self.memo = memo
        values = Array(repeating: .unread, count: lets.count)
    }

    /// The value of `$name`: the list item, or a named value; nil when it has none.
    func value(of name: String) throws(MappingFailure) -> JSONValue? {
        if name == "item", let item { return item }
        guard let index = lets.firstIndex(where: { $0.name == name }) else { return nil }
        switch values[index] {
        case .read(let value):
            return value
        case .reading:
            // The loader lets a value read only those declared before it; kept as a guard.
            throw MappingFailure("the value '$\(name)' is defined through itself")
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
