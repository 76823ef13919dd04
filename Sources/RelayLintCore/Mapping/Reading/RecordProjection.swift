/// The parts of a record a mapping can read, worked out once from the mapping: a record is then
/// parsed into values only along those paths, and every other member is checked and skipped
/// (`JSONParser.skipValue` accepts and rejects what `parseValue` does, repeated keys included).
///
/// A Cloud Logging entry is about 1.5 KB, and the mapping reads a dozen of its members; building
/// the rest as dictionaries and strings was most of the time a record took.
final class RecordProjection: Sendable {
    /// Read as a whole from here on.
    let whole: Bool
    /// The keys of the members read below this one, matched by their bytes as the object is
    /// read (no `String` is made of a key nobody reads), and their projections by position.
    private let keys: JSONKeys
    private let projections: [RecordProjection]

    init(whole: Bool, children: [String: RecordProjection]) {
        self.whole = whole
        let sorted = children.sorted { $0.key < $1.key }
        keys = JSONKeys(sorted.map(\.key))
        projections = sorted.map(\.value)
    }

    /// The keys of the members read below this one.
    var childKeys: [String] { keys.names }

    /// The projection of the member at `key`, if it is read.
    func child(_ key: String) -> RecordProjection? { keys.index(of: key).map { projections[$0] } }

    /// Notes every path a mapping reads, into the record and into its named values.
    private static func collect(_ mapping: LogMapping) -> Collector {
        var collector = Collector()
        for (name, expression) in mapping.lets { collector.define(name, expression) }
        collector.visit(mapping.recognize)
        for skip in mapping.skips {
            if let condition = skip.condition { collector.visit(condition) }
            if let detail = skip.detail { collector.visit(detail) }
        }
        collector.visit(mapping.defaults)
        for template in mapping.events {
            if let condition = template.condition { collector.visit(condition) }
            if let forEach = template.forEach { collector.visit(forEach) }
            collector.visit(template.type)
            collector.visit(template.reserved)
            for field in template.fields { collector.visit(field.value) }
        }
        if let detail = mapping.unmatched.detail { collector.visit(detail) }
        return collector
    }

    /// The projection of a mapping; nil when it reads the record as a whole (`{path: ""}`).
    static func of(_ mapping: LogMapping) -> RecordProjection? {
        let collector = collect(mapping)
        return collector.readsWholeRecord ? nil : collector.root.build()
    }

    /// The top-level keys a mapping's `recognize` condition reads (through its named values): an
    /// object that holds none of them is hardly of the mapping's format (`KeyMentions`). A test
    /// of the whole record (`{path: "", is: string}`) adds none.
    static func recognizedKeys(_ mapping: LogMapping) -> [String] {
        var collector = Collector()
        for (name, expression) in mapping.lets { collector.define(name, expression) }
        collector.visit(mapping.recognize)
        return collector.topLevelKeys.sorted()
    }

    /// The named values that only pick a part of the record (a path, or a choice between
    /// paths): the record is laid out along the paths through them (`PathBinder`).
    static func aliases(of mapping: LogMapping) -> Set<String> { Set(collect(mapping).aliases.keys) }

    /// The projections of the named values that parse JSON inside a string (`parse_json`), by
    /// name, for those that are read only along paths: Identity Platform's `rawUserInfo` holds a
    /// provider's whole profile, of which the mapping reads one member.
    static func ofParsedValues(_ mapping: LogMapping) -> [String: RecordProjection] {
        let collector = collect(mapping)
        var result: [String: RecordProjection] = [:]
        for (name, expression) in mapping.lets {
            guard case .parseJSON = expression, let node = collector.namedValues[name], !node.whole else { continue }
            result[name] = node.build()
        }
        return result
    }

