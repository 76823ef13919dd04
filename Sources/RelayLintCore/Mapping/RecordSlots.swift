/// One record as a `RecordLayout` holds it: a value for each node the record has (nil where it
/// has none). Kept by a mapper from record to record, so a record costs no allocation of its own.
struct RecordSlots {
    /// By node; `RecordLayout` writes them, bound paths read them.
    var values: [JSONValue?] = []

    /// What a node whose members are read holds when the record has an object there.
    static let objectMark = JSONValue.object([:])

    /// Forgets the record before, keeping the room it took.
    mutating func clear(count: Int) {
        if values.count != count {
            values = Array(repeating: nil, count: count)
        } else {
            for index in values.indices { values[index] = nil }
        }
    }
}
