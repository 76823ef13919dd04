@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A configuration's stray key is quoted masked: a misplaced line may hold an address.
@Suite struct ConfigurationKeyMaskingTests {
    @Test func anUnknownKeyIsQuotedMasked() throws {
        let path = try Fixtures.temporaryFile(named: "config.yml", contents: "victim.person@example.com: 1\n")
        #expect {
            _ = try ConfigurationLoader.load(path: path)
        } throws: { error in
            let message = (error as? DiagnosticsError)?.diagnostics.first?.message ?? ""
            return message.hasPrefix("unknown key '") && !message.contains("victim.person") && message.contains("@example.com")
        }
    }
}
