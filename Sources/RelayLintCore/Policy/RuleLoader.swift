import Foundation

/// Turns rule YAML into `Rule` values, validating structure, types, durations, severities and
/// placeholders, and reporting every problem at its file, line and column.
struct RuleLoader {
    private var reader = SchemaReader()
    /// How many `for_each` bodies the requirement being read lies in: the outermost one checks
    /// the `$NAME`s of all of them, once (an inner one is read again for each outer item).
    private var forEachDepth = 0
    private let path: String
    private let sha256: String
    /// The file's lines, where a placeholder of a message is looked for.
    private var lines: [Substring] = []
    /// Parameter values from configuration, by rule id and parameter name.
    private let parameterOverrides: [String: [String: YAMLTree]]

    static let ruleKeys = [
        "id", "title", "severity", "scope", "description", "rationale", "references", "controls", "coverage", "params", "when",
        "require", "message", "examples", "needs_declaration",
    ]
    static let matcherKeys = [
        "type", "where", "adds", "links", "removes", "before", "after", "any", "all", "not", "app_manifest", "exported_account",
    ]
    static let stateKeys = ["anonymized", "holds", "lacks", "deleted"]
    static let temporalKeys = ["preceded_by", "followed_by", "not_preceded_by", "not_followed_by"]
    static let requirementKeys =
        temporalKeys + [
            "within", "since_last", "until_next", "without", "all", "any", "exists", "absent", "manifest", "for_each", "as",
            "check", "if",
        ]
    static let fieldTestKeys = ["equals", "in", "not_in", "exists", "relay", "social", "same_as", "in_manifest"]

    init(path: String, sha256: String, parameterOverrides: [String: [String: YAMLTree]] = [:]) {
        self.path = path
        self.sha256 = sha256
        self.parameterOverrides = parameterOverrides
    }

    /// Loads a rule file: one rule (a mapping with `id`) or several (`rules:` list).
    static func load(
        text: String, path: String, sha256: String, parameterOverrides: [String: [String: YAMLTree]] = [:]
    ) -> (rules: [Rule], diagnostics: [Diagnostic]) {
        let parsed = YAMLTree.parseKeepingRepeatedKeys(text, path: path)
        guard let tree = parsed.tree else {
            guard parsed.problems.isEmpty else { return ([], parsed.problems) }
            return ([], [Diagnostic(.error, "rule file is empty", at: SourceLocation(file: path, line: 1, column: 1))])
        }
        var loader = RuleLoader(path: path, sha256: sha256, parameterOverrides: parameterOverrides)
        loader.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var rules: [Rule] = []
        if case .mapping(let pairs) = tree.content, pairs.count == 1, pairs[0].key == "rules" {
            if let list = loader.reader.list(pairs[0].value, what: "'rules'") {
                rules = list.compactMap { loader.rule($0) }
            }
        } else if let rule = loader.rule(tree) {
            rules = [rule]
        }
        return (rules, (parsed.problems + loader.namingParameters(loader.reader.diagnostics)).sorted { $0.location < $1.location })
    }

    /// The problems found in a parameter value the configuration sets, told as that parameter's:
    /// they are placed at its line there, but said in the words of the rule's own key
    /// (`'for_each' must be a list`), which the user of a built-in rule never wrote.
    private func namingParameters(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var names: [SourceLocation: String] = [:]
        for (rule, values) in parameterOverrides {
            for (name, value) in values where value.location.file != path {
                names[value.location] = "parameter '\(name)' of rule '\(rule)'"
            }
        }
        guard !names.isEmpty else { return diagnostics }
        return diagnostics.map { diagnostic in
            guard let name = names[diagnostic.location], !diagnostic.message.contains("parameter") else { return diagnostic }
            var named = diagnostic
            named.message = "the value of \(name): \(diagnostic.message)"
            return named
        }
    }

