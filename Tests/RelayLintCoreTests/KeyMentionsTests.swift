@testable import RelayLintCore
import Testing

/// A record is parsed again to say what format it is only when its bytes mention the format's
/// keys: the test finds a key wherever it lies, and never one that is not there.
@Suite struct KeyMentionsTests {
    func match(_ keys: [String], all: Bool, _ record: String) -> Bool {
        Array(record.utf8).withUnsafeBufferPointer { KeyMentions(keys, all: all).match($0) }
    }

    @Test func aKeyIsFoundAtTheEdgesAndInsideTheRecord() {
        #expect(match(["id"], all: true, #""id""#))
        #expect(match(["subject"], all: true, #"{"subject":"u1"}"#))
        #expect(match(["type"], all: true, #"{"a":1,"type":"x"}"#))
        // A value that spells the name, or a longer key that ends with it, is no mention of it.
        #expect(!match(["type"], all: true, #"{"kind":"type-ish","mytype":1}"#))
        #expect(!match(["type"], all: true, #"{"kind":"type"#))
        #expect(!match(["subject"], all: true, ""))
    }

    @Test func everyKeyOrAnyKeyAsMade() {
        let native = #"{"id":"e1","time":"2026-01-01T00:00:00Z","subject":"u1","type":"signin"}"#
        #expect(match(["id", "time", "subject", "type"], all: true, native))
        #expect(!match(["id", "time", "subject", "type"], all: true, #"{"id":"e1","time":1,"type":"signin"}"#))
        #expect(match(["payload", "iss"], all: false, #"{"iss":"https://appleid.apple.com"}"#))
        #expect(!match(["payload", "iss"], all: false, #"{"insertId":"a","jsonPayload":{}}"#))
        // No key: any record may be of the format.
        #expect(match([], all: false, "{}"))
    }

    /// The keys of a format are those its `recognize` condition reads at the top of a record; a
    /// test of the whole record (a JWS given as a JSON string) adds none, or every object would
    /// be parsed again.
    @Test func aFormatsKeysAreTheTopLevelKeysItsRecognitionReads() throws {
        let mappings = try MappingSet.load(userPaths: []).mappings
        let notifications = try #require(mappings.first { $0.id == "apple-notifications" })
        #expect(RecordProjection.recognizedKeys(notifications) == ["events", "iss", "jti", "payload"])
        let cloudLogging = try #require(mappings.first { $0.id == "google-cloud-logging" })
        #expect(RecordProjection.recognizedKeys(cloudLogging) == ["insertId", "jsonPayload", "protoPayload"])
    }
}
