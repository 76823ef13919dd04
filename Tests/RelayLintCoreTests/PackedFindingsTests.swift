@testable import RelayLintCore
import Testing

/// The subject pass packs its findings until the events are gone: the report must get back
/// exactly the findings that were packed, in the order they were added, across batches.
@Suite struct PackedFindingsTests {
    static func finding(_ number: Int, subject: String = "000-subject-with-a-long-id") -> Finding {
        let file = "logs/events-\(number % 2).jsonl"
        return Finding(
            rule: number % 3 == 0 ? "consent-before-email-link" : "token-revoked-before-deletion",
            severity: number % 2 == 0 ? .error : .warning, subject: subject, app: "com.example.app\(number % 2)",
            event: number % 4 == 3 ? nil : "event-\(number)",
            time: number % 5 == 4 ? nil : Timestamp(nanoseconds: 1_700_000_000_000_000_000 + Int64(number) * 1_000_000_007),
            message: "message \(number): the subject linked an email – ✓ «\(subject)»",
            fingerprint: String(repeating: "ab", count: 16) + "\(number)",
            location: number % 6 == 5 ? nil : SourceLocation(file: file, line: number, column: number % 2 == 0 ? nil : 0),
            expected: "consent.granted where scope = link.email before it",
            evidence: (0..<(number % 4)).map { item in
                Evidence(
                    role: [.trigger, .witness, .interruption, .boundary][item], event: "e\(number)-\(item)", type: "consent.granted",
                    time: Timestamp(nanoseconds: -Int64(item) * 86_400_000_000_000), location: SourceLocation(file: file, line: item),
                    note: item == 1 ? nil : "does not count: \(item)")
            })
    }

    @Test func unpackedFindingsEqualThePackedOnesInOrder() {
        let originals = (0..<40).map { Self.finding($0) }
        var first = PackedFindings()
        var second = PackedFindings()
        var third = PackedFindings()
        for finding in originals[0..<15] { first.append(finding) }
        for finding in originals[15..<31] { second.append(finding) }
        // A batch added while the first one is still open, and one more finding after it.
        first.append(contentsOf: second)
        for finding in originals[31..<39] { third.append(finding) }
        first.append(contentsOf: third)
        first.append(originals[39])
        #expect(first.count == 40)
        let unpacked = first.unpacked()
        #expect(unpacked.count == originals.count)
        for (index, (got, expected)) in zip(unpacked, originals).enumerated() {
            #expect(got == expected, "finding \(index)")
        }
    }

    /// `String`'s `==` equates canonically equivalent spellings; two apps or files may differ
    /// only so, and each finding must come back with its own bytes.
    @Test func equivalentSpellingsComeBackWithTheirOwnBytes() {
        var precomposed = Self.finding(1)
        precomposed.app = "caf\u{E9}"
        precomposed.location = SourceLocation(file: "logs/caf\u{E9}.jsonl", line: 1)
        var decomposed = Self.finding(2)
        decomposed.app = "cafe\u{301}"
        decomposed.location = SourceLocation(file: "logs/cafe\u{301}.jsonl", line: 1)
        var packed = PackedFindings()
        packed.append(precomposed)
        packed.append(decomposed)
        let unpacked = packed.unpacked()
        #expect(unpacked.map { Array($0.app.utf8) } == [Array(precomposed.app.utf8), Array(decomposed.app.utf8)])
        #expect(
            unpacked.map { Array($0.location!.file.utf8) } == [
                Array(precomposed.location!.file.utf8), Array(decomposed.location!.file.utf8),
            ])
    }

    @Test func anEmptyCollectionUnpacksToNoFindings() {
        var empty = PackedFindings()
        empty.append(contentsOf: PackedFindings())
        #expect(empty.isEmpty)
        #expect(empty.unpacked().isEmpty)
    }
}
