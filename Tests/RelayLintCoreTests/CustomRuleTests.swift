@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// Rules a user writes in YAML alone: the language must express them without Swift changes.
@Suite struct CustomRuleTests {
    func fired(_ ruleYAML: String, _ events: [String]) throws -> [String] {
        let rules = try RuleSet.load(paths: [try Fixtures.temporaryFile(named: "rule.yml", contents: ruleYAML)])
        let rule = try #require(rules.rules.first)
        var records: [(value: JSONValue, location: RelayLintCore.SourceLocation)] = []
        for line in events {
            records.append((try JSONParser.parseDocument(line), RelayLintCore.SourceLocation(file: "x", line: records.count + 1)))
        }
        let example = RuleExample(
            name: "t", events: records, accounts: [], manifest: [], expectedFirings: [], location: RelayLintCore.SourceLocation(file: "x"))
        let outcome = RuleExampleRunner.run(example, of: rule)
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        return outcome.actual
    }

    /// `in_manifest:` takes a declared list of addresses, domains and `@domain`s (or one of
    /// them), compared as addresses are, whatever their case.
    @Test(arguments: [
        JSONValue.array([.string("@Example.com"), .string("noreply@mail.example.net"), .string("bounce.example.org"), .bool(true)]),
        .string("@example.com"),
    ])
    func inManifestMatchesListedAddressesAndDomains(senders: JSONValue) throws {
        let rule = """
            id: unlisted-sender
            severity: error
            when: {type: email.sent, not: {where: {from: {in_manifest: senders}}}}
            message: m
            """
        let rules = try RuleSet.load(paths: [try Fixtures.temporaryFile(named: "rule.yml", contents: rule)])
        let mails = ["a@example.com", "NoReply@Mail.Example.net", "x@bounce.example.org", "x@sub.example.com", "noreply@example.net"]
        var records: [(value: JSONValue, location: RelayLintCore.SourceLocation)] = []
        for (number, from) in mails.enumerated() {
            let line =
                #"{"id":"m\#(number)","time":"2026-01-01T00:00:0\#(number)Z","subject":"u","type":"email.sent","#
                + #""app":"com.example.app","from":"\#(from)"}"#
            records.append((try JSONParser.parseDocument(line), RelayLintCore.SourceLocation(file: "x", line: number + 1)))
        }
        let entry = JSONValue.object(["bundle_id": .string("com.example.app"), "senders": senders])
        let example = RuleExample(
            name: "t", events: records, accounts: [], manifest: [(entry, RelayLintCore.SourceLocation(file: "m.yml"))],
            expectedFirings: [], location: RelayLintCore.SourceLocation(file: "x"))
        let outcome = RuleExampleRunner.run(example, of: try #require(rules.rules.first))
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.actual == (senders.arrayValue == nil ? ["m1", "m2", "m3", "m4"] : ["m3", "m4"]))
    }

    static let deletionCompleted = """
        id: deletion-request-completed
        severity: error
        when: {type: account.deletion_requested}
        require:
          followed_by: {type: account.deleted}
          within: 30d
        message: "deletion requested by {subject} not completed within 30 days"
        """

    @Test func followedByWithinAWindow() throws {
        let request = #"{"id":"r","time":"2026-01-01T00:00:00Z","subject":"u","type":"account.deletion_requested","channel":"in_app"}"#
        let late = #"{"id":"d","time":"2026-02-15T00:00:00Z","subject":"u","type":"account.deleted"}"#
        let onTime = #"{"id":"d","time":"2026-01-20T00:00:00Z","subject":"u","type":"account.deleted"}"#
        let unrelated = #"{"id":"x","time":"2026-03-01T00:00:00Z","subject":"v","type":"signin"}"#
        #expect(try fired(Self.deletionCompleted, [request, late]) == ["r"])
        #expect(try fired(Self.deletionCompleted, [request, onTime]) == [])
        // No deletion and the data ends after the window: violated.
        #expect(try fired(Self.deletionCompleted, [request, unrelated]) == ["r"])
        // No deletion yet but the window is still open at the end of the data: pending, not a finding.
        #expect(try fired(Self.deletionCompleted, [request]) == [])
    }

