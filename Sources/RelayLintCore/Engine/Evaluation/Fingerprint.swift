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
}
