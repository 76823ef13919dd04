/// How deep evaluating a mapping's expression recurses, counting the named values (`let`) it
/// reads through. Each value's own YAML is shallow, but a value may read the one before it: a
/// mapping of 10,000 values, each reading the last, passed validation and then overflowed the
/// thread's stack on the first record. The loader refuses a value deeper than `maximum`.
enum EvaluationDepth {
    /// Far below the depth that overflowed (between 10,000 and 20,000 levels) and far above any
    /// real mapping's (the built-in ones reach 8).
    static let maximum = 1000

    /// The levels `expression` recurses through; `lets` holds the depth of each value it may read.
    static func of(_ expression: MappingExpression, lets: [String: Int]) -> Int {
        switch expression {
        case .constant: return 1
        case .path(let path), .bound(_, let path): return 1 + (path.variable.flatMap { lets[$0] } ?? 0)
        case .first(let parts), .concat(let parts): return 1 + parts.reduce(0) { max($0, of($1, lets: lets)) }
        case .condition(let condition, let then, let otherwise):
            return 1 + max(of(condition, lets: lets), of(then, lets: lets), otherwise.map { of($0, lets: lets) } ?? 0)
        case .lookup(let key, _, let fallback):
            return 1 + max(of(key, lets: lets), fallback.map { of($0, lets: lets) } ?? 0)
        case .lastPart(let inner, _), .regex(let inner, _, _), .parseJSON(let inner), .jwsClaims(let inner),
            .epochMilliseconds(let inner), .lowercase(let inner):
            return 1 + of(inner, lets: lets)
        }
    }

    /// The levels `condition` recurses through.
    static func of(_ condition: MappingCondition, lets: [String: Int]) -> Int {
        switch condition {
        case .all(let parts), .any(let parts): 1 + parts.reduce(0) { max($0, of($1, lets: lets)) }
        case .not(let inner): 1 + of(inner, lets: lets)
        case .test(let value, _): 1 + of(value, lets: lets)
        }
    }
}
