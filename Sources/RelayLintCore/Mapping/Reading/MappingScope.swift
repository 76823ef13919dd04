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
    let slots: RecordSlots
    let tokens: TokenReader
    let memo: MappingMemo
    /// The element of the `for_each` list an event is being made for (`$item`).
    var item: JSONValue?
    /// The most bytes a value the mapping builds (`concat`) may take for this record, as its
    /// events together may (`InputLimits.eventBytes(ofRecord:)`).
    var valueBytesLimit = InputLimits.eventBytes(ofRecord: 0)
    /// The named values, their paths bound.
    private let lets: [(name: String, value: MappingExpression)]
    /// The projection a `parse_json` value is read along, by the position of its `let`.
    private let projections: [RecordProjection?]
    /// What each named value is for this record, by the position of its `let`. Memory of the
    /// scope's own rather than an array property: every read and write of a class's array is
    /// checked for overlapping access at run time, and these are read a dozen times a record.
    private let values: UnsafeMutableBufferPointer<OncePerRecord<JSONValue?>>
    /// How each alias picks its path, by the position of its `let`, and what it picked.
    private let aliases: [BoundAlias?]
    private let picks: UnsafeMutableBufferPointer<OncePerRecord<Int?>>

    /// What is worked out once per record and kept: a named value, the path an alias picks.
    private enum OncePerRecord<Value> {
        case notYet
        case underWay
        case done(Value)
    }

    /// - Parameter projections: by the position of each `let` (none for a shorter list).
    init(
        binder: PathBinder, lets: [(name: String, value: MappingExpression)] = [], aliases: [BoundAlias?] = [],
        projections: [RecordProjection?] = [], tokens: TokenReader, memo: MappingMemo = MappingMemo()
    ) {
        self.binder = binder
        slots = RecordSlots(count: binder.layout.nodeCount)
        self.lets = lets
        self.aliases = lets.indices.map { aliases.indices.contains($0) ? aliases[$0] : nil }
        self.projections = lets.indices.map { projections.indices.contains($0) ? projections[$0] : nil }
        self.tokens = tokens
        self.memo = memo
        values = .allocate(capacity: lets.count)
        values.initialize(repeating: .notYet)
        picks = .allocate(capacity: lets.count)
        picks.initialize(repeating: .notYet)
    }

    deinit {
        values.deinitialize().deallocate()
        picks.deinitialize().deallocate()
    }

    /// A scope of no mapping, in which a record is read whole (a test of an expression).
    convenience init(record: JSONValue, tokens: TokenReader) {
        let layout = RecordLayout(nil)
        self.init(binder: PathBinder(layout: layout), tokens: tokens)
        layout.fill(record, into: slots)
    }

    /// Forgets the named values of the record before.
    func begin() {
        item = nil
        for index in values.indices {
            values[index] = .notYet
            picks[index] = .notYet
        }
    }

    /// The position of the path the alias at `index` of the mapping's `let` picks for this
    /// record (`AliasChoice`); nil when it picks none.
    func pathChosen(byAlias index: Int) throws(MappingFailure) -> Int? {
        // Most reads find it chosen: answered before a closure is made to choose it, which
        // retained and released the scope for every path read through an alias.
        if case .done(let path) = picks[index] { return path }
        return try once(picks, at: index) { () throws(MappingFailure) in
            guard let alias = aliases[index] else { return nil }
            return try choose(alias.choice, of: alias)
        }
    }

    private func choose(_ choice: AliasChoice, of alias: BoundAlias) throws(MappingFailure) -> Int? {
        switch choice {
        case .path(let path):
            return path
        case .alias(let inner, let paths):
            return try pathChosen(byAlias: inner).map { paths[$0] }
        case .first(let candidates):
            for candidate in candidates {
                if let path = try choose(candidate, of: alias), let value = alias.values[path].resolve(in: slots), value != .null {
                    return path
                }
            }
            return nil
        case .condition(let condition, let then, let otherwise):
            if try condition.holds(in: self) { return try choose(then, of: alias) }
            guard let otherwise else { return nil }
            return try choose(otherwise, of: alias)
        }
    }

    /// The value of the named value at `index` of the mapping's `let`; nil when it has none.
    func value(at index: Int) throws(MappingFailure) -> JSONValue? {
        // Answered before a closure is made to work it out, as `pathChosen` is.
        if case .done(let value) = values[index] { return value }
        return try once(values, at: index) { () throws(MappingFailure) in
            if let projection = projections[index], case .parseJSON(let inner) = lets[index].value {
                return try MappingExpression.parseJSON(try inner.evaluate(in: self), from: inner, projection: projection)
            }
            return try lets[index].value.evaluate(in: self)
        }
    }

    /// What `work` gives for the `let` at `index`, worked out the first time this record asks and
    /// kept. `work` may ask for others (declared before it), never for itself.
    private func once<Value>(
        _ kept: UnsafeMutableBufferPointer<OncePerRecord<Value>>, at index: Int, _ work: () throws(MappingFailure) -> Value
    ) throws(MappingFailure) -> Value {
        switch kept[index] {
        case .done(let value):
            return value
        case .underWay:
            // The loader lets a value read only those declared before it; kept as a guard.
            throw MappingFailure("the value '$\(lets[index].name)' is defined through itself")
        case .notYet:
            kept[index] = .underWay
            do {
                let value = try work()
                kept[index] = .done(value)
                return value
            } catch {
                // Its failure, not "defined through itself", when it is read again.
                kept[index] = .notYet
                throw error
            }
        }
    }
}
