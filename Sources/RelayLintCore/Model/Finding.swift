/// A rule's verdict on one firing event (or one app): what is wrong, where, and the evidence.
public struct Finding: Sendable, Equatable, Codable {
    public var rule: String
    public var severity: Severity
    /// The subject id, or the app's bundle id for app rules.
    public var subject: String
    /// The app the firing event belongs to.
    public var app: String
    /// The firing event's id; nil for app rules.
    public var event: String?
    public var time: Timestamp?
    public var message: String
    /// Stable across runs for the same finding: suppressions, baselines and code scanning key on it.
    public var fingerprint: String
    /// Where the firing event was read (the manifest entry or the log's first line for app rules).
    public var location: SourceLocation?
    /// What the rule required, in words.
    public var expected: String
    /// The events that made the rule fire, and those that came close, in timeline order.
    public var evidence: [Evidence]
    /// The suppression that accepts this finding, if any: it stays in the report but does not
    /// fail the run.
    public var suppression: Suppression? {
        get { acceptedBy?.suppression }
        set { acceptedBy = newValue.map(AcceptedBy.init) }
    }
    /// Whether a suppression accepts this finding, without copying the suppression out.
    public var isSuppressed: Bool { acceptedBy != nil }
    /// Boxed: inline, a `Suppression?` took 129 of a finding's 320 bytes, in every finding of a
    /// run (300k at 10M events), where almost none is suppressed.
    private var acceptedBy: AcceptedBy?

    enum CodingKeys: String, CodingKey {
        case rule, severity, subject, app, event, time, message, fingerprint, location, expected, evidence
        case acceptedBy = "suppression"
    }

    public init(
        rule: String, severity: Severity, subject: String, app: String, event: String?, time: Timestamp?,
        message: String, fingerprint: String, location: SourceLocation?, expected: String, evidence: [Evidence]
    ) {
        self.rule = rule
        self.severity = severity
        self.subject = subject
        self.app = app
        self.event = event
        self.time = time
        self.message = message
        self.fingerprint = fingerprint
        self.location = location
        self.expected = expected.shortened(to: Self.longestExpected)
        self.evidence = evidence
    }

    /// The most Unicode scalars of `expected` (what follows is left out for "…"), as a message
    /// has at most about 4 KiB: a rule's requirement is described in every finding, and one
    /// testing a field against a list of 10,000 values made a 449 MB report of a 440 KB log.
    static let longestExpected = 4_096

    /// Report order (contract §2.4): subject, then time (app findings first), then rule, then event.
    public static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool { ReportOrder.precedes(lhs, rhs) }
}

extension Finding: ReportOrder.Ordered {
    var instant: Timestamp? { time }
}

/// The one definition of the order of findings, for findings and for report entries alike.
enum ReportOrder {
    /// What the order reads of a finding. The two are compared field by field where they are:
    /// a key tuple per side copied five strings per comparison, and sorting 30k findings took
    /// ~150 ms on the one thread that ends a run.
    protocol Ordered {
        var subject: String { get }
        var instant: Timestamp? { get }
        var rule: String { get }
        var event: String? { get }
        var fingerprint: String { get }
    }

    /// Texts compare by their UTF-8 bytes, as subject ids are told apart everywhere else (the
    /// shard hash, the subjects' table): `String`'s own order reads canonically equivalent texts
    /// as equal (`é` written as one scalar or as `e` and an accent), and is no total order over
    /// ids that differ only so, which a sort and a merge then placed differently.
    static func precedes<Entry: Ordered>(_ lhs: Entry, _ rhs: Entry) -> Bool {
        if let order = order(lhs.subject, rhs.subject) { return order }
        switch (lhs.instant, rhs.instant) {
        case (nil, .some): return true
        case (.some, nil): return false
        case (.some(let a), .some(let b)) where a != b: return a < b
        default: break
        }
        if let order = order(lhs.rule, rhs.rule) { return order }
        if let order = order(lhs.event ?? "", rhs.event ?? "") { return order }
        // A reused event id can fire a rule twice at one instant: the fingerprint makes the order total.
        return order(lhs.fingerprint, rhs.fingerprint) ?? false
    }

    /// Whether `a`'s bytes come before `b`'s; nil when they are the same bytes.
    private static func order(_ a: String, _ b: String) -> Bool? {
        a.utf8.elementsEqual(b.utf8) ? nil : a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

/// One event of a finding's evidence and the part it played.
public struct Evidence: Sendable, Equatable, Codable {
    public enum Role: String, Sendable, Codable {
        /// The event that fired the rule.
        case trigger
        /// An event of the kind the requirement looks for: the offending one for `not_` forms, or
        /// one that did not count (outside the window, interrupted, before the boundary).
        case witness
        /// An event that broke a witness off (`without`).
        case interruption
        /// The event where the search stopped (`since_last`, `until_next`).
        case boundary
    }

    /// The most Unicode scalars of another event's id the evidence of a finding shows.
    static let shownIDLength = 256

    /// An event's id as the evidence of another event's finding shows it: whole, unless it is
    /// longer than `shownIDLength`, then its start and "…". One consent cited by a thousand
    /// findings was copied into the report a thousand times: a 300 KB id made a 707 KB log's
    /// report take 3 GB. The firing event's id is the finding's own and is always whole.
    static func shown(_ id: String) -> String { id.shortened(to: shownIDLength) }

    public var role: Role
    public var event: String
    public var type: String
    public var time: Timestamp
    public var location: SourceLocation
    /// A short note: why this event matters.
    public var note: String?

    public init(role: Role, event: String, type: String, time: Timestamp, location: SourceLocation, note: String? = nil) {
        self.role = role
        self.event = event
        self.type = type
        self.time = time
        self.location = location
        self.note = note
    }
}

/// A suppression in a box of its own, encoded as the suppression itself.
private final class AcceptedBy: Sendable, Equatable, Codable {
    let suppression: Suppression

    init(_ suppression: Suppression) { self.suppression = suppression }

    init(from decoder: any Decoder) throws { suppression = try Suppression(from: decoder) }

    func encode(to encoder: any Encoder) throws { try suppression.encode(to: encoder) }

    static func == (lhs: AcceptedBy, rhs: AcceptedBy) -> Bool { lhs.suppression == rhs.suppression }
}
