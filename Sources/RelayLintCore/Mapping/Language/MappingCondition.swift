/// A test on a record, as a mapping writes it under `recognize`, `when` and `if`.
///
/// Written in YAML as `{all: […]}`, `{any: […]}`, `{not: …}`, or a value (`path:` or `value:`)
/// with one or more tests: `equals`, `not_equals`, `in`, `exists`, `is`. Every test given must
/// hold. An absent value equals nothing, is in nothing, and `is` no kind.
indirect enum MappingCondition: Sendable, Equatable {
    case all([MappingCondition])
    case any([MappingCondition])
    case not(MappingCondition)
    case test(MappingExpression, [Test])

    /// One test on a value.
    enum Test: Sendable, Equatable {
        case equals(JSONValue)
        case notEquals(JSONValue)
        case isIn(CandidateValues)
        case exists(Bool)
        case kind(Kind)
    }

    /// The JSON kinds `is:` can name.
    enum Kind: String, Sendable, CaseIterable {
        case string, number, bool, object, array, null
    }

    /// Whether it reads the record, a named value or `$item` (`MappingExpression.readsRecord`).
    var readsRecord: Bool {
        switch self {
        case .all(let conditions), .any(let conditions): conditions.contains(where: \.readsRecord)
        case .not(let inner): inner.readsRecord
        case .test(let expression, _): expression.readsRecord
        }
    }

    /// Whether a value the condition tests decodes a signed token.
    var readsSignedTokens: Bool {
        switch self {
        case .all(let conditions), .any(let conditions): conditions.contains(where: \.readsSignedTokens)
        case .not(let inner): inner.readsSignedTokens
        case .test(let expression, _): expression.readsSignedTokens
        }
    }

    func holds(in scope: MappingScope) throws(MappingFailure) -> Bool {
        // Lists are walked by position: a loop over their elements copied each one (a retain
        // and a release) for every record.
        switch self {
        case .all(let conditions):
            for index in conditions.indices where try !conditions[index].holds(in: scope) { return false }
            return true
        case .any(let conditions):
            for index in conditions.indices where try conditions[index].holds(in: scope) { return true }
            return false
        case .not(let condition):
            return try !condition.holds(in: scope)
        case .test(let expression, let tests):
            let value = try expression.evaluate(in: scope)
            for index in tests.indices where !tests[index].holds(for: value) { return false }
            return true
        }
    }
}

extension MappingCondition.Test {
    func holds(for value: JSONValue?) -> Bool {
        switch self {
        case .equals(let expected): return value.map { MappingCondition.Test.same($0, expected) } ?? false
        case .notEquals(let expected): return !(value.map { MappingCondition.Test.same($0, expected) } ?? false)
        case .isIn(let candidates): return value.map(candidates.contains) ?? false
        case .exists(let expected): return (value != nil && value != .null) == expected
        case .kind(let kind):
            switch (kind, value) {
            case (.string, .string?), (.number, .number?), (.bool, .bool?), (.object, .object?), (.array, .array?), (.null, .null?):
                return true
            default: return false
            }
        }
    }

    /// JSON equality, numbers by value (`0` equals `0.0`).
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool { a == b }
}
