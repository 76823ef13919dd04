/// A `MappingPath` as one mapper reads it (`PathBinder`): a path into the record becomes the
/// nodes of its `RecordLayout`, a named value its position, and a path through a named value that
/// only picks a part of the record (an alias: `$payload` = the first of `jsonPayload` and
/// `protoPayload`) one record path for each the alias may pick, read where it picked.
///
/// Resolving one costs a few array reads, where a path by name cost a search of the named values
/// and a dictionary lookup per segment for every record. Not `indirect`: no case holds another
/// path, and a boxed case was one more reference to retain for each path a record resolves.
enum BoundPath: Sendable, Equatable {
    case record(RecordRead)
    /// Through the alias at this position in `let`: the path read for each path it may pick.
    case aliased(Int, values: [RecordRead])
    /// The named value at this position in the mapping's `let`, then the segments in it.
    case named(Int, segments: [String])
    /// The current list element (`$item`), then the segments in it.
    case item(segments: [String])
    /// A name the mapping does not declare (its loader refuses those): no value.
    case nothing

    /// A path into the record: the layout's nodes it passes through from the record (node 0;
    /// the node at position j is reached by the first j segments), and its segments. A class:
    /// every record resolves it, and a struct's two lists were retained and released each time.
    final class RecordRead: Sendable, Equatable {
        let nodes: [Int]
        let segments: [String]

        init(nodes: [Int], segments: [String]) {
            self.nodes = nodes
            self.segments = segments
        }

        static func == (lhs: RecordRead, rhs: RecordRead) -> Bool { lhs.nodes == rhs.nodes && lhs.segments == rhs.segments }

        func resolve(in slots: RecordSlots) -> JSONValue? {
            let last = nodes.count - 1
            var position = 0
            // An object whose members are read: they are in the nodes below. Any other value
            // is read as it is, as is the value of a node read whole.
            while position < last, case .object? = slots.values[nodes[position]] { position += 1 }
            guard let value = slots.values[nodes[position]] else { return nil }
            return position == segments.count ? value : MappingPath.resolve(segments[position...], in: value)
        }
    }

    func resolve(in scope: MappingScope) throws(MappingFailure) -> JSONValue? {
        switch self {
        case .record(let read):
            return read.resolve(in: scope.slots)
        case .aliased(let alias, let values):
            guard let chosen = try scope.pathChosen(byAlias: alias) else { return nil }
            return values[chosen].resolve(in: scope.slots)
        case .named(let index, let segments):
            // Most paths through a named value are the value itself (`$method`).
            guard !segments.isEmpty else { return try scope.value(at: index) }
            return try scope.value(at: index).flatMap { MappingPath.resolve(segments[...], in: $0) }
        case .item(let segments):
            return scope.item.flatMap { MappingPath.resolve(segments[...], in: $0) }
        case .nothing:
            return nil
        }
    }
}
