/// Turns a mapping file's YAML into a `LogMapping`, reporting every problem (unknown keys with a
/// "did you mean", values of the wrong kind, unknown `$names`, bad regular expressions) at its
/// file, line and column, all at once.
struct MappingLoader {
    private var reader = SchemaReader()
    private let path: String
    /// The `$names` an expression may use where it is read: the `let:` values before it, and
    /// `item` inside `for_each`.
    private var known: Set<String> = []
    /// Every name under `let`, and the one being read, so that a value read too early or
    /// through itself is told as such rather than as undeclared.
    private var declared: Set<String> = []
    private var declaring: String?

    static let mappingKeys = [
        "mapping", "title", "description", "recognize", "let", "skip", "defaults", "events", "unmatched", "examples",
    ]
    static let reservedKeys = ["id", "time", "subject", "subject_apple_id", "app"]
    static let eventKeys = ["when", "for_each", "type", "fields"] + reservedKeys
    static let expressionKeys = [
        "value", "path", "first", "if", "lookup", "last_part", "regex", "parse_json", "jws_claims", "epoch_milliseconds",
        "concat", "lowercase",
    ]
    static let testKeys = ["equals", "not_equals", "in", "exists", "is"]
    static let exampleKeys = ["name", "record", "record_json", "events", "skipped", "invalid", "apple_ids"]

    init(path: String) { self.path = path }

    /// Loads one mapping file.
    static func load(text: String, path: String, sha256: String) -> Result<LogMapping, DiagnosticsError> {
        let parsed = YAMLTree.parseKeepingRepeatedKeys(text, path: path)
        guard let tree = parsed.tree else {
            guard parsed.problems.isEmpty else { return .failure(DiagnosticsError(parsed.problems)) }
            return .failure(
                DiagnosticsError([Diagnostic(.error, "mapping file is empty", at: SourceLocation(file: path, line: 1, column: 1))]))
        }
        var loader = MappingLoader(path: path)
        let mapping = loader.mapping(tree, sha256: sha256, text: text)
        let problems = (parsed.problems + loader.reader.diagnostics).sorted { $0.location < $1.location }
        guard problems.isEmpty, let mapping else { return .failure(DiagnosticsError(problems)) }
        return .success(mapping)
    }

    private mutating func mapping(_ tree: YAMLTree, sha256: String, text: String) -> LogMapping? {
        guard
            let map = reader.mapping(
                tree, what: "a mapping file", allowed: MappingLoader.mappingKeys, required: ["mapping", "recognize", "events"])
        else { return nil }
        var id = ""
        if let node = map["mapping"]?.value, let text = reader.nonEmptyString(node, what: "'mapping'") {
            id = text
            if !RuleLoader.isKebabCase(text) {
                reader.report("mapping name '\(text)' must be kebab-case: lowercase letters, digits and single hyphens", at: node.location)
            }
        }
        let title = map["title"].flatMap { reader.nonEmptyString($0.value, what: "'title'") } ?? id
        let description = map["description"].flatMap { reader.string($0.value, what: "'description'") } ?? ""
        var lets: [(name: String, value: MappingExpression)] = []
        // How deep each value's evaluation recurses (`EvaluationDepth`).
        var letDepths: [String: Int] = [:]
        if let node = map["let"]?.value {
            if case .mapping(let pairs) = node.content {
                declared = Set(pairs.map(\.key))
                for pair in pairs {
                    // `$item` is the element of a `for_each` list; a value of that name would be
                    // read as one or the other depending on where it is first read.
                    if pair.key == "item" {
                        reader.report("'item' is the name of a for_each list's element; give the value another name", at: pair.keyLocation)
                    }
                    declaring = pair.key
                    defer { declaring = nil }
                    if let value = expression(pair.value, what: "'let.\(pair.key)'") {
                        let depth = EvaluationDepth.of(value, lets: letDepths)
                        if depth > EvaluationDepth.maximum {
                            reader.report(
                                "'let.\(pair.key)' nests \(depth) levels deep through the values it reads; at most \(EvaluationDepth.maximum)",
                                at: pair.keyLocation)
                        }
                        // A value reported as too deep counts as shallow for the values that read
                        // it, so that one mistake is one error, not one per value after it.
                        letDepths[pair.key] = depth > EvaluationDepth.maximum ? 0 : depth
                        lets.append((pair.key, value))
                    }
                    known.insert(pair.key)
                }
            } else {
                reader.report("'let' must be a mapping of names to values, found \(node.kindName)", at: node.location)
            }
        }
        let recognize = map["recognize"].flatMap { condition($0.value, what: "'recognize'") } ?? .all([])
        let skips =
            map["skip"].flatMap { reader.list($0.value, what: "'skip'") }?.compactMap { skipRule($0, what: "each item of 'skip'") } ?? []
        var defaults = EventTemplate.Reserved()
        if let node = map["defaults"]?.value, let fields = reader.mapping(node, what: "'defaults'", allowed: MappingLoader.reservedKeys) {
            defaults = reserved(fields, in: "'defaults'", at: node.location)
        }
        var events: [EventTemplate] = []
        if let node = map["events"]?.value, let list = reader.list(node, what: "'events'") {
            events = list.compactMap { eventTemplate($0) }
            if list.isEmpty { reader.report("'events' must list at least one event", at: node.location) }
        }
        var unmatched = LogMapping.SkipRule(condition: nil, reason: "no event rule matched", detail: nil)
        if let node = map["unmatched"]?.value,
            let fields = reader.mapping(node, what: "'unmatched'", allowed: ["reason", "detail"], required: ["reason"]),
            let reason = fields["reason"].flatMap({ reader.nonEmptyString($0.value, what: "'reason'") })
        {
            unmatched = LogMapping.SkipRule(
                condition: nil, reason: reason, detail: fields["detail"].flatMap { expression($0.value, what: "'detail'") })
        }
        let examples = map["examples"].flatMap { reader.list($0.value, what: "'examples'") }?.compactMap { example($0) } ?? []
        return LogMapping(
            id: id, title: title, description: description, recognize: recognize, lets: lets, skips: skips, defaults: defaults,
            events: events, unmatched: unmatched, examples: examples, location: SourceLocation(file: path, line: 1), sha256: sha256,
            text: text)
    }

