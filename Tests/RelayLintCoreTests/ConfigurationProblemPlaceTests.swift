@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A problem a configuration brings is told once, at the place in the configuration that
/// holds it.
@Suite struct ConfigurationProblemPlaceTests {
    static func problems(_ text: String) throws -> [Diagnostic] {
        let path = try Fixtures.temporaryFile(named: "config.yml", contents: text)
        do {
            let configuration = try ConfigurationLoader.load(path: path)
            _ = try RuleSet.builtIn(parameterOverrides: configuration.parameterOverrides)
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test func eachRelayDomainIsToldAtItsOwnColumn() throws {
        let found = try Self.problems("relay_domains: [good.example.com, a1, b2]\n")
        #expect(found.map { "\($0.location.line):\($0.location.column ?? 0)" } == ["1:35", "1:39"])
    }

    /// Every address is tested against each relay domain: a list of thousands, which a pull
    /// request's `.relaylint.yml` may bring, is refused at the list, not read at thousands of
    /// times the run's cost.
    @Test func aRelayDomainListPastTheCapIsToldAtTheList() throws {
        func listing(_ count: Int) -> String {
            "builtin_rules: true\nrelay_domains:\n" + (0..<count).map { "  - relay\($0).example.net\n" }.joined()
        }
        #expect(try Self.problems(listing(RelayDomains.maximumCount)).isEmpty)
        let found = try Self.problems(listing(RelayDomains.maximumCount + 1))
        #expect(found.map(\.location.line) == [3], "\(found)")
        #expect(found.first?.message.contains("at most \(RelayDomains.maximumCount)") == true, "\(found)")
    }

    /// `data-deleted-after-account-deletion` reads its window once per store.
    @Test func aBadParameterIsToldOnceWhereverTheRuleReadsIt() throws {
        let found = try Self.problems("rules:\n  data-deleted-after-account-deletion:\n    params:\n      window: \"-1d\"\n")
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.location.line == 4)
    }

    /// A value with braces is the configuration's mistake, not a placeholder of the rule's message.
    @Test func aParameterValueWithBracesIsNoPlaceholder() throws {
        let found = try Self.problems("rules:\n  deletion-request-completed:\n    params:\n      window: \"{x}\"\n")
        #expect(found.map(\.location.file).allSatisfy { $0.hasSuffix("config.yml") }, "\(found)")
        #expect(found.count == 1)
    }
}
