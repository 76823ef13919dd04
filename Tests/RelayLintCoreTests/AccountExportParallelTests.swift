import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Reading the users of an export on several threads gives what one thread gives: the same
/// accounts, the same invalid users, and for a broken file the same first error.
@Suite struct AccountExportParallelTests {
    /// 300 users with strings that contain brackets, commas, quotes and escapes, and a few
    /// invalid users, so that the structural split meets everything it must step over.
    static let export: String = {
        var users: [String] = []
        for index in 0..<300 {
            switch index % 50 {
            case 7: users.append(#"{"email": "no-id-\#(index)@example.com"}"#)
            case 13: users.append(#"{"localId": "u\#(index)", "createdAt": "yesterday"}"#)
            case 21, 22:
                // Pretty-printed, as the CLI writes exports: indentation in runs of eight spaces
                // and more, long strings with escapes, and line breaks, which number the users.
                users.append(
                    "{\n" + String(repeating: " ", count: 16)
                        + #""localId": "u\#(index)-a-rather-long-id-with-\"quotes\"-and-\\backslashes\\","#
                        + "\n" + String(repeating: " ", count: 9) + #""displayName": "line\nbreak \u00e9 and more text than a word","#
                        + "\n\n" + String(repeating: " ", count: 8) + #""email": "p\#(index)@example.com"\#n}"#)
            default:
                users.append(
                    #"""
                    {"localId": "u\#(index)", "email": "a\"],{[\\\#(index)@privaterelay.appleid.com", "displayName": "x}]\u00e9,",
                     "createdAt": "17672256000\#(index % 10)", "providerUserInfo": [{"providerId": "apple.com", "rawId": "r\#(index)"},
                     {"providerId": "google.com", "rawId": "g\#(index)", "email": "g\#(index)@example.com"}]}
                    """#)
            }
        }
        return "{\"kind\": \"x\", \"users\": [\n" + users.joined(separator: ",\n") + "\n], \"after\": [1, {\"a\": \"]\"}]}"
    }()

    func read(_ text: String, parallelism: Int, batchSize: Int = 16_384) -> Result<([AccountRecord], [Diagnostic]), InputError> {
        var reader = FirebaseJSONExportReader(path: "accounts.json", parallelism: parallelism)
        reader.batchSize = batchSize
        return Result { () throws(InputError) in
            let result = try reader.read(data: Data(text.utf8))
            return (result.accounts, result.invalid)
        }
    }

    /// One thread against four, with the default batches and with batches of 7 users (so that
    /// a broken user can lie several batches after users already handed over).
    func expectSameOutcome(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        expectSameOutcome(text, batchSize: 16_384, sourceLocation: sourceLocation)
        expectSameOutcome(text, batchSize: 7, sourceLocation: sourceLocation)
    }

    func expectSameOutcome(_ text: String, batchSize: Int, sourceLocation: Testing.SourceLocation) {
        switch (read(text, parallelism: 1), read(text, parallelism: 4, batchSize: batchSize)) {
        case (.success(let one), .success(let four)):
            #expect(one.0 == four.0, sourceLocation: sourceLocation)
            #expect(one.1 == four.1, sourceLocation: sourceLocation)
        case (.failure(let one), .failure(let four)):
            #expect(one.diagnostics == four.diagnostics, sourceLocation: sourceLocation)
        case (let one, let four):
            Issue.record("one thread: \(one), four threads: \(four)", sourceLocation: sourceLocation)
        }
    }

    @Test func usersReadInParallelEqualUsersReadInOrder() throws {
        let (accounts, invalid) = try read(Self.export, parallelism: 4).get()
        #expect(accounts.count == 288)
        #expect(invalid.count == 12)
        // Users after pretty-printed ones are numbered by every line break before them.
        #expect(accounts.first { $0.localId == "u23" }?.location.line == 73)
        #expect(accounts[0].email == #"a"],{[\0@privaterelay.appleid.com"#)
        expectSameOutcome(Self.export)
    }

    @Test(arguments: [
        #"{"users": [{"localId": "a"},]}"#,
        #"{"users": [{"localId": "a"},, {"localId": "b"}]}"#,
        #"{"users": [{"localId": "a"} {"localId": "b"}]}"#,
        #"{"users": [{"localId": "a"}, {"localId": "b"}"#,
        #"{"users": [{"localId": "a"}, {"localId": "b\"}]}"#,
        #"{"users": [{"localId": "a"}, {"localId": 01}]}"#,
        #"{"users": [{"localId": "a"}, {"localId": "b"}}]}"#,
        #"{"users": []}"#,
        #"{"users": [ ]}"#,
        #"{"users": [{"localId": "a"}]} trailing"#,
        "{\"users\": [{\"localId\": \"a\"}, {\"localId\": \"a raw\nline break\"}]}",
    ])
    func aBrokenExportFailsAlikeOnOneOrManyThreads(_ text: String) {
        let padded = text.replacingOccurrences(
            of: #"{"localId": "a"}"#, with: Array(repeating: #"{"localId": "a"}"#, count: 80).joined(separator: ", "))
        expectSameOutcome(padded)
    }

    /// The streaming read hands each account over once, also when a syntax error far into the
    /// array sends the reader back to the start to report it.
    @Test func noAccountIsHandedOverTwiceWhenALateUserIsBroken() {
        let users = (0..<100).map { #"{"localId": "u\#($0)"}"# }
        let broken =
            #"{"users": ["# + users[..<60].joined(separator: ", ") + #", {"localId": 01}, "#
            + users[60...].joined(separator: ", ") + "]}"
        var reader = FirebaseJSONExportReader(path: "accounts.json", parallelism: 4)
        reader.batchSize = 7
        var handedOver: [String] = []
        let outcome = Result { () throws(InputError) in try reader.read(data: Data(broken.utf8)) { handedOver.append($0.localId) } }
        guard case .failure(let error) = outcome else {
            Issue.record("a broken export was accepted")
            return
        }
        #expect(error.diagnostics.first?.message.contains("invalid JSON") == true)
        #expect(handedOver.count >= 56, "the batches before the broken user were handed over")
        #expect(handedOver == Array(users.indices.prefix(handedOver.count)).map { "u\($0)" })
    }

    @Test func invalidUTF8InOneUserIsTheSameErrorOnManyThreads() {
        var bytes = Array(#"{"users": ["#.utf8)
        for index in 0..<100 {
            if index > 0 { bytes += Array(", ".utf8) }
            bytes +=
                Array(#"{"localId": "u\#(index)", "email": ""#.utf8) + (index == 60 ? [0xC3, 0x28] : Array("x".utf8)) + Array(#""}"#.utf8)
        }
        bytes += Array("]}".utf8)
        let one = Result { () throws(InputError) in try FirebaseJSONExportReader(path: "a.json", parallelism: 1).read(data: Data(bytes)) }
        let four = Result { () throws(InputError) in try FirebaseJSONExportReader(path: "a.json", parallelism: 4).read(data: Data(bytes)) }
        guard case .failure(let first) = one, case .failure(let second) = four else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(first.diagnostics == second.diagnostics)
    }

    /// A top-level key given twice is invalid, as in any other object: a second "users" array
    /// was read as more accounts.
    @Test(arguments: [1, 4])
    func aTopLevelKeyGivenTwiceIsInvalidJSON(parallelism: Int) {
        let export = #"{"users": [{"localId": "a1"}],"# + "\n" + #" "users": [{"localId": "a2"}]}"#
        let read = Result { () throws(InputError) in
            try FirebaseJSONExportReader(path: "a.json", parallelism: parallelism).read(data: Data(export.utf8))
        }
        guard case .failure(let error) = read else {
            Issue.record("read \(read)")
            return
        }
        #expect(error.diagnostics.map(\.description) == ["a.json:2:2: error: invalid JSON: duplicate key 'users' in an object"])
    }
}
