/// Where a mapping reads a value: a dotted path into the record (`response.localId`), into a
/// named value (`$payload.methodName`), or into the current list item (`$item.providerId`).
///
/// Segments are object keys (`@type` included) or, on a list, a 0-based index. A path that
/// leads nowhere yields no value rather than an error: log formats leave fields out freely, and
/// whether an absent value matters is for the mapping's conditions to say.
struct MappingPath: Sendable, Equatable, CustomStringConvertible {
    /// A named value (`let:` or `$item`), or nil for the record itself.
    let variable: String?
    let segments: [String]

    /// The most parts a path may have: records nest no deeper.
    static let maximumSegments = JSONParser.maximumDepth

    /// Parses `a.b.c`, `$name.a.b` or `$name`; the empty string is the record itself.
    init?(_ text: String) {
        var parts = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else { return nil }
        if let first = parts.first, first.hasPrefix("$") {
            let name = String(first.dropFirst())
            guard !name.isEmpty else { return nil }
            variable = name
            parts.removeFirst()
        } else {
            variable = nil
        }
        segments = parts
    }

    init(variable: String?, segments: [String]) {
        self.variable = variable
        self.segments = segments
    }

    var description: String { ([variable.map { "$" + $0 }].compactMap { $0 } + segments).joined(separator: ".") }

    /// The value at `segments` below `root`; nil when some segment is missing.
    static func resolve(_ segments: ArraySlice<String>, in root: JSONValue) -> JSONValue? {
        var current = root
        for segment in segments {
            switch current {
            case .object(let members):
                guard let next = members[segment] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(segment), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