    private mutating func skipRule(_ tree: YAMLTree, what: String) -> LogMapping.SkipRule? {
        guard let fields = reader.mapping(tree, what: what, allowed: ["when", "reason", "detail"], required: ["when", "reason"]),
            let reason = fields["reason"].flatMap({ reader.nonEmptyString($0.value, what: "'reason'") })
        else { return nil }
        return LogMapping.SkipRule(
            condition: fields["when"].flatMap { condition($0.value, what: "'when'") }, reason: reason,
            detail: fields["detail"].flatMap { expression($0.value, what: "'detail'") })
    }

    private mutating func reserved(
        _ fields: [String: (keyLocation: SourceLocation, value: YAMLTree)], in what: String, at location: SourceLocation
    ) -> EventTemplate.Reserved {
        var result = EventTemplate.Reserved()
        result.id = fields["id"].flatMap { reservedValue($0.value, name: "id") }
        result.time = fields["time"].flatMap { reservedValue($0.value, name: "time") }
        result.subject = fields["subject"].flatMap { reservedValue($0.value, name: "subject") }
        result.subjectAppleID = fields["subject_apple_id"].flatMap { reservedValue($0.value, name: "subject_apple_id") }
        result.app = fields["app"].flatMap { reservedValue($0.value, name: "app") }
        if result.subject != nil, result.subjectAppleID != nil {
            reader.report("\(what) gives both 'subject' and 'subject_apple_id'; give one", at: location)
        }
        return result
    }

    /// A reserved field's value; a constant is checked here as every record would check it
    /// (`Event.make`): `type: 42` made every record the mapping gave invalid, and passed
    /// validation. Null is no value, as a path that finds none.
    private mutating func reservedValue(_ node: YAMLTree, name: String) -> MappingExpression? {
        guard let value = expression(node, what: "'\(name)'") else { return nil }
        let constant: JSONValue
        switch value {
        case .constant(let written): constant = written
        case _ where !value.readsRecord:
            // A function of constants (`epoch_milliseconds: "2026"`) gives every record the same
            // value, or the same failure: worked out once, here.
            do throws(MappingFailure) {
                constant = try value.evaluate(in: MappingScope(record: .null, tokens: TokenReader(keys: nil))) ?? .null
            } catch {
                reader.report("'\(name)' fails for every record: \(error.reason)", at: node.location)
                return value
            }
        default: return value
        }
        switch constant {
        // Every event of a template names its type (a default may be left for a template to
        // give): none, from constants alone, made every record invalid.
        case .null where name == "type": reader.report("'type' gives no value for any record", at: node.location)
        case .null: break
        case .string(let text) where name == "time":
            if case .valid = Timestamp.parse(rfc3339: text) { break }
            reader.report("'time' is not an RFC 3339 timestamp: '\(text)'", at: node.location)
        case .number(let number) where name == "time":
            if Timestamp(epochMilliseconds: number) != nil { break }
            reader.report("'time' is out of range: \(number.text) (epoch milliseconds from year 1 to year 9999)", at: node.location)
        case .string: break
        default:
            reader.report("'\(name)' must be \(name == "time" ? "a time" : "a string"), found \(constant.kindName)", at: node.location)
        }
        return value
    }

