/// Masks email addresses and phone numbers in report text, so a report can be forwarded beyond
/// the people allowed to see users' addresses (contract §6).
public struct PIIMasker: Sendable {
    /// When false, values pass through unchanged (`--show-pii`).
    public var isEnabled: Bool

    public init(isEnabled: Bool = true) { self.isEnabled = isEnabled }

    /// Masks a value if it is an email address or a phone number; other values are returned as
    /// they are.
    public func mask(_ value: String) -> String {
        guard isEnabled else { return value }
        if let masked = PIIMasker.maskEmail(value) { return masked }
        if let masked = PIIMasker.maskPhone(value) { return masked }
        return value
    }

    /// Masks a value known to be a phone number (a phone field), whatever its format: a number
    /// written `0612345678` or `555-555-0123` does not look like one to `mask(_:)`.
    public func maskPhoneField(_ value: String) -> String {
        guard isEnabled else { return value }
        if let masked = PIIMasker.maskPhone(value) { return masked }
        let digits = value.filter { $0.isASCII && $0.isNumber }
        guard digits.count >= 4 else { return mask(value) }
        return String(repeating: "•", count: digits.count - 2) + String(digits.suffix(2))
    }

    /// Masks every email address and phone number that stands as a word in free text.
    public func maskText(_ text: String) -> String {
        guard isEnabled, text.contains("@") || text.contains(where: \.isNumber) else { return text }
        var output = ""
        var word = ""
        func flush() {
            if !word.isEmpty { output += mask(word) }
            word = ""
        }
        for character in text {
            if character.isWhitespace || "()<>,;\"'[]{}".contains(character) {
                flush()
                output.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return output
    }

    /// `jane@example.com` → `j•••@example.com`.
    static func maskEmail(_ value: String) -> String? {
        let trimmed = RelayDomains.trimWhitespace(value)
        guard let at = trimmed.lastIndex(of: "@"), at != trimmed.startIndex else { return nil }
        let domain = trimmed[trimmed.index(after: at)...]
        guard domain.contains("."), !domain.contains(" ") else { return nil }
        return String(trimmed.first!) + "•••@" + domain
    }

    /// `+15555550167` → `+1•••••••67`: country digit and last two digits kept.
    static func maskPhone(_ value: String) -> String? {
        let trimmed = RelayDomains.trimWhitespace(value)
        let allowed = trimmed.allSatisfy { $0.isASCII && ($0.isNumber || " +-().".contains($0)) }
        let digits = trimmed.filter { $0.isASCII && $0.isNumber }
        guard allowed, trimmed.hasPrefix("+") || trimmed.hasPrefix("("), digits.count >= 7, digits.count <= 15 else {
            return nil
        }
        let prefix = trimmed.hasPrefix("+") ? "+" + String(digits.first!) : String(digits.first!)
        return prefix + String(repeating: "•", count: digits.count - 3) + String(digits.suffix(2))
    }
}
