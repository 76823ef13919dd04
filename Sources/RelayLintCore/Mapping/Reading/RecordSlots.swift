/// One record as a `RecordLayout` holds it: a value for each node the record has (nil where it
/// has none). Kept by a mapper's scope from record to record, so a record costs no allocation of
/// its own; the values lie in memory of its own rather than in an array property, whose every
/// read would be checked for overlapping access at run time (a path is read a dozen times a
/// record).
final class RecordSlots {
    /// By node; `RecordLayout` writes them, bound paths read them.
    let values: UnsafeMutableBufferPointer<JSONValue?>

    /// What a node whose members are read holds when the record has an object there.
    static let objectMark = JSONValue.object([:])

    /// Room for the nodes of a layout of `count` nodes.
    init(count: Int) {
        values = .allocate(capacity: count)
        values.initialize(repeating: nil)
    }

    deinit {
        values.deinitialize().deallocate()
    }

    /// Forgets the record before.
    func clear() {
        for index in values.indices { values[index] = nil }
    }
}