    private mutating func eventTemplate(_ tree: YAMLTree) -> EventTemplate? {
        guard let map = reader.mapping(tree, what: "an event", allowed: MappingLoader.eventKeys, required: ["type"]) else { return nil }
        let condition = map["when"].flatMap { self.condition($0.value, what: "'when'") }
        let forEach = map["for_each"].flatMap { expression($0.value, what: "'for_each'") }
        let outer = known
        if forEach != nil { known.insert("item") }
        defer { known = outer }
        let type = map["type"].flatMap { reservedValue($0.value, name: "type") }
        let reserved = reserved(map, in: "an event", at: tree.location)
        var fields: [(name: String, value: MappingExpression)] = []
        if let node = map["fields"]?.value {
            if case .mapping(let pairs) = node.content {
                for pair in pairs {
                    if Event.reservedFields.contains(pair.key) {
                        reader.report("'\(pair.key)' is a reserved field: set it next to 'type', not under 'fields'", at: pair.keyLocation)
                    }
                    if let value = expression(pair.value, what: "field '\(pair.key)'") { fields.append((pair.key, value)) }
                }
            } else {
                reader.report("'fields' must be a mapping of field names to values, found \(node.kindName)", at: node.location)
            }
        }
        guard let type else { return nil }
        return EventTemplate(
            condition: condition, forEach: forEach, type: type, reserved: reserved, fields: fields, location: tree.location)
    }

    // MARK: Expressions and conditions

    /// Why `$variable` cannot be read where it is: a value reads only those declared above it,
    /// never itself, and `$item` only inside a `for_each`.
    private func unknownValueMessage(_ variable: String) -> String {
        let knownHere = known.isEmpty ? "" : " (known here: \(known.sorted().map { "$" + $0 }.joined(separator: ", ")))"
        if variable == declaring { return "'$\(variable)' reads itself; a value reads only those declared above it\(knownHere)" }
        if variable == "item" { return "'$item' is a for_each list's element: it is read only in an event with 'for_each'\(knownHere)" }
        if declared.contains(variable) {
            return "'$\(variable)' is declared below; a value reads only those declared above it (move it up)\(knownHere)"
        }
        var message = "unknown value '$\(variable)'"
        if let suggestion = SchemaReader.closest(to: variable, in: known.sorted()) { message += "; did you mean '$\(suggestion)'?" }
        return message + (known.isEmpty ? " (declare it under 'let')" : knownHere)
    }

    /// The text of a plain value written as the name of a value the mapping gives (`$v`,
    /// `$item`), which a reader takes for that value's; nil for any other (`"$1.99"` is text).
    private func namedValueWrittenAsText(_ tree: YAMLTree) -> String? {
        guard case .scalar(.string(let text)) = tree.content, let variable = MappingPath(text)?.variable,
            known.contains(variable) || declared.contains(variable) || variable == "item"
        else { return nil }
        return text
    }

    /// Reports each of the constants at `trees` (a table's values, a test's operands) written
    /// as a value's name: compared or given as the text `$v`, they were never the value.
    private mutating func refuseNamedValues(in trees: [YAMLTree], _ what: String, because rule: String) {
        for tree in trees {
            if let text = namedValueWrittenAsText(tree) {
                reader.report("\(what) is the text '\(text)', not the value of '\(text)': \(rule)", at: tree.location)
            } else if case .mapping(let pairs) = tree.content, pairs.count == 1, MappingLoader.expressionKeys.contains(pairs[0].key) {
                // `{path: $v}` or `{value: x}` there is an object compared as it is, never a
                // value worked out: it matched nothing, silently.
                reader.report(
                    "\(what) is an object with the key '\(pairs[0].key)', not a value worked out from the record: \(rule)",
                    at: tree.location)
            }
        }
    }

