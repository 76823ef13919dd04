import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The dataset keeps exported accounts packed until their subject is evaluated; what the
/// evaluation unpacks must be the record that was read.
@Suite struct StoredAccountTests {
    func roundTrip(_ account: AccountRecord) -> AccountRecord? {
        var arena = PackedArena()
        let position = StoredAccount.pack(account).withUnsafeBufferPointer { arena.append($0) }
        return StoredAccount.unpack(at: position, in: arena)
    }

    @Test func everyExampleAccountComesBackEqual() throws {
        let json = try FirebaseJSONExportReader(path: "Examples/accounts.json")
            .read(data: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Examples/accounts.json")))).accounts
        let csv = FirebaseCSVExportReader(path: "Examples/accounts.csv")
            .read(data: try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Examples/accounts.csv")))).accounts
        let parallelExport = try FirebaseJSONExportReader(path: "accounts.json")
            .read(data: Data(AccountExportParallelTests.export.utf8)).accounts
        let accounts = json + csv + parallelExport
        #expect(accounts.count > 300)
        var arena = PackedArena()
        let positions = accounts.map { account in StoredAccount.pack(account).withUnsafeBufferPointer { arena.append($0) } }
        for (account, position) in zip(accounts, positions) {
            #expect(StoredAccount.unpack(at: position, in: arena) == account, "\(account.localId)")
        }
    }

    @Test func absentPartsFlagsAndTimesBeforeTheEpochComeBack() {
        let bare = AccountRecord(localId: "", location: RelayLintCore.SourceLocation(file: "a.json"))
        #expect(roundTrip(bare) == bare)
        let full = AccountRecord(
            localId: "ü", email: "x@privaterelay.appleid.com", phoneNumber: "+1 555 0100", hasPasswordHash: true, disabled: true,
            createdAt: Timestamp(nanoseconds: -86_400_000_000_123),
            providers: [.init(providerId: "apple.com", rawId: "r", email: nil), .init(providerId: "phone")],
            location: RelayLintCore.SourceLocation(file: "exports/b.json", line: 9, column: 3))
        let back = roundTrip(full)
        #expect(back == full)
        #expect(StoredAccount.unpack(at: -1, in: PackedArena()) == nil)
        #expect(back?.createdAt == full.createdAt)
        #expect(back?.disabled == true && back?.hasPasswordHash == true)
        #expect(back?.location.column == 3)
    }
}
