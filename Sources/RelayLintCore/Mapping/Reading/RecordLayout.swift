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
    /// The keys of the members every node reads, node after node (a node's are at its
    /// `members`), and the node of each member by the same position.
    private let keys: JSONKeys
    private let children: [Int]

    /// Positions in `keys` and `children` rather than lists of its own: a node holds no
    /// reference, so a record's parse, which reads a node for each object it enters, retains
    /// nothing for it (a node's three lists were retained and released each time).
    private struct Node: Sendable {
        let whole: Bool
        let members: Range<Int>
    }

    /// The layout of a projection; a single node read whole for none (a mapping that reads
    /// whole records).
    init(_ projection: RecordProjection?) {
        var nodes: [Node] = []
        var keys: [String] = []
        var children: [Int] = []
        func add(_ projection: RecordProjection) -> Int {
            let index = nodes.count
            nodes.append(Node(whole: true, members: 0..<0))
            guard !projection.whole else { return index }
            // Each node's members in one run, taken before the nodes below it add theirs.
            let names = projection.childKeys
            let first = keys.count
            keys += names
            children += Array(repeating: 0, count: names.count)
            nodes[index] = Node(whole: false, members: first..<keys.count)
            for (offset, name) in names.enumerated() { children[first + offset] = add(projection.child(name)!) }
            return index
        }
        if let projection {
            _ = add(projection)
        } else {
            nodes = [Node(whole: true, members: 0..<0)]
        }
        self.nodes = nodes
        self.keys = JSONKeys(keys)
        self.children = children
    }

    /// How many nodes the layout has: a slot each (`RecordSlots`).
    var nodeCount: Int { nodes.count }

    /// The nodes a record path passes through, from the record, with its segments: a path
    /// leaves the layout where a node is read whole.
    func read(_ segments: [String]) -> BoundPath.RecordRead {
        var path = [0]
        var node = 0
        var consumed = 0
        while consumed < segments.count, !nodes[node].whole,
            let position = keys.index(of: segments[consumed], among: nodes[node].members)
        {
            node = children[position]
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
        var parser = JSONParser.forRecord(bytes)
        parser.skipWhitespace()
        // The lists taken once per record and handed down: read through `self` in each object,
        // they were retained and released there.
        try Self.parse(node: 0, &parser, depth: 0, into: slots, nodes: nodes, keys: keys, children: children)
        parser.skipWhitespace()
        if !parser.isAtEnd { throw parser.error("unexpected text after the JSON value") }
    }

    private static func parse(
        node index: Int, _ parser: inout JSONParser, depth: Int, into slots: RecordSlots, nodes: [Node], keys: JSONKeys,
        children: [Int]
    ) throws(JSONParser.SyntaxError) {
        parser.skipWhitespace()
        let node = nodes[index]
        guard !node.whole, parser.currentByte == UInt8(ascii: "{") else {
            slots.values[index] = try parser.parseValue(depth: depth)
            return
        }
        slots.values[index] = RecordSlots.objectMark
        guard var object = try parser.openObject(depth: depth) else { return }
        repeat {
            if let position = try parser.memberKey(in: keys, among: node.members, of: &object) {
                try parse(
                    node: children[position], &parser, depth: depth + 1, into: slots, nodes: nodes, keys: keys, children: children)
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
        for position in node.members {
            if let member = members[keys.names[position]] { fill(node: children[position], member, into: slots) }
        }
    }
}