    private mutating func rule(_ original: YAMLTree) -> Rule? {
        guard let rawMap = reader.mapping(original, what: "a rule", allowed: RuleLoader.ruleKeys, required: ["id", "severity", "message"])
        else { return nil }
        let ruleID: String? = if case .scalar(.string(let text))? = rawMap["id"]?.value.content { text } else { nil }
        let parameters = parameters(rawMap["params"]?.value, ruleID: ruleID)
        let values = Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0.tree) })
        let tree = substitute(original, values: values, prefix: "$params.", skipping: ["params", "examples"])
        // The same keys as `rawMap`, whose unknown ones are reported already (they were twice).
        guard let map = reader.mapping(tree, what: "a rule", allowed: RuleLoader.ruleKeys, reportingUnknownKeys: false) else { return nil }
        let before = reader.diagnostics.count
        var id = ""
        if let node = map["id"]?.value, let text = reader.nonEmptyString(node, what: "'id'") {
            id = text
            if !RuleLoader.isKebabCase(text) {
                reader.report("rule id '\(text)' must be kebab-case: lowercase letters, digits and single hyphens", at: node.location)
            }
        }
        let severity = map["severity"].flatMap { reader.severity($0.value, what: "'severity'") } ?? .error
        var scope = Rule.Scope.subject
        if let node = map["scope"]?.value, let text = reader.string(node, what: "'scope'") {
            if let parsed = Rule.Scope(rawValue: text) {
                scope = parsed
            } else {
                reader.report("'scope' must be subject or app, found '\(text)'", at: node.location)
            }
        }
        let title = map["title"].flatMap { reader.nonEmptyString($0.value, what: "'title'") } ?? id
        let description = map["description"].flatMap { reader.string($0.value, what: "'description'") } ?? ""
        let rationale = map["rationale"].flatMap { reader.string($0.value, what: "'rationale'") } ?? ""
        let controls = map["controls"].flatMap { reader.strings($0.value, what: "'controls'") } ?? []
        let references = map["references"].map { self.references($0.value) } ?? []
        var message = MessageTemplate(parts: [.text(id)], source: id)
        if let node = map["message"]?.value, let text = reader.nonEmptyString(node, what: "'message'") {
            let values = Dictionary(parameters.map { ($0.name, $0.tree.jsonValue.displayText) }, uniquingKeysWith: { first, _ in first })
            switch MessageTemplate.parse(text, parameters: values) {
            case .success(let template):
                // Shown (`rules explain`) with the parameters' values in it, as it is filled.
                let shown = values.reduce(text) { $0.replacingOccurrences(of: "{params.\($1.key)}", with: $1.value) }
                message = MessageTemplate(parts: template.parts, source: shown)
            case .failure(let problem): reader.report(problem.reason, at: node.location)
            }
        }
        var trigger: EventMatcher? = nil
        var accountTrigger: StateCondition? = nil
        var appCondition: Rule.AppCondition? = nil
        switch scope {
        case .subject:
            if let node = map["when"]?.value {
                if case .mapping(let pairs) = node.content, pairs.count == 1, pairs[0].key == "account" {
                    accountTrigger = stateCondition(pairs[0].value, what: "'account'")
                } else {
                    trigger = matcher(node, what: "'when'")
                }
            } else {
                reader.report("a subject rule needs 'when': the events (or `account:` state) that fire it", at: tree.location)
            }
        case .app:
            appCondition = map["when"].map { self.appCondition($0.value) } ?? Rule.AppCondition()
        }
        let requirement = map["require"].map { self.requirement($0.value, scope: scope) ?? Requirement.all([]) } ?? Requirement.never
        let examples = map["examples"].map { self.examples($0.value) } ?? []
        var coverage: Rule.Coverage? = nil
        if let node = map["coverage"]?.value,
            let fields = reader.mapping(node, what: "'coverage'", allowed: ["unit", "compliant"], required: ["unit", "compliant"]),
            let unit = fields["unit"].flatMap({ reader.nonEmptyString($0.value, what: "'unit'") }),
            let compliant = fields["compliant"].flatMap({ reader.nonEmptyString($0.value, what: "'compliant'") })
        {
            coverage = Rule.Coverage(unit: unit, compliant: compliant)
        }
        var declarationNeed: Rule.DeclarationNeed? = nil
        if let node = map["needs_declaration"]?.value {
            declarationNeed = self.declarationNeed(node, usable: trigger != nil)
        }
        guard reader.diagnostics.count == before else { return nil }
        var rule = Rule(
            id: id, title: title, severity: severity, scope: scope, description: description, rationale: rationale,
            references: references, controls: controls, trigger: trigger, accountTrigger: accountTrigger,
            coverage: coverage,
            parameters: parameters.map { Rule.Parameter(name: $0.name, defaultValue: $0.defaultValue, value: $0.tree.jsonValue) },
            appCondition: appCondition,
            requirement: requirement, message: message, examples: examples,
            location: map["id"]?.value.location ?? tree.location, fileSHA256: sha256, declarationNeed: declarationNeed)
        if let entry = map["message"] {
            rule.placeholderLocations = placeholderLocations(of: message, writtenAt: entry.value.location, key: entry.keyLocation)
        }
        return rule
    }

    /// Where each placeholder of `message` is first written, in the file's text from where the
    /// message's value starts to where it ends: its line, and the lines under it indented more
    /// than its key (a block `>-`, a quoted or plain value over several lines), as YAML reads
    /// them; the value's start for one not found as written (escaped in a quoted string).
    /// Columns count Unicode scalars, as the YAML reader's do.
    private func placeholderLocations(
        of message: MessageTemplate, writtenAt start: SourceLocation, key: SourceLocation
    ) -> [String: SourceLocation] {
        let keyIndent = max(0, (key.column ?? 1) - 1)
        var valueLines = [max(0, start.line - 1)]
        for index in valueLines[0] + 1..<lines.count {
            let line = lines[index]
            let indent = line.prefix { $0 == " " }.count
            // A blank line belongs to a block value; the first line indented no more than the
            // key ends the value.
            if indent < line.count, indent <= keyIndent { break }
            valueLines.append(index)
        }
        var found: [String: SourceLocation] = [:]
        for case .placeholder(let name) in message.parts where found[name] == nil {
            let written = "{\(name)}"
            found[name] = start
            for index in valueLines where index < lines.count {
                let line = lines[index]
                var from = line.startIndex
                if index == start.line - 1, let column = start.column {
                    from = line.unicodeScalars.index(line.startIndex, offsetBy: column - 1, limitedBy: line.endIndex) ?? line.endIndex
                }
                if let range = line[from...].range(of: written) {
                    let column = line.unicodeScalars.distance(from: line.startIndex, to: range.lowerBound) + 1
                    found[name] = SourceLocation(file: path, line: index + 1, column: column)
                    break
                }
            }
        }
        return found
    }

    /// `needs_declaration: {manifest: KEY, message: …}`, for subject rules fired by events.
    private mutating func declarationNeed(_ tree: YAMLTree, usable: Bool) -> Rule.DeclarationNeed? {
        guard
            let map = reader.mapping(
                tree, what: "'needs_declaration'", allowed: ["manifest", "message"], required: ["manifest", "message"])
        else { return nil }
        guard usable else {
            reader.report("'needs_declaration' needs a subject rule fired by events ('when:' an event matcher)", at: tree.location)
            return nil
        }
        guard let key = map["manifest"].flatMap({ reader.nonEmptyString($0.value, what: "'manifest'") }),
            let node = map["message"]?.value, let text = reader.nonEmptyString(node, what: "'message'")
        else { return nil }
        switch MessageTemplate.parse(text, roots: ["app", "rule", "count"]) {
        case .success(let template): return Rule.DeclarationNeed(key: key, message: template)
        case .failure(let problem):
            reader.report(problem.reason, at: node.location)
            return nil
        }
    }

    static func isKebabCase(_ text: String) -> Bool {
        guard let first = text.first, first.isLowercase, first.isASCII, !text.hasSuffix("-"), !text.contains("--") else {
            return false
        }
        return text.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
    }

    private mutating func references(_ tree: YAMLTree) -> [Rule.Reference] {
        guard let list = reader.list(tree, what: "'references'") else { return [] }
        return list.compactMap { item in
            if case .scalar(.string(let title)) = item.content { return Rule.Reference(title: title, url: nil) }
            guard let map = reader.mapping(item, what: "a reference", allowed: ["title", "url"], required: ["title"]),
                let title = map["title"].flatMap({ reader.nonEmptyString($0.value, what: "'title'") })
            else { return nil }
            return Rule.Reference(title: title, url: map["url"].flatMap { reader.string($0.value, what: "'url'") })
        }
    }

    // MARK: Matchers

    mutating func matcher(_ tree: YAMLTree, what: String) -> EventMatcher? {
        guard let map = reader.mapping(tree, what: "an event matcher (\(what))", allowed: RuleLoader.matcherKeys) else {
            return nil
        }
        if map.isEmpty {
            reader.report("an event matcher (\(what)) must not be empty", at: tree.location)
            return nil
        }
        var matcher = EventMatcher()
        if let node = map["type"]?.value { matcher.types = reader.strings(node, what: "'type'") ?? [] }
        if let node = map["where"]?.value { matcher.fields = fieldConditions(node) }
        if let node = map["exported_account"]?.value {
            matcher.exportedAccount = fieldConditions(node, what: "'exported_account'")
            if case .mapping(let pairs) = node.content {
                for pair in pairs where !AccountRecord.isAttribute(pair.key) {
                    var message = "unknown account attribute '\(pair.key)' in 'exported_account'"
                    if let suggestion = SchemaReader.closest(to: pair.key, in: AccountRecord.attributeNames) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    reader.report(message + " (known: \(AccountRecord.attributeNames.joined(separator: ", ")))", at: pair.keyLocation)
                }
            }
        }
        if let node = map["adds"]?.value { matcher.adds = facets(node, what: "'adds'").reduce([]) { $0.union($1) } }
        if let node = map["links"]?.value { matcher.links = facets(node, what: "'links'").reduce([]) { $0.union($1) } }
        if let node = map["removes"]?.value { matcher.removes = facets(node, what: "'removes'").reduce([]) { $0.union($1) } }
        if let node = map["before"]?.value { matcher.before = stateCondition(node, what: "'before'") }
        if let node = map["after"]?.value { matcher.after = stateCondition(node, what: "'after'") }
        if let node = map["any"]?.value { matcher.anyOf = matcherList(node, what: "'any'") }
        if let node = map["all"]?.value { matcher.allOf = matcherList(node, what: "'all'") }
        if let node = map["app_manifest"]?.value {
            if case .mapping(let pairs) = node.content {
                for pair in pairs { matcher.appManifest[pair.key] = pair.value.jsonValue }
            } else {
                reader.report("'app_manifest' must be a mapping of declarations, found \(node.kindName)", at: node.location)
            }
        }
        if let node = map["not"]?.value {
            if case .sequence = node.content {
                matcher.noneOf = matcherList(node, what: "'not'")
            } else if let inner = self.matcher(node, what: "'not'") {
                matcher.noneOf = [inner]
            }
        }
        return matcher
    }

    private mutating func matcherList(_ tree: YAMLTree, what: String) -> [EventMatcher] {
        guard let list = reader.list(tree, what: what) else { return [] }
        if list.isEmpty { reader.report("\(what) must list at least one matcher", at: tree.location) }
        return list.compactMap { matcher($0, what: what) }
    }

    private mutating func fieldConditions(_ tree: YAMLTree, what: String = "'where'") -> [FieldCondition] {
        guard case .mapping(let pairs) = tree.content else {
            reader.report("\(what) must be a mapping of field names to values or tests, found \(tree.kindName)", at: tree.location)
            return []
        }
        var conditions: [FieldCondition] = []
        for pair in pairs {
            switch pair.value.content {
            case .scalar(let value):
                conditions.append(FieldCondition(field: pair.key, test: .oneOf([value]), location: pair.keyLocation))
            case .sequence(let elements):
                conditions.append(
                    FieldCondition(field: pair.key, test: .oneOf(scalars(elements, what: "'\(pair.key)'")), location: pair.keyLocation))
            case .mapping:
                guard let tests = reader.mapping(pair.value, what: "the test of field '\(pair.key)'", allowed: RuleLoader.fieldTestKeys)
                else { continue }
                if tests.isEmpty { reader.report("the test of field '\(pair.key)' is empty", at: pair.value.location) }
                for key in RuleLoader.fieldTestKeys {
                    guard let node = tests[key]?.value else { continue }
                    let test: FieldCondition.Test?
                    switch key {
                    case "equals": test = scalar(node, what: "'equals'").map { .oneOf([$0]) }
                    case "in": test = reader.list(node, what: "'in'").map { .oneOf(scalars($0, what: "'in'")) }
                    case "not_in": test = reader.list(node, what: "'not_in'").map { .noneOf(scalars($0, what: "'not_in'")) }
                    case "exists": test = reader.bool(node, what: "'exists'").map { .exists($0) }
                    case "relay": test = reader.bool(node, what: "'relay'").map { .relayAddress($0) }
                    case "social": test = reader.bool(node, what: "'social'").map { .socialProvider($0) }
                    case "in_manifest": test = reader.nonEmptyString(node, what: "'in_manifest'").map { .listedInManifest($0) }
                    default:
                        if let text = reader.string(node, what: "'same_as'") {
                            if text.hasPrefix("event."), text.count > 6 {
                                test = .sameAs(String(text.dropFirst(6)))
                            } else {
                                reader.report(
                                    "'same_as' takes event.FIELD (a field of the firing event), found '\(text)'", at: node.location)
                                test = nil
                            }
                        } else {
                            test = nil
                        }
                    }
                    if let test { conditions.append(FieldCondition(field: pair.key, test: test, location: pair.keyLocation)) }
                }
            }
        }
        return conditions
    }

    private mutating func scalar(_ tree: YAMLTree, what: String) -> JSONValue? {
        if case .scalar(let value) = tree.content { return value }
        reader.report("\(what) must be a single value, found \(tree.kindName)", at: tree.location)
        return nil
    }

    private mutating func scalars(_ trees: [YAMLTree], what: String) -> [JSONValue] {
        trees.compactMap { scalar($0, what: "each value of \(what)") }
    }

    private mutating func facets(_ tree: YAMLTree, what: String) -> [IdentityFacets] {
        guard let names = reader.strings(tree, what: what) else { return [] }
        return names.compactMap { name in
            if let facet = IdentityFacets.named(name) { return facet }
            var message = "\(what): unknown identity '\(name)' (expected one of \(IdentityFacets.names.map(\.0).joined(separator: ", ")))"
            if let suggestion = SchemaReader.closest(to: name, in: IdentityFacets.names.map(\.0)) {
                message += "; did you mean '\(suggestion)'?"
            }
            reader.report(message, at: tree.location)
            return nil
        }
    }

    private mutating func stateCondition(_ tree: YAMLTree, what: String) -> StateCondition? {
        guard let map = reader.mapping(tree, what: "a state condition (\(what))", allowed: RuleLoader.stateKeys) else { return nil }
        var condition = StateCondition()
        if let node = map["anonymized"]?.value { condition.anonymized = reader.bool(node, what: "'anonymized'") }
        if let node = map["deleted"]?.value { condition.deleted = reader.bool(node, what: "'deleted'") }
        if let node = map["holds"]?.value { condition.holds = facets(node, what: "'holds'") }
        if let node = map["lacks"]?.value { condition.lacks = facets(node, what: "'lacks'").reduce([]) { $0.union($1) } }
        return condition
    }

    // MARK: Requirements

    private mutating func requirement(_ tree: YAMLTree, scope: Rule.Scope) -> Requirement? {
        guard let map = reader.mapping(tree, what: "a requirement", allowed: RuleLoader.requirementKeys) else { return nil }
        let forms = RuleLoader.temporalKeys + ["all", "any", "exists", "absent", "manifest", "for_each"]
        let present = forms.filter { map[$0] != nil }
        guard present.count == 1, let form = present.first else {
            reader.report(
                present.isEmpty
                    ? "a requirement needs one of \(forms.joined(separator: ", "))"
                    : "a requirement takes exactly one of \(present.joined(separator: ", ")); combine several with 'all' or 'any'",
                at: tree.location)
            return nil
        }
        guard let inner = requirementBody(map, form: form, tree: tree, scope: scope) else { return nil }
        if let condition = map["if"] {
            if scope == .app { reader.report("'if' applies to subject rules", at: condition.keyLocation) }
            guard let state = stateCondition(condition.value, what: "'if'") else { return nil }
            return .conditional(state, inner)
        }
        return inner
    }

    private mutating func requirementBody(
        _ map: [String: (keyLocation: SourceLocation, value: YAMLTree)], form: String, tree: YAMLTree, scope: Rule.Scope
    ) -> Requirement? {
        let node = map[form]!.value
        let modifiers = ["within", "since_last", "until_next", "without"].filter { map[$0] != nil }
        if !RuleLoader.temporalKeys.contains(form), let modifier = modifiers.first {
            reader.report("'\(modifier)' applies only to preceded_by, followed_by and their not_ forms", at: map[modifier]!.keyLocation)
        }
        for key in ["as", "check"] where form != "for_each" && map[key] != nil {
            reader.report("'\(key)' goes with 'for_each'", at: map[key]!.keyLocation)
        }
        switch form {
        case "all", "any":
            guard let list = reader.list(node, what: "'\(form)'") else { return nil }
            if list.isEmpty { reader.report("'\(form)' must list at least one requirement", at: node.location) }
            let requirements = list.compactMap { requirement($0, scope: scope) }
            return form == "all" ? .all(requirements) : .any(requirements)
        case "for_each":
            guard let items = reader.list(node, what: "'for_each'") else { return nil }
            guard let name = map["as"].flatMap({ reader.nonEmptyString($0.value, what: "'as'") }) else {
                reader.report("'for_each' needs 'as': the name the body refers to as $NAME", at: tree.location)
                return nil
            }
            guard let body = map["check"]?.value else {
                reader.report("'for_each' needs 'check': the requirement to check for each item", at: tree.location)
                return nil
            }
            if forEachDepth == 0 { reportUnknownVariables(in: body, declared: Self.forEachNames(in: body).union([name])) }
            forEachDepth += 1
            defer { forEachDepth -= 1 }
            let bodies = items.compactMap { item in
                requirement(substitute(body, values: [name: item], prefix: "$", skipping: []), scope: scope)
            }
            return .all(bodies)
        case "exists", "absent":
            guard let matcher = matcher(node, what: "'\(form)'") else { return nil }
            return form == "exists" ? .exists(matcher) : .absent(matcher)
        case "manifest":
            if scope == .subject { reader.report("'manifest' is for app rules (scope: app)", at: map[form]!.keyLocation) }
            guard case .mapping(let pairs) = node.content else {
                reader.report("'manifest' must be a mapping of declarations, found \(node.kindName)", at: node.location)
                return nil
            }
            var declarations: [String: JSONValue] = [:]
            for pair in pairs { declarations[pair.key] = pair.value.jsonValue }
            return .manifest(declarations)
        default:
            if scope == .app {
                reader.report("'\(form)' is for subject rules; app rules use exists, absent or manifest", at: map[form]!.keyLocation)
            }
            let direction: TemporalRequirement.Direction = form.hasSuffix("preceded_by") ? .before : .after
            guard let witness = matcher(node, what: "'\(form)'") else { return nil }
            var temporal = TemporalRequirement(direction: direction, mustExist: !form.hasPrefix("not_"), witness: witness)
            if let within = map["within"]?.value { temporal.within = reader.duration(within, what: "'within'") }
            if let boundary = map["since_last"] {
                if direction == .after {
                    reader.report("'since_last' goes with preceded_by; use 'until_next' with followed_by", at: boundary.keyLocation)
                }
                temporal.boundary = matcher(boundary.value, what: "'since_last'")
            }
            if let boundary = map["until_next"] {
                if direction == .before {
                    reader.report("'until_next' goes with followed_by; use 'since_last' with preceded_by", at: boundary.keyLocation)
                }
                temporal.boundary = matcher(boundary.value, what: "'until_next'")
            }
            if let interruption = map["without"]?.value { temporal.interruption = matcher(interruption, what: "'without'") }
            return .temporal(temporal)
        }
    }

    private mutating func appCondition(_ tree: YAMLTree) -> Rule.AppCondition {
        var condition = Rule.AppCondition()
        guard let map = reader.mapping(tree, what: "the app condition ('when' of an app rule)", allowed: ["creates_accounts", "manifest"])
        else {
            return condition
        }
        if let node = map["creates_accounts"]?.value { condition.createsAccounts = reader.bool(node, what: "'creates_accounts'") }
        if let node = map["manifest"]?.value {
            if case .mapping(let pairs) = node.content {
                for pair in pairs { condition.manifest[pair.key] = pair.value.jsonValue }
            } else {
                reader.report("'manifest' must be a mapping of declarations, found \(node.kindName)", at: node.location)
            }
        }
        return condition
    }

    // MARK: Parameters

    private struct ParameterValue {
        var name: String
        var defaultValue: JSONValue
        var tree: YAMLTree
    }

    /// The rule's parameters, with configured values in place of defaults.
    private mutating func parameters(_ tree: YAMLTree?, ruleID: String?) -> [ParameterValue] {
        let overrides = ruleID.flatMap { parameterOverrides[$0] } ?? [:]
        var result: [ParameterValue] = []
        if let tree, case .mapping(let pairs) = tree.content {
            for pair in pairs {
                result.append(ParameterValue(name: pair.key, defaultValue: pair.value.jsonValue, tree: overrides[pair.key] ?? pair.value))
            }
        } else if let tree {
            reader.report("'params' must be a mapping of names to default values, found \(tree.kindName)", at: tree.location)
        }
        for (name, value) in overrides where !result.contains(where: { $0.name == name }) {
            let known = result.map(\.name)
            reader.report(
                "rule '\(ruleID ?? "")' has no parameter '\(name)'" + (known.isEmpty ? "" : " (it has: \(known.joined(separator: ", ")))"),
                at: value.location)
        }
        return result
    }

    /// The names the `for_each` requirements below `tree` give their items (`as:`).
    private static func forEachNames(in tree: YAMLTree) -> Set<String> {
        switch tree.content {
        case .scalar: return []
        case .sequence(let elements): return elements.reduce(into: []) { $0.formUnion(forEachNames(in: $1)) }
        case .mapping(let pairs):
            var names: Set<String> = []
            for pair in pairs {
                if pair.key == "as", case .scalar(.string(let name)) = pair.value.content { names.insert(name) }
                names.formUnion(forEachNames(in: pair.value))
            }
            return names
        }
    }

    /// Reports every `$NAME` below a `for_each` body that no `for_each` around it declares but
    /// that is close to one that does: a misspelt one (`$stroe`) was taken as the text "$stroe"
    /// and the rule fired on every event; a name far from any (`$premium`) is a value.
    /// Only names as a `for_each` gives them (a letter, then letters, digits, `_` or `-`) are
    /// read so: `$5` and `$` stay text.
    private mutating func reportUnknownVariables(in tree: YAMLTree, declared: Set<String>) {
        switch tree.content {
        case .scalar(.string(let text)) where text.hasPrefix("$"):
            let name = text.dropFirst()
            guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
                name.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
                }),
                !declared.contains(String(name))
            else { return }
            // Only a name close to a declared one is taken for a misspelling: `$premium` may be
            // a value written so.
            guard let closest = SchemaReader.closest(to: String(name), in: declared.sorted()) else { return }
            let hint = "; did you mean '$\(closest)'?"
            reader.report(
                "unknown variable '$\(name)': a for_each names its items with 'as' (\(declared.sorted().map { "$\($0)" }.joined(separator: ", ")))\(hint)",
                at: tree.location)
        case .scalar: break
        case .sequence(let elements): for element in elements { reportUnknownVariables(in: element, declared: declared) }
        case .mapping(let pairs): for pair in pairs { reportUnknownVariables(in: pair.value, declared: declared) }
        }
    }

    /// Replaces scalars written `PREFIXname` with the named value, anywhere below `tree` except
    /// under the skipped top-level keys.
    private mutating func substitute(_ tree: YAMLTree, values: [String: YAMLTree], prefix: String, skipping: Set<String>) -> YAMLTree {
        var copy = tree
        switch tree.content {
        case .scalar(.string(let text)) where text.hasPrefix(prefix):
            let name = String(text.dropFirst(prefix.count))
            if let value = values[name] {
                // A value the configuration sets is told at its own line there: the rule's file may
                // be the built-in pack's, which is not on the user's machine.
                return YAMLTree(content: value.content, location: value.location.file == path ? tree.location : value.location)
            }
            if prefix == "$params." { reader.report("unknown parameter '\(name)' (declare it under 'params')", at: tree.location) }
        case .scalar:
            break
        case .sequence(let elements):
            copy.content = .sequence(elements.map { substitute($0, values: values, prefix: prefix, skipping: []) })
        case .mapping(let pairs):
            copy.content = .mapping(
                pairs.map { pair in
                    skipping.contains(pair.key)
                        ? pair : (pair.key, pair.keyLocation, substitute(pair.value, values: values, prefix: prefix, skipping: []))
                })
        }
        return copy
    }

    // MARK: Examples

    private mutating func examples(_ tree: YAMLTree) -> [RuleExample] {
        guard let list = reader.list(tree, what: "'examples'") else { return [] }
        return list.compactMap { item in
            guard
                let map = reader.mapping(
                    item, what: "an example", allowed: ["name", "events", "accounts", "manifest", "fires"],
                    required: ["name", "fires"])
            else { return nil }
            let name = map["name"].flatMap { reader.nonEmptyString($0.value, what: "'name'") } ?? ""
            func records(_ key: String) -> [(value: JSONValue, location: SourceLocation)] {
                guard let node = map[key]?.value, let list = reader.list(node, what: "'\(key)'") else { return [] }
                return list.map { ($0.jsonValue, $0.location) }
            }
            let fires = map["fires"].flatMap { reader.strings($0.value, what: "'fires'") } ?? []
            return RuleExample(
                name: name, events: records("events"), accounts: records("accounts"),
                manifest: records("manifest"), expectedFirings: fires, location: item.location,
                firesLocation: map["fires"]?.value.location)
        }
    }
}
