/// An accepted finding: a team's decision, with who made it, why, and until when.
public struct Suppression: Sendable, Equatable, Codable {
    /// Matches one finding by its stable fingerprint…
    public var fingerprint: String?
    /// …or every finding of a rule, optionally only for one subject (or app).
    public var rule: String?
    public var subject: String?
    public var justification: String
    public var author: String
    /// `YYYY-MM-DD`; from the day after it, the suppression no longer applies: the findings it
    /// accepted count again.
    public var expires: String
    public var location: SourceLocation

    public init(
        fingerprint: String? = nil, rule: String? = nil, subject: String? = nil, justification: String,
        author: String, expires: String, location: SourceLocation
    ) {
        self.fingerprint = fingerprint
        self.rule = rule
        self.subject = subject
        self.justification = justification
        self.author = author
        self.expires = expires
        self.location = location
    }

    func matches(_ finding: Finding) -> Bool {
        if let fingerprint { return fingerprint == finding.fingerprint }
        guard let rule, rule == finding.rule else { return false }
        return subject.map { $0 == finding.subject } ?? true
    }

    /// Expired when the review date is after the expiry day (ISO dates compare as text).
    func isExpired(asOf day: String) -> Bool { day > expires }
}

/// How a suppression fared in a run: the register a reviewer reads.
public struct SuppressionOutcome: Sendable, Equatable, Codable {
    public enum Status: String, Sendable, Codable {
        /// Applied to at least one finding.
        case active
        /// Past its expiry date: not applied (the findings it matches count again).
        case expired
        /// Matches no finding any more: worth removing.
        case stale
    }

    public var suppression: Suppression
    public var status: Status
    public var matched: Int
}
