/// Applies a `LogMapping` to one record.
///
/// A record gives events, or is skipped with a reason (counted in the report), or is invalid
/// (a value of the wrong kind, a token that does not decode or verify): nothing is dropped
/// without a trace. A class, used by one thread: it maps every record in the same scope.
final class RecordMapper {
    /// The mapping as loaded (its id, title, examples).
    let mapping: LogMapping
    /// The mapping with its paths bound to `layout` (`PathBinder`): what is evaluated.
    private let bound: LogMapping
    /// One scope, begun again for each record: a scope per record was an allocation each.
    private let scope: MappingScope

    /// - Parameter projecting: whether records are parsed only along the paths the mapping
    ///   reads (`RecordProjection`), or whole.
    init(mapping: LogMapping, tokens: TokenReader, memo: MappingMemo = MappingMemo(), projecting: Bool = true) {
        self.mapping = mapping
        let layout = RecordLayout(projecting ? RecordProjection.of(mapping) : nil)
        let binder = PathBinder(mapping, layout: layout)
        bound = binder.bind(mapping)
        // The projections `parse_json` values are read along, by the position of their `let`.
        let parsed = projecting ? RecordProjection.ofParsedValues(mapping) : [:]
        scope = MappingScope(
            binder: binder, lets: bound.lets, aliases: binder.aliasChoices(of: mapping),
            projections: mapping.lets.map { parsed[$0.name] }, tokens: tokens, memo: memo)
    }

    /// Where the parts of a record the mapping reads are held: the scope's, its paths bound to it.
    private var layout: RecordLayout { scope.binder.layout }

    /// The reason a record that names no subject is skipped under; it is also a data-quality note.
    static let noSubject = "no subject"

    /// One event a record gave, before `Event.make` validates it: its members (reserved fields
    /// included, `subject` missing while it waits for its Apple user id to be joined).
    struct MappedEvent: Sendable, Equatable {
        var members: [String: JSONValue]
        /// Set when the subject is the account holding this Apple user id.
        var appleID: String?
    }

    enum Outcome: Sendable, Equatable {
        case events([MappedEvent])
        case skipped(reason: String, detail: String?)
        case invalid(String)
    }

    /// Maps a record already parsed (a mapping's example).
    func map(_ record: JSONValue) -> Outcome {
        layout.fill(record, into: &scope.slots)
        return mapLaidOut()
    }

    /// Parses the record at `bytes` along the layout and maps it.
    func map(parsing bytes: UnsafeBufferPointer<UInt8>) throws(JSONParser.SyntaxError) -> Outcome {
        try layout.parse(bytes, into: &scope.slots)
        return mapLaidOut()
    }

    /// Whether a record already parsed is of the mapping's format (`recognize`).
    func recognizes(_ record: JSONValue) -> Bool {
        layout.fill(record, into: &scope.slots)
        scope.begin()
        return (try? bound.recognize.holds(in: scope)) == true
    }

    private func mapLaidOut() -> Outcome {
        scope.begin()
        do throws(MappingFailure) {
            return try mapOrThrow()
        } catch {
            return .invalid(error.reason)
        }
    }

    private func mapOrThrow() throws(MappingFailure) -> Outcome {
        let mapping = bound
        for skip in mapping.skips where try skip.condition?.holds(in: scope) ?? true {
            return .skipped(reason: skip.reason, detail: try skip.detail?.evaluate(in: scope)?.displayText)
        }
        var events: [MappedEvent] = []
        var namesNoSubject = false
        for template in mapping.events where try template.condition?.holds(in: scope) ?? true {
            var items: [JSONValue?] = [nil]
            if let forEach = template.forEach {
                switch try forEach.evaluate(in: scope) {
                case nil, .null?: items = []
                case .array(let elements)?: items = elements
                case let other?: throw MappingFailure("\(forEach.shortDescription) must be a list, found \(other.kindName)")
                }
            }
            for item in items {
                scope.item = item
                defer { scope.item = nil }
                guard let event = try event(template, in: scope) else {
                    namesNoSubject = true
                    continue
                }
                events.append(event)
            }
        }
        if namesNoSubject { return .skipped(reason: RecordMapper.noSubject, detail: nil) }
        if events.isEmpty {
            return .skipped(reason: mapping.unmatched.reason, detail: try mapping.unmatched.detail?.evaluate(in: scope)?.displayText)
        }
        if events.count > 1 {
            for index in events.indices {
                if case .string(let id)? = events[index].members["id"] { events[index].members["id"] = .string("\(id)#\(index + 1)") }
            }
        }
        return .events(events)
    }

    /// The event a template gives in a scope; nil when it names no subject.
    private func event(_ template: EventTemplate, in scope: MappingScope) throws(MappingFailure) -> MappedEvent? {
        var members = [String: JSONValue](minimumCapacity: template.fields.count + 5)
        for (name, expression) in template.fields {
            if let value = try expression.evaluate(in: scope), value != .null { members[name] = value }
        }
        members["type"] = try template.type.evaluate(in: scope)
        let defaults = bound.defaults
        // Written out rather than looped over a list: the list was an allocation per event.
        if let value = try (template.reserved.id ?? defaults.id)?.evaluate(in: scope), value != .null { members["id"] = value }
        if let value = try (template.reserved.time ?? defaults.time)?.evaluate(in: scope), value != .null { members["time"] = value }
        if let value = try (template.reserved.app ?? defaults.app)?.evaluate(in: scope), value != .null { members["app"] = value }
        if let appleID = template.reserved.subjectAppleID ?? (template.reserved.subject == nil ? defaults.subjectAppleID : nil) {
            guard let value = try appleID.evaluate(in: scope), value != .null else { return nil }
            guard case .string(let text) = value else {
                throw MappingFailure("the Apple user id \(appleID.shortDescription) must be a string, found \(value.kindName)")
            }
            return MappedEvent(members: members, appleID: text)
        }
        guard let subject = try (template.reserved.subject ?? defaults.subject)?.evaluate(in: scope), subject != .null else {
            return nil
        }
        members["subject"] = subject
        return MappedEvent(members: members, appleID: nil)
    }
}