    static let noMailToDisabledRelay = """
        id: no-mail-to-disabled-relay
        severity: warning
        when:
          type: email.sent
          where: {to: {relay: true}}
        require:
          not_preceded_by:
            type: apple.notification
            where: {event: email-disabled}
          without:
            type: apple.notification
            where: {event: email-enabled}
        message: "mail sent to a disabled relay address of {subject}"
        """

    @Test func notPrecededByUnlessReEnabled() throws {
        let disabled = #"{"id":"n1","time":"2026-01-01T00:00:00Z","subject":"u","type":"apple.notification","event":"email-disabled"}"#
        let enabled = #"{"id":"n2","time":"2026-01-05T00:00:00Z","subject":"u","type":"apple.notification","event":"email-enabled"}"#
        let mail = #"{"id":"m","time":"2026-01-03T00:00:00Z","subject":"u","type":"email.sent","to":"x@privaterelay.appleid.com"}"#
        let laterMail = #"{"id":"m2","time":"2026-01-07T00:00:00Z","subject":"u","type":"email.sent","to":"x@privaterelay.appleid.com"}"#
        let realMail = #"{"id":"m3","time":"2026-01-03T00:00:00Z","subject":"u","type":"email.sent","to":"x@example.com"}"#
        #expect(try fired(Self.noMailToDisabledRelay, [disabled, enabled, mail, laterMail, realMail]) == ["m"])
    }

    @Test func matchersCombineWithAnyAllAndNot() throws {
        let rule = """
            id: combined
            severity: note
            when:
              type: signin
              not: {where: {provider: apple.com}}
              any:
                - where: {app: com.a}
                - where: {app: com.b}
            require: {preceded_by: {type: never}}
            message: m
            """
        let events = [
            #"{"id":"1","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin","provider":"google.com","app":"com.a"}"#,
            #"{"id":"2","time":"2026-01-01T00:00:01Z","subject":"u","type":"signin","provider":"apple.com","app":"com.a"}"#,
            #"{"id":"3","time":"2026-01-01T00:00:02Z","subject":"u","type":"signin","provider":"google.com","app":"com.c"}"#,
            #"{"id":"4","time":"2026-01-01T00:00:03Z","subject":"u","type":"signin","provider":"github.com","app":"com.b"}"#,
        ]
        #expect(try fired(rule, events) == ["1", "4"])
    }

    @Test func booleansMatchAppleStringBooleans() throws {
        let rule = """
            id: private-signin
            severity: note
            when: {type: signin, where: {is_private_email: true}}
            require: {preceded_by: {type: never}}
            message: m
            """
        let events = [
            #"{"id":"1","time":"2026-01-01T00:00:00Z","subject":"u","type":"signin","is_private_email":"TRUE"}"#,
            #"{"id":"2","time":"2026-01-01T00:00:01Z","subject":"u","type":"signin","is_private_email":true}"#,
            #"{"id":"3","time":"2026-01-01T00:00:02Z","subject":"u","type":"signin","is_private_email":"false"}"#,
        ]
        #expect(try fired(rule, events) == ["1", "2"])
    }
}

extension CustomRuleTests {
    /// `links:` matches every link of a facet (contract §2.4 "Every link counts"); `adds:` keeps
    /// meaning a link that gives the subject an identity it did not hold.
    @Test func linksMatchesARepeatedLinkWhereAddsDoesNot() throws {
        func rule(_ key: String) -> String {
            """
            id: social-links
            severity: note
            when: {type: identity.linked, \(key): social}
            require: {preceded_by: {type: never}}
            message: m
            """
        }
        func link(_ id: String, day: Int, account: String) -> String {
            #"{"id":"\#(id)","time":"2026-01-0\#(day)T00:00:00Z","subject":"u","type":"identity.linked","#
                + #""kind":"provider","provider":"google.com","value":"\#(account)"}"#
        }
        let (first, second, again) = (link("l1", day: 1, account: "1"), link("l2", day: 2, account: "2"), link("l3", day: 3, account: "1"))
        #expect(try fired(rule("links"), [first, second, again]) == ["l1", "l2", "l3"])
        #expect(try fired(rule("adds"), [first, second, again]) == ["l1"])
    }
}
