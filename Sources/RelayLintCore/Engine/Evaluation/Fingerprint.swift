import Crypto
import Foundation

/// Stable finding identities: the SHA-256 of what makes a finding the same finding (rule,
/// subject, firing event), never of its message, which may change with masking or wording.
enum Fingerprint {
    static func of(rule: String, subject: String, event: String?, discriminator: String? = nil) -> String {
        var parts = [rule, subject, event ?? ""]
        if let discriminator { parts.append(discriminator) }
        return String(FileBytes.hex(SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8))).prefix(32))
    }

    /// A stable key for an event's content (its canonical JSON), for reused event ids.
    static func contentKey(_ canonicalText: String) -> String {
        String(FileBytes.hex(SHA256.hash(data: Data(canonicalText.utf8))).prefix(16))
    }

    /// Keeps the discriminator of a reused id's events only where one subject's events share it,
    /// on each but the subject's first use. A fingerprint holds the subject, so two subjects'
    /// findings on one id differ without it; kept for an id another subject used first, it made
    /// the fingerprint depend on that subject's events, which a partition of the data does not
    /// see: split, checked by partition and merged, a finding's fingerprint was not the single
    /// run's, and a baseline of that run no longer matched it.
    static func keepDiscriminatorsWithinSubject(_ events: inout [Event]) {
        guard events.contains(where: { $0.discriminator != nil }) else { return }
        var firstUse: [String: UInt64] = [:]
        for event in events { firstUse[event.id] = min(firstUse[event.id] ?? .max, event.sequence) }
        for index in events.indices where events[index].discriminator != nil && firstUse[events[index].id] == events[index].sequence {
            events[index].discriminator = nil
        }
    }
}
