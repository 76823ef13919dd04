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

    @Test func theListIsConfigurable() {
        let custom = RelayDomains(["Relay.Example.org "])
        #expect(custom.isRelayAddress("a@relay.example.org"))
        #expect(!custom.isRelayAddress("a@privaterelay.appleid.com"))
    }
}

@Suite struct PIIMaskerTests {
    @Test(arguments: [
        ("jane@example.com", "j•••@example.com"), ("x9@privaterelay.appleid.com", "x•••@privaterelay.appleid.com"),
        ("+15555550167", "+1••••••••67"), ("+1 (555) 555-0167", "+1••••••••67"), ("google.com", "google.com"),
        ("evt-0012", "evt-0012"), ("1767225600000", "1767225600000"),
    ])
    func masksEmailsAndPhoneNumbers(value: String, masked: String) {
        #expect(PIIMasker().mask(value) == masked)
    }

    @Test func maskingCanBeTurnedOff() {
        #expect(PIIMasker(isEnabled: false).mask("jane@example.com") == "jane@example.com")
    }

    @Test func masksAddressesInsideText() {
        #expect(
            PIIMasker().maskText("sent to jane@example.com, then +15555550167 again") == "sent to j•••@example.com, then +1••••••••67 again"
        )
        #expect(PIIMasker().maskText("call (+15555550167)") == "call (+1••••••••67)")
    }
}