    mutating func expression(_ tree: YAMLTree, what: String) -> MappingExpression? {
        switch tree.content {
        case .scalar(let value):
            if let text = namedValueWrittenAsText(tree) {
                reader.report(
                    "\(what) is the text '\(text)'; to read the value write {path: \(text)} (or {value: \"\(text)\"} for the text)",
                    at: tree.location)
                return nil
            }
            return .constant(value)
        case .sequence:
            reader.report(
                "\(what) must be a constant or a mapping with one of \(MappingLoader.expressionKeys.joined(separator: ", ")); found a list",
                at: tree.location)
            return nil
        case .mapping(let pairs):
            let operators = pairs.filter { MappingLoader.expressionKeys.contains($0.key) }
            guard operators.count == 1, let op = operators.first else {
                if operators.isEmpty, let pair = pairs.first {
                    var message = "unknown key '\(PIIMasker().mask(pair.key))' in \(what)"
                    if let suggestion = SchemaReader.closest(to: pair.key, in: MappingLoader.expressionKeys) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    reader.report(
                        message + " (a value is one of: \(MappingLoader.expressionKeys.joined(separator: ", ")))", at: pair.keyLocation)
                } else {
                    reader.report(
                        "\(what) must have exactly one of \(MappingLoader.expressionKeys.joined(separator: ", "))", at: tree.location)
                }
                return nil
            }
            let extra: [String: [String]] = [
                "if": ["then", "else"], "lookup": ["table", "default"], "last_part": ["separator"], "regex": ["pattern", "group"],
            ]
            guard
                let map = reader.mapping(
                    tree, what: what, allowed: [op.key] + (extra[op.key] ?? []),
                    required: op.key == "if" ? ["then"] : op.key == "lookup" ? ["table"] : op.key == "regex" ? ["pattern"] : [])
            else { return nil }
            let inner = op.value
            switch op.key {
            case "value": return .constant(inner.jsonValue)
            case "path":
                guard let text = reader.string(inner, what: "'path'") else { return nil }
                guard let path = MappingPath(text) else {
                    reader.report(
                        "'\(text)' is not a path: names separated by single dots, optionally starting with $name", at: inner.location)
                    return nil
                }
                // A record nests at most as deep as the parser reads (512 levels): a longer
                // path reaches nothing, and one of 50,000 parts overflowed the stack.
                guard path.segments.count <= MappingPath.maximumSegments else {
                    reader.report(
                        "a path of \(path.segments.count) parts; at most \(MappingPath.maximumSegments), as records nest no deeper",
                        at: inner.location)
                    return nil
                }
                if let variable = path.variable, !known.contains(variable) {
                    reader.report(unknownValueMessage(variable), at: inner.location)
                }
                return .path(path)
            case "first", "concat":
                guard let list = reader.list(inner, what: "'\(op.key)'") else { return nil }
                let parts = list.compactMap { expression($0, what: "each item of '\(op.key)'") }
                guard parts.count == list.count else { return nil }
                return op.key == "first" ? .first(parts) : .concat(parts)
            case "if":
                guard let condition = condition(inner, what: "'if'"),
                    let then = map["then"].flatMap({ expression($0.value, what: "'then'") })
                else { return nil }
                let otherwise = map["else"].flatMap { expression($0.value, what: "'else'") }
                return .condition(condition, then: then, else: otherwise)
            case "lookup":
                guard let key = expression(inner, what: "'lookup'"), let tableNode = map["table"]?.value else { return nil }
                guard case .mapping(let rows) = tableNode.content else {
                    reader.report("'table' must be a mapping of keys to values, found \(tableNode.kindName)", at: tableNode.location)
                    return nil
                }
                var table: [String: JSONValue] = [:]
                // Keys written as numbers are found by value too (`MappingExpression.numberKey`);
                // two of one value would make the entry found depend on the order of a dictionary.
                var numbers: [String: String] = [:]
                refuseNamedValues(in: rows.map(\.value), "a value of 'table'", because: "a table gives constants only")
                for row in rows {
                    table[row.key] = row.value.jsonValue
                    guard JSONNumber.value(written: row.key) != nil else { continue }
                    let key = MappingExpression.numberKey(row.key)
                    if let earlier = numbers[key] {
                        reader.report("table keys '\(earlier)' and '\(row.key)' are the same number", at: row.keyLocation)
                    }
                    numbers[key] = row.key
                    table[key] = row.value.jsonValue
                }
                return .lookup(key, table: table, default: map["default"].flatMap { expression($0.value, what: "'default'") })
            case "last_part":
                guard let value = expression(inner, what: "'last_part'") else { return nil }
                let separator = map["separator"].flatMap { reader.nonEmptyString($0.value, what: "'separator'") } ?? "."
                return .lastPart(value, separator: separator)
            case "regex":
                guard let value = expression(inner, what: "'regex'"), let patternNode = map["pattern"]?.value,
                    let source = reader.nonEmptyString(patternNode, what: "'pattern'")
                else { return nil }
                let regex: MappingRegex
                do {
                    regex = try MappingRegex(source)
                } catch {
                    reader.report("'pattern' is not a valid regular expression: \(source)", at: patternNode.location)
                    return nil
                }
                var group = regex.groupCount > 0 ? 1 : 0
                if let groupNode = map["group"]?.value {
                    if case .scalar(.number(let number)) = groupNode.content, let value = Int(number.text), value >= 0,
                        value <= regex.groupCount
                    {
                        group = value
                    } else {
                        reader.report("'group' must be a group number from 0 to \(regex.groupCount)", at: groupNode.location)
                    }
                }
                return .regex(value, pattern: regex, group: group)
            case "parse_json": return expression(inner, what: "'parse_json'").map(MappingExpression.parseJSON)
            case "jws_claims": return expression(inner, what: "'jws_claims'").map(MappingExpression.jwsClaims)
            case "epoch_milliseconds": return expression(inner, what: "'epoch_milliseconds'").map(MappingExpression.epochMilliseconds)
            case "lowercase": return expression(inner, what: "'lowercase'").map(MappingExpression.lowercase)
            default: return nil
            }
        }
    }

