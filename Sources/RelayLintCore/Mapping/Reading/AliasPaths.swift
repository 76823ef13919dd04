/// The record paths a named value that only picks a part of the record may stand for: an alias,
/// made of paths into the record, other aliases, and `first` or `if` between them (`payload:
/// {first: [{path: jsonPayload}, {path: protoPayload}]}`). Paths through an alias are paths into
/// the record: the projection reads along them, the binder chooses among them for each record.
///
/// The paths are distinct, in the order the alias tries them, so an alias that names another
/// twice (`{first: [$a, $a]}`) stands for no more paths than it. An alias may still stand for
/// twice as many as each alias it chooses between (`{first: [$a.x, $a.y]}`), 2^n after n levels:
/// past `limit`, it is read as any other named value, worked out once per record and kept, which
/// gives the same values.
enum AliasPaths: Equatable {
    case notAnAlias
    case paths([[String]])
    /// More than the limit: read as a named value that is no alias.
    case tooMany

    /// Far above what a real log format needs (Cloud Logging's payload is one of two).
    static let limit = 1024

    /// What `expression` stands for, given the aliases declared before it.
    static func of(_ expression: MappingExpression, aliases: [String: [[String]]], limit: Int = AliasPaths.limit) -> AliasPaths {
        guard isAlias(expression, aliases: aliases) else { return .notAnAlias }
        var collected = Collected(limit: limit)
        return collected.add(expression, aliases: aliases) ? .paths(collected.paths) : .tooMany
    }

    /// Whether `expression` is made of record paths, aliases, `first` and `if` only.
    private static func isAlias(_ expression: MappingExpression, aliases: [String: [[String]]]) -> Bool {
        switch expression {
        case .path(let path): path.variable.map { aliases[$0] != nil } ?? true
        case .first(let candidates): candidates.allSatisfy { isAlias($0, aliases: aliases) }
        case .condition(_, let then, let otherwise):
            isAlias(then, aliases: aliases) && (otherwise.map { isAlias($0, aliases: aliases) } ?? true)
        default: false
        }
    }

    private struct Collected {
        let limit: Int
        var paths: [[String]] = []
        var seen: Set<[String]> = []

        /// Adds the paths of an alias; false once past the limit.
        mutating func add(_ expression: MappingExpression, aliases: [String: [[String]]]) -> Bool {
            switch expression {
            case .path(let path):
                guard let variable = path.variable else { return add(path.segments) }
                for prefix in aliases[variable] ?? [] where !add(prefix + path.segments) { return false }
                return true
            case .first(let candidates):
                for candidate in candidates where !add(candidate, aliases: aliases) { return false }
                return true
            case .condition(_, let then, let otherwise):
                guard add(then, aliases: aliases) else { return false }
                return otherwise.map { add($0, aliases: aliases) } ?? true
            default:
                return true
            }
        }

        private mutating func add(_ path: [String]) -> Bool {
            if seen.insert(path).inserted { paths.append(path) }
            return paths.count <= limit
        }
    }
}
