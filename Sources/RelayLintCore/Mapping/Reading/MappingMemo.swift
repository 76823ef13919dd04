/// Answers a worker thread already worked out for earlier records, for the functions that cost
/// most and repeat most: a user agent is matched against the same pattern for every entry of a
/// log, and a log holds few distinct ones (an app version on an OS version), so ICU's matcher
/// runs once for each instead of once per entry. One per worker thread, which alone uses it.
final class MappingMemo: @unchecked Sendable {
    private struct MatchKey: Hashable {
        let pattern: ObjectIdentifier
        let group: Int
        let text: String
    }

    private var matches: [MatchKey: String?] = [:]
    /// Bounds the memory a log of ever-new texts can take; such a log is matched as without memo.
    private static let capacity = 4096

    /// `pattern.firstMatch(in:group:)`, from memory when this text was matched before.
    func firstMatch(of pattern: MappingRegex, in text: String, group: Int) -> String? {
        let key = MatchKey(pattern: pattern.identity, group: group, text: text)
        if let known = matches[key] { return known }
        let match = pattern.firstMatch(in: text, group: group)
        if matches.count >= MappingMemo.capacity { matches.removeAll(keepingCapacity: true) }
        matches[key] = match
        return match
    }
}