    mutating func condition(_ tree: YAMLTree, what: String) -> MappingCondition? {
        guard case .mapping(let pairs) = tree.content else {
            reader.report(
                "\(what) must be a condition: {all: […]}, {any: […]}, {not: …} or {path: …, equals: …}; found \(tree.kindName)",
                at: tree.location)
            return nil
        }
        if pairs.count == 1, ["all", "any"].contains(pairs[0].key) {
            guard let list = reader.list(pairs[0].value, what: "'\(pairs[0].key)'") else { return nil }
            let conditions = list.compactMap { condition($0, what: "each item of '\(pairs[0].key)'") }
            guard conditions.count == list.count else { return nil }
            return pairs[0].key == "all" ? .all(conditions) : .any(conditions)
        }
        if pairs.count == 1, pairs[0].key == "not" {
            return condition(pairs[0].value, what: "'not'").map(MappingCondition.not)
        }
        guard
            let map = reader.mapping(
                tree, what: what, allowed: ["path", "value"] + MappingLoader.testKeys + ["all", "any", "not"])
        else { return nil }
        for key in ["all", "any", "not"] where map[key] != nil {
            reader.report("'\(key)' must stand alone in its condition", at: map[key]!.keyLocation)
        }
        let subjects = ["path", "value"].filter { map[$0] != nil }
        guard subjects.count == 1 else {
            reader.report("\(what) needs exactly one of 'path' or 'value' to test", at: tree.location)
            return nil
        }
        let subject: MappingExpression?
        if subjects[0] == "path" {
            subject = expression(
                YAMLTree(
                    content: .mapping([(key: "path", keyLocation: map["path"]!.keyLocation, value: map["path"]!.value)]),
                    location: tree.location), what: what)
        } else {
            subject = expression(map["value"]!.value, what: "'value'")
        }
        var tests: [MappingCondition.Test] = []
        for key in ["equals", "not_equals"] {
            refuseNamedValues(in: map[key].map { [$0.value] } ?? [], "'\(key)'", because: "a test compares with constants only")
        }
        if case .sequence(let elements)? = map["in"]?.value.content {
            refuseNamedValues(in: elements, "an item of 'in'", because: "a test compares with constants only")
        }
        if let node = map["equals"]?.value { tests.append(.equals(node.jsonValue)) }
        if let node = map["not_equals"]?.value { tests.append(.notEquals(node.jsonValue)) }
        if let node = map["in"]?.value {
            if case .sequence(let elements) = node.content {
                tests.append(.isIn(CandidateValues(elements.map(\.jsonValue))))
            } else {
                reader.report("'in' must be a list, found \(node.kindName)", at: node.location)
            }
        }
        if let node = map["exists"]?.value, let flag = reader.bool(node, what: "'exists'") { tests.append(.exists(flag)) }
        if let node = map["is"]?.value {
            if case .scalar(.string(let text)) = node.content, let kind = MappingCondition.Kind(rawValue: text) {
                tests.append(.kind(kind))
            } else if case .scalar(.null) = node.content {
                // `is: null` as the reference writes it, which YAML reads as null, not as the word.
                tests.append(.kind(.null))
            } else {
                reader.report(
                    "'is' must be one of \(MappingCondition.Kind.allCases.map(\.rawValue).joined(separator: ", ")); found \(SchemaReader.shown(node))",
                    at: node.location)
            }
        }
        if MappingLoader.testKeys.allSatisfy({ map[$0] == nil }) {
            reader.report("\(what) needs a test: one of \(MappingLoader.testKeys.joined(separator: ", "))", at: tree.location)
        }
        guard let subject else { return nil }
        return .test(subject, tests)
    }

