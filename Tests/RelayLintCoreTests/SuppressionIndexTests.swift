@testable import RelayLintCore
import Testing

/// Suppressions are looked up by fingerprint, rule and subject rather than compared with each
/// finding; the lookup must find exactly the suppressions `Suppression.matches` accepts, in the
/// order they are written (the first one written is the one a finding shows).
@Suite struct SuppressionIndexTests {
    static let location = SourceLocation(file: ".relaylint.yml", line: 1)

    static func suppression(fingerprint: String? = nil, rule: String? = nil, subject: String? = nil) -> Suppression {
        Suppression(
            fingerprint: fingerprint, rule: rule, subject: subject, justification: "j", author: "a", expires: "2099-01-01",
            location: location)
    }

    static func finding(rule: String, subject: String, fingerprint: String) -> Finding {
        Finding(
            rule: rule, severity: .error, subject: subject, app: "app", event: nil, time: nil, message: "m", fingerprint: fingerprint,
            location: nil, expected: "e", evidence: [])
    }

    @Test func theIndexFindsWhatMatchingPairByPairFinds() {
        let suppressions = [
            Self.suppression(rule: "r1"), Self.suppression(fingerprint: "f2"), Self.suppression(rule: "r1", subject: "s1"),
            Self.suppression(fingerprint: "f1", rule: "r2"), Self.suppression(rule: "r2", subject: "s2"), Self.suppression(),
            Self.suppression(subject: "s1"), Self.suppression(fingerprint: "f1"), Self.suppression(rule: "r1"),
            Self.suppression(rule: "r1", subject: "s1"),
        ]
        let index = SuppressionIndex(suppressions)
        var matched = 0
        for rule in ["r1", "r2", "r3"] {
            for subject in ["s1", "s2", "s3"] {
                for fingerprint in ["f1", "f2", "f3"] {
                    let finding = Self.finding(rule: rule, subject: subject, fingerprint: fingerprint)
                    let expected = suppressions.indices.filter { suppressions[$0].matches(finding) }
                    #expect(index.matches(finding) == expected, "\(rule) \(subject) \(fingerprint)")
                    matched += expected.count
                }
            }
        }
        // The cases above are not all empty: r1 s1 f1 alone is matched by six suppressions (the
        // fourth by its fingerprint, whatever rule it names).
        #expect(index.matches(Self.finding(rule: "r1", subject: "s1", fingerprint: "f1")) == [0, 2, 3, 7, 8, 9])
        #expect(matched > 27)
    }
}
