@testable import RelayLintCore
import Testing

/// How Apple's notifications are joined to accounts when one Apple user id has had two.
struct AppleAccountIndexTests {
    static func at(_ day: Int64) -> Timestamp { Timestamp(seconds: day * 86_400) }

    @Test func anIdOneAccountHoldsJoinsItAtAnyTime() {
        var index = AppleAccountIndex()
        index.add(appleID: "001.a", subject: "u1", since: Self.at(10))
        #expect(index.join("001.a", at: Self.at(1)) == .subject("u1"))
        #expect(index.join("001.a", at: Self.at(20)) == .subject("u1"))
        #expect(index.join("001.b", at: Self.at(20)) == .noAccount)
    }

    @Test func aNotificationGoesToTheAccountThatTookTheIdLastBeforeIt() {
        var index = AppleAccountIndex()
        index.add(appleID: "001.a", subject: "uNew", since: Self.at(30))
        index.add(appleID: "001.a", subject: "uOld", since: Self.at(12))
        // An earlier claim of the same account moves its start back; a later one does not.
        index.add(appleID: "001.a", subject: "uOld", since: Self.at(10))
        index.add(appleID: "001.a", subject: "uOld", since: Self.at(40))
        #expect(index.join("001.a", at: Self.at(10)) == .subject("uOld"))
        #expect(index.join("001.a", at: Self.at(29)) == .subject("uOld"))
        #expect(index.join("001.a", at: Self.at(30)) == .subject("uNew"))
        #expect(index.join("001.a", at: Self.at(9)) == .twoAccounts)
        #expect(index.soleHolder(of: "001.a") == nil)
    }

    @Test func timesThatDoNotTellLeaveTheIdUnjoined() {
        var tied = AppleAccountIndex()
        tied.add(appleID: "001.a", subject: "u1", since: Self.at(10))
        tied.add(appleID: "001.a", subject: "u2", since: Self.at(10))
        tied.add(appleID: "001.a", subject: "u3", since: Self.at(5))
        #expect(tied.join("001.a", at: Self.at(20)) == .twoAccounts)
        #expect(tied.join("001.a", at: Self.at(7)) == .subject("u3"))

        // Two claims without a time (a subject-map row, an export without createdAt).
        var untimed = AppleAccountIndex()
        untimed.add(appleID: "001.a", subject: "u1")
        untimed.add(appleID: "001.a", subject: "u2")
        #expect(untimed.join("001.a", at: Self.at(20)) == .twoAccounts)
    }

    /// A claim without a time (a subject-map row naming the deleted account the export no
    /// longer shows) holds the id from the start, until an account takes it at a known time.
    @Test func aClaimWithoutATimeHoldsTheIdFromTheStart() {
        var index = AppleAccountIndex()
        index.add(appleID: "001.a", subject: "uNew", since: Self.at(30))
        index.add(appleID: "001.a", subject: "uOld")
        #expect(index.join("001.a", at: Self.at(1)) == .subject("uOld"))
        #expect(index.join("001.a", at: Self.at(29)) == .subject("uOld"))
        #expect(index.join("001.a", at: Self.at(30)) == .subject("uNew"))
        // The same account's claims with a time give it one.
        index.add(appleID: "001.a", subject: "uOld", since: Self.at(40))
        #expect(index.join("001.a", at: Self.at(29)) == .twoAccounts)
        #expect(index.join("001.a", at: Self.at(45)) == .subject("uOld"))
    }
}
