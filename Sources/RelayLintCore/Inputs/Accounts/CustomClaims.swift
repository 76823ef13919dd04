import Foundation

/// An exported account's custom claims: Firebase keeps them as a JSON object written into a
/// string (`"customAttributes": "{\"siwaState\":\"consent-revoked\"}"` in the JSON export, the
/// 28th column of the CSV export, where exporters before 11.25.2 left the inner quotes
/// backslash-escaped). Claims that are not a JSON object are invalid input, never dropped:
/// a rule may read them.
enum CustomClaims {
    /// The claims as a JSON object; nil for none (absent, null or empty).
    static func parse(_ value: JSONValue?, what: String) -> Result<JSONValue?, InputProblem> {
        switch value {
        case .none, .null?: return .success(nil)
        case .object?: return .success(value)
        case .string(let text)?:
            if text.allSatisfy(\.isWhitespace) { return .success(nil) }
            var parsed = try? JSONParser.parseDocument(text)
            if parsed == nil, text.contains("\\\"") {
                parsed = try? JSONParser.parseDocument(text.replacingOccurrences(of: "\\\"", with: "\""))
            }
            switch parsed {
            case .object?: return .success(parsed)
            case let other?: return .failure(InputProblem("\(what) must hold a JSON object, found \(other.kindName)"))
            case nil:
                do throws(JSONParser.SyntaxError) {
                    _ = try JSONParser.parseDocument(text)
                    return .failure(InputProblem("\(what) is not JSON"))
                } catch {
                    return .failure(InputProblem("\(what) is not JSON: \(error.reason)"))
                }
            }
        case let other?:
            return .failure(InputProblem("\(what) must be a JSON object in a string, found \(other.kindName)"))
        }
    }
}
