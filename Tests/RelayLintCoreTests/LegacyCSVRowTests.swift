import Foundation
@testable import RelayLintCore
import Testing

/// Rows firebase-tools wrote that strict CSV reading refused, though their column count is fixed:
/// each is read as its exporter meant, and the account is the one the JSON export holds.
@Suite struct LegacyCSVRowTests {
    /// The 28 columns of a row up to the claims, with `name` as the display name.
    private static func head(name: String = "") -> String {
        "u1,zq9@privaterelay.appleid.com,false,,,\(name)" + String(repeating: ",", count: 18) + "1772323200000,,+15550001111,,"
    }

    @Test(arguments: [
        // Current firebase-tools: quotes a backslash escapes are not doubled.
        (head() + #""{""nick"":""say \"hi\", ok""}","# + String(repeating: ",", count: 24) + "\n", #"say "hi", ok"#),
        // 8.13 to 11.25.1: the claims not quoted at all.
        (head() + #"{"nick":"a, b","tier":1},"# + "\n", "a, b"),
        // Before 15.19: a name with a comma quoted, its own quotes left bare.
        (head(name: #""Bob "B", Jr""#) + #""{""nick"":""x""}","# + "\n", "x"),
    ])
    func aLegacyRowIsReadAsItsExporterWroteIt(row: String, nick: String) throws {
        let read = FirebaseCSVExportReader(path: "accounts.csv").read(data: Data(row.utf8))
        #expect(read.invalid.isEmpty, "\(read.invalid.listed)")
        let account = try #require(read.accounts.first)
        #expect(account.localId == "u1")
        #expect(account.phoneNumber == "+15550001111")
        #expect(account.createdAt == Timestamp(rfc3339: "2026-03-01T00:00:00Z"))
        #expect(account.customClaims?.objectValue?["nick"] == .string(nick))
    }

    /// A legacy name that starts with a bare quote and holds no comma opened a quoted field that
    /// ran on over the next rows, up to another name's bare quote: three accounts read as one.
    /// The text after that closing quote shows it; each line is then a row of its own.
    /// A value split by more commas than a name or claims hold is no legacy row: a line of
    /// 15M commas was split and joined again at every name column (a minute, 757 MB).
    @Test func aRowOfMoreCommasThanAnySplitValueIsNotReadAgain() {
        let row = { (commas: Int) in Self.head(name: "\"A" + String(repeating: ",", count: commas) + "B\"") + ",\n" }
        #expect(LegacyCSVRow.readings(of: row(LegacyCSVRow.mostSplitCommas - 30)).count == 2)
        #expect(LegacyCSVRow.readings(of: row(LegacyCSVRow.mostSplitCommas + 30)).count == 1)
    }

    /// A row's line ends are read as its end however many there are: a row of 40,000 carriage
    /// returns (one line, no line feed) took 1.5 s, each one dropped counting the row again;
    /// this one of 300,000 took minutes.
    @Test func aRowEndedByARunOfCarriageReturnsIsReadAsTheRowBeforeThem() {
        let row = Self.head(name: "\"A, B\"") + "," + String(repeating: "\r", count: 300_000)
        #expect(LegacyCSVRow.readings(of: row).count == 2)
    }

    @Test func aBareQuoteThatOpensANameDoesNotSwallowTheRowsAfterIt() throws {
        let rows = [
            Self.head(name: #""Bob the builder"#) + ",",
            Self.head(name: "Alice").replacingOccurrences(of: "u1,", with: "u2,") + ",",
            Self.head(name: #"Carol "CJ" Jones"#).replacingOccurrences(of: "u1,", with: "u3,") + ",",
        ]
        let read = FirebaseCSVExportReader(path: "accounts.csv").read(data: Data((rows.joined(separator: "\n") + "\n").utf8))
        #expect(read.invalid.isEmpty, "\(read.invalid.listed)")
        #expect(read.records == 3)
        #expect(read.accounts.map(\.localId) == ["u1", "u2", "u3"])
        #expect(read.accounts.map(\.location.line) == [1, 2, 3])
        #expect(read.accounts.map(\.phoneNumber) == ["+15550001111", "+15550001111", "+15550001111"])
    }

    /// Line ends do not change what is read: with CRLF rows, or a file whose line ends change
    /// from CRLF to LF, a legacy row was read from another row's text (a search for "\n" passes
    /// over a CRLF `Character`): its account was lost without a word, or refused.
    @Test(arguments: [
        Self.head(name: #""Bob "B", Jr""#) + #""{""nick"":""x""}","#,
        Self.head() + #"{"nick":"a, b","tier":1},"#,
        "#not an account",
        Self.head(name: #""Bob the builder"#) + ",",
    ])
    func lineEndsChangeNothing(middle: String) {
        let rows = [
            Self.head(name: "Alice").replacingOccurrences(of: "u1,", with: "u0,") + ",", middle,
            Self.head(name: "Carol").replacingOccurrences(of: "u1,", with: "u3,") + ",",
        ]
        func read(_ ends: [String]) -> [String] {
            let text = zip(rows, ends).map { $0 + $1 }.joined()
            let read = FirebaseCSVExportReader(path: "accounts.csv").read(data: Data(text.utf8))
            return read.accounts.map { "\($0.localId)@\($0.location.line)" } + read.invalid.listed.map(\.description)
        }
        let lf = read(["\n", "\n", "\n"])
        #expect(lf.count == 3, "\(lf)")
        #expect(read(["\r\n", "\n", "\n"]) == lf)
        #expect(read(["\r\n", "\r\n", "\r\n"]) == lf)
        #expect(read(["\n", "\r\n", "\n"]) == lf)
    }

    /// The same bare quote with no quote after it in the file: the field ran on to the end, a
    /// row of no account; each line is then read as a row of its own.
    @Test func aBareQuoteNeverClosedDoesNotSwallowTheRowsAfterIt() {
        let rows = [
            Self.head(name: #""Bob the builder"#) + ",", Self.head(name: "Alice").replacingOccurrences(of: "u1,", with: "u2,") + ",",
            Self.head(name: "Carol").replacingOccurrences(of: "u1,", with: "u3,") + ",",
        ]
        let read = FirebaseCSVExportReader(path: "accounts.csv").read(data: Data((rows.joined(separator: "\n") + "\n").utf8))
        #expect(read.invalid.isEmpty, "\(read.invalid.listed)")
        #expect(read.records == 3)
        #expect(read.accounts.map(\.location.line) == [1, 2, 3])
    }

    /// A name quoted over two lines, in a row whose claims escape quotes with a backslash, is one
    /// account: the claims' text after a quote is no bare quote of a name, and the row is whole.
    @Test func aQuotedNameOverTwoLinesStaysOneRow() throws {
        let claims = ##""{""nick"":""say \"hi\"""}""##
        let row =
            "u1,zq9@privaterelay.appleid.com,false,,,\"Line1\nLine2\"" + String(repeating: ",", count: 18)
            + "1772323200000,,+15550001111,," + claims + String(repeating: ",", count: 25) + "\n"
        let read = FirebaseCSVExportReader(path: "accounts.csv").read(data: Data(row.utf8))
        #expect(read.invalid.isEmpty, "\(read.invalid.listed)")
        #expect(read.records == 1)
        #expect(try #require(read.accounts.first).customClaims?.objectValue?["nick"] == .string(#"say "hi""#))
    }

    /// A quoted name holding commas, in a row short of columns, stays invalid: split at every
    /// comma it has the count, but a field closes a quote it did not open (`"A`, ` B`, ` C"`).
    @Test func aShortRowWithAQuotedNameOfCommasStaysInvalid() {
        let row =
            "u1,zq9@privaterelay.appleid.com,false,,,\"A, B, C\"" + String(repeating: ",", count: 16) + "1772323200000,,+15550001111,,,\n"
        let read = FirebaseCSVExportReader(path: "accounts.csv").read(data: Data(row.utf8))
        #expect(read.accounts.isEmpty)
        #expect(read.invalid.listed.map(\.location.line) == [1])
    }

    /// A row no legacy reading makes whole stays invalid, at its line.
    @Test func aRowNoReadingMakesWholeIsInvalid() {
        let read = FirebaseCSVExportReader(path: "accounts.csv").read(data: Data((Self.head() + "x,y,z,\n").utf8))
        #expect(read.accounts.isEmpty)
        #expect(
            read.invalid.listed.map(\.message) == [
                "expected 28 or 52 columns (Firebase CSV export, plus a trailing comma), found 31 fields"
            ])
    }
}
