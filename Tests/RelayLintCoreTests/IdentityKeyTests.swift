@testable import RelayLintCore
import Testing

/// Email and phone keys take a byte path for ASCII text; it must give what the `Character`
/// definitions give (contract §2.4 "Same identity": trimmed and lowercased, the digits).
@Suite struct IdentityKeyTests {
    static let samples = [
        "", "a@b.c", " Ana@Example.COM\t", "ana@example.com", "+1 (555)\r\n01-23", "٣٤5", "Zoë@Example.org", "0",
        "ÅNGSTRÖM@x.se", "1\u{301}2", "+44 20 7946 0958",
    ]

    @Test(arguments: samples) func theEmailKeyIsTheTrimmedLowercasedAddress(address: String) {
        let expected = RelayDomains.trimWhitespace(address).lowercased()
        #expect(Array(Identity.emailKey(address).utf8) == Array(expected.utf8))
    }

    @Test(arguments: samples) func thePhoneKeyIsTheASCIIDigits(number: String) {
        let expected = number.filter { $0.isASCII && $0.isNumber }
        #expect(Array(Identity.phoneKey(number).utf8) == Array(expected.utf8))
    }

    /// An unlink without an address removes every email identity; the kept snapshot follows.
    @Test func theLedgerSnapshotFollowsEveryChange() {
        var ledger = IdentityLedger()
        ledger.add(Identity(category: .email, key: "a@example.com"))
        ledger.add(Identity(category: .email, key: "b@privaterelay.appleid.com", isRelayEmail: true))
        ledger.add(Identity(category: .apple, key: "apple.com", isAnonymized: true))
        #expect(ledger.snapshot.facets == [.email, .relayEmail, .apple, .anonymizedApple])
        ledger.remove(Identity(category: .email, key: ""))
        #expect(ledger.snapshot.facets == [.apple, .anonymizedApple])
        ledger.markDeleted(true)
        #expect(ledger.snapshot == SubjectSnapshot(facets: [.apple, .anonymizedApple], isDeleted: true))
        ledger.remove(Identity(category: .apple, key: "apple.com"))
        #expect(ledger.snapshot == SubjectSnapshot(facets: [], isDeleted: true))
    }
}

/// An exported account's identities, however many providers it lists.
@Suite struct ExportedIdentityTests {
    /// Each password address is one identity, a repeated one too, and an `apple.com` entry
    /// with a relay address after many others still makes the Apple identity anonymized: past a
    /// few dozen identities they are found through an index (an entry of 80,000 providers was
    /// searched in full for each one).
    @Test(.timeLimit(.minutes(1))) func anAccountOfManyProvidersHoldsEachIdentityOnce() {
        let count = 40_000
        var providers = (0..<count).map { AccountRecord.ProviderEntry(providerId: "password", email: "u\($0)@example.com") }
        providers.append(AccountRecord.ProviderEntry(providerId: "password", email: "U7@Example.com "))
        providers.append(AccountRecord.ProviderEntry(providerId: "apple.com", rawId: "001.a", email: "x@example.com"))
        providers.append(AccountRecord.ProviderEntry(providerId: "apple.com", rawId: "001.a", email: "x@privaterelay.appleid.com"))
        let account = AccountRecord(localId: "u1", providers: providers, location: SourceLocation(file: "accounts.json"))
        let identities = account.identities(relayDomains: RelayDomains())
        #expect(identities.count == count + 1)
        #expect(identities.filter { $0.category == .apple }.map(\.isAnonymized) == [true])
    }
}
