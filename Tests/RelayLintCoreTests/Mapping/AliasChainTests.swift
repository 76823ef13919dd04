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
    /// them after n levels: past 1024 it is read as any other named value, once per record, and
    /// gives the same events.
    @Test(.timeLimit(.minutes(1))) func anAliasOfTooManyPathsIsReadAsAValue() throws {
        let depth = 14
        let mapping = try MappingLoader.load(
            text: Self.chain(depth: depth) { "{first: [{path: \($0).x}, {path: \($0).y}]}" }, path: "chain.yml", sha256: ""
        ).get()
        #expect(RecordProjection.aliases(of: mapping).count == 11)  // p0 to p10: 1024 paths
        var record: JSONValue = .object(["id": .string("e9"), "uid": .string("u9")])
        for level in 0..<depth { record = .object([level.isMultiple(of: 3) ? "x" : "y": record]) }
        record = .object(["a": record])
        for projecting in [true, false] {
            let mapper = RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil), projecting: projecting)
            var text = record.canonicalText
            guard case .events(let events) = try text.withUTF8({ try mapper.map(parsing: $0) }) else {
                Issue.record("the record gave no event")
                continue
            }
            #expect(events.map { $0.members["subject"] } == [.string("u9")])
        }
    }

    /// A value whose working out fails gives its failure each time it is read, not "defined
    /// through itself" (it was left half read), for a named value and for an alias alike.
    @Test func aValueThatFailsFailsAgainAlike() throws {
        let mapping = try MappingLoader.load(
            text: """
                mapping: failing
                recognize: {path: j, exists: true}
                let:
                  parsed: {parse_json: {path: j}}
                  picked: {if: {path: $parsed.k, exists: true}, then: {path: x}}
                events:
                  - type: signin
                    id: {path: $picked.id}
                    time: {value: "2025-01-01T00:00:00Z"}
                    subject: {path: $picked.uid}
                """, path: "failing.yml", sha256: ""
        ).get()
        let layout = RecordLayout(nil)
        let binder = PathBinder(mapping, layout: layout)
        let scope = MappingScope(
            binder: binder, lets: binder.bind(mapping).lets, aliases: binder.aliasChoices(of: mapping), tokens: TokenReader(keys: nil))
        layout.fill(try JSONParser.parseDocument(#"{"j":"{nope","x":{"id":"e1","uid":"u1"}}"#), into: scope.slots)
        scope.begin()
        let expected = MappingFailure("'j' holds invalid JSON: expected a string key")
        for _ in 0..<2 {
            #expect(throws: expected) { try scope.value(at: 0) }
            #expect(throws: expected) { try scope.pathChosen(byAlias: 1) }
        }
    }
}
