/// One record of the action log, after validation.
///
/// Reserved fields are typed; every other field stays a `JSONValue` so that custom rules can
/// match any field without the engine knowing it.
///
/// The members live in one shared, copy-on-write box: the evaluation copies events into
/// timeline steps, origins and witnesses, and each copy of seven strings and arrays cost seven
/// reference counts (retain and release were 44% of the evaluation's CPU samples); a copy now
/// costs one. Setters copy the box first when it is shared (`event.fields[k] = v` copies the
/// fields too: nothing in the engine changes an event after it is made).
public struct Event: Sendable, Equatable {
    public var id: String {
        get { storage.id }
        set { uniqueStorage.id = newValue }
    }
    public var time: Timestamp {
        get { storage.time }
        set { uniqueStorage.time = newValue }
    }
    public var subject: String {
        get { storage.subject }
        set { uniqueStorage.subject = newValue }
    }
    public var type: String {
        get { storage.type }
        set { uniqueStorage.type = newValue }
    }
    /// The `app` field as written; nil when absent (the app is then resolved by the dataset).
    public var app: String? {
        get { storage.app }
        set { uniqueStorage.app = newValue }
    }
    /// The non-reserved fields, flat as in the log.
    public var fields: EventFields {
        get { storage.fields }
        set { uniqueStorage.fields = newValue }
    }
    /// Where the event was read.
    public var location: SourceLocation {
        get { storage.location }
        set { uniqueStorage.location = newValue }
    }
    /// Input order: the files in the order given, then line order. Breaks ties of equal `time`.
    public var sequence: UInt64 {
        get { storage.sequence }
        set { uniqueStorage.sequence = newValue }
    }
    /// Set when the id was already used by an event with other content: tells the two apart in
    /// finding fingerprints.
    public var discriminator: String? {
        get { storage.discriminator }
        set { uniqueStorage.discriminator = newValue }
    }

    private var storage: Storage

    public init(
        id: String, time: Timestamp, subject: String, type: String, app: String? = nil,
        fields: EventFields = [:], location: SourceLocation, sequence: UInt64
    ) {
        storage = Storage(
            id: id, time: time, subject: subject, type: type, app: app, fields: fields, location: location, sequence: sequence,
            discriminator: nil)
    }

    public static func == (lhs: Event, rhs: Event) -> Bool {
        let (a, b) = (lhs.storage, rhs.storage)
        return a === b
            || (a.id == b.id && a.time == b.time && a.subject == b.subject && a.type == b.type && a.app == b.app
                && a.fields == b.fields && a.location == b.location && a.sequence == b.sequence && a.discriminator == b.discriminator)
    }

    /// The box, copied first when another event shares it.
    private var uniqueStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    /// Mutated only through `uniqueStorage`, that is when no other event holds it: as safe to
    /// send as the value members it holds.
    private final class Storage: @unchecked Sendable {
        var id: String
        var time: Timestamp
        var subject: String
        var type: String
        var app: String?
        var fields: EventFields
        var location: SourceLocation
        var sequence: UInt64
        var discriminator: String?

        init(
            id: String, time: Timestamp, subject: String, type: String, app: String?, fields: EventFields, location: SourceLocation,
            sequence: UInt64, discriminator: String?
        ) {
            self.id = id
            self.time = time
            self.subject = subject
            self.type = type
            self.app = app
            self.fields = fields
            self.location = location
            self.sequence = sequence
            self.discriminator = discriminator
        }

        func copy() -> Storage {
            Storage(
                id: id, time: time, subject: subject, type: type, app: app, fields: fields, location: location, sequence: sequence,
                discriminator: discriminator)
        }
    }

    /// The reserved field names of contract §2.2.
    public static let reservedFields: Set<String> = ["id", "time", "subject", "type", "app"]
    /// The same names, compared one by one (five short strings: cheaper than hashing).
    static let reservedNames = Array(reservedFields)

    /// A field's value by name, reserved fields included, as a rule or a template reads it.
    public func value(of field: String) -> JSONValue? {
        switch field {
        case "id": .string(id)
        case "time": .string(time.description)
        case "subject": .string(subject)
        case "type": .string(type)
        case "app": app.map(JSONValue.string)
        default: fields[field]
        }
    }

    /// A string field, or nil when absent or not a string.
    public func string(_ field: String) -> String? { fields[field]?.stringValue }

    /// True when the field is JSON `true` or the string `"true"` in any case, as Apple's tokens
    /// deliver `is_private_email`.
    public func flag(_ field: String) -> Bool {
        switch fields[field] {
        case .bool(let value): value
        case .string(let text): text.lowercased() == "true"
        default: false
        }
    }
}

