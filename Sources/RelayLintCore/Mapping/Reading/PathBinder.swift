/// Binds the paths of a mapping to one record layout and to the positions of its named values
/// (`BoundPath`), once for each mapper: every expression of the mapping is rewritten with its
/// paths bound, and the mapper evaluates only those.
struct PathBinder: Sendable {
    let layout: RecordLayout
    private let positions: [String: Int]
    /// The record paths each alias stands for (`AliasPaths`), by name, and its position.
    private let aliases: [String: (position: Int, paths: [[String]])]

    /// A binder of no named values.
    init(layout: RecordLayout) {
        self.layout = layout
        positions = [:]
        aliases = [:]
    }

    init(_ mapping: LogMapping, layout: RecordLayout) {
        self.layout = layout
        var positions: [String: Int] = [:]
        var aliases: [String: (position: Int, paths: [[String]])] = [:]
        var paths: [String: [[String]]] = [:]
        for (position, entry) in mapping.lets.enumerated() {
            positions[entry.name] = position
            // The aliases `RecordProjection` reads the record along.
            if case .paths(let aliasPaths) = AliasPaths.of(entry.value, aliases: paths) {
                aliases[entry.name] = (position, aliasPaths)
                paths[entry.name] = aliasPaths
            }
        }
        self.positions = positions
        self.aliases = aliases
    }

    /// How each alias chooses its path, by the position of its `let` (nil for other values).
    func aliasChoices(of mapping: LogMapping) -> [BoundAlias?] {
        mapping.lets.map { entry in
            guard let alias = aliases[entry.name] else { return nil }
            var indices: [[String]: Int] = [:]
            for (index, path) in alias.paths.enumerated() { indices[path] = index }
            return BoundAlias(values: alias.paths.map(layout.read), choice: choice(entry.value, paths: indices))
        }
    }

    /// The choice an alias's definition makes, as a position among `paths` (the alias's own).
    private func choice(_ expression: MappingExpression, paths: [[String]: Int]) -> AliasChoice {
        switch expression {
        case .path(let path):
            // Every path looked up here is one `AliasPaths` collected for this alias.
            guard let variable = path.variable, let inner = aliases[variable] else { return .path(paths[path.segments] ?? 0) }
            return .alias(inner.position, paths: inner.paths.map { paths[$0 + path.segments] ?? 0 })
        case .first(let candidates):
            return .first(candidates.map { choice($0, paths: paths) })
        case .condition(let condition, let then, let otherwise):
            return .condition(bind(condition), then: choice(then, paths: paths), else: otherwise.map { choice($0, paths: paths) })
        default:
            // Not in an alias (`AliasPaths` takes only paths, `first` and `if`).
            return .first([])
        }
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
        if let alias = aliases[variable] {
            return .aliased(alias.position, values: alias.paths.map { layout.read($0 + path.segments) })
        }
        if let position = positions[variable] { return .named(position, segments: path.segments) }
        return .nothing
    }
}
