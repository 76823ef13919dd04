@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A record parsed along a mapping's projection maps exactly as the whole record does, and the
/// members skipped are still checked.
@Suite struct RecordProjectionTests {
    static let mappings = (try? MappingSet.load(userPaths: [Fixtures.path("Examples/real-logs/backend-mapping.yml")]).mappings) ?? []

    @Test func everyExampleRecordMapsTheSameWhenProjected() throws {
        #expect(!Self.mappings.isEmpty)
        // Apple's mapping reads whole records (a record may be the token itself); the others project.
        #expect(Self.mappings.filter { RecordProjection.of($0) == nil }.map(\.id) == ["apple-notifications"])
        for mapping in Self.mappings {
            let projecting = RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil))
            let whole = RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil), projecting: false)
            for example in mapping.examples {
                var text = example.record.canonicalText
                let projected = try text.withUTF8 { try projecting.map(parsing: $0) }
                #expect(projected == (try text.withUTF8 { try whole.map(parsing: $0) }), "\(mapping.id): \(example.name)")
                #expect(projecting.map(example.record) == whole.map(example.record), "\(mapping.id): \(example.name)")
            }
        }
    }

    @Test func theCloudMappingReadsOnlyWhatItNeeds() throws {
        let cloud = try #require(Self.mappings.first { $0.id == "google-cloud-logging" })
        let projection = try #require(RecordProjection.of(cloud))
        #expect(Set(projection.childKeys) == ["insertId", "timestamp", "jsonPayload", "protoPayload"])
        let payload = try #require(projection.child("jsonPayload"))
        // No app is taken from the user agent, and only an AuditLog in protoPayload marks an
        // audit-log entry.
        #expect(payload.child("requestMetadata") == nil)
        #expect(payload.child("request")?.whole == false)
        #expect(payload.child("response")?.child("rawUserInfo")?.whole == true)
        #expect(payload.child("@type") == nil)
        #expect(projection.child("protoPayload")?.child("@type")?.whole == true)
        // Of the provider's profile inside `rawUserInfo`, only one member is read.
        let parsed = RecordProjection.ofParsedValues(cloud)
        #expect(parsed["raw_user_info"]?.childKeys == ["is_private_email"])
    }

    @Test func aParsedValueReadAlongItsProjectionIsStillChecked() throws {
        let cloud = try #require(Self.mappings.first { $0.id == "google-cloud-logging" })
        let mapper = RecordMapper(mapping: cloud, tokens: TokenReader(keys: nil))
        func entry(rawUserInfo: String) -> JSONValue {
            .object([
                "insertId": .string("e1"), "timestamp": .string("2025-11-01T13:23:38Z"),
                "jsonPayload": .object([
                    "methodName": .string("google.cloud.identitytoolkit.v1.AuthenticationService.SignInWithIdp"),
                    "response": .object([
                        "providerId": .string("apple.com"), "localId": .string("u1"), "rawUserInfo": .string(rawUserInfo),
                    ]),
                ]),
            ])
        }
        guard case .events(let events) = mapper.map(entry(rawUserInfo: #"{"sub":"001","is_private_email":"true","name":{"a":1}}"#))
        else {
            Issue.record("a sign-in with a profile gives events")
            return
        }
        #expect(events.first?.members["is_private_email"] == .string("true"))
        // A repeated key in a member nobody reads is as invalid as in one that is read.
        #expect(
            mapper.map(entry(rawUserInfo: #"{"sub":"001","sub":"002","is_private_email":"true"}"#))
                == .invalid(
                    "'$response.rawUserInfo' holds invalid JSON: duplicate key 'sub' in an object"))
    }

    @Test func skippedMembersAreStillChecked() throws {
        let cloud = try #require(Self.mappings.first { $0.id == "google-cloud-logging" })
        let projection = try #require(RecordProjection.of(cloud))
        for bad in [
            #"{"insertId":"a","severity":"INFO","severity":"ERROR"}"#, #"{"insertId":"a","labels":{"x":tru}}"#,
            #"{"insertId":"a","receiveTimestamp":"\u00"}"#,
        ] {
            var text = bad
            #expect(throws: JSONParser.SyntaxError.self) { try text.withUTF8 { try projection.parseDocument($0) } }
            #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parseDocument(bad) }
        }
    }
}
