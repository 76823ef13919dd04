/// Binds the paths of a mapping to one record layout and to the positions of its named values
/// (`BoundPath`), once for each mapper: every expression of the mapping is rewritten with its
/// paths bound, and the mapper evaluates only those.
struct PathBinder: Sendable {
    let layout: RecordLayout
    private let positions: [String: Int]
    /// The definitions of the named values that only pick a part of the record, by name: paths
    /// through them are paths into the record (`RecordProjection.aliases`).
    private let aliases: [String: MappingExpression]

    /// A binder of no named values.
    init(layout: RecordLayout) {
        self.layout = layout
        positions = [:]
        aliases = [:]
    }

    init(_ mapping: LogMapping, layout: RecordLayout) {
        self.layout = layout
        var positions: [String: Int] = [:]
        for (position, entry) in mapping.lets.enumerated() where positions[entry.name] == nil { positions[entry.name] = position }
        self.positions = positions
        let aliasNames = RecordProjection.aliases(of: mapping)
        var aliases: [String: MappingExpression] = [:]
        for entry in mapping.lets where aliasNames.contains(entry.name) && aliases[entry.name] == nil {
            aliases[entry.name] = entry.value
        }
        self.aliases = aliases
    }

    /// The mapping with every path bound.
    func bind(_ mapping: LogMapping) -> LogMapping {
        LogMapping(
            id: mapping.id, title: mapping.title, description: mapping.description, recognize: bind(mapping.recognize),
            lets: mapping.lets.map { ($0.name, bind($0.value)) },
            skips: mapping.skips.map(bind), defaults: bind(mapping.defaults),
            events: mapping.events.map { template in
                EventTemplate(
                    condition: template.condition.map(bind), forEach: template.forEach.map(bind), type: bind(template.type),
                    reserved: bind(template.reserved), fields: template.fields.map { ($0.name, bind($0.value)) },
                    location: template.location)
            },
            unmatched: bind(mapping.unmatched), examples: mapping.examples, location: mapping.location, sha256: mapping.sha256,
            text: mapping.text)
    }

    private func bind(_ rule: LogMapping.SkipRule) -> LogMapping.SkipRule {
        LogMapping.SkipRule(condition: rule.condition.map(bind), reason: rule.reason, detail: rule.detail.map(bind))
    }

    private func bind(_ reserved: EventTemplate.Reserved) -> EventTemplate.Reserved {
        EventTemplate.Reserved(
            id: reserved.id.map(bind), time: reserved.time.map(bind), subject: reserved.subject.map(bind),
            app: reserved.app.map(bind), subjectAppleID: reserved.subjectAppleID.map(bind))
    }

    func bind(_ condition: MappingCondition) -> MappingCondition {
        switch condition {
        case .all(let conditions): .all(conditions.map(bind))
        case .any(let conditions): .any(conditions.map(bind))
        case .not(let inner): .not(bind(inner))
        case .test(let expression, let tests): .test(bind(expression), tests)
        }
    }

    func bind(_ expression: MappingExpression) -> MappingExpression {
        switch expression {
        case .constant, .bound: expression
        case .path(let path): .bound(bind(path), path)
        case .first(let parts): .first(parts.map(bind))
        case .concat(let parts): .concat(parts.map(bind))
        case .condition(let condition, let then, let otherwise):
            .condition(bind(condition), then: bind(then), else: otherwise.map(bind))
        case .lookup(let key, let table, let fallback): .lookup(bind(key), table: table, default: fallback.map(bind))
        case .lastPart(let inner, let separator): .lastPart(bind(inner), separator: separator)
        case .regex(let inner, let pattern, let group): .regex(bind(inner), pattern: pattern, group: group)
        case .parseJSON(let inner): .parseJSON(bind(inner))
        case .jwsClaims(let inner): .jwsClaims(bind(inner))
        case .epochMilliseconds(let inner): .epochMilliseconds(bind(inner))
        case .lowercase(let inner): .lowercase(bind(inner))
        }
    }

    func bind(_ path: MappingPath) -> BoundPath {
        guard let variable = path.variable else { return .record(layout.read(path.segments)) }
        if variable == "item" { return .item(segments: path.segments) }
        if let alias = aliases[variable] { return bind(alias, then: path.segments) }
        if let position = positions[variable] { return .named(position, segments: path.segments) }
        return .nothing
    }

    /// The path `suffix` inside the value of an alias's definition: for `first:`, each
    /// candidate's own value decides, and the suffix is read in the one chosen.
    private func bind(_ alias: MappingExpression, then suffix: [String]) -> BoundPath {
        switch alias {
        case .path(let path):
            let segments = path.segments + suffix
            guard let variable = path.variable else { return .record(layout.read(segments)) }
            if let inner = aliases[variable] { return bind(inner, then: segments) }
            return bind(MappingPath(variable: variable, segments: segments))
        case .first(let candidates):
            return .first(candidates.map { BoundPath.Candidate(probe: bind($0, then: []), value: bind($0, then: suffix)) })
        case .condition(let condition, let then, let otherwise):
            return .choice(bind(condition), then: bind(then, then: suffix), else: otherwise.map { bind($0, then: suffix) })
        default:
            // Not an alias (`RecordProjection.aliases` takes only paths, `first` and `if`).
            return .nothing
        }
    }
}
