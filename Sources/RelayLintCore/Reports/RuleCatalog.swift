import Foundation

/// The rule pack as `relaylint rules list --format json` prints it, for tools that pick rules by
/// id, document a pack, or check that it holds the rules a pipeline names. Deterministic: sorted
/// keys, rules in load order.
public struct RuleCatalog: Encodable, Equatable, Sendable {
    /// One rule: what it is and where it comes from, without its matchers.
    public struct Entry: Encodable, Equatable, Sendable {
        public var id: String
        public var title: String
        public var severity: String
        public var scope: String
        public var description: String
        public var rationale: String
        public var controls: [String]
        public var references: [Rule.Reference]
        /// Parameters with the values in force (after `.relaylint.yml`) and their defaults.
        public var parameters: [Parameter]
        public var examples: Int
        public var file: String
        public var line: Int?
    }

    /// A rule parameter as a pipeline sees it.
    public struct Parameter: Encodable, Equatable, Sendable {
        public var name: String
        public var value: JSONValue
        public var defaultValue: JSONValue
    }

    public struct Pack: Encodable, Equatable, Sendable {
        public var sha256: String
        public var files: [RuleSet.File]
    }

    /// The version of this document's shape; a change of meaning gets a new one.
    public var version = 1
    public var rulePack: Pack
    public var rules: [Entry]

    /// - Parameter masker: masks the addresses and phone numbers a parameter lists, as `explain`
    ///   and the reports do: the listing is for tools, and ends up in CI logs as they do.
    public init(_ ruleSet: RuleSet, masker: PIIMasker = PIIMasker()) {
        rulePack = Pack(sha256: ruleSet.packSHA256, files: ruleSet.files)
        rules = ruleSet.rules.map { rule in
            Entry(
                id: rule.id, title: rule.title, severity: rule.severity.rawValue, scope: rule.scope.rawValue,
                description: rule.description, rationale: rule.rationale, controls: rule.controls, references: rule.references,
                parameters: rule.parameters.map {
                    Parameter(
                        name: $0.name, value: Self.masked($0.value, by: masker), defaultValue: Self.masked($0.defaultValue, by: masker))
                },
                examples: rule.examples.count, file: rule.location.file, line: rule.location.line)
        }
    }

    /// The value with each string in it masked (`PIIMasker.mask`), keys left as they are.
    static func masked(_ value: JSONValue, by masker: PIIMasker) -> JSONValue {
        guard masker.isEnabled else { return value }
        switch value {
        case .string(let text): return .string(masker.mask(text))
        case .array(let elements): return .array(elements.map { masked($0, by: masker) })
        case .object(let members): return .object(members.mapValues { masked($0, by: masker) })
        case .null, .bool, .number: return value
        }
    }

    /// The catalog as pretty-printed JSON with sorted keys, ending in a newline.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
