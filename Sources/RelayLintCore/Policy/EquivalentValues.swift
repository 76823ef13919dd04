/// The values of an `in:` or `not_in:` list, looked up as `MatcherEvaluation.equivalent` compares
/// them: a JSON value equal to one of them, a string `true`/`false` (any case) for a listed
/// boolean, a string holding a listed number, a number a listed string holds. A list of 200,000
/// values was searched for every event.
struct EquivalentValues: Sendable, Equatable {
    private var exact: Set<JSONValue> = []
    private var listsTrue = false
    private var listsFalse = false
    /// The listed numbers' values, for a string that holds one.
    private var numbers: Set<Double> = []
    /// The numbers the listed strings hold, for a number.
    private var numbersInStrings: Set<Double> = []

    /// Lists shorter than this are searched: a set costs more to make than it saves.
    static let shortestIndexed = 16

    init?(_ values: [JSONValue]) {
        guard values.count >= Self.shortestIndexed else { return nil }
        for value in values {
            exact.insert(value)
            switch value {
            case .bool(let flag): if flag { listsTrue = true } else { listsFalse = true }
            case .number(let number): numbers.insert(number.value)
            case .string(let text): if let number = JSONNumber.value(written: text) { numbersInStrings.insert(number) }
            default: break
            }
        }
    }

    func contains(_ value: JSONValue) -> Bool {
        if exact.contains(value) { return true }
        switch value {
        case .string(let text):
            if listsTrue || listsFalse {
                let word = text.lowercased()
                if listsTrue && word == "true" || listsFalse && word == "false" { return true }
            }
            if !numbers.isEmpty, let number = JSONNumber.value(written: text), numbers.contains(number) { return true }
            return false
        case .number(let number): return numbersInStrings.contains(number.value)
        default: return false
        }
    }
}
