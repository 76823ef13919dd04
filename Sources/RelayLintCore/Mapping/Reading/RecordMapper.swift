/// Applies a `LogMapping` to one record.
///
/// A record gives events, or is skipped with a reason (counted in the report), or is invalid
/// (a value of the wrong kind, a token that does not decode or verify): nothing is dropped
/// without a trace. A class, used by one thread: it maps every record in the same scope.
final class RecordMapper {
    /// The mapping as loaded (its id, title, examples).
    let mapping: LogMapping
    /// The parts of the mapping evaluated for every record, their paths bound to the scope's
    /// layout (`PathBinder`); kept apart, as the whole mapping copied per record was a dozen
    /// references retained and released.
    private let recognize: MappingCondition
    private let skips: [LogMapping.SkipRule]
    /// The templates, each with the mapping's defaults put in its reserved fields where it
    /// gives none: chosen per event, each default was a copy of its expression (a retain and a
    /// release) five times an event.
    private let templates: [EventTemplate]
    /// Which templates a record may match, told from the value most of their conditions test.
    private let dispatch: TemplateDispatch?
    private let unmatched: LogMapping.SkipRule
    /// One scope, begun again for each record: a scope per record was an allocation each.
    private let scope: MappingScope
    /// By template: each field's place among the template's fields sorted by name (`MappedEvent`).
    private let fieldOrder: [[Int]]
    /// By template: its field names, sorted.
    private let sortedNames: [[String]]
    /// The fields of the event being made, by their place in name order: room for the most
    /// fields a template has, in memory of the mapper's own (an array property was checked for
    /// overlapping access at run time on every read and write, seven times a record).
    private let fieldValues: UnsafeMutableBufferPointer<JSONValue?>

    /// - Parameters:
    ///   - projecting: whether records are parsed only along the paths the mapping reads
    ///     (`RecordProjection`), or whole.
    ///   - dispatching: whether templates are chosen by the value their conditions test
    ///     (`TemplateDispatch`), or each condition is tested in turn.
    init(
        mapping: LogMapping, tokens: TokenReader, memo: MappingMemo = MappingMemo(), projecting: Bool = true,
        dispatching: Bool = true
    ) {
        self.mapping = mapping
        let layout = RecordLayout(projecting ? RecordProjection.of(mapping) : nil)
        let binder = PathBinder(mapping, layout: layout)
        let bound = binder.bind(mapping)
        recognize = bound.recognize
        skips = bound.skips
        templates = bound.events.map { template in
            EventTemplate(
                condition: template.condition, forEach: template.forEach, type: template.type,
                reserved: Self.reserved(template.reserved, defaults: bound.defaults), fields: template.fields,
                location: template.location)
        }
        dispatch = dispatching ? TemplateDispatch(bound.events) : nil
        unmatched = bound.unmatched
        sortedNames = bound.events.map { $0.fields.map(\.name).sorted() }
        fieldOrder = zip(bound.events, sortedNames).map { template, sorted in
            template.fields.map { field in sorted.firstIndex(of: field.name)! }
        }
        // The projections `parse_json` values are read along, by the position of their `let`.
        let parsed = projecting ? RecordProjection.ofParsedValues(mapping) : [:]
        scope = MappingScope(
            binder: binder, lets: bound.lets, aliases: binder.aliasChoices(of: mapping),
            projections: mapping.lets.map { parsed[$0.name] }, tokens: tokens, memo: memo)
        fieldValues = .allocate(capacity: bound.events.map(\.fields.count).max() ?? 0)
        fieldValues.initialize(repeating: nil)
    }

    deinit {
        fieldValues.deinitialize().deallocate()
    }

    /// Where the parts of a record the mapping reads are held: the scope's, its paths bound to it.
    private var layout: RecordLayout { scope.binder.layout }

    /// The reason a record that names no subject is skipped under; it is also a data-quality note.
    static let noSubject = "no subject"

    /// How many of the last record's events were left out for naming no subject while others
    /// named one (`["u1", null]` in a batch deletion's `localIds`): the record gives the others,
    /// and the run notes these (a null among the ids dropped every deletion of the entry).
    private(set) var eventsLeftOutWithoutSubject = 0

