import Foundation
@testable import RelayLintCore
import Testing

/// An exported user read member by member gives the account that reading it into a JSON
/// object first gives, for every shape the converter tells apart.
@Suite struct ExportedUserFieldsTests {
    static let users = [
        #"{"localId": "u1", "email": "a@privaterelay.appleid.com", "createdAt": "1767225600000", "displayName": "x"}"#,
        #"{"localId": "u1", "localId": "u2", "email": "first@example.com", "email": "second@example.com"}"#,
        #"{"\u006cocalId": "u3", "em\u0061il": "escaped@example.com"}"#,
        #"{"localId": null, "uid": "u4"}"#,
        #"{"uid": "u5", "providerData": [{"providerId": "apple.com", "uid": "001.x", "email": "r@private.icloud.com"}]}"#,
        #"{"localId": "u6", "providerUserInfo": null, "providerData": [{"providerId": "google.com"}]}"#,
        #"{"localId": "u7", "providerUserInfo": [{"providerId": "password", "rawId": "p@example.com"}], "passwordHash": ""}"#,
        #"{"localId": "u8", "createdAt": 1767225600000.5, "disabled": "TRUE", "phoneNumber": "+15555550100"}"#,
        #"{"localId": "u9", "metadata": {"creationTime": "Sat, 03 Feb 2001 04:05:06 GMT"}, "passwordHash": "h"}"#,
        #"{"localId": "u10", "createdAt": "0001767225600000", "disabled": true, "customClaims": {"a": [1, {"b": null}]}}"#,
        #"{"localId": "u11", "createdAt": "1.7e12"}"#,
        #"{"localId": "u12", "createdAt": "yesterday"}"#,
        #"{"localId": "u13", "email": 7}"#,
        #"{"localId": ""}"#,
        #"{"email": "nobody@example.com"}"#,
        #"{}"#,
        #"["not", "a", "user"]"#,
        #""u14""#,
        // Members nothing reads, skipped: escapes, non-ASCII, nesting, every kind of value.
        #"{"localId": "u15", "displayName": "Zoë \"Z\" \u00dcnal", "photoUrl": "https:\/\/x", "emailVerified": true,"#
            + #" "mfaInfo": [{"phoneInfo": "+1", "enrolledAt": -1.5e3}, [], {}], "lastSignedInAt": null, "customAttributes": "{\"a\":1}"}"#,
        // Provider entries keep what the converter reads, however spelled; a repeated key (here
        // and in u1, u20) is an error on both paths.
        #"{"localId": "u16", "providerUserInfo": [{"displayName": "x", "provid\u0065rId": "apple.com", "rawId": "1", "rawId": "2","#
            + #" "email": "r@privaterelay.appleid.com", "photoUrl": "p"}, {"providerId": "google.com", "federatedId": {"a": [1]}}]}"#,
        #"{"localId": "u17", "providerUserInfo": {"providerId": "apple.com"}}"#,
        #"{"localId": "u18", "providerUserInfo": ["apple.com"]}"#,
        #"{"localId": "u19", "providerUserInfo": [{"providerId": 3}]}"#,
        #"{"localId": "u20", "metadata": {"lastSignInTime": "x", "creationTime": "Sat, 03 Feb 2001 04:05:06 GMT","#
            + #" "creationTime": "Sun, 04 Feb 2001 04:05:06 GMT"}}"#,
        #"{"localId": "u21", "metadata": "Sat, 03 Feb 2001 04:05:06 GMT"}"#,
        #"{"localId": "u22", "metadata": {"creationTime": "1st of March 2026"}}"#,
        #"{"localId": "u23", "metadata": {"creationTime": 7}}"#,
        #"{"localId": "u24", "metadata": {"creationTime": "2026-03-01T00:00:00Z"}}"#,
    ]

    /// A `listUsers()` creation time that does not read is invalid input, as a `createdAt` is:
    /// it was taken for none, and the account's identities held "from the start".
    @Test func aCreationTimeThatDoesNotReadIsInvalid() throws {
        guard case .failure(let problem) = try Self.read(#"{"uid": "u1", "metadata": {"creationTime": "1st of March 2026"}}"#) else {
            Issue.record("an unreadable creationTime was accepted")
            return
        }
        #expect(problem.reason.contains("'metadata.creationTime' must be a date as the Admin SDK writes it"), "\(problem.reason)")
        #expect(try Self.read(#"{"uid": "u1", "metadata": {"creationTime": "Sun, 01 Mar 2026 00:00:00 GMT"}}"#).get().createdAt != nil)
        #expect(try Self.read(#"{"uid": "u1", "metadata": {"creationTime": null}}"#).get().createdAt == nil)
    }

