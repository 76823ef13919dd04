import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Subjects with very many events and manifests with very many apps: the work grows with their
/// size, not with its square, and the indexed search gives the walk's findings.
@Suite struct LongTimelineTests {
    static let builtIn: RuleSet = try! RuleSet.load(paths: [Fixtures.rules])

    /// A log of `count` events of every kind the built-in rules look at, for a few subjects, at
    /// times that often repeat, from a seeded generator.
    static func mixedLog(count: Int, subjects: Int, seed: UInt64) throws -> String {
        var generator = SplitMix64(seed: seed)
        var seconds = 1_767_225_600
        var lines: [String] = []
        for number in 0..<count {
            if Int.random(in: 0..<3, using: &generator) > 0 { seconds += Int.random(in: 0..<(4 * 86_400), using: &generator) }
            var event: [String: Any] = [
                "id": "e\(number)", "time": seconds * 1000, "subject": "u\(Int.random(in: 0..<subjects, using: &generator))",
            ]
            // One address written two ways, which `same_as` compares as one.
            let address = ["a@privaterelay.appleid.com", "b@privaterelay.appleid.com", "c@example.com", " A@PrivateRelay.AppleID.com"]
                .randomElement(using: &generator)!
            switch Int.random(in: 0..<14, using: &generator) {
            case 0: event.merge(["type": "signin", "provider": "apple.com", "email": address]) { $1 }
            case 1:
                event.merge([
                    "type": "consent.granted", "scope": ["link.email", "link.phone", "link.social"].randomElement(using: &generator)!,
                ]) { $1 }
            case 2:
                event.merge(["type": "consent.withdrawn", "scope": ["link.email", "link.phone"].randomElement(using: &generator)!]) { $1 }
            case 3: event.merge(["type": "identity.linked", "kind": "email", "value": "x\(number % 7)@example.com"]) { $1 }
            case 4: event.merge(["type": "identity.linked", "kind": "phone", "value": "+1555555\(1000 + number % 5)"]) { $1 }
            case 5: event.merge(["type": "identity.linked", "kind": "provider", "provider": "google.com"]) { $1 }
            case 6:
                event.merge([
                    "type": "token.revoked", "provider": "apple.com", "status": ["succeeded", "failed"].randomElement(using: &generator)!,
                ]) { $1 }
            case 7: event.merge(["type": "account.deleted"]) { $1 }
            case 8:
                event.merge(["type": "account.deletion_requested", "channel": ["in_app", "email"].randomElement(using: &generator)!]) { $1 }
            case 9:
                event.merge(["type": "data.deleted", "store": ["firestore", "storage", "rtdb"].randomElement(using: &generator)!]) { $1 }
            case 10:
                let kind = ["email-disabled", "email-enabled", "account-delete", "consent-revoked"].randomElement(using: &generator)!
                event.merge(["type": "apple.notification", "event": kind]) { $1 }
                // A notification without an address is about every address of its subject.
                if Int.random(in: 0..<4, using: &generator) > 0 { event["email"] = address }
            case 11: event.merge(["type": "email.sent", "to": address, "from": "news@sender.example"]) { $1 }
            case 12: event.merge(["type": "identity.unlinked", "provider": "apple.com"]) { $1 }
            default: event.merge(["type": "account.created", "provider": "apple.com", "email": address]) { $1 }
            }
            let data = try JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])
            lines.append(String(decoding: data, as: UTF8.self))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: [(UInt64(1), 1), (2, 3), (3, 1)])
    func theIndexedSearchGivesTheWalksFindings(seed: UInt64, subjects: Int) throws {
        let log = try Fixtures.temporaryFile(
            named: "mixed.jsonl", contents: try Self.mixedLog(count: 1_500, subjects: subjects, seed: seed))
        var request = LintRequest(eventPaths: [log], rules: Self.builtIn, parallelism: 1)
        request.indexedSearchFrom = .max
        let walked = try Linter.run(request)
        request.indexedSearchFrom = 0
        let indexed = try Linter.run(request)
        #expect(walked.findings.count > 50)
        #expect(Set(walked.findings.map(\.rule)).count >= 6, "\(Set(walked.findings.map(\.rule)))")
        #expect(indexed.findings == walked.findings)
        #expect(indexed.rules == walked.rules)
    }

    /// 20k links on one anonymized subject without consent: every link fires, and each search for
    /// a consent walked back over every earlier link, and each link searched every identity held
    /// before it. Minutes before; seconds now, even in a debug build.
    @Test func aSubjectWithTwentyThousandLinksTakesLinearTime() throws {
        let count = 20_000
        var lines = [
            #"{"id":"s","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin","provider":"apple.com","email":"a@privaterelay.appleid.com"}"#
        ]
        for number in 0..<count {
            lines.append(
                #"{"id":"l\#(number)","time":"2026-01-02T00:00:00Z","subject":"u","type":"identity.linked","kind":"email","value":"x\#(number)@example.com"}"#
            )
        }
        let log = try Fixtures.temporaryFile(named: "links.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let rules = try RuleSet.load(paths: [CIReportFixture.emailRule])
        let clock = ContinuousClock()
        var report: LintReport?
        let elapsed = try clock.measure { report = try Linter.run(LintRequest(eventPaths: [log], rules: rules, parallelism: 1)) }
        #expect(report?.findings.count == count)
        #expect(elapsed < .seconds(60), "\(elapsed)")
    }

    /// 20k mails to relay addresses of one subject, each looking back for an `email-disabled`
    /// about its own address (`same_as: event.to`): the search lists the few notifications that
    /// may match and checks those, instead of walking back over every earlier mail.
    @Test func twentyThousandMailsComparedWithTheirNotificationTakeLinearTime() throws {
        let count = 20_000
        var lines = [
            #"{"id":"n1","time":"2026-01-01T00:00:00Z","subject":"u","type":"apple.notification","event":"email-disabled","email":"a@privaterelay.appleid.com"}"#
        ]
        for number in 0..<count {
            let to = number % 2 == 0 ? "a@privaterelay.appleid.com" : "b@privaterelay.appleid.com"
            lines.append(
                #"{"id":"m\#(number)","time":"2026-01-02T00:00:00Z","subject":"u","type":"email.sent","to":"\#(to)","from":"n@x.example"}"#
            )
        }
        let log = try Fixtures.temporaryFile(named: "mails.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let rules = Self.builtIn.removing(Set(Self.builtIn.rules.map(\.id)).subtracting(["no-mail-to-disabled-relay"]))
        let clock = ContinuousClock()
        var report: LintReport?
        let elapsed = try clock.measure { report = try Linter.run(LintRequest(eventPaths: [log], rules: rules, parallelism: 1)) }
        // Only the mails to the disabled address fire, each with the notification as its witness.
        #expect(report?.findings.count == count / 2)
        #expect(report?.findings.allSatisfy { $0.evidence.contains { $0.event == "n1" } } == true)
        #expect(elapsed < .seconds(60), "\(elapsed)")
    }

    /// 10k `email-disabled` notifications about other addresses, then 10k mails to one address
    /// of the same subject: each mail's search looks only at the notifications about its own
    /// address (none), where it checked every notification, 40 s in a release build.
    @Test func tenThousandMailsPastNotificationsAboutOtherAddressesTakeLinearTime() throws {
        let count = 10_000
        var lines: [String] = []
        for number in 0..<count {
            lines.append(
                #"{"id":"n\#(number)","time":\#(1_767_225_600_000 + number),"subject":"u","type":"apple.notification","event":"email-disabled","email":"b\#(number)@privaterelay.appleid.com"}"#
            )
        }
        for number in 0..<count {
            lines.append(
                #"{"id":"m\#(number)","time":\#(1_767_325_600_000 + number),"subject":"u","type":"email.sent","to":"a@privaterelay.appleid.com","from":"n@x.example"}"#
            )
        }
        lines.append(
            #"{"id":"n-a","time":1767425600000,"subject":"u","type":"apple.notification","event":"email-disabled","email":"A@privaterelay.appleid.com"}"#
        )
        lines.append(
            #"{"id":"m-a","time":1767425600001,"subject":"u","type":"email.sent","to":"a@privaterelay.appleid.com","from":"n@x.example"}"#)
        let log = try Fixtures.temporaryFile(named: "others.jsonl", contents: lines.joined(separator: "\n") + "\n")
        let rules = Self.builtIn.removing(Set(Self.builtIn.rules.map(\.id)).subtracting(["no-mail-to-disabled-relay"]))
        let clock = ContinuousClock()
        var report: LintReport?
        let elapsed = try clock.measure { report = try Linter.run(LintRequest(eventPaths: [log], rules: rules, parallelism: 1)) }
        // Only the mail after the notification about its own address fires.
        #expect(report?.findings.map(\.event) == ["m-a"])
        #expect(elapsed < .seconds(60), "\(elapsed)")
    }

    @Test func theLedgerIndexesManyIdentitiesAndKeepsItsFacets() {
        var ledger = IdentityLedger()
        ledger.add(Identity(category: .apple, key: "apple.com", isAnonymized: true))
        for number in 0..<1_000 { ledger.add(Identity(category: .email, key: "x\(number)@example.com")) }
        #expect(ledger.add(Identity(category: .email, key: "x500@example.com")) == [])
        #expect(ledger.snapshot.facets == [.apple, .anonymizedApple, .email])
        for number in 0..<999 { ledger.remove(Identity(category: .email, key: "x\(number)@example.com")) }
        #expect(ledger.snapshot.facets == [.apple, .anonymizedApple, .email])
        #expect(ledger.remove(Identity(category: .email, key: "")) == .email)
        #expect(ledger.snapshot.facets == [.apple, .anonymizedApple])
        #expect(ledger.identities.count == 1)
    }

    /// Every app's entry was looked up by searching the list: a manifest of 153k apps took minutes.
    @Test func aManifestOfManyAppsIsLookedUpByIndex() throws {
        let count = 100_000
        let entries = (0..<count).map {
            AppManifest.Entry(
                bundleId: "com.example.app\($0)", declarations: [:], location: RelayLintCore.SourceLocation(file: "m.yml", line: $0))
        }
        let manifest = AppManifest(entries: entries, path: "m.yml")
        let clock = ContinuousClock()
        var found = 0
        let elapsed = clock.measure {
            for number in 0..<count where manifest.entry(for: "com.example.app\(number)")?.location.line == number { found += 1 }
        }
        #expect(found == count)
        #expect(manifest.entry(for: "com.example.other") == nil)
        #expect(elapsed < .seconds(60), "\(elapsed)")
    }
}
