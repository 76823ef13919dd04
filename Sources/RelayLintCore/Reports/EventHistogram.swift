/// The log's events counted per day, per week or per month, with the empty periods in between
/// filled in: a reviewer sees gaps in the log (an export that missed a week) as gaps, and a long
/// log still fits one chart or one table.
struct EventHistogram: Equatable {
    /// How long one bucket is; chosen from the span of the log.
    enum Period: String, Equatable {
        case day
        /// Weeks start on Monday (ISO 8601), in UTC.
        case week
        case month
        /// For logs of more than ten years (a time typed wrong, year 1 or 9999): per month, one
        /// such log drew 120,000 bars, a 17 MB report from 146 bytes of input.
        case year
    }

    /// One period and the events in it.
    struct Bucket: Equatable {
        /// `YYYY-MM-DD` for days and weeks (the Monday), `YYYY-MM` for months.
        var label: String
        var count: Int
    }

    /// Logs up to this many days long are shown per day.
    static let maximumDays = 31
    /// Logs up to this many days long are shown per week; longer ones per month.
    static let maximumDaysForWeeks = 371
    /// Logs of up to this many months are shown per month; longer ones per year.
    static let maximumMonths = 120

    var period: Period
    var buckets: [Bucket]

    var total: Int { buckets.reduce(0) { $0 + $1.count } }

    /// Groups `LintReport.eventsPerDay` (UTC days, `YYYY-MM-DD`, in day order).
    init(eventsPerDay: [(day: String, count: Int)]) {
        let days = eventsPerDay.compactMap { entry in EventHistogram.dayNumber(entry.day).map { (number: $0, count: entry.count) } }
        guard let first = days.map(\.number).min(), let last = days.map(\.number).max() else {
            self.period = .day
            self.buckets = []
            return
        }
        let span = last - first + 1
        if span <= EventHistogram.maximumDays {
            period = .day
            var counts = Array(repeating: 0, count: span)
            for day in days { counts[day.number - first] += day.count }
            buckets = counts.enumerated().map { Bucket(label: EventHistogram.dayText(first + $0.offset), count: $0.element) }
        } else if span <= EventHistogram.maximumDaysForWeeks {
            period = .week
            let firstMonday = EventHistogram.monday(of: first)
            var counts = Array(repeating: 0, count: (EventHistogram.monday(of: last) - firstMonday) / 7 + 1)
            for day in days { counts[(day.number - firstMonday) / 7] += day.count }
            buckets = counts.enumerated().map { Bucket(label: EventHistogram.dayText(firstMonday + 7 * $0.offset), count: $0.element) }
        } else if EventHistogram.monthIndex(last) - EventHistogram.monthIndex(first) >= EventHistogram.maximumMonths {
            period = .year
            let firstYear = EventHistogram.monthIndex(first) / 12
            var counts = Array(repeating: 0, count: EventHistogram.monthIndex(last) / 12 - firstYear + 1)
            for day in days { counts[EventHistogram.monthIndex(day.number) / 12 - firstYear] += day.count }
            buckets = counts.enumerated().map { offset, count in
                let year = String(firstYear + offset)
                return Bucket(label: String(repeating: "0", count: max(0, 4 - year.count)) + year, count: count)
            }
        } else {
            period = .month
            let monthIndex = EventHistogram.monthIndex
            let firstMonth = monthIndex(first)
            var counts = Array(repeating: 0, count: monthIndex(last) - firstMonth + 1)
            for day in days { counts[monthIndex(day.number) - firstMonth] += day.count }
            buckets = counts.enumerated().map { offset, count in
                let month = firstMonth + offset
                let year = String(month / 12)
                let number = String(month % 12 + 1)
                return Bucket(
                    label: String(repeating: "0", count: max(0, 4 - year.count)) + year + "-"
                        + (number.count == 1 ? "0" : "") + number, count: count)
            }
        }
    }

    /// Months since the year 0 of a day number: year × 12 + month − 1.
    static func monthIndex(_ day: Int) -> Int {
        let text = EventHistogram.dayText(day)
        return Int(text.prefix(4))! * 12 + Int(text.dropFirst(5).prefix(2))! - 1
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` day.
    static func dayNumber(_ day: String) -> Int? {
        guard let start = Timestamp(rfc3339: day + "T00:00:00Z") else { return nil }
        // Midnight UTC is a whole number of days from the epoch, so the division is exact.
        return Int(start.utcDayNumber)
    }

    static func dayText(_ number: Int) -> String {
        Timestamp.utcDay(number: Int64(number))
    }

    /// The Monday on or before a day (1970-01-01 was a Thursday).
    static func monday(of day: Int) -> Int {
        let weekday = ((day + 3) % 7 + 7) % 7
        return day - weekday
    }
}