    /// Whether the last record was skipped without being of the mapping's format at all (its
    /// `recognize` does not hold): a relaylint event or an Apple notification among Cloud
    /// Logging entries is skipped as "not an account change", and the reader says what it is.
    private(set) var lastSkippedIsUnrecognized = false

    /// One event a record gave, before `Event.make` validates it: the reserved fields as the
    /// mapping gave them, and the others sorted by name as `EventFields` keeps them. A
    /// dictionary of all of them, hashed, then searched and sorted by `Event.make` and walked
    /// for the content digest, was a fifth of the time a mapped record took.
    struct MappedEvent: Sendable, Equatable {
        var id: JSONValue?
        var time: JSONValue?
        var type: JSONValue?
        var app: JSONValue?
        /// Missing while it waits for its Apple user id to be joined.
        var subject: JSONValue?
        /// The other fields, sorted by name; none is null.
        var fields: [EventFields.Element]
        /// Set when the subject is the account holding this Apple user id.
        var appleID: String?

        /// Every member, reserved fields first.
        func forEachMember(_ body: (String, JSONValue) -> Void) {
            if let id { body("id", id) }
            if let time { body("time", time) }
            if let type { body("type", type) }
            if let app { body("app", app) }
            if let subject { body("subject", subject) }
            for field in fields { body(field.key, field.value) }
        }

        /// The digest of its content, every member as `forEachMember` gives it. Read in place
        /// rather than through `forEachMember`: each member handed to a closure was copied, a
        /// retain and a release of its value (and of a field's name) for every event.
        var contentDigest: ContentDigest {
            var digest = ContentDigest.Accumulator()
            if id != nil { digest.add("id", id!) }
            if time != nil { digest.add("time", time!) }
            if type != nil { digest.add("type", type!) }
            if app != nil { digest.add("app", app!) }
            if subject != nil { digest.add("subject", subject!) }
            for position in fields.indices { digest.add(fields[position].key, fields[position].value) }
            return digest.digest
        }

        /// The event as one JSON object's members (a mapping's example, the duplicate check).
        var members: [String: JSONValue] {
            var members: [String: JSONValue] = [:]
            forEachMember { members[$0] = $1 }
            return members
        }

        static func == (lhs: MappedEvent, rhs: MappedEvent) -> Bool {
            lhs.members == rhs.members && lhs.appleID == rhs.appleID
        }
    }

    enum Outcome: Sendable, Equatable {
        case events([MappedEvent])
        case skipped(reason: String, detail: String?)
        case invalid(String)

        init(_ verdict: Verdict, events: [MappedEvent]) {
            switch verdict {
            case .events: self = .events(events)
            case .skipped(let reason, let detail): self = .skipped(reason: reason, detail: detail)
            case .invalid(let reason): self = .invalid(reason)
            }
        }
    }

    /// What became of a record whose events went into a list the caller keeps
    /// (`map(parsing:into:)`): the events are at the list's end.
    enum Verdict: Sendable, Equatable {
        case events
        case skipped(reason: String, detail: String?)
        case invalid(String)
    }

    /// Maps a record already parsed (a mapping's example).
    func map(_ record: JSONValue) -> Outcome {
        layout.fill(record, into: scope.slots)
        var events: [MappedEvent] = []
        return Outcome(mapLaidOut(into: &events), events: events)
    }

    /// Parses the record at `bytes` along the layout and maps it.
    func map(parsing bytes: UnsafeBufferPointer<UInt8>) throws(JSONParser.SyntaxError) -> Outcome {
        var events: [MappedEvent] = []
        return Outcome(try map(parsing: bytes, into: &events), events: events)
    }

    /// Parses the record at `bytes` along the layout and maps it, appending its events to
    /// `events` (none when it is skipped or invalid). A worker keeps one list for many records:
    /// events handed back in a list of their own were copied twice more on their way into it,
    /// each copy a retain and a release of every value they hold.
    func map(parsing bytes: UnsafeBufferPointer<UInt8>, into events: inout [MappedEvent]) throws(JSONParser.SyntaxError)
        -> Verdict
    {
        try layout.parse(bytes, into: scope.slots)
        return mapLaidOut(into: &events, idBytesLimit: InputLimits.eventBytes(ofRecord: bytes.count))
    }

    /// The most events one record gives (`MappedLogReader.eventBits`: a batch deletion names up
    /// to 1,000 accounts). A record that would give more stops when it reaches them, before a
    /// list of millions is made of a line of ids.
    static let maximumEvents = (1 << MappedLogReader.eventBits) - 1

