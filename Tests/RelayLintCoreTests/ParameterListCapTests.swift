@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A rule is checked once per value of a list parameter: a configuration, which a pull request
/// may bring, lists at most `longestParameterList` of them, and is told so at the list.
@Suite struct ParameterListCapTests {
    static func config(stores count: Int) -> String {
        "rules:\n  data-deleted-after-account-deletion:\n    params:\n      stores: ["
            + (0..<count).map { "s\($0)" }.joined(separator: ", ") + "]\n"
    }

    @Test func aListAtTheCapIsRead() throws {
        let path = try Fixtures.temporaryFile(named: "config.yml", contents: Self.config(stores: ConfigurationLoader.longestParameterList))
        let configuration = try ConfigurationLoader.load(path: path)
        #expect(configuration.rules["data-deleted-after-account-deletion"]?.parameters["stores"] != nil)
    }

    @Test func aLongerListIsRefusedAtItsPlace() throws {
        let path = try Fixtures.temporaryFile(
            named: "config.yml", contents: Self.config(stores: ConfigurationLoader.longestParameterList + 1))
        #expect {
            _ = try ConfigurationLoader.load(path: path)
        } throws: { error in
            let diagnostic = (error as? DiagnosticsError)?.diagnostics.first
            return diagnostic?.location.line == 4
                && diagnostic?.message == "'stores' lists 257 values; a rule's parameter may list at most 256"
        }
    }
}
