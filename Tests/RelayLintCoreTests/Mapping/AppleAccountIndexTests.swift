@testable import RelayLintCore
import Testing

/// How Apple's notifications are joined to accounts when one Apple user id has had two.
struct AppleAccountIndexTests {
    static func at(_ day: Int64) -> Timestamp { Timestamp(seconds: day * 86_400) }

    @Test func anIdOneAccountHoldsJoinsItAtAnyTime() {
        var index = AppleAccountIndex()
        index.add(appleID: "001.a", subject: "u1", since: Self.at(10))
        #expect(index.join("001.a", at: Self.at(1)) == .joined(subject: "u1"))
        #expect(index.join("001.a", at: Self.at(20)) == .joined(subject: "u1"))
        #expect(index.join("001.b", at: Self.at(20)) == .unheld)
    }

    /// Many accounts holding one id, ordered once for a binary search of each notification's time
    /// (`orderClaims`; a scan per notification made 64,000 of each take 44 s): the account that
    /// took it last still gets it, a tie still leaves it unjoined, and a claim added after the
    /// order is seen.
    @Test func manyAccountsOfOneIdAreJoinedByTimeOnceOrdered() {
        var index = AppleAccountIndex()
        for day in stride(from: 100, to: 0, by: -3) { index.add(appleID: "001.a", subject: "u\(day)", since: Self.at(Int64(day))) }
        index.add(appleID: "001.a", subject: "tie", since: Self.at(49))
        index.orderClaims()
        #expect(index.join("001.a", at: Self.at(0)) == .undecided)
        #expect(index.join("001.a", at: Self.at(1)) == .joined(subject: "u1"))
        #expect(!index.passesOver("001.a", at: Self.at(3)))
        #expect(index.join("001.a", at: Self.at(48)) == .joined(subject: "u46"))
        #expect(index.passesOver("001.a", at: Self.at(48)))
        #expect(index.join("001.a", at: Self.at(50)) == .undecided)
        #expect(index.join("001.a", at: Self.at(52)) == .joined(subject: "u52"))
        #expect(index.join("001.a", at: Self.at(1000)) == .joined(subject: "u100"))
        index.add(appleID: "001.a", subject: "late", since: Self.at(53))
        #expect(index.join("001.a", at: Self.at(53)) == .joined(subject: "late"))
        // A claim without a time, once added, leaves every notification of the id unjoined.
        index.add(appleID: "001.a", subject: "untimed")
        index.orderClaims()
        #expect(index.join("001.a", at: Self.at(1000)) == .undecided)
    }

    @Test func aNotificationGoesToTheAccountThatTookTheIdLastBeforeIt() {
        var index = AppleAccountIndex()
        index.add(appleID: "001.a", subject: "uNew", since: Self.at(30))
        index.add(appleID: "001.a", subject: "uOld", since: Self.at(12))
        // An earlier claim of the same account moves its start back; a later one does not.
        index.add(appleID: "001.a", subject: "uOld", since: Self.at(10))
        index.add(appleID: "001.a", subject: "uOld", since: Self.at(40))
        #expect(index.join("001.a", at: Self.at(10)) == .joined(subject: "uOld"))
        #expect(index.join("001.a", at: Self.at(29)) == .joined(subject: "uOld"))
        #expect(index.join("001.a", at: Self.at(30)) == .joined(subject: "uNew"))
        #expect(index.join("001.a", at: Self.at(9)) == .undecided)
        #expect(index.soleHolder(of: "001.a") == nil)
    }

    /// Joined to the later of two accounts, a notification passes over the earlier one, which a
    /// note tells when it was never deleted; before the later account took the id it passes
    /// over none.
    @Test func aNotificationPassesOverAnEarlierHolderOnceTwoHaveTakenTheId() {
        var index = AppleAccountIndex()
        index.add(appleID: "001.a", subject: "uOld", since: Self.at(10))
        index.add(appleID: "001.a", subject: "uNew", since: Self.at(30))
        index.add(appleID: "001.b", subject: "uOld", since: Self.at(10))
        #expect(!index.passesOver("001.a", at: Self.at(29)))
        #expect(index.passesOver("001.a", at: Self.at(30)))
        #expect(!index.passesOver("001.b", at: Self.at(40)))
        #expect(!index.passesOver("001.c", at: Self.at(40)))
    }

    @Test func timesThatDoNotTellLeaveTheIdUnjoined() {
        var tied = AppleAccountIndex()
        tied.add(appleID: "001.a", subject: "u1", since: Self.at(10))
        tied.add(appleID: "001.a", subject: "u2", since: Self.at(10))
        tied.add(appleID: "001.a", subject: "u3", since: Self.at(5))
        #expect(tied.join("001.a", at: Self.at(20)) == .undecided)
        #expect(tied.join("001.a", at: Self.at(7)) == .joined(subject: "u3"))

        // An account with no time at all: a subject-map row for an account without events.
        var untimed = AppleAccountIndex()
        untimed.add(appleID: "001.a", subject: "u1", since: Self.at(10))
        untimed.add(appleID: "001.a", subject: "u2")
        #expect(untimed.untimedSubjects == ["u2"])
        #expect(untimed.join("001.a", at: Self.at(20)) == .undecided)
    }

    /// An account known to hold the id only from a subject-map row takes it when it began (its
    /// export's createdAt, else its first event, which `DatasetBuilder` tells),
    /// whether it is the deleted account or the new one.
    @Test func aClaimWithoutATimeTakesTheIdWhenItsAccountBegan() {
        var mappedOld = AppleAccountIndex()
        mappedOld.add(appleID: "001.a", subject: "uOld")
        mappedOld.add(appleID: "001.a", subject: "uNew", since: Self.at(30))
        mappedOld.noteBeginning(of: "uOld", at: Self.at(2))
        mappedOld.noteBeginning(of: "uNew", at: Self.at(1))  // a claim with a time keeps it
        #expect(mappedOld.join("001.a", at: Self.at(2)) == .joined(subject: "uOld"))
        #expect(mappedOld.join("001.a", at: Self.at(29)) == .joined(subject: "uOld"))
        #expect(mappedOld.join("001.a", at: Self.at(31)) == .joined(subject: "uNew"))

        var mappedNew = AppleAccountIndex()
        mappedNew.add(appleID: "001.a", subject: "uOld", since: Self.at(2))
        mappedNew.add(appleID: "001.a", subject: "uNew")
        mappedNew.noteBeginning(of: "uNew", at: Self.at(30))
        #expect(mappedNew.join("001.a", at: Self.at(29)) == .joined(subject: "uOld"))
        #expect(mappedNew.join("001.a", at: Self.at(30)) == .joined(subject: "uNew"))
    }
}