extension Event {
    /// Builds an event from one parsed log line, checking the reserved fields (contract §2.2, §2.4).
    ///
    /// - Returns: the event, or the reason the record is invalid.
    static func make(
        from value: JSONValue, location: SourceLocation, sequence: UInt64
    ) -> Result<Event, InputProblem> {
        guard case .object(let members) = value else {
            return .failure(InputProblem("expected a JSON object, found \(value.kindName)"))
        }
        // The other members, sorted as `EventFields` keeps them; taken without copying the
        // dictionary to remove the reserved ones (a copy per mapped event).
        var fields: [EventFields.Element] = []
        fields.reserveCapacity(members.count)
        for member in members where !Event.reservedNames.contains(member.key) { fields.append(member) }
        fields.sort { $0.key < $1.key }
        return make(
            id: members["id"], time: members["time"], subject: members["subject"], type: members["type"], app: members["app"],
            sortedFields: fields, location: location, sequence: sequence)
    }

    /// An event from its reserved members as a record gives them (nil for a member it lacks)
    /// and its other fields, sorted by name, names unique and none reserved: what a log
    /// mapping makes without putting them in one object first.
    static func make(
        id: JSONValue?, time: JSONValue?, subject: JSONValue?, type: JSONValue?, app: JSONValue?,
        sortedFields fields: [EventFields.Element], location: SourceLocation, sequence: UInt64
    ) -> Result<Event, InputProblem> {
        func requiredString(_ name: String, _ value: JSONValue?) -> Result<String, InputProblem> {
            switch value {
            case .none: return .failure(InputProblem("missing required field '\(name)'"))
            case .string(let text)?:
                return .success(text)
            case let other?:
                return .failure(InputProblem("field '\(name)' must be a string, found \(other.kindName)"))
            }
        }
        let idText: String
        let subjectText: String
        let typeText: String
        switch (requiredString("id", id), requiredString("subject", subject), requiredString("type", type)) {
        case (.success(let i), .success(let s), .success(let t)): (idText, subjectText, typeText) = (i, s, t)
        case (.failure(let problem), _, _), (_, .failure(let problem), _), (_, _, .failure(let problem)):
            return .failure(problem)
        }
        if let problem = SubjectID.problem(with: subjectText, what: "field 'subject'") { return .failure(InputProblem(problem)) }
        let instant: Timestamp
        switch time {
        case .none: return .failure(InputProblem("missing required field 'time'"))
        case .string(let text)?:
            switch Timestamp.parse(rfc3339: text) {
            case .valid(let parsed): instant = parsed
            case .outOfRange:
                return .failure(
                    InputProblem("field 'time' is out of range: '\(text)' (relaylint reads times from year 1 to year 9999, in UTC)"))
            case .noSuchInstant(let why):
                return .failure(InputProblem("field 'time' names no such day or time: '\(text)' (\(why))"))
            case .malformed:
                return .failure(
                    InputProblem(
                        "field 'time' is not an RFC 3339 timestamp: '\(text)' (expected YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM) or epoch milliseconds as a number)"
                    ))
            }
        case .number(let number)?:
            guard let parsed = Timestamp(epochMilliseconds: number) else {
                return .failure(InputProblem("field 'time' is out of range: \(number.text) (epoch milliseconds from year 1 to year 9999)"))
            }
            instant = parsed
        case let other?:
            return .failure(InputProblem("field 'time' must be an RFC 3339 string or epoch milliseconds, found \(other.kindName)"))
        }
        var appName: String? = nil
        switch app {
        case .none, .null?: break
        // An empty bundle id names no app: the event is app-less, as one without `app` (the
        // app `"app"`, or the manifest's only one), not of an app called "".
        case .string(let text)?: appName = text.isEmpty ? nil : text
        case let other?: return .failure(InputProblem("field 'app' must be a string, found \(other.kindName)"))
        }
        return .success(
            Event(
                id: idText, time: instant, subject: subjectText, type: typeText, app: appName,
                fields: EventFields(sortedUniqueMembers: fields), location: location, sequence: sequence))
    }
}

/// Why one input record was rejected; the reader adds the location.
struct InputProblem: Error, Equatable {
    var reason: String
    var column: Int?
    /// Where in the record the problem is (an exported user's `createdAt`, `metadata` then
    /// `creationTime`, `providerUserInfo` then its third entry): where the reader has the
    /// record's bytes, it names that line rather than the record's first.
    var place: [Step]
    enum Step: Equatable {
        case member(String)
        case entry(Int)
    }
    init(_ reason: String, column: Int? = nil, at place: [Step] = []) {
        self.reason = reason
        self.column = column
        self.place = place
    }
}

extension JSONValue {
    /// The JSON kind, for messages: "a string", "a number", …
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
