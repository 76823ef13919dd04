import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A link or unlink that names no identity by the contract's clauses gets a data-quality note
/// instead of passing unseen; one that names any identity gets none.
@Suite struct LinkWithoutIdentityTests {
    static let kinds: [String?] = [nil, "", "email", "phone", "provider", "social", "Email"]
    static let providers: [String?] = [nil, "", "password", "phone", "apple.com", "google.com", "gc.apple.com", "anonymous"]

    /// The note is given exactly where the identity ledger finds no identity in the event.
    @Test(arguments: ["identity.linked", "identity.unlinked"])
    func theNoteIsGivenExactlyWhereTheLedgerFindsNoIdentity(type: String) {
        for kind in Self.kinds {
            for provider in Self.providers {
                var fields: [String: JSONValue] = [:]
                if let kind { fields["kind"] = .string(kind) }
                if let provider { fields["provider"] = .string(provider) }
                let event = Event(
                    id: "e", time: Timestamp(nanoseconds: 0), subject: "u", type: type, app: nil, fields: EventFields(fields),
                    location: SourceLocation(file: "e.jsonl", line: 1), sequence: 1)
                var named = 0
                IdentityChange.forEachIdentity(linkedBy: event, relayDomains: RelayDomains()) { _ in named += 1 }
                let note = LinkWithoutIdentity.note(type: type, kind: kind, provider: provider)
                #expect((note == nil) == (named > 0), "kind \(kind ?? "-"), provider \(provider ?? "-")")
            }
        }
        #expect(LinkWithoutIdentity.note(type: "signin", kind: nil, provider: "google.com") == nil)
    }

    static func notes(_ lines: [String]) throws -> [String] {
        let events = try Fixtures.temporaryFile(named: "links.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let result = try CommandRunner.run(["check", "--events", events, "--format", "json", "--fail-on", "never"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        return (report["notes"] as? [[String: Any]] ?? []).compactMap { note in
            (note["message"] as? String).map { "\((note["location"] as? [String: Any])?["line"] ?? 0): \($0)" }
        }
    }

    static func link(_ id: String, _ members: String) -> String {
        #"{"id":"\#(id)","time":"2026-01-02T00:00:00Z","subject":"u1","type":"identity.linked"\#(members)}"#
    }

    /// Read fast (plain strings) or strictly (an escape, a number for a kind) alike; a duplicate
    /// is not noted twice.
    @Test func eachLinkThatNamesNoIdentityIsNotedOnceAtItsLine() throws {
        let notes = try Self.notes([
            Self.link("1", #","provider":"google.com""#),
            Self.link("1", #","provider":"google.com""#),
            Self.link("2", #","kind":"soci\u0061l","provider":"google.com""#),
            Self.link("3", #","kind":7,"provider":"facebook.com""#),
            Self.link("4", #","kind":"provider","provider":"google.com""#),
            Self.link("5", #","provider":"password""#),
        ])
        #expect(notes.count == 3, "\(notes)")
        #expect(notes.first?.hasPrefix("1: identity.linked names no identity (kind none, provider 'google.com')") == true)
        #expect(notes.dropFirst().first?.hasPrefix("3: identity.linked names no identity (kind 'social', provider 'google.com')") == true)
        #expect(notes.last?.hasPrefix("4: identity.linked names no identity (kind none, provider 'facebook.com')") == true)
    }

    /// A duplicate takes no place in the list: ten links logged eighty times each, then three
    /// hundred more, are all listed.
    @Test func duplicatesTakeNoPlaceInTheList() throws {
        let repeated = (0..<800).map { Self.link("d\($0 % 10)", #","provider":"x.com""#) }
        let notes = try Self.notes(repeated + (0..<300).map { Self.link("n\($0)", #","provider":"x.com""#) })
        #expect(notes.count == 310, "\(notes.last ?? "")")
        #expect(!notes.contains { $0.contains("not listed") })
    }

    /// Past the notes a run lists, the rest are counted.
    @Test func linksPastTheListedNotesAreCounted() throws {
        let notes = try Self.notes((0..<(DatasetBuilder.noteLimit * 2 + 30)).map { Self.link("l\($0)", #","provider":"x.com""#) })
        #expect(notes.count == DatasetBuilder.noteLimit * 2 + 1)
        #expect(notes.last?.contains("30 more data-quality notes are not listed") == true, "\(notes.last ?? "")")
    }
}
