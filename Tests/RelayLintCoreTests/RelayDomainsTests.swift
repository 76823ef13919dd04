@testable import RelayLintCore
import Testing

@Suite struct RelayDomainsTests {
    let domains = RelayDomains()

    @Test(arguments: [
        "abc@privaterelay.appleid.com", "ABC@PRIVATERELAY.APPLEID.COM", " abc@PrivateRelay.AppleID.com\t",
        "abc@private.icloud.com", "\u{00A0}abc@privaterelay.appleid.com\u{2003}",
    ])
    func relayAddresses(address: String) {
        #expect(domains.isRelayAddress(address))
    }

    @Test(arguments: [
        "abc@icloud.com", "abc@privaterelay.apple.id.com", "abc@appleid.com", "abc@privaterelay.appleid.com.",
        "abc@privaterelay.appleid.com\u{200B}", "privaterelay.appleid.com", "abc@sub.privaterelay.appleid.com", "",
    ])
    func notRelayAddresses(address: String) {
        #expect(!domains.isRelayAddress(address))
    }

    @Test func lookAlikesAreRecognisedButRealDomainsAreNot() {
        #expect(domains.isLookAlike("x@privaterelay.apple.id.com"))
        #expect(domains.isLookAlike("x@appleid.com"))
        #expect(!domains.isLookAlike("x@example.com"))
        #expect(!domains.isLookAlike("x@privaterelay.appleid.com"))
    }

    /// Exported accounts compute an address's key (trimmed, lowercased) only when the byte
    /// prefilter lets the raw address through, so the prefilter must never drop one whose key
    /// looks alike, whatever its case, white space or non-ASCII letters.
    @Test(arguments: [
        "x@PrivateRelay.Apple.ID.com", "  x@APPLEID.COM\t", "x@privaterelay.appleid.co\u{212A}", "\u{00A0}x@Appleid.com\u{2003}",
        "\u{0130}x@appleid.com", "x@ICLOUD-relay.example", "x@privaterelay.appleid.com", "x@example.com", "no-at-sign",
    ])
    func theLookAlikePrefilterKeepsEveryAddressWhoseKeyLooksAlike(address: String) {
        let key = Identity.emailKey(address)
        if domains.isLookAlike(key) { #expect(domains.mayLookAlike(address)) }
        #expect(domains.isLookAlike(address) == domains.isLookAlike(key))
    }

    /// The byte test decides ASCII addresses without the `Character` test: it must answer as
    /// that test does, for the default domains, a custom list and none.
    @Test(arguments: [RelayDomains(), RelayDomains(["Relay.Example.org", "mail.icloud.com"]), RelayDomains([])])
    func theByteLookAlikeTestAgreesWithTheCharacterTest(domains: RelayDomains) {
        let addresses = [
            "x@icloud.com", "x@ICloud.com", "x@private.icloud.com", "x@private.icloud.co", "x@privateicloud.com",
            "x@privaterelay.appleid.com", "x@PrivateRelay.AppleID.com", "x@privaterelay.apple.id.com", "x@privaterelay.example",
            "x@appleid.com", "x@APPLEID.COM", "x@sub.appleid.com", "x@notappleid.com", "x@appleid.com.evil", "x@apple.com",
            "x@relay.example.org", "x@relay-example.org", "x@r.e.l.a.y.example.org.uk", "x@mail-icloud.com", "x@relay.example.or",
            "x@example.com", "x@", "@icloud.com", "icloud.com", "x@a@privaterelay.apple.id.com", "x@privaterelay.", "x@relay",
            "x@Apple_ID.com", "x@apple-id.com", "x@privaterelay.appleid.com.",
        ]
        for address in addresses {
            #expect(domains.isLookAlike(address) == domains.unicodeLookAlikeTest(address), "\(address)")
            let bytes = Array(address.utf8)
            #expect(bytes.withUnsafeBufferPointer { domains.isLookAlike(bytes: $0) } == domains.isLookAlike(address), "\(address)")
        }
    }

    @Test func theListIsConfigurable() {
        let custom = RelayDomains(["Relay.Example.org "])
        #expect(custom.isRelayAddress("a@relay.example.org"))
        #expect(!custom.isRelayAddress("a@privaterelay.appleid.com"))
        // Look-alikes of a configured domain, whatever words it holds.
        let hidden = RelayDomains(["hide.example.net"])
        #expect(hidden.isLookAlike("a@hide-example.net") && hidden.mayLookAlike("a@Hide-Example.net"))
        #expect(!hidden.isLookAlike("a@hide.example.net") && !hidden.isLookAlike("a@example.net"))
    }
}
