/// An instant as integer nanoseconds since the Unix epoch (UTC).
///
/// Integer time keeps ordering exact for the nanosecond fractions the contract allows and makes
/// timeline comparisons cheap; `Date` would round to about a microsecond.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// Parses an RFC 3339 timestamp as the contract restricts it:
    /// `YYYY-MM-DDTHH:MM:SS[.1-9 digits](Z|±HH:MM)`, `T` and `Z` in either case.
    public init?(rfc3339 text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Timestamp(rfc3339Bytes: $0) }) else { return nil }
        self = parsed
    }

    /// The same parse straight from UTF-8 bytes, for the log reader's fast path.
    init?(rfc3339Bytes bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<count {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                index += 1
            }
            return value
        }
        func literal(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), literal("-"), let month = digits(2), literal("-"), let day = digits(2),
            literal("Tt"), let hour = digits(2), literal(":"), let minute = digits(2), literal(":"),
            let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction: Int64 = 0
        if literal(".") {
            var count = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                count += 1
                guard count <= 9 else { return nil }
                fraction = fraction * 10 + Int64(bytes[index] - 0x30)
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<9 { fraction *= 10 }
        }
        var offsetSeconds = 0
        if literal("Zz") {
            // UTC
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let offsetHours = digits(2), literal(":"), let offsetMinutes = digits(2),
                offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        // Years far outside 1678–2261 do not fit in Int64 nanoseconds: invalid, not a crash.
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: Timestamp.nanosecondsPerSecond)
        let (total, carry) = scaled.addingReportingOverflow(fraction)
        guard !overflow, !carry else { return nil }
        self.nanoseconds = total
    }

    /// The distance between two instants, saturating instead of overflowing for instants at
    /// the ends of the range.
    public func distance(to other: Timestamp) -> UInt64 {
        let (difference, overflow) = other.nanoseconds.subtractingReportingOverflow(nanoseconds)
        return overflow ? UInt64.max : difference.magnitude
    }

    /// Epoch milliseconds written as ASCII digits only (`"1751331631604"`, as exports write
    /// `createdAt`), read without going through `Double` and `JSONNumber`: the same instant
    /// `init(epochMilliseconds:)` gives for that text. Nil for any other text, which callers
    /// then read the general way, and for digits out of its range (which it rejects too).
    init?(epochMillisecondDigits text: String) {
        let limit: Int64 = 9_000_000_000_000
        var milliseconds: Int64 = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            // Past the limit the value only grows: stop adding (no overflow), keep checking digits.
            if milliseconds < limit { milliseconds = milliseconds * 10 + Int64(byte - 0x30) }
        }
        guard !text.isEmpty, milliseconds < limit else { return nil }
        self.nanoseconds = milliseconds * 1_000_000
    }

    /// Converts epoch milliseconds, written as a JSON number (fractions allowed), exactly.
    public init?(epochMilliseconds number: JSONNumber) {
        let text = number.text
        if text.contains(where: { $0 == "e" || $0 == "E" }) {
            let nanos = (number.value * 1_000_000).rounded()
            guard abs(nanos) < 9.2e18 else { return nil }
            self.nanoseconds = Int64(nanos)
            return
        }
        var integerPart = Substring(text)
        var fractionPart: Substring = ""
        if let dot = text.firstIndex(of: ".") {
            integerPart = text[..<dot]
            fractionPart = text[text.index(after: dot)...]
        }
        let negative = integerPart.hasPrefix("-")
        if negative { integerPart = integerPart.dropFirst() }
        guard let milliseconds = Int64(integerPart), milliseconds < 9_000_000_000_000 else { return nil }
        // 9e12 ms × 1e6 stays below Int64.max (9.22e18), so the arithmetic below cannot overflow.
        var subMillisecond: Int64 = 0
        var scale: Int64 = 100_000
        for character in fractionPart.prefix(6) {
            subMillisecond += Int64(character.wholeNumberValue ?? 0) * scale
            scale /= 10
        }
        let magnitude = milliseconds * 1_000_000 + subMillisecond
        self.nanoseconds = negative ? -magnitude : magnitude
    }

    /// RFC 3339 in UTC with the shortest exact fraction: `2026-03-01T12:00:00Z`,
    /// `2026-03-01T12:00:00.25Z`.
    public var description: String {
        let seconds = nanoseconds.floorDivided(by: Timestamp.nanosecondsPerSecond)
        let fraction = nanoseconds - seconds * Timestamp.nanosecondsPerSecond
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = Timestamp.civilFromDays(Int(days))
        var text = Timestamp.pad(year, 4) + "-" + Timestamp.pad(month, 2) + "-" + Timestamp.pad(day, 2)
        text += "T" + Timestamp.pad(secondOfDay / 3600, 2) + ":" + Timestamp.pad(secondOfDay / 60 % 60, 2)
        text += ":" + Timestamp.pad(secondOfDay % 60, 2)
        if fraction != 0 {
            var digits = Timestamp.pad(Int(fraction), 9)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    /// The calendar day in UTC, `YYYY-MM-DD`, for per-day histograms.
    public var utcDay: String { String(description.prefix(10)) }

    /// Days since the epoch (UTC): a cheap per-event key for histograms.
    var utcDayNumber: Int64 {
        let day = nanoseconds / (86_400 * Timestamp.nanosecondsPerSecond)
        return nanoseconds < 0 && nanoseconds % (86_400 * Timestamp.nanosecondsPerSecond) != 0 ? day - 1 : day
    }

    /// `YYYY-MM-DD` of a day number.
    static func utcDay(number: Int64) -> String { Timestamp(nanoseconds: number * 86_400 * nanosecondsPerSecond).utcDay }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = Timestamp(rfc3339: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "invalid RFC 3339 timestamp '\(text)'")
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil algorithm: proleptic Gregorian calendar, no Foundation.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
