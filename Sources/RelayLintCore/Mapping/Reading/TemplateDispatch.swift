/// Which event templates a record may match, told from one value: most mappings choose a
/// record's events by one field (`when: {path: $method, equals: SignUp}`, `in: [...]`), and
/// testing every template's condition in turn read and compared that value once per template,
/// eight times for a Cloud Logging entry.
///
/// A template is dispatched when its condition is a test of the chosen value for equality with
/// one string or membership in a list of strings, alone or first in an `all`. Its condition
/// cannot hold unless the value is a string among those, so a record whose value is not one of
/// them skips the template without testing it; a template the value leaves possible has its
/// whole condition tested as before. The value is read when the first dispatched template is
/// reached, as testing that template's condition first read it, so a value that fails to work
/// out fails the record at the same point.
///
/// The value is a path (into the record, or a named value, worked out once per record): two
/// conditions share it only when they read the same place, and reading it once instead of once
/// per template changes nothing. Computed values are not dispatched: `==` takes `1` and `1.0`, or
/// two spellings of `é`, for one expression though a `concat` or a `last_part` of them differ,
/// and a value that decodes a signed token counts one decoding per template.
struct TemplateDispatch {
    /// The value templates are chosen by.
    let value: MappingExpression
    /// By template number: whether it is dispatched.
    let dispatched: [Bool]
    /// The dispatched templates each string leaves possible, by number in ascending order.
    let candidates: [String: [Int]]

    /// The dispatch of templates by the value most of their conditions test; nil when fewer
    /// than two templates test the same one (nothing to save).
    init?(_ templates: [EventTemplate]) {
        let tests = templates.map { $0.condition.flatMap(Self.stringTest) }
        var counts: [(value: MappingExpression, count: Int)] = []
        for case let test? in tests {
            if let index = counts.firstIndex(where: { $0.value == test.value }) {
                counts[index].count += 1
            } else {
                counts.append((test.value, 1))
            }
        }
        guard let chosen = counts.max(by: { $0.count < $1.count }), chosen.count >= 2 else { return nil }
        value = chosen.value
        var dispatched: [Bool] = []
        var candidates: [String: [Int]] = [:]
        for (number, test) in tests.enumerated() {
            guard let test, test.value == chosen.value else {
                dispatched.append(false)
                continue
            }
            dispatched.append(true)
            // Each text once: `in: [a, a]` lists the template once under `a`.
            for text in Set(test.texts) { candidates[text, default: []].append(number) }
        }
        self.dispatched = dispatched
        self.candidates = candidates
    }

    /// The dispatched templates the record's value leaves possible, by number in ascending order.
    func possible(in scope: MappingScope) throws(MappingFailure) -> [Int] {
        guard case .string(let text)? = try value.evaluate(in: scope) else { return [] }
        return candidates[text] ?? []
    }

    /// The value a condition first tests and the strings it must equal one of for the
    /// condition to hold; nil for a condition of any other shape.
    static func stringTest(of condition: MappingCondition) -> (value: MappingExpression, texts: [String])? {
        switch condition {
        case .all(let conditions):
            return conditions.first.flatMap(stringTest)
        case .test(let value, let tests):
            guard case .bound = value, tests.count == 1 else { return nil }
            switch tests[0] {
            case .equals(.string(let text)):
                return (value, [text])
            case .isIn(let candidates):
                var texts: [String] = []
                for candidate in candidates.values {
                    guard case .string(let text) = candidate else { return nil }
                    texts.append(text)
                }
                return (value, texts)
            default:
                return nil
            }
        case .any, .not:
            return nil
        }
    }
}