    // MARK: Examples

    private mutating func example(_ tree: YAMLTree) -> MappingExample? {
        guard let map = reader.mapping(tree, what: "an example", allowed: MappingLoader.exampleKeys) else { return nil }
        let name = map["name"].flatMap { reader.nonEmptyString($0.value, what: "'name'") } ?? "example at line \(tree.location.line)"
        var record: JSONValue?
        // A record that is not JSON (a key written twice, a bad escape) is an example of an
        // invalid record, which only `record_json` can write; for any other expectation it is a
        // mistake in the example.
        var notJSON: (reason: String, location: SourceLocation)?
        switch (map["record"], map["record_json"]) {
        case (let node?, nil): record = node.value.jsonValue
        case (nil, let node?):
            if let text = reader.string(node.value, what: "'record_json'") {
                do throws(JSONParser.SyntaxError) {
                    record = try JSONParser.parseDocument(text)
                } catch {
                    notJSON = (error.reason, node.value.location)
                }
            }
        default:
            reader.report("an example needs exactly one of 'record' (YAML) or 'record_json' (the record's JSON text)", at: tree.location)
        }
        let expectations = ["events", "skipped", "invalid"].filter { map[$0] != nil }
        guard expectations.count == 1 else {
            reader.report("an example needs exactly one of 'events', 'skipped' or 'invalid'", at: tree.location)
            return nil
        }
        let expectation: MappingExample.Expectation
        switch expectations[0] {
        case "events":
            guard let list = reader.list(map["events"]!.value, what: "'events'") else { return nil }
            expectation = .events(list.map(\.jsonValue))
        case "skipped":
            guard let reason = reader.nonEmptyString(map["skipped"]!.value, what: "'skipped'") else { return nil }
            expectation = .skipped(reason)
        default:
            guard let text = reader.nonEmptyString(map["invalid"]!.value, what: "'invalid'") else { return nil }
            expectation = .invalid(text)
        }
        var appleIDs: [String: String] = [:]
        if let node = map["apple_ids"]?.value {
            if case .mapping(let pairs) = node.content {
                for pair in pairs { appleIDs[pair.key] = pair.value.jsonValue.displayText }
            } else {
                reader.report("'apple_ids' must map Apple user ids to subjects", at: node.location)
            }
        }
        if let notJSON {
            guard case .invalid = expectation else {
                reader.report(
                    "'record_json' is not valid JSON: \(notJSON.reason) (an example of a record that is not JSON expects 'invalid')",
                    at: notJSON.location)
                return nil
            }
            return MappingExample(
                name: name, record: .null, notJSON: "invalid JSON: \(notJSON.reason)", expectation: expectation, appleIDs: appleIDs,
                location: tree.location)
        }
        guard let record else { return nil }
        return MappingExample(name: name, record: record, expectation: expectation, appleIDs: appleIDs, location: tree.location)
    }
}