    /// Whether a record already parsed is of the mapping's format (`recognize`).
    func recognizes(_ record: JSONValue) -> Bool {
        layout.fill(record, into: scope.slots)
        scope.begin()
        scope.valueBytesLimit = InputLimits.eventBytes(ofRecord: 0)
        return (try? recognize.holds(in: scope)) == true
    }

    /// - Parameter idBytesLimit: the most bytes the `#N` ids of the record's events may take
    ///   together (`InputLimits.eventBytes(ofRecord:)`).
    private func mapLaidOut(into events: inout [MappedEvent], idBytesLimit: Int = InputLimits.eventBytes(ofRecord: 0)) -> Verdict {
        scope.begin()
        scope.valueBytesLimit = idBytesLimit
        eventsLeftOutWithoutSubject = 0
        lastSkippedIsUnrecognized = false
        // A record that is not an object, nor of the mapping's format (`1`, `null`, `[]` in a
        // Cloud Logging file), is not a record of this log at all: invalid, not "not an account
        // change". Objects are not tested: a sink holds other services' entries, skipped as such.
        if let root = scope.slots.values[0], root.objectValue == nil, (try? recognize.holds(in: scope)) != true {
            return .invalid("expected a JSON object, a record of this log, found \(root.kindName)")
        }
        let first = events.count
        do throws(MappingFailure) {
            let verdict = try mapOrThrow(into: &events, from: first, idBytesLimit: idBytesLimit)
            if verdict != .events { events.removeSubrange(first...) }
            // Tested only for a record skipped: one that gives events is of the format.
            if case .skipped = verdict { lastSkippedIsUnrecognized = (try? recognize.holds(in: scope)) != true }
            return verdict
        } catch {
            events.removeSubrange(first...)
            return .invalid(error.reason)
        }
    }

    /// Appends the record's events to `events` from position `first`; the caller removes them
    /// when the record is skipped or invalid.
    private func mapOrThrow(into events: inout [MappedEvent], from first: Int, idBytesLimit: Int) throws(MappingFailure) -> Verdict {
        // Skip rules, templates and fields are walked by position: a loop over them copied each
        // one (a retain and a release of what it holds) for every record.
        for index in skips.indices where try skips[index].condition?.holds(in: scope) ?? true {
            return .skipped(reason: skips[index].reason, detail: try skips[index].detail?.evaluate(in: scope)?.displayText)
        }
        var withoutSubject = 0
        // The templates the dispatch leaves possible, once the first dispatched one is reached.
        // Its parts are taken out once: read in the loop, each template copied the dispatch.
        var possible: [Int]?
        let dispatched = dispatch?.dispatched ?? []
        // By number, a template taken out only once the dispatch leaves it possible: taken out
        // for every number, each of the eight templates was retained and released per record.
        for number in templates.indices {
            if number < dispatched.count, dispatched[number] {
                if possible == nil { possible = try dispatch!.possible(in: scope) }
                guard possible!.contains(number) else { continue }
            }
            let template = templates[number]
            guard try template.condition?.holds(in: scope) ?? true else { continue }
            guard let forEach = template.forEach else {
                // One event, without a list of one item made for it.
                if try !append(template, number: number, in: scope, to: &events) { withoutSubject += 1 }
                continue
            }
            let items: [JSONValue]
            switch try forEach.evaluate(in: scope) {
            case nil, .null?: items = []
            case .array(let elements)?: items = elements
            case let other?: throw MappingFailure("\(forEach.shortDescription) must be a list, found \(other.kindName)")
            }
            for item in items {
                scope.item = item
                defer { scope.item = nil }
                if try !append(template, number: number, in: scope, to: &events) { withoutSubject += 1 }
                if events.count - first > Self.maximumEvents {
                    throw MappingFailure("a record gives more than \(Self.maximumEvents) events; at most \(Self.maximumEvents) are read")
                }
            }
        }
        if withoutSubject > 0 {
            // Only a record none of whose events names a subject is skipped for it.
            if events.count == first { return .skipped(reason: RecordMapper.noSubject, detail: nil) }
            eventsLeftOutWithoutSubject = withoutSubject
        }
        if events.count == first {
            return .skipped(reason: unmatched.reason, detail: try unmatched.detail?.evaluate(in: scope)?.displayText)
        }
        if events.count - first > 1 {
            var idBytes = 0
            for index in first..<events.count {
                if case .string(let id)? = events[index].id { idBytes += id.utf8.count + 5 }
            }
            guard idBytes <= idBytesLimit else {
                throw MappingFailure(
                    "the ids of the record's \(events.count - first) events would take \(idBytes) bytes, more than "
                        + "\(InputLimits.describe(idBytesLimit)) (eight times the record, at least 1 MiB): shorten the id")
            }
            for index in first..<events.count {
                if case .string(let id)? = events[index].id { events[index].id = .string("\(id)#\(index - first + 1)") }
            }
        }
        return .events
    }

