/// Where a mapping finds the parts of a record it reads: its projection (`RecordProjection`)
/// laid out as numbered nodes, one slot of `RecordSlots` each, so that a record is parsed
/// straight into those slots and a path is a few array reads worked out once (`BoundPath`).
///
/// A record used to be parsed into nested dictionaries, each path looked up key by key in
/// them for every record: half the time a Cloud Logging entry took.
///
/// Node 0 is the record. A node read whole holds its value. A node whose members are read
/// holds, when the record has an object there, an empty object as a mark, its members in their
/// own nodes; any other value there is held whole, and a path through it is resolved in it.
final class RecordLayout: Sendable {
    private let nodes: [Node]

    private struct Node: Sendable {
        let whole: Bool
        /// The keys of the members read, and their nodes by the same position.
        let keys: JSONKeys
        let children: [Int]
    }

    /// The layout of a projection; a single node read whole for none (a mapping that reads
    /// whole records).
    init(_ projection: RecordProjection?) {
        var nodes: [Node] = []
        func add(_ projection: RecordProjection) -> Int {
            let index = nodes.count
            nodes.append(Node(whole: true, keys: JSONKeys([]), children: []))
            guard !projection.whole else { return index }
            let keys = projection.childKeys
            let children = keys.map { add(projection.child($0)!) }
            nodes[index] = Node(whole: false, keys: JSONKeys(keys), children: children)
            return index
        }
        if let projection {
            _ = add(projection)
        } else {
            nodes = [Node(whole: true, keys: JSONKeys([]), children: [])]
        }
        self.nodes = nodes
    }

    /// How many nodes the layout has: a slot each (`RecordSlots`).
    var nodeCount: Int { nodes.count }

    /// The nodes a record path passes through, from the record, with its segments: a path
    /// leaves the layout where a node is read whole.
    func read(_ segments: [String]) -> BoundPath.RecordRead {
        var path = [0]
        var node = 0
        var consumed = 0
        while consumed < segments.count, !nodes[node].whole, let position = nodes[node].keys.index(of: segments[consumed]) {
            node = nodes[node].children[position]
            path.append(node)
            consumed += 1
        }
        // A path the mapping reads reaches its node, or a node read whole, in whose value the
        // segments left are read; the path an alias picks (read only to see whether it holds a
        // value) may end at a node whose members are read, which holds a mark for an object.
        return BoundPath.RecordRead(nodes: path, segments: segments)
    }

    /// Parses the document at `bytes` into `slots`, keeping only the members read and checking
    /// the rest (`JSONParser.skipValue` accepts and rejects what `parseValue` does).
    func parse(_ bytes: UnsafeBufferPointer<UInt8>, into slots: RecordSlots) throws(JSONParser.SyntaxError) {
        precondition(slots.values.count == nodes.count, "slots of another layout")
        slots.clear()
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        try parse(node: 0, &parser, depth: 0, into: slots)
        parser.skipWhitespace()
        if !parser.isAtEnd { throw parser.error("unexpected text after the JSON value") }
    }

    private func parse(node index: Int, _ parser: inout JSONParser, depth: Int, into slots: RecordSlots) throws(JSONParser
        .SyntaxError)
    {
        parser.skipWhitespace()
        let node = nodes[index]
        guard !node.whole, parser.currentByte == UInt8(ascii: "{") else {
            slots.values[index] = try parser.parseValue(depth: depth)
            return
        }
        slots.values[index] = RecordSlots.objectMark
        guard var object = try parser.openObject(depth: depth) else { return }
        repeat {
            if let position = try parser.memberKey(in: node.keys, of: &object) {
                try parse(node: node.children[position], &parser, depth: depth + 1, into: slots)
            } else {
                try parser.skipValue(depth: depth + 1)
            }
        } while try parser.nextMember(of: &object)
    }

    /// Lays out a record already parsed (a mapping's example, the first record of a file).
    func fill(_ record: JSONValue, into slots: RecordSlots) {
        precondition(slots.values.count == nodes.count, "slots of another layout")
        slots.clear()
        fill(node: 0, record, into: slots)
    }

    private func fill(node index: Int, _ value: JSONValue, into slots: RecordSlots) {
        let node = nodes[index]
        guard !node.whole, case .object(let members) = value else {
            slots.values[index] = value
            return
        }
        slots.values[index] = RecordSlots.objectMark
        for (position, key) in node.keys.names.enumerated() {
            if let member = members[key] { fill(node: node.children[position], member, into: slots) }
        }
    }
}
