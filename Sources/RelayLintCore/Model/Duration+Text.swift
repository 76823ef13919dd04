import Foundation

/// A length of time written in rule files and configuration: `30d`, `12h`, `90m`, `45s`, `2w`,
/// or a combination such as `1d12h`.
public struct RuleDuration: Sendable, Hashable, Codable, CustomStringConvertible {
    public var nanoseconds: Int64
    /// The text as written, kept for messages and explanations.
    public var text: String

    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        var total: Int64 = 0
        var number: Int64? = nil
        for character in trimmed {
            if let digit = character.wholeNumberValue, character.isASCII {
                number = (number ?? 0) * 10 + Int64(digit)
                guard number! < 1_000_000 else { return nil }
                continue
            }
            let unit: Int64
            switch character {
            case "w": unit = 7 * 86_400
            case "d": unit = 86_400
            case "h": unit = 3_600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            guard let value = number else { return nil }
            let (seconds, overflow) = value.multipliedReportingOverflow(by: unit)
            let (nanos, overflow2) = seconds.multipliedReportingOverflow(by: Timestamp.nanosecondsPerSecond)
            let (sum, overflow3) = total.addingReportingOverflow(nanos)
            guard !overflow, !overflow2, !overflow3 else { return nil }
            total = sum
            number = nil
        }
        guard number == nil else { return nil }
        self.nanoseconds = total
        self.text = trimmed
    }

    public var description: String { text }

    /// Whether `text` has a duration's form (numbers each followed by a unit), whatever its
    /// size: one that does and is not a `RuleDuration` is too long, not misspelt.
    static func isWrittenAsOne(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var afterDigit = false
        for character in trimmed {
            if character.isASCII, character.isNumber {
                afterDigit = true
            } else if "wdhms".contains(character), afterDigit {
                afterDigit = false
            } else {
                return false
            }
        }
        return !trimmed.isEmpty && !afterDigit
    }
}
