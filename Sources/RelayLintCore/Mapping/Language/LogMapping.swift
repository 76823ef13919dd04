/// How the records of one log format become relaylint events: a mapping file (`Mappings/*.yml`
/// for the built-in ones, any YAML file for a team's own logs) after loading.
///
/// The engine knows no log format: Google Cloud Logging and Apple's notifications are mappings
/// like a team's backend log, so a team whose logs differ copies one and adjusts it.
public struct LogMapping: Sendable {
    /// Kebab-case name, used by `--events-format` and in reports.
    public let id: String
    public let title: String
    public let description: String
    /// Holds for a record of this format; the first record of an `--events` file decides.
    let recognize: MappingCondition
    /// Named values; each may use those before it, and is worked out when first read.
    let lets: [(name: String, value: MappingExpression)]
    /// Records skipped on purpose, with their reason; the first that holds applies.
    let skips: [SkipRule]
    /// Where `id`, `time`, `subject` and `app` come from unless an event says otherwise.
    let defaults: EventTemplate.Reserved
    let events: [EventTemplate]
    /// The reason a record that gives no event is counted under, and its detail.
    let unmatched: SkipRule
    let examples: [MappingExample]
    public let location: SourceLocation
    public let sha256: String
    /// The YAML it was loaded from, to load a copy of its own for each parse thread.
    let text: String

    /// Whether records of this format may carry a signed token (Apple's notifications): a record
    /// that gives events without one could not be verified against `--apple-keys`.
    var readsSignedTokens: Bool {
        let reserved = [defaults.id, defaults.time, defaults.subject, defaults.app, defaults.subjectAppleID].compactMap { $0 }
        return lets.contains { $0.value.readsSignedTokens } || reserved.contains(where: \.readsSignedTokens)
            || events.contains { template in
                template.fields.contains { $0.value.readsSignedTokens } || template.type.readsSignedTokens
                    || template.condition?.readsSignedTokens == true
            }
    }

    /// The same mapping, sharing no object with this one: the parse threads each read one of
    /// their own, since threads reading one mapping's shared expressions spent a tenth of their
    /// time contending for the reference counts.
    func copyForThread() -> LogMapping {
        (try? MappingLoader.load(text: text, path: location.file, sha256: sha256).get()) ?? self
    }

    /// One way a record is skipped: when `condition` holds, counted under `reason` (and `detail`).
    struct SkipRule: Sendable {
        let condition: MappingCondition?
        let reason: String
        let detail: MappingExpression?
    }
}

/// One kind of event a record can give. A class: every record looks at every template, and a
/// struct was copied (its fields retained and released) each time.
final class EventTemplate: Sendable {
    /// The reserved fields; nil ones come from the mapping's defaults.
    struct Reserved: Sendable {
        var id: MappingExpression?
        var time: MappingExpression?
        var subject: MappingExpression?
        var app: MappingExpression?
        /// The subject is the account that holds this Apple user id (`sub`), found once every
        /// input is read.
        var subjectAppleID: MappingExpression?
    }

    let condition: MappingCondition?
    /// One event per element of this list, the element as `$item`; one event when nil.
    let forEach: MappingExpression?
    let type: MappingExpression
    let reserved: Reserved
    /// Field name and value; a field without a value is left out.
    let fields: [(name: String, value: MappingExpression)]
    let location: SourceLocation

    init(
        condition: MappingCondition?, forEach: MappingExpression?, type: MappingExpression, reserved: Reserved,
        fields: [(name: String, value: MappingExpression)], location: SourceLocation
    ) {
        self.condition = condition
        self.forEach = forEach
        self.type = type
        self.reserved = reserved
        self.fields = fields
        self.location = location
    }
}

/// A record and what its mapping must make of it, run by `mappings test` and the test suite.
struct MappingExample: Sendable {
    enum Expectation: Sendable {
        /// These events, as JSON objects with the reserved fields and the fields.
        case events([JSONValue])
        /// Skipped with this reason.
        case skipped(String)
        /// Invalid, with a message containing this text.
        case invalid(String)
    }

    let name: String
    let record: JSONValue
    /// Why the record, written as JSON text, is not JSON; `record` is then null.
    var notJSON: String? = nil
    let expectation: Expectation
    /// Apple user ids the example's accounts hold (`sub` → subject), for notifications.
    let appleIDs: [String: String]
    let location: SourceLocation
}
