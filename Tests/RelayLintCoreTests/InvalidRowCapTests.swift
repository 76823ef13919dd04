import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The CSV inputs stop at the cap on invalid records, as a log does: a subject map or an
/// account export of 15M bad rows kept a diagnostic each, 4 GB for a 30 MB file, before the run
/// failed anyway.
@Suite struct InvalidRowCapTests {
    private static let badRows = String(repeating: "x\n", count: InputLimits.invalidRecords + 500)

    /// A subject map of nothing but bad rows stops at the cap, saying so first at the row where
    /// it stopped; there is no `--skip-invalid` to suggest for it.
    @Test func aSubjectMapOfBadRowsStopsAtTheCap() throws {
        let path = try Fixtures.temporaryFile(named: "map.csv", contents: Self.badRows)
        var index = AppleAccountIndex()
        let error = #expect(throws: DiagnosticsError.self) { try SubjectMap.load(path: path, into: &index) }
        let found = error?.diagnostics ?? []
        #expect(found.count == InputLimits.invalidRecords + 1)
        #expect(
            found.first?.description
                == "\(path):\(InputLimits.invalidRecords): error: stopped reading after \(InputLimits.invalidRecords) invalid records; fix them"
        )
        #expect(found.last?.location.line == InputLimits.invalidRecords)
    }

    /// A subject map whose bytes are not UTF-8 on every line stops at the cap too.
    @Test func aSubjectMapOfBadBytesStopsAtTheCap() throws {
        let path = try Fixtures.temporaryFile(named: "map.csv", contents: "")
        try Data(Array(repeating: [0xFF, 0x0A], count: InputLimits.invalidRecords + 500).flatMap { $0 }).write(
            to: URL(fileURLWithPath: path))
        var index = AppleAccountIndex()
        let error = #expect(throws: DiagnosticsError.self) { try SubjectMap.load(path: path, into: &index) }
        #expect(error?.diagnostics.count == InputLimits.invalidRecords + 1)
        #expect(error?.diagnostics.first?.message.hasPrefix("stopped reading after") == true)
        #expect(
            error?.diagnostics.last?.description
                == "\(path):\(InputLimits.invalidRecords):1: error: invalid UTF-8: the subject map must be UTF-8 text")
    }

    /// An account export in CSV of nothing but bad rows stops at the cap, and the run reads no
    /// more; with `--skip-invalid` every row is read and listed.
    @Test func aCSVExportOfBadRowsStopsAtTheCap() throws {
        let path = try Fixtures.temporaryFile(named: "accounts.csv", contents: Self.badRows)
        var builder = DatasetBuilder(relayDomains: RelayDomains(), skipInvalid: false, retainedTypes: nil)
        let error = #expect(throws: InputError.self) { try builder.readAccounts(path: path) }
        let found = error?.diagnostics ?? []
        #expect(found.count == InputLimits.invalidRecords + 1)
        #expect(
            found.first?.description
                == "\(path):\(InputLimits.invalidRecords): error: "
                + "stopped reading after \(InputLimits.invalidRecords) invalid records; fix them, or pass --skip-invalid to skip them")
        #expect(builder.stoppedEarly)

        var skipping = DatasetBuilder(relayDomains: RelayDomains(), skipInvalid: true, retainedTypes: nil)
        try skipping.readAccounts(path: path)
        #expect(skipping.invalid.count == InputLimits.invalidRecords + 500 && !skipping.stoppedEarly)
    }

    /// Bad bytes are found a line at a time as the rows are read: a row of many bad lines does
    /// not hide the bad row after it, whatever the cap.
    @Test func aRowWithBadBytesAfterAQuotedRowOfManyIsInvalid() throws {
        var bytes = Array("\"".utf8)
        for _ in 0..<3 { bytes += [0xFF, 0x0A] }
        bytes += Array("\",x\n".utf8) + [0xFF] + Array(",y\n".utf8)
        let found = FirebaseCSVExportReader(path: "a.csv").read(data: Data(bytes), invalidLimit: 2).invalid
        #expect(
            found.map(\.description) == [
                "a.csv:1:2: error: invalid UTF-8: the export must be UTF-8 text",
                "a.csv:5:1: error: invalid UTF-8: the export must be UTF-8 text",
            ])
    }
}
