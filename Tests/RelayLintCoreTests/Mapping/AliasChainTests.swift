@testable import RelayLintCore
import Testing

/// Named values made of named values that pick a part of the record (aliases) are read in time
/// linear in their depth: each alias picks its path once per record. Choosing again for every
/// path read through one doubled the work at each level, and 20 levels took seconds a record.
@Suite struct AliasChainTests {
    /// A mapping whose `$p<depth>` is `p0` (`{path: a}`) through `depth` aliases, each made of
    /// the one before as `step` writes it, and whose events read `$p<depth>.id` and `.uid`.
    private static func chain(depth: Int, step: (String) -> String) -> String {
        var lets = ["  p0: {path: a}"]
        for level in 1...depth { lets.append("  p\(level): \(step("$p\(level - 1)"))") }
        return """
            mapping: alias-chain
            recognize: {path: a, exists: true}
            let:
            \(lets.joined(separator: "\n"))
            events:
              - type: signin
                id: {path: $p\(depth).id}
                time: {value: "2025-01-01T00:00:00Z"}
                subject: {path: $p\(depth).uid}
            """
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            { "{first: [{path: \($0)}]}" }, { "{first: [{path: \($0)}, {path: b}]}" },
            { "{first: [{path: \($0)}, {path: \($0)}]}" }, { "{if: {path: a, exists: true}, then: {path: \($0)}, else: {path: \($0)}}" },
        ] as [@Sendable (String) -> String])
    func aDeepChainOfAliasesIsReadOnce(step: @Sendable (String) -> String) throws {
        let mapping = try MappingLoader.load(text: Self.chain(depth: 40, step: step), path: "chain.yml", sha256: "").get()
        for projecting in [true, false] {
            let mapper = RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil), projecting: projecting)
            var text = #"{"a":{"id":"e1","uid":"u1"},"b":{"id":"e2","uid":"u2"}}"#
            let outcome = try text.withUTF8 { try mapper.map(parsing: $0) }
            guard case .events(let events) = outcome else {
                Issue.record("the record gave no event: \(outcome)")
                continue
            }
            #expect(events.map { $0.members["subject"] } == [.string("u1")])
        }
    }

    /// `b` is taken where `a` is null, through every level of the chain.
    @Test(.timeLimit(.minutes(1))) func aChainFallsBackAtItsFirstLevel() throws {
        let mapping = try MappingLoader.load(
            text: Self.chain(depth: 40) { "{first: [{path: \($0)}, {path: b}]}" }, path: "chain.yml", sha256: ""
        ).get()
        let mapper = RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil))
        guard case .events(let events) = mapper.map(try JSONParser.parseDocument(#"{"a":null,"b":{"id":"e2","uid":"u2"}}"#)) else {
            Issue.record("the record gave no event")
            return
        }
        #expect(events.map { $0.members["id"] } == [.string("e2")])
    }

    /// An alias that doubles the record paths of the one before (`.x` or `.y`) stands for 2^n of
    /// them after n levels: the mapping is refused at the first past the limit, not laid out.
    @Test func anAliasOfTooManyPathsIsAnErrorAtItsName() throws {
        let text = Self.chain(depth: 12) { "{first: [{path: \($0).x}, {path: \($0).y}]}" }
        guard case .failure(let error) = MappingLoader.load(text: text, path: "chain.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        // p0 is on line 4; p11 (2048 paths) is the first past 1024, and p12, made of it, is
        // then no alias but a value worked out when read.
        #expect(
            error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" } == [
                "15:3 'let.p11' may stand for more than 1024 paths into the record (each 'first' or 'if' between named values adds theirs); choose between fewer"
            ])
    }
}
