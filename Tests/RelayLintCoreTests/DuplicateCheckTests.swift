import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Duplicates and reused ids are decided once everything is read; what depends on the answer
/// (counts, per-log times, notes and their order, the events evaluated) is what deciding line by
/// line gave.
@Suite struct DuplicateCheckTests {
    static func line(_ id: String, day: Int, subject: String = "u1", type: String = "signin", extra: String = "") -> String {
        #"{"id":"\#(id)","time":"2026-01-\#(String(format: "%02d", day))T00:00:00Z","subject":"\#(subject)","type":"\#(type)"\#(extra)}"#
    }

    static func lookAlike(_ id: String, day: Int) -> String {
        line(id, day: day, type: "identity.linked", extra: #","kind":"email","value":"x\#(id)@privaterelay.apple.id.com""#)
    }

    /// - Parameter mappings: whether logs of the built-in mappings' formats are read too.
    func lint(_ logs: [[String]], spill: Bool, mappings: Bool = false) throws -> LintReport {
        let paths = try logs.enumerated().map { index, lines in
            try Fixtures.temporaryFile(named: "dups\(index).jsonl", contents: lines.joined(separator: "\n"))
        }
        var request = LintRequest(eventPaths: paths, rules: LinterTests.builtIn, parallelism: 2)
        if mappings { request.mappings = try MappingSet.load(userPaths: []).mappings }
        if spill {
            request.spillThreshold = 0
            request.spillLayout = PartitionedArena.Layout(partitions: 3, largestChunk: 128)
        }
        return try Linter.run(request)
    }

    @Test(arguments: [false, true])
    func aLogThatRepeatsAnEarlierOneHoldsOnlyDuplicates(spill: Bool) throws {
        let first = [Self.line("a", day: 2), Self.line("b", day: 5), Self.line("c", day: 9, subject: "u2")]
        // The same events, one with its keys in another order.
        let repeated = [
            Self.line("c", day: 9, subject: "u2"), #"{"type":"signin","subject":"u1","time":"2026-01-02T00:00:00Z","id":"a"}"#,
            Self.line("b", day: 5),
        ]
        let report = try lint([first, repeated], spill: spill)
        #expect(report.summary.events == 3)
        #expect(report.summary.duplicates == 3)
        let logs = report.inputs.filter { $0.kind == .events }
        #expect(logs.map(\.duplicates) == [0, 3])
        #expect(logs.map(\.records) == [3, 3])
        #expect(logs[0].firstTime?.description == "2026-01-02T00:00:00Z")
        #expect(logs[0].lastTime?.description == "2026-01-09T00:00:00Z")
        // Nothing of the second log is kept, so it spans no time.
        #expect(logs[1].firstTime == nil && logs[1].lastTime == nil)
        #expect(report.eventsPerDay.map(\.count) == [1, 1, 1])
        #expect(report.notes.isEmpty)
    }

    @Test(arguments: [false, true])
    func aDuplicateIsCountedOnceAndNotesStayInInputOrder(spill: Bool) throws {
        let link = Self.lookAlike("l1", day: 3)
        let report = try lint(
            [
                [
                    Self.line("s1", day: 1, extra: #","provider":"apple.com","is_private_email":true"#), link,
                    Self.line("s1", day: 9, extra: #","provider":"google.com""#), link, Self.lookAlike("l2", day: 5),
                ]
            ], spill: spill)
        #expect(report.summary.events == 4)
        // The reuse waited for the answer, and is the log's last event.
        #expect(report.inputs.first { $0.kind == .events }?.lastTime?.description == "2026-01-09T00:00:00Z")
        #expect(report.summary.duplicates == 1)
        #expect(report.findings.filter { $0.event == "l1" }.count == 1)
        // The reuse at line 3 comes between the look-alikes of lines 2 and 5; line 4 repeats line 2.
        #expect(report.notes.map(\.location.line) == [2, 3, 5])
        #expect(report.notes[1].message.contains("event id 's1' was already used at ") && report.notes[1].message.contains(":1 with"))
    }

    @Test(arguments: [false, true])
    func anIdReusedInAnotherLogNamesItsFirstUseThereAndItsRepeatIsADuplicate(spill: Bool) throws {
        let first = Self.line("s1", day: 1, extra: #","provider":"apple.com""#)
        let reuse = Self.line("s1", day: 2, extra: #","provider":"google.com""#)
        let report = try lint([[first], [Self.line("x", day: 1), reuse, reuse]], spill: spill)
        #expect(report.summary.events == 3)
        #expect(report.summary.duplicates == 1)
        let logs = report.inputs.filter { $0.kind == .events }
        #expect(logs.map(\.duplicates) == [0, 1])
        let note = try #require(report.notes.first)
        #expect(report.notes.count == 1)
        #expect(note.message == "event id 's1' was already used at \(logs[0].path):1 with different content; both events are kept")
        #expect(note.location == SourceLocation(file: logs[1].path, line: 2))
    }

    /// The note of an id made of a phone-number subject id shows the subject in it masked as the
    /// findings show it, spilled or not, and whole with `--show-pii` (hostile 16, F1).
    @Test(arguments: [false, true])
    func aReusedIdMadeOfItsSubjectShowsItMaskedInTheNote(spill: Bool) throws {
        let subject = "(0161) 496 0000"
        let first = Self.line("l-\(subject)", day: 1, subject: subject, extra: #","provider":"apple.com""#)
        let reuse = Self.line("l-\(subject)", day: 2, subject: subject, extra: #","provider":"google.com""#)
        let report = try lint([[first, reuse]], spill: spill)
        let note = try #require(report.notes.first { $0.message.contains("was already used") })
        #expect(note.message.hasPrefix("event id 'l-•••••••••00' was already used at "), "\(note.message)")
        let path = try Fixtures.temporaryFile(named: "reuse.jsonl", contents: first + "\n" + reuse + "\n")
        let shown = try Linter.run(LintRequest(eventPaths: [path], rules: LinterTests.builtIn, showPII: true))
        #expect(shown.notes.contains { $0.message.hasPrefix("event id 'l-\(subject)' was already used at ") })
    }

    /// One id given to many contents: each content again is a duplicate, each new one a reuse,
    /// however many came before (they are kept in a set: 800,000 lines of one id took minutes).
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func anIdGivenToManyContentsCountsEachContentOnce(spill: Bool) throws {
        let contents = 20_000
        var lines = (0..<contents).map { Self.line("e", day: 1, extra: #","n":\#($0)"#) }
        lines += [0, 7, contents - 1].map { Self.line("e", day: 1, extra: #","n":\#($0)"#) }
        let report = try lint([lines], spill: spill)
        #expect(report.summary.events == contents)
        #expect(report.summary.duplicates == 3)
        #expect(report.inputs.first { $0.kind == .events }?.records == contents + 3)
    }

    @Test(arguments: [false, true])
    func lookAlikesOfDuplicatesNeitherTakeANotesPlaceNorCount(spill: Bool) throws {
        // 205 look-alikes, each of the first ten repeated at once: 200 notes, and 5 more counted.
        var lines: [String] = []
        for index in 0..<205 {
            lines.append(Self.lookAlike("l\(index)", day: 1 + index % 28))
            if index < 10 { lines.append(lines[lines.count - 1]) }
        }
        let report = try lint([lines], spill: spill)
        #expect(report.summary.duplicates == 10)
        let noted = report.notes.filter { $0.message.contains("looks like a relay domain") }
        #expect(noted.count == 200)
        #expect(Set(noted.map(\.location.line)).count == 200)
        #expect(report.notes.last?.message == "5 more look-alike relay addresses are not listed")
    }

    /// The filter is wrong about one id in a thousand or so: those events wait for the answer and
    /// are then counted like any other.
    @Test func eventsWhoseIdOnlySeemsUsedAreCountedLikeAnyOther() throws {
        var check = DuplicateCheck()
        check.reserveCapacity(1_000)
        // Keys that differ only in the high half's last bits fall in one block with the same
        // bits: the filter cannot tell them apart, the check can.
        for index in 0..<100 {
            let id = [UInt8]("e\(index)".utf8)
            _ = [UInt8]("{}".utf8).withUnsafeBufferPointer { line in
                id.withUnsafeBufferPointer { id in
                    check.record(
                        key: IDKey(high: index, low: 7), digest: ContentDigest(.string("\(index)")), id: id,
                        sequence: UInt64(index), time: Timestamp(nanoseconds: 0),
                        lookAlikes: 0, line: line)
                }
            }
        }
        #expect(check.suspects.map(\.sequence) == Array(1..<100))
        let outcome = try check.resolve(parallelism: 2)
        #expect(outcome.duplicates.isEmpty && outcome.reuses.isEmpty)

        // Through a log, whichever events the filter happens to suspect.
        let count = 30_000
        let lines = (0..<count).map { Self.line("e\($0)", day: 1 + $0 % 28, subject: "u\($0 % 97)") }
        for spill in [false, true] {
            let report = try lint([lines], spill: spill)
            #expect(report.summary.events == count)
            #expect(report.summary.duplicates == 0)
            #expect(report.eventsPerDay.reduce(0) { $0 + $1.count } == count)
            #expect(report.notes.isEmpty)
        }
    }

    @Test func theFilterNeverForgetsAnIdAndRarelyImaginesOne() {
        var filter = SeenIDFilter()
        filter.reserveCapacity(10_000)
        // Past what the first filter takes (65,536 ids, the least it is made for): the filter
        // grows by adding generations.
        let keys = (0..<200_000).map { IDKey("id-\($0)") }
        var imagined = 0
        for key in keys where filter.insert(key) { imagined += 1 }
        #expect(keys.allSatisfy { filter.insert($0) })
        #expect(imagined < keys.count / 100)
        #expect(filter.bytes < keys.count * 8)
    }

    /// Apple's notifications are read after every other log, to be joined to the accounts they
    /// name; of two uses of an id, the first is still the one given first: the repeat in a
    /// later log is the duplicate, counted there, and a reuse's note names the notification as
    /// the first use. Read first, the later log's copy was taken for the first use.
    @Test(arguments: [false, true])
    func anIdOfANotificationReadLastIsFirstUsedWhereItIsGiven(spill: Bool) throws {
        let claims =
            #"{"iss":"https://appleid.apple.com","aud":"x","iat":1,"jti":"n9","#
            + #""events":"{\"type\":\"consent-revoked\",\"sub\":\"001437.c.1204\",\"event_time\":1769947200000}"}"#
        let created =
            #"{"id":"c1","time":"2026-01-01T00:00:00Z","subject":"uC","type":"account.created","provider":"apple.com","#
            + #""value":"001437.c.1204"}"#
        let copy = #"{"id":"n9","time":1769947200000,"subject":"uC","type":"apple.notification","event":"consent-revoked"}"#
        let other = #"{"id":"n9","time":1769947200000,"subject":"uC","type":"apple.notification","event":"account-delete"}"#
        for (repeated, duplicates) in [(copy, [0, 1, 0]), (other, [0, 0, 0])] {
            let report = try lint([[claims], [repeated], [created]], spill: spill, mappings: true)
            let logs = report.inputs.filter { $0.kind == .events }
            #expect(logs.map { ($0.path as NSString).lastPathComponent } == ["dups0.jsonl", "dups1.jsonl", "dups2.jsonl"])
            #expect(logs.map(\.duplicates) == duplicates)
            let reuses = report.notes.filter { $0.message.contains("was already used") }
            #expect(reuses.map(\.location) == (repeated == copy ? [] : [SourceLocation(file: logs[1].path, line: 1)]))
            #expect(reuses.allSatisfy { $0.message.contains("already used at \(logs[0].path):1") })
        }
    }

    /// The notes of reused ids stay in input order when the log that reuses one is read last:
    /// the notification's note (its id used in the log before it) comes before the note of the
    /// log after it (which reuses the notification's other id).
    @Test(arguments: [false, true])
    func reusedIdNotesStayInInputOrderAroundANotificationLogReadLast(spill: Bool) throws {
        let notification = { (jti: String, type: String) in
            #"{"iss":"https://appleid.apple.com","aud":"x","iat":1,"jti":"\#(jti)","#
                + #""events":"{\"type\":\"\#(type)\",\"sub\":\"001437.c.1204\",\"event_time\":1769947200000}"}"#
        }
        let logs = [
            [Self.line("X", day: 1, subject: "uA")],
            [notification("X", "consent-revoked"), notification("Y", "email-disabled")],
            [
                #"{"id":"c1","time":"2026-01-01T00:00:00Z","subject":"uC","type":"account.created","provider":"apple.com","value":"001437.c.1204"}"#,
                Self.line("Y", day: 2, subject: "uC"),
            ],
        ]
        let report = try lint(logs, spill: spill, mappings: true)
        let paths = report.inputs.filter { $0.kind == .events }.map(\.path)
        let reuses = report.notes.filter { $0.message.contains("was already used") }
        #expect(
            reuses.map(\.location) == [
                SourceLocation(file: paths[1], line: 1), SourceLocation(file: paths[2], line: 2),
            ])
        #expect(reuses.first?.message.contains("already used at \(paths[0]):1") == true)
        #expect(reuses.last?.message.contains("already used at \(paths[1]):2") == true)
        #expect(report.summary.duplicates == 0)
    }

    /// An id expected from a log read last makes a suspect of an event read before that log
    /// begins, and no longer once it does: the log's own events are suspects only for ids read
    /// before them (each suspect is kept and mapped again: 200,000 notifications given first took
    /// three times as long).
    @Test func anExpectedIdMakesSuspectsOnlyUntilTheLogsReadLastBegin() {
        var check = DuplicateCheck()
        func record(_ id: String, _ sequence: UInt64) -> Bool {
            id.withUTF8Bytes { bytes in
                check.record(
                    key: IDKey(id), digest: ContentDigest(value: sequence), id: bytes, sequence: sequence,
                    time: Timestamp(seconds: 0), lookAlikes: 0, line: bytes)
            }
        }
        check.expect(IDKey("n1"))
        check.expect(IDKey("n2"))
        #expect(record("n1", 5))
        #expect(!record("e1", 6))
        check.stopExpecting()
        #expect(record("n1", 1))  // read before, as an event of another log
        #expect(!record("n2", 2))
    }
}
