extension JSONValue {
    /// The first number in the value, in document order of paths, that is not a whole number an
    /// `Int` holds (`30.5`, `1e30`), with where it is (`summary.subjects`, `rules[2].checked`).
    ///
    /// Every number relaylint writes in a report is a count. Foundation's decoder refuses any
    /// other number in one as "The given data was not valid JSON", with no place: a report read
    /// back (`--baseline`, `merge`) is told where its count is wrong instead.
    func firstNumberNotAWholeCount(path: String = "") -> (path: String, text: String)? {
        switch self {
        case .number(let number):
            let isWhole = number.value.rounded() == number.value && abs(number.value) < Double(Int.max)
            return isWhole ? nil : (path, number.text)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = element.firstNumberNotAWholeCount(path: path + "[\(index)]") { return found }
            }
            return nil
        case .object(let members):
            for key in members.keys.sorted() {
                if let found = members[key]!.firstNumberNotAWholeCount(path: path.isEmpty ? key : path + "." + key) { return found }
            }
            return nil
        case .string, .bool, .null:
            return nil
        }
    }

    /// What is wrong with a document the parser reads but Foundation's decoder calls "not valid
    /// JSON": a number that is not a whole count; nil when there is none (or it does not parse).
    static func notAWholeCount(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let document = try? JSONParser.parseDocument(bytes), let found = document.firstNumberNotAWholeCount() else { return nil }
        return "'\(found.path)' is \(found.text), not a whole number"
    }
}
