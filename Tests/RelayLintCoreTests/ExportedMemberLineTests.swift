import Foundation
@testable import RelayLintCore
import Testing

/// A problem with a member of an exported user is told at that member's line, as
/// `firebase auth:export` writes users over many lines; one about the user as a whole at its first.
@Suite struct ExportedMemberLineTests {
    /// Users at lines 2, 7, 19, 24 and 28: the second one's third provider entry (line 14) has no providerId,
    /// the third's createdAt (line 22, after a value that spells the key) is no time, the fourth has no localId, the fifth's metadata.creationTime (line 32) is no date.
    static let export = """
        {"users": [
        {
          "localId": "u1",
          "email": "a@example.com",
          "createdAt": "1767863661331"
        },
        {
          "localId": "u2",
          "providerUserInfo": [
            {
              "providerId": "apple.com"
            },
            {"providerId": "google.com"},
            {
              "rawId": "x"
            }
          ]
        },
        {
          "localId": "u3",
          "displayName": "createdAt",
          "createdAt": "yesterday"
        },
        {
          "email": "b@example.com",
          "createdAt": true
        },
        {
          "localId": "u5",
          "metadata": {
            "lastSignInTime": "Sun, 01 Mar 2026 00:00:00 GMT",
            "creationTime": "garbage"
          }
        }]}
        """

    @Test(arguments: [1, 2]) func eachProblemNamesTheLineOfItsMember(parallelism: Int) throws {
        let read = try FirebaseJSONExportReader(path: "accounts.json", parallelism: parallelism).read(data: Data(Self.export.utf8))
        #expect(read.accounts.map(\.localId) == ["u1"])
        #expect(read.invalid.map(\.location.line) == [14, 22, 24, 32])
        #expect(
            read.invalid.map(\.message) == [
                "user 'u2': providerUserInfo[2] has no string 'providerId'",
                "user 'u3': 'createdAt' must be epoch milliseconds, found 'yesterday'",
                "user has no string 'localId'",
                "user 'u5': 'metadata.creationTime' must be a date as the Admin SDK writes it (e.g. 'Sun, 01 Mar 2026 00:00:00 GMT'), found 'garbage'",
            ])
    }
}
