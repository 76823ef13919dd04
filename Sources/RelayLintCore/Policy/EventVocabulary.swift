import Foundation

/// The event types and fields relaylint knows (`Vocabulary/events.yml`), plus those the log
/// mappings in use produce. It lets `rules validate` tell a typo (`where: {reasn: …}`,
/// `{event.recipient}`) from a field some log really carries: a rule that reads a field no type
/// declares would otherwise pass validation and print "(unset)" in every finding.
public struct EventVocabulary: Sendable {
    /// Fields by event type.
    public private(set) var types: [String: Set<String>] = [:]

    public init(types: [String: Set<String>] = [:]) { self.types = types }

    /// Every field any type declares.
    var allFields: Set<String> { types.values.reduce(into: []) { $0.formUnion($1) } }

    /// The built-in vocabulary, compiled in (or read from `$RELAYLINT_VOCABULARY`).
    public static func builtIn() throws(DiagnosticsError) -> EventVocabulary {
        let pack = BuiltInPack.vocabulary
        let tree: YAMLTree?
        if let directory = pack.overrideDirectory {
            tree = try YAMLTree.load(path: (directory as NSString).appendingPathComponent("events.yml")).tree
        } else {
            guard let file = pack.embeddedFiles.first(where: { $0.path == "Vocabulary/events.yml" }) else {
                throw DiagnosticsError([
                    Diagnostic(.error, "the built-in event vocabulary is missing", at: SourceLocation(file: "Vocabulary"))
                ])
            }
            switch YAMLTree.parse(file.text, path: file.path) {
            case .success(let parsed): tree = parsed
            case .failure(let error): throw error
            }
        }
        var reader = SchemaReader()
        var vocabulary = EventVocabulary()
        if let tree, let top = reader.mapping(tree, what: "the vocabulary", allowed: ["types"], required: ["types"]),
            case .mapping(let pairs)? = top["types"]?.value.content
        {
            for pair in pairs {
                guard let entry = reader.mapping(pair.value, what: "type '\(pair.key)'", allowed: ["description", "fields"]) else {
                    continue
                }
                let fields = entry["fields"].flatMap { reader.strings($0.value, what: "'fields'") } ?? []
                vocabulary.types[pair.key, default: []].formUnion(fields)
            }
        }
        guard reader.diagnostics.isEmpty else { throw DiagnosticsError(reader.diagnostics) }
        return vocabulary
    }

    /// Adds the types and fields a mapping's events can have (types it spells out as constants
    /// or table values; a computed type adds its fields to every type).
    public mutating func add(_ mapping: LogMapping) {
        for template in mapping.events {
            let fields = Set(template.fields.map(\.name))
            let names = EventVocabulary.constants(of: template.type)
            if names.isEmpty {
                for type in types.keys { types[type]?.formUnion(fields) }
            }
            for name in names { types[name, default: []].formUnion(fields) }
        }
    }

    private static func constants(of expression: MappingExpression) -> [String] {
        switch expression {
        case .constant(let value): value.stringValue.map { [$0] } ?? []
        case .lookup(_, let table, let fallback): table.values.compactMap(\.stringValue) + (fallback.map(constants) ?? [])
        case .condition(_, let then, let otherwise): constants(of: then) + (otherwise.map(constants) ?? [])
        case .first(let candidates): candidates.flatMap(constants)
        default: []
        }
    }

    /// Warnings for the fields and `{event.…}` placeholders of a rule that no type declares.
    public func warnings(for rule: Rule) -> [Diagnostic] {
        // Each at the field or the message it is about (all were told at the rule's id).
        var warnings: [(message: String, location: SourceLocation?)] = []
        let all = allFields
        func check(_ matcher: EventMatcher, inherited: [String]) {
            let scope = matcher.types.isEmpty ? inherited : matcher.types
            let known = scope.isEmpty ? all : scope.reduce(into: Set<String>()) { $0.formUnion(types[$1] ?? []) }
            for condition in matcher.fields where !Event.reservedFields.contains(condition.field) && !known.contains(condition.field) {
                warnings.append((message(field: condition.field, types: scope, known: known), condition.location))
            }
            for inner in matcher.anyOf + matcher.allOf + matcher.noneOf { check(inner, inherited: scope) }
        }
        if let trigger = rule.trigger { check(trigger, inherited: []) }
        for matcher in rule.requirement.matchers { check(matcher, inherited: []) }
        let triggerTypes = rule.trigger?.types ?? []
        let triggerFields = triggerTypes.isEmpty ? all : triggerTypes.reduce(into: Set<String>()) { $0.formUnion(types[$1] ?? []) }
        for case .placeholder(let name) in rule.message.parts where name.hasPrefix("event.") {
            let field = String(name.dropFirst("event.".count))
            if !Event.reservedFields.contains(field), !triggerFields.contains(field) {
                warnings.append(
                    ("{\(name)}: " + message(field: field, types: triggerTypes, known: triggerFields), rule.placeholderLocations[name]))
            }
        }
        return warnings.map { Diagnostic(.warning, "rule '\(rule.id)': \($0.message)", at: $0.location ?? rule.location) }
    }

    private func message(field: String, types scope: [String], known: Set<String>) -> String {
        var text = "no event type \(scope.isEmpty ? "" : "of \(scope.joined(separator: ", ")) ")declares a field '\(field)'"
        if let suggestion = SchemaReader.closest(to: field, in: known.sorted()) { text += "; did you mean '\(suggestion)'?" }
        return text + " (if your logs carry it, add it to a mapping's fields or ignore this warning)"
    }
}