    /// Parses the document at `bytes` keeping only the projected members (and checking the rest).
    func parseDocument(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParser.SyntaxError) -> JSONValue {
        var parser = JSONParser.forRecord(bytes)
        parser.skipWhitespace()
        let value = try parse(&parser, depth: 0)
        parser.skipWhitespace()
        if !parser.isAtEnd { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private func parse(_ parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        parser.skipWhitespace()
        guard !whole, parser.currentByte == UInt8(ascii: "{") else { return try parser.parseValue(depth: depth) }
        var members = [String: JSONValue](minimumCapacity: projections.count)
        guard var object = try parser.openObject(depth: depth) else { return .object(members) }
        repeat {
            if let index = try parser.memberKey(in: keys, of: &object) {
                members[keys.names[index]] = try projections[index].parse(&parser, depth: depth + 1)
            } else {
                try parser.skipValue(depth: depth + 1)
            }
        } while try parser.nextMember(of: &object)
        return .object(members)
    }

    /// A projection being built.
    private final class Node {
        var whole = false
        var children: [String: Node] = [:]

        func need(_ path: ArraySlice<String>) {
            guard !whole else { return }
            guard let first = path.first else {
                whole = true
                children = [:]
                return
            }
            let child = children[first] ?? Node()
            children[first] = child
            child.need(path.dropFirst())
        }

        func build() -> RecordProjection {
            RecordProjection(whole: whole, children: children.mapValues { $0.build() })
        }
    }

    /// Walks a mapping's expressions, noting the record paths they read. A `let` that only
    /// names a part of the record (a path, or a choice between paths) is an alias: paths through
    /// it are paths into the record. Any other `let` (JSON in a string, a token's claims) reads
    /// its inputs whole.
    private struct Collector {
        let root = Node()
        var readsWholeRecord = false
        /// The first key of every record path read, though the whole record is read too.
        var topLevelKeys: Set<String> = []
        /// The record paths each alias may stand for.
        var aliases: [String: [[String]]] = [:]
        /// What is read of each named value that is not an alias (and of `$item`).
        var namedValues: [String: Node] = [:]

        mutating func define(_ name: String, _ expression: MappingExpression) {
            if case .paths(let paths) = AliasPaths.of(expression, aliases: aliases) {
                aliases[name] = paths
                visitConditions(in: expression)
            } else {
                visit(expression)
            }
        }

        /// The conditions inside an alias's definition are read as usual.
        private mutating func visitConditions(in expression: MappingExpression) {
            switch expression {
            case .first(let candidates): candidates.forEach { visitConditions(in: $0) }
            case .condition(let condition, let then, let otherwise):
                visit(condition)
                visitConditions(in: then)
                if let otherwise { visitConditions(in: otherwise) }
            default: break
            }
        }

        mutating func need(_ path: [String]) {
            if let first = path.first { topLevelKeys.insert(first) } else { readsWholeRecord = true }
            root.need(path[...])
        }

        mutating func visit(_ expression: MappingExpression) {
            switch expression {
            case .constant, .bound: break
            case .path(let path):
                if let variable = path.variable {
                    // `$item` and values derived from the record read their sources whole.
                    for alias in aliases[variable] ?? [] { need(alias + path.segments) }
                    if aliases[variable] == nil {
                        let node = namedValues[variable] ?? Node()
                        namedValues[variable] = node
                        node.need(path.segments[...])
                    }
                } else {
                    need(path.segments)
                }
            case .first(let parts), .concat(let parts): parts.forEach { visit($0) }
            case .condition(let condition, let then, let otherwise):
                visit(condition)
                visit(then)
                if let otherwise { visit(otherwise) }
            case .lookup(let key, _, let fallback):
                visit(key)
                if let fallback { visit(fallback) }
            case .lastPart(let inner, _), .regex(let inner, _, _), .parseJSON(let inner), .jwsClaims(let inner),
                .epochMilliseconds(let inner), .lowercase(let inner):
                visit(inner)
            }
        }

        mutating func visit(_ condition: MappingCondition) {
            switch condition {
            case .all(let conditions), .any(let conditions): conditions.forEach { visit($0) }
            case .not(let inner): visit(inner)
            case .test(let expression, _): visit(expression)
            }
        }

        mutating func visit(_ reserved: EventTemplate.Reserved) {
            for expression in [reserved.id, reserved.time, reserved.subject, reserved.app, reserved.subjectAppleID] {
                if let expression { visit(expression) }
            }
        }
    }
}
