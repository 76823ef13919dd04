import Foundation

/// Reading a report or a partial back: a number that is not a count, named with its place.
///
/// Every number relaylint writes in a report or a partial is a count. Foundation's decoder
/// refuses any other number there (`30.5`, `1e30`) as "The given data was not valid JSON", with
/// no place, and relaylint repeated that: a file a reviewer edited by hand was called not JSON.
extension JSONReportDocument {
    /// What is wrong with a file Foundation's decoder called not JSON when relaylint's parser
    /// reads it: its first number that is not a count; nil for any other error or file.
    static func notAWholeCount(_ error: any Error, in data: Data) -> String? {
        guard case .dataCorrupted(let context) = error as? DecodingError, context.codingPath.isEmpty,
            let document = data.withUnsafeBytes({ raw in try? JSONParser.parseDocument(raw.bindMemory(to: UInt8.self)) }),
            let found = firstNumberNotACount(in: document, at: "")
        else { return nil }
        return "'\(found.path)' is \(found.text), not a count (a whole number below 2^63)"
    }

    /// The first number in `value` that is not a whole number an `Int` holds, with its place
    /// (`summary.subjects`, `rules[2].checked`), members taken in the order of their keys.
    private static func firstNumberNotACount(in value: JSONValue, at path: String) -> (path: String, text: String)? {
        switch value {
        case .number(let number):
            let isCount = number.value.rounded() == number.value && abs(number.value) < Double(Int.max)
            return isCount ? nil : (path, number.text)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = firstNumberNotACount(in: element, at: path + "[\(index)]") { return found }
            }
            return nil
        case .object(let members):
            for key in members.keys.sorted() {
                if let found = firstNumberNotACount(in: members[key]!, at: path.isEmpty ? key : path + "." + key) { return found }
            }
            return nil
        case .string, .bool, .null:
            return nil
        }
    }
}
