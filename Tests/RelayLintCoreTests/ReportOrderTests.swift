@testable import RelayLintCore
import Testing

/// Findings sort by subject, time and rule, texts by their UTF-8 bytes: ids that differ only in
/// Unicode normalization are different subjects, and `String`'s own order, which reads them as
/// equal, was no total order over them (a sort and a merge placed them differently).
@Suite struct ReportOrderTests {
    private struct Entry: ReportOrder.Ordered {
        var subject: String
        var instant: Timestamp? = nil
        var rule = "r"
        var event: String? = nil
        var fingerprint: String
    }

    @Test func subjectsThatDifferOnlyInNormalizationSortByTheirBytes() {
        let composed = "\u{E9}x46"
        let decomposed = "e\u{301}x46"
        let entries = [composed, decomposed, composed + "0", decomposed + "0", composed + "00", decomposed + "00"].enumerated().map {
            Entry(subject: $1, fingerprint: "f\($0)")
        }
        let sorted = entries.sorted(by: ReportOrder.precedes)
        #expect(sorted.map(\.subject) == entries.map(\.subject).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        // A strict order: of two different ids, exactly one comes first.
        for a in entries {
            for b in entries where a.fingerprint != b.fingerprint {
                #expect(ReportOrder.precedes(a, b) != ReportOrder.precedes(b, a))
            }
        }
    }
}
