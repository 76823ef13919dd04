@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Every example a mapping carries runs as a test: each row of the contract's section 2.5 is
/// an example of the built-in mappings, and adding a mapping adds its tests.
@Suite struct BuiltInMappingExamplesTests {
    static let mappings: [LogMapping] =
        (try? MappingSet.load(userPaths: [Fixtures.path("Examples/real-logs/backend-mapping.yml")]))?
        .mappings ?? []
    static let results: [MappingExampleResult] = MappingSet(mappings: mappings).runExamples()

    @Test func theBuiltInMappingsLoadWithExamples() throws {
        let set = try MappingSet.load(userPaths: [])
        #expect(set.mappings.map(\.id) == ["apple-notifications", "google-cloud-logging"])
        for mapping in set.mappings { #expect(mapping.exampleCount >= 5, "\(mapping.id) needs examples") }
    }

    @Test(arguments: results)
    func example(_ result: MappingExampleResult) {
        #expect(result.problem == nil, "\(result.mapping): \(result.example) at \(result.location): \(result.problem ?? "")")
    }

    @Test func aWrongExpectationIsCaught() throws {
        let text = """
            mapping: tiny
            recognize: {path: kind, equals: x}
            events:
              - type: signin
                id: {path: n}
                time: {path: t}
                subject: {path: u}
            examples:
              - record: {kind: x, n: e1, t: "2026-01-01T00:00:00Z", u: u1}
                events: [{id: e1, time: "2026-01-01T00:00:00Z", subject: u2, type: signin}]
              - record: {kind: x, n: e1, t: "2026-01-01T00:00:00Z", u: u1}
                skipped: nothing
            """
        let mapping = try MappingLoader.load(text: text, path: "tiny.yml", sha256: "").get()
        let results = MappingExampleRunner.run(mapping)
        #expect(results.count == 2)
        #expect(results[0].problem?.contains("\"subject\":\"u1\"") == true)
        #expect(results[1].problem?.contains("the mapping gave 1 event") == true)
    }
}

extension MappingExampleResult: CustomTestStringConvertible {
    public var testDescription: String { "\(mapping): \(example)" }
}