    /// Appends the event a template gives in a scope to `events`; false, and nothing appended,
    /// when it names no subject (none, null, or an empty string, which names no account).
    /// Appended where it was made: an event returned was copied once more on its way into the
    /// list.
    private func append(
        _ template: EventTemplate, number: Int, in scope: MappingScope, to events: inout [MappedEvent]
    ) throws(MappingFailure) -> Bool {
        let order = fieldOrder[number]
        // Worked out in the order the mapping writes them (the first failure is the one told),
        // each put in its place by name, in room kept from event to event (one list per event
        // was an allocation each); emptied first, as a failure leaves values there.
        for position in order.indices { fieldValues[position] = nil }
        let fields = template.fields
        for position in fields.indices {
            if let value = try fields[position].value.evaluate(in: scope), value != .null { fieldValues[order[position]] = value }
        }
        // The caller removes what a failure leaves in `events`.
        events.append(MappedEvent(fields: []))
        let index = events.count - 1
        events[index].fields.reserveCapacity(order.count)
        let names = sortedNames[number]
        for position in names.indices {
            if let value = fieldValues[position].take() { events[index].fields.append((names[position], value)) }
        }
        events[index].type = try template.type.evaluate(in: scope)
        events[index].id = try template.reserved.id?.evaluate(in: scope).flatMap(Self.nonNull)
        events[index].time = try template.reserved.time?.evaluate(in: scope).flatMap(Self.nonNull)
        events[index].app = try template.reserved.app?.evaluate(in: scope).flatMap(Self.nonNull)
        if let appleID = template.reserved.subjectAppleID {
            guard let value = try appleID.evaluate(in: scope), value != .null, value != .string("") else {
                events.removeLast()
                return false
            }
            guard case .string(let text) = value else {
                throw MappingFailure("the Apple user id \(appleID.shortDescription) must be a string, found \(value.kindName)")
            }
            events[index].appleID = text
            try requireIDAndTime(of: events[index], from: template)
            return true
        }
        guard let subject = try template.reserved.subject?.evaluate(in: scope), subject != .null, subject != .string("") else {
            events.removeLast()
            return false
        }
        events[index].subject = subject
        try requireIDAndTime(of: events[index], from: template)
        return true
    }

    /// An event of a subject whose `id` or `time` the record lacks is invalid, told by where the
    /// mapping reads it: "missing required field 'id'" named a field that a Cloud Logging entry
    /// never has (its `insertId` was missing).
    private func requireIDAndTime(of event: MappedEvent, from template: EventTemplate) throws(MappingFailure) {
        for (name, value, source) in [("id", event.id, template.reserved.id), ("time", event.time, template.reserved.time)] {
            if value == nil, let source, case .bound = source {
                throw MappingFailure("missing required field '\(name)': the record has no \(source.shortDescription)")
            }
        }
    }

    private static func nonNull(_ value: JSONValue) -> JSONValue? { value == .null ? nil : value }

    /// A template's reserved fields with the mapping's defaults where it gives none. A template
    /// that names its subject takes no default Apple user id: its subject is the one it names
    /// unless it names an Apple user id too.
    private static func reserved(_ own: EventTemplate.Reserved, defaults: EventTemplate.Reserved) -> EventTemplate.Reserved {
        EventTemplate.Reserved(
            id: own.id ?? defaults.id, time: own.time ?? defaults.time, subject: own.subject ?? defaults.subject,
            app: own.app ?? defaults.app, subjectAppleID: own.subjectAppleID ?? (own.subject == nil ? defaults.subjectAppleID : nil))
    }
}
