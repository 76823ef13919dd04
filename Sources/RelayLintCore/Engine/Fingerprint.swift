import Crypto
import Foundation

/// Stable finding identities: the SHA-256 of what makes a finding the same finding (rule,
/// subject, firing event), never of its message, which may change with masking or wording.
enum Fingerprint {
    static func of(rule: String, subject: String, event: String?) -> String {
        let key = [rule, subject, event ?? ""].joined(separator: "\u{1F}")
        return String(FileBytes.hex(SHA256.hash(data: Data(key.utf8))).prefix(32))
    }
}
