/// An instant as whole seconds since the Unix epoch (UTC) and the nanoseconds past them.
///
/// Integer time keeps ordering exact for the nanosecond fractions the contract allows and makes
/// timeline comparisons cheap; `Date` would round to about a microsecond. Nanoseconds alone in an
/// `Int64` reach only 1677-2262, and RFC 3339 writes years 0001-9999: hence the two parts.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Whole seconds since the epoch, rounded down (an instant before the epoch has a negative
    /// `seconds` and a positive `nanosecondOfSecond`).
    public private(set) var seconds: Int64
    /// The nanoseconds past `seconds`, `0..<1_000_000_000`.
    public private(set) var nanosecondOfSecond: Int32

    public init(seconds: Int64, nanosecondOfSecond: Int32 = 0) {
        precondition((0..<1_000_000_000).contains(nanosecondOfSecond), "nanosecondOfSecond out of range")
        self.seconds = seconds
        self.nanosecondOfSecond = nanosecondOfSecond
    }

    public init(nanoseconds: Int64) {
        let (seconds, remainder) = nanoseconds.quotientAndRemainder(dividingBy: Timestamp.nanosecondsPerSecond)
        self.seconds = remainder < 0 ? seconds - 1 : seconds
        self.nanosecondOfSecond = Int32(remainder < 0 ? remainder + Timestamp.nanosecondsPerSecond : remainder)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanosecondOfSecond) < (rhs.seconds, rhs.nanosecondOfSecond)
    }

    public static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// Why a text is not a time: a message says which.
    public enum ParseResult: Sendable, Equatable {
        case valid(Timestamp)
        /// Not of the form the contract allows.
        case malformed
        /// Well formed, but outside years 0001-9999 once in UTC.
        case outOfRange
        /// Of the form, but naming a day or a time of day there is not (`2026-02-29`, hour 24,
        /// second 60), said in words (`2026-02 has 28 days`).
        case noSuchInstant(String)
    }

    /// Parses an RFC 3339 timestamp as the contract restricts it:
    /// `YYYY-MM-DDTHH:MM:SS[.1-9 digits](Z|±HH:MM)`, `T` and `Z` in either case.
    public init?(rfc3339 text: String) {
        guard case .valid(let parsed) = Timestamp.parse(rfc3339: text) else { return nil }
        self = parsed
    }

    /// The same parse, saying why a text is not a time.
    public static func parse(rfc3339 text: String) -> ParseResult {
        text.withUTF8Bytes { Timestamp.parse(rfc3339Bytes: $0) }
    }

    /// The same parse straight from UTF-8 bytes, for the log reader's fast path.
    init?(rfc3339Bytes bytes: UnsafeBufferPointer<UInt8>) {
        guard case .valid(let parsed) = Timestamp.parse(rfc3339Bytes: bytes) else { return nil }
        self = parsed
    }

    static func parse(rfc3339Bytes bytes: UnsafeBufferPointer<UInt8>) -> ParseResult {
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
        // Bytes compared as bytes: a search of a `String`'s UTF-8 view for each of the six
        // separators cost more than the digits of every event's time.
        func literal(_ character: Unicode.Scalar, or other: Unicode.Scalar? = nil) -> Bool {
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            guard byte == UInt8(ascii: character) || other.map({ byte == UInt8(ascii: $0) }) == true else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), literal("-"), let month = digits(2), literal("-"), let day = digits(2),
            literal("T", or: "t"), let hour = digits(2), literal(":"), let minute = digits(2), literal(":"),
            let second = digits(2)
        else { return .malformed }
        // A day or time there is not is said once the rest of the form is known good: a value
        // that is also malformed is told the form.
        var impossible: String?
        let days = (1...12).contains(month) ? Timestamp.daysIn(month: month, year: year) : 0
        if !(1...12).contains(month) {
            impossible = "there is no month \(month)"
        } else if !(1...days).contains(day) {
            impossible =
                day == 0
                ? "there is no day 0" : "\(String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<7]), as: UTF8.self)) has \(days) days"
        } else if hour >= 24 || minute >= 60 || second >= 60 {
            impossible = "a time of day runs from 00:00:00 to 23:59:59, without leap seconds"
        }
        var fraction: Int64 = 0
        if literal(".") {
            var count = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                count += 1
                guard count <= 9 else { return .malformed }
                fraction = fraction * 10 + Int64(bytes[index] - 0x30)
                index += 1
            }
            guard count > 0 else { return .malformed }
            for _ in count..<9 { fraction *= 10 }
        }
        var offsetSeconds = 0
        if literal("Z", or: "z") {
            // UTC
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let offsetHours = digits(2), literal(":"), let offsetMinutes = digits(2),
                offsetHours < 24, offsetMinutes < 60
            else { return .malformed }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return .malformed
        }
        guard index == bytes.count else { return .malformed }
        if let impossible { return .noSuchInstant(impossible) }
        let dayNumber = Timestamp.daysFromCivil(year: year, month: month, day: day)
        // Years 0001-9999 are about ±3e11 seconds: far from any overflow.
        let seconds = Int64(dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        let instant = Timestamp(seconds: seconds, nanosecondOfSecond: Int32(fraction))
        // Years count in UTC: 0000-12-31T23:30:00-01:00 is in year 1, and an offset can carry the
        // first or last day of years 1 to 9999 past them in UTC, where reports
        // print times: as "10000-01-01T…Z" or "0000-12-31T…Z", which no reader (relaylint's own
        // `--data-end` included) takes for RFC 3339. Such an instant is out of range, as the same
        // instant in epoch milliseconds is.
        guard Timestamp.years.contains(instant) else { return .outOfRange }
        return .valid(instant)
    }

    /// The distance between two instants in nanoseconds, saturating instead of overflowing for
    /// instants more than 292 years apart.
    public func distance(to other: Timestamp) -> UInt64 {
        let (seconds, overflow) = other.seconds.subtractingReportingOverflow(self.seconds)
        let (scaled, overflow2) = seconds.multipliedReportingOverflow(by: Timestamp.nanosecondsPerSecond)
        let (difference, overflow3) = scaled.addingReportingOverflow(Int64(other.nanosecondOfSecond) - Int64(nanosecondOfSecond))
        return overflow || overflow2 || overflow3 ? UInt64.max : difference.magnitude
    }

    /// Epoch milliseconds written as ASCII digits only (`"1751331631604"`, as exports write
    /// `createdAt`), read without going through `Double` and `JSONNumber`: the same instant
    /// `init(epochMilliseconds:)` gives for that text. Nil for any other text, which callers
    /// then read the general way, and for digits out of its range (which it rejects too).
    init?(epochMillisecondDigits text: String) {
        let limit: Int64 = 253_402_300_799_999  // 9999-12-31T23:59:59.999Z
        var milliseconds: Int64 = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            // Past the limit the value only grows: stop adding (no overflow), keep checking digits.
            if milliseconds <= limit { milliseconds = milliseconds * 10 + Int64(byte - 0x30) }
        }
        guard !text.isEmpty, milliseconds <= limit else { return nil }
        self.init(seconds: milliseconds / 1000, nanosecondOfSecond: Int32(milliseconds % 1000) * 1_000_000)
    }

    /// Converts epoch milliseconds, written as a JSON number (fractions and exponents allowed),
    /// exactly: from the decimal text, never through a `Double`. Digits below a nanosecond are
    /// dropped (towards zero). So a tiny number such as `1e-400` is the epoch, a valid time, and
    /// `1e400` is out of range (nil): both are decided by their decimal value, as "a JSON number
    /// of epoch milliseconds" reads, where a double made the one zero and the other infinite and
    /// the two took different paths. Nil outside years 0001-9999 and for text that is no number.
    public init?(epochMilliseconds number: JSONNumber) {
        guard let (negative, digits, exponent) = Timestamp.decimal(number.text) else { return nil }
        // The value is digits × 10^exponent milliseconds; `digits` has no leading zero, so this
        // many digits before the decimal point means at least 10^(count - 1) milliseconds.
        let integerCount = digits.count + exponent
        guard integerCount <= 15 else { return nil }
        func digit(at position: Int) -> Int64 { position >= 0 && position < digits.count ? Int64(digits[position]) : 0 }
        var milliseconds: Int64 = 0
        for position in 0..<max(integerCount, 0) { milliseconds = milliseconds * 10 + digit(at: position) }
        var subMillisecond: Int64 = 0
        for position in integerCount..<integerCount + 6 { subMillisecond = subMillisecond * 10 + digit(at: position) }
        let seconds = milliseconds / 1000
        let nanoseconds = (milliseconds % 1000) * 1_000_000 + subMillisecond
        var time = Timestamp(seconds: seconds, nanosecondOfSecond: Int32(nanoseconds))
        if negative {
            time =
                nanoseconds == 0
                ? Timestamp(seconds: -seconds)
                : Timestamp(seconds: -seconds - 1, nanosecondOfSecond: Int32(Timestamp.nanosecondsPerSecond - nanoseconds))
        }
        guard Timestamp.years.contains(time) else { return nil }
        self = time
    }

    /// The instants epoch milliseconds may name: years 0001-9999 in UTC, the years RFC 3339
    /// writes (an RFC 3339 time with an offset may reach up to a day beyond them).
    static let years = Timestamp(seconds: -62_135_596_800)..<Timestamp(seconds: 253_402_300_800)

    /// `[±]digits[.digits][(e|E)[±]digits]` as its sign, its significant digits (values 0-9,
    /// no leading zero; none for zero) and the power of ten they are scaled by; nil for any
    /// other text. The exponent saturates far beyond any time, so it cannot overflow.
    private static func decimal(_ text: String) -> (negative: Bool, digits: [UInt8], exponent: Int)? {
        var bytes = text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var seenDigit = false
        var seenPoint = false
        while let byte = bytes.first, byte >= 0x30 && byte <= 0x39 || byte == UInt8(ascii: ".") && !seenPoint {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                seenPoint = true
                continue
            }
            seenDigit = true
            if seenPoint { exponent -= 1 }
            if !digits.isEmpty || byte != 0x30 { digits.append(byte - 0x30) }
        }
        guard seenDigit else { return nil }
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            let negativeExponent = bytes.first == UInt8(ascii: "-")
            if negativeExponent || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard !bytes.isEmpty else { return nil }
            var power = 0
            for byte in bytes {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                power = min(power * 10 + Int(byte - 0x30), 1 << 40)
            }
            exponent += negativeExponent ? -power : power
            bytes = bytes[bytes.endIndex...]
        }
        guard bytes.isEmpty else { return nil }
        while digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        return (negative, digits, exponent)
    }

    /// RFC 3339 in UTC with the shortest exact fraction: `2026-03-01T12:00:00Z`,
    /// `2026-03-01T12:00:00.25Z`.
    public var description: String {
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = Timestamp.civilFromDays(Int(days))
        var text = Timestamp.pad(year, 4) + "-" + Timestamp.pad(month, 2) + "-" + Timestamp.pad(day, 2)
        text += "T" + Timestamp.pad(secondOfDay / 3600, 2) + ":" + Timestamp.pad(secondOfDay / 60 % 60, 2)
        text += ":" + Timestamp.pad(secondOfDay % 60, 2)
        if nanosecondOfSecond != 0 {
            var digits = Timestamp.pad(Int(nanosecondOfSecond), 9)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    /// The calendar day in UTC, `YYYY-MM-DD`, for per-day histograms.
    public var utcDay: String {
        let description = description
        return String(description.prefix(upTo: description.firstIndex(of: "T")!))
    }

    /// Days since the epoch (UTC): a cheap per-event key for histograms.
    var utcDayNumber: Int64 { seconds.floorDivided(by: 86_400) }

    /// `YYYY-MM-DD` of a day number.
    static func utcDay(number: Int64) -> String { Timestamp(seconds: number * 86_400).utcDay }

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
