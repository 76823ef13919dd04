/// Applies a `LogMapping` to one record.
///
/// A record gives events, or is skipped with a reason (counted in the report), or is invalid
/// (a value of the wrong kind, a token that does not decode or verify): nothing is dropped
/// without a trace.
struct RecordMapper {
    let mapping: LogMapping
    let tokens: TokenReader
    var memo = MappingMemo()
    /// The projections `parse_json` values are read along (`RecordProjection.ofParsedValues`).
    var parsedValueProjections: [String: RecordProjection] {
        didSet { letProjections = Self.byPosition(parsedValueProjections, in: mapping) }
    }
    /// The same by the position of their `let`, worked out once: looked up by name for every
    /// record, they were a hash of each name per record.
    private var letProjections: [RecordProjection?]

    init(
        mapping: LogMapping, tokens: TokenReader, memo: MappingMemo = MappingMemo(),
        parsedValueProjections: [String: RecordProjection] = [:]
    ) {
        self.mapping = mapping
        self.tokens = tokens
        self.memo = memo
        self.parsedValueProjections = parsedValueProjections
        letProjections = Self.byPosition(parsedValueProjections, in: mapping)
    }

    private static func byPosition(_ projections: [String: RecordProjection], in mapping: LogMapping) -> [RecordProjection?] {
        mapping.lets.map { projections[$0.name] }
    }

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

    func map(_ record: JSONValue) -> Outcome {
        do throws(MappingFailure) {
            return try mapOrThrow(record)
        } catch {
            return .invalid(error.reason)
        }
    }

    private func mapOrThrow(_ record: JSONValue) throws(MappingFailure) -> Outcome {
        let scope = MappingScope(
            record: record, lets: mapping.lets, projections: letProjections, tokens: tokens, memo: memo)
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
        let defaults = mapping.defaults
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