    /// One user read member by member, as the export reader reads it.
    static func read(_ user: String) throws -> Result<AccountRecord, InputProblem> {
        var bytes = Array(user.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buffer in
            var parser = JSONParser(bytes: UnsafeBufferPointer(buffer))
            return try FirebaseJSONExportReader.account(parsing: &parser, depth: 1, location: SourceLocation(file: "a.json", line: 1))
        }
    }

    @Test(arguments: users)
    func readingMemberByMemberEqualsReadingTheObject(user: String) throws {
        let location = SourceLocation(file: "accounts.json", line: 1)
        var bytes = Array(user.utf8)
        let direct = bytes.withUnsafeMutableBufferPointer { buffer in
            var parser = JSONParser(bytes: UnsafeBufferPointer(buffer))
            return Result { () throws(JSONParser.SyntaxError) in
                try FirebaseJSONExportReader.account(parsing: &parser, depth: 1, location: location)
            }
        }
        switch (Result { () throws(JSONParser.SyntaxError) in try JSONParser.parseDocument(user) }, direct) {
        case (.success(let object), .success(let account)):
            #expect(account == FirebaseJSONExportReader.account(from: object, location: location))
        case (.failure(let expected), .failure(let actual)):
            // A repeated key, say: the same error at the same place.
            #expect(actual == expected)
        case (let parsed, let read):
            Issue.record("parsed: \(parsed), read: \(read)")
        }
    }

    /// Which spelling wins, pinned on its own: the CLI's `localId` over the Admin SDK's `uid`
    /// (even when null), and `providerUserInfo` over `providerData` likewise.
    @Test func theCLISpellingsWinOverTheAdminSDKs() throws {
        #expect(try Self.read(#"{"uid": "sdk", "localId": "cli"}"#).get().localId == "cli")
        #expect(try Self.read(#"{"uid": "sdk"}"#).get().localId == "sdk")
        guard case .failure = try Self.read(#"{"localId": null, "uid": "sdk"}"#) else {
            Issue.record("a null localId must not fall back to uid")
            return
        }
        let cli = try Self.read(
            #"{"localId": "u", "providerUserInfo": [{"providerId": "google.com"}], "providerData": [{"providerId": "apple.com"}]}"#)
        #expect(try cli.get().providers.map(\.providerId) == ["google.com"])
        let sdk = try Self.read(#"{"localId": "u", "providerData": [{"providerId": "apple.com", "uid": "001.x"}]}"#)
        #expect(try sdk.get().providers == [AccountRecord.ProviderEntry(providerId: "apple.com", rawId: "001.x")])
        #expect(
            try Self.read(#"{"localId": "u", "providerUserInfo": null, "providerData": [{"providerId": "apple.com"}]}"#).get().providers
                .isEmpty)
    }

    /// The member-by-member read is as strict as the tree: a broken member anywhere in a user,
    /// kept or not, is the same syntax error at the same offset.
    @Test(arguments: [
        #"{"localId": "u1", "displayName": "x\ud800"}"#,
        #"{"localId": "u1", "photoUrl": 01}"#,
        #"{"localId": "u1", "tenant": {"a": tru}}"#,
        #"{"localId": "u1" "email": "a@example.com"}"#,
        #"{"localId": "u1", }"#,
        #"{"localId": "u1", "providerUserInfo": [{"providerId": "apple.com"},]}"#,
        #"{"localId": "u1", "mfaInfo": [{"enrolledAt": 1e}]}"#,
        #"{"localId": "u1", "displayName": "\q"}"#,
        "{\"localId\": \"u1\", \"displayName\": \"a\u{01}b\"}",
        #"{"localId": "u1", "providerUserInfo": [{"photoUrl": [1,], "providerId": "x"}]}"#,
        #"{"localId": "u1", "metadata": {"creationTime" 1}}"#,
        #"{"localId": "u1", "custom": {"k": 1 "#,
        #"{"localId": "u1", "displayName": "unterminated"#,
    ])
    func aBrokenMemberIsTheSameErrorEitherWay(user: String) {
        let viaObject = Result { () throws(JSONParser.SyntaxError) in try JSONParser.parseDocument(user) }
        var bytes = Array(user.utf8)
        let direct = bytes.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(JSONParser.SyntaxError) in
                var parser = JSONParser(bytes: UnsafeBufferPointer(buffer))
                _ = try FirebaseJSONExportReader.account(parsing: &parser, depth: 1, location: SourceLocation(file: "a.json", line: 1))
            }
        }
        guard case .failure(let expected) = viaObject, case .failure(let actual) = direct else {
            Issue.record("a broken user was accepted: \(viaObject), \(direct)")
            return
        }
        #expect(actual == expected)
    }
}
