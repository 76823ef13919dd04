@testable import RelayLintCore
import Testing

@Suite struct TimestampTests {
    @Test(arguments: [
        ("2026-03-01T12:00:00Z", "2026-03-01T12:00:00Z"),
        ("2026-03-01t12:00:00z", "2026-03-01T12:00:00Z"),
        ("2026-03-01T14:00:00+02:00", "2026-03-01T12:00:00Z"),
        ("2026-03-01T09:30:00-02:30", "2026-03-01T12:00:00Z"),
        ("2026-03-01T12:00:00.5Z", "2026-03-01T12:00:00.5Z"),
        ("2026-03-01T12:00:00.123456789Z", "2026-03-01T12:00:00.123456789Z"),
        ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"),
        ("1969-12-31T23:59:59.9Z", "1969-12-31T23:59:59.9Z"),
    ])
    func parsesContractTimestamps(input: String, normalized: String) throws {
        let timestamp = try #require(Timestamp(rfc3339: input))
        #expect(timestamp.description == normalized)
    }

    @Test(arguments: [
        "1767225600000", "2026-03-01 12:00:00Z", "2026-03-01T12:00:00.1234567891Z", "2026-03-01T12:00:60Z",
        "2026-03-01T12:00:00", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-03-01T24:00:00Z",
        "2026-03-01T12:00:00.Z", "2026-03-01T12:00:00+0200", "2026-03-01T12:00Z", "", "2026-03-01T12:00:00Z ",
    ])
    func rejectsWhatTheContractCallsInvalid(input: String) {
        #expect(Timestamp(rfc3339: input) == nil)
    }

    @Test func epochMillisecondsConvertExactlyIncludingFractions() throws {
        let whole = try #require(Timestamp(epochMilliseconds: JSONNumber(text: "1767225600000", value: 1767225600000)))
        #expect(whole.description == "2026-01-01T00:00:00Z")
        let fraction = try #require(Timestamp(epochMilliseconds: JSONNumber(text: "1767225600000.123456", value: 1767225600000.123456)))
        #expect(fraction == Timestamp(nanoseconds: 1_767_225_600_000_123_456))
        let exponent = try #require(Timestamp(epochMilliseconds: JSONNumber(text: "1.7672256e12", value: 1.7672256e12)))
        #expect(exponent.description == "2026-01-01T00:00:00Z")
    }

    /// The digits-only reading of an export's `createdAt` string gives the instant the general
    /// reading gives, and leaves every other text (and out-of-range values) to it.
    @Test(arguments: [
        "1751331631604", "0", "0001767225600000", "8999999999999", "9000000000000", "99999999999999999",
        "999999999999999999", "1999999999999999999", "0000000000000000001", "00000000000000000000000001767225600000",
        "1234567890123456789012345", "", "-1", "1.5", "1e3", "+1", " 1", "1 ", "١٢",
    ])
    func epochMillisecondDigitsAgreeWithTheGeneralReading(text: String) {
        let general = Double(text).flatMap { Timestamp(epochMilliseconds: JSONNumber(text: text, value: $0)) }
        let digits = Timestamp(epochMillisecondDigits: text)
        if let digits { #expect(digits == general) }
        let isPlainDigits = !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        #expect((digits != nil) == (isPlainDigits && general != nil))
    }

    @Test func equalInstantsWithDifferentOffsetsCompareEqual() {
        #expect(Timestamp(rfc3339: "2026-03-01T11:30:00+02:00") == Timestamp(rfc3339: "2026-03-01T09:30:00.000Z"))
    }

    @Test(arguments: [("30d", 30 * 86_400), ("12h", 43_200), ("90m", 5_400), ("45s", 45), ("2w", 1_209_600), ("1d12h", 129_600)])
    func durationsParse(text: String, seconds: Int64) throws {
        let duration = try #require(RuleDuration(text))
        #expect(duration.nanoseconds == seconds * 1_000_000_000)
    }

    @Test(arguments: ["30", "d", "30 days", "-1d", "1y", ""])
    func badDurationsAreRejected(text: String) {
        #expect(RuleDuration(text) == nil)
    }
}

/// The gap `explain` shows between two evidence events.
@Suite struct EvidenceGapTests {
    @Test(arguments: [
        ("2026-01-01T00:00:00Z", "2026-01-04T04:00:00Z", "3d 4h"),
        ("2026-01-01T10:00:00.900Z", "2026-01-01T10:00:01.100Z", "0s"),
        ("2026-01-01T00:00:00Z", "2026-01-01T00:12:05Z", "12m 5s"),
        // More than 292 years apart: counted in nanoseconds, the gap saturated at 106751d 23h.
        ("0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "3652058d 23h"),
    ])
    func aGapIsShownInItsTwoLargestUnits(start: String, end: String, shown: String) throws {
        let from = try #require(Timestamp(rfc3339: start))
        let to = try #require(Timestamp(rfc3339: end))
        #expect(FindingExplanation.duration(from: from, to: to) == shown)
    }
}
