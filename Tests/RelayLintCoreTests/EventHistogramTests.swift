@testable import RelayLintCore
import Testing

/// Events grouped per day, week or month for the audit reports' charts and tables.
@Suite struct EventHistogramTests {
    @Test func shortLogsArePerDayWithEmptyDaysFilledIn() {
        let histogram = EventHistogram(eventsPerDay: [(day: "2026-02-27", count: 2), (day: "2026-03-02", count: 5)])
        #expect(histogram.period == .day)
        #expect(histogram.buckets.map(\.label) == ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"])
        #expect(histogram.buckets.map(\.count) == [2, 0, 0, 5])
        #expect(histogram.total == 7)
    }

    @Test func longerLogsArePerWeekStartingOnMonday() {
        // 2026-01-03 is a Saturday; 2026-02-20 a Friday.
        let histogram = EventHistogram(eventsPerDay: [
            (day: "2026-01-03", count: 1), (day: "2026-01-05", count: 2),
            (day: "2026-01-11", count: 3), (day: "2026-02-20", count: 4),
        ])
        #expect(histogram.period == .week)
        #expect(histogram.buckets.first == EventHistogram.Bucket(label: "2025-12-29", count: 1))
        #expect(histogram.buckets[1] == EventHistogram.Bucket(label: "2026-01-05", count: 5))
        #expect(histogram.buckets.last == EventHistogram.Bucket(label: "2026-02-16", count: 4))
        #expect(histogram.buckets.count == 8)
        #expect(histogram.total == 10)
    }

    @Test func logsOverAYearArePerMonth() {
        let histogram = EventHistogram(eventsPerDay: [(day: "2024-11-30", count: 1), (day: "2026-01-01", count: 2)])
        #expect(histogram.period == .month)
        #expect(histogram.buckets.count == 15)
        #expect(histogram.buckets.first == EventHistogram.Bucket(label: "2024-11", count: 1))
        #expect(histogram.buckets.last == EventHistogram.Bucket(label: "2026-01", count: 2))
    }

    /// A log of more than ten years is per year: times of year 1 and 9999 (a time typed wrong)
    /// drew 120,000 monthly bars, a 17 MB report from two events.
    @Test func logsOverTenYearsArePerYear() {
        let decade = EventHistogram(eventsPerDay: [(day: "2016-01-01", count: 1), (day: "2025-12-31", count: 2)])
        #expect(decade.period == .month && decade.buckets.count == 120)
        let histogram = EventHistogram(eventsPerDay: [
            (day: "0001-01-01", count: 1), (day: "2026-03-01", count: 2), (day: "9999-12-31", count: 3),
        ])
        #expect(histogram.period == .year)
        #expect(histogram.buckets.count == 9999)
        #expect(histogram.buckets.first == EventHistogram.Bucket(label: "0001", count: 1))
        #expect(histogram.buckets[2025] == EventHistogram.Bucket(label: "2026", count: 2))
        #expect(histogram.buckets.last == EventHistogram.Bucket(label: "9999", count: 3))
    }

    @Test func noEventsNoBuckets() {
        #expect(EventHistogram(eventsPerDay: []).buckets.isEmpty)
    }
}
