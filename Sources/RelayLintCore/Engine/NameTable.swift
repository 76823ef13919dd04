import Foundation

/// The few strings that millions of stored events repeat — event types, apps, field names,
/// file paths — each kept once and referred to by its index.
///
/// The parse workers pack events at the same time, so the table is shared behind a lock; each
/// worker asks through its own `Cache`, which answers the handful of names of a log without
/// taking it.
final class NameTable: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    private var indices: [String: Int] = [:]

    func index(of name: String) -> Int {
        lock.withLock {
            if let known = indices[name] { return known }
            names.append(name)
            indices[name] = names.count - 1
            return names.count - 1
        }
    }

    /// Every name, by index: what the unpacking reads once reading is over.
    var snapshot: [String] { lock.withLock { names } }

    /// One worker's view of the table: the names it asked for most recently. The scan compares
    /// lengths first, so that most entries cost one integer compare; equal strings a worker's
    /// scanner returns share their storage, so the one full compare is mostly a pointer compare.
    struct Cache {
        let table: NameTable
        private var recent: [(length: Int, name: String, index: Int)] = []
        private var next = 0

        init(_ table: NameTable) { self.table = table }

        mutating func index(of name: String) -> Int {
            let length = name.utf8.count
            for entry in recent where entry.length == length && entry.name == name { return entry.index }
            let index = table.index(of: name)
            if recent.count < 32 {
                recent.append((length, name, index))
            } else {
                recent[next] = (length, name, index)
                next = (next + 1) % recent.count
            }
            return index
        }
    }
}
