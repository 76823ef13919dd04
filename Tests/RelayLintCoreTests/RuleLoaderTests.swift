import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Rule files are validated on load: each problem points at its line and column.
@Suite struct RuleLoaderTests {
    func diagnostics(_ marked: MarkedText) -> [Diagnostic] {
        RuleLoader.load(text: marked.text, path: "rule.yml", sha256: "").diagnostics
    }

    static let valid = """
        id: custom-rule
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
        message: "mail {event.id} sent to a disabled relay address of {subject}"
        """

    @Test func aValidRuleLoadsWithoutDiagnostics() throws {
        let loaded = RuleLoader.load(text: Self.valid, path: "rule.yml", sha256: "abc")
        #expect(loaded.diagnostics.isEmpty)
        let rule = try #require(loaded.rules.first)
        #expect(rule.id == "custom-rule")
        #expect(rule.severity == .warning)
        guard case .temporal(let temporal) = rule.requirement else {
            Issue.record("expected a temporal requirement")
            return
        }
        #expect(temporal.direction == .before)
        #expect(!temporal.mustExist)
        #expect(temporal.interruption?.types == ["apple.notification"])
    }

    /// A `$NAME` no `for_each` declares is an error where it is written, once however many items
    /// the lists have: misspelt, it was the text "$stroe" and the rule fired on every event. A
    /// nested `for_each`'s name, text that is no name (`$5`) and a name far from any declared one
    /// (`$premium`, a value) are no error.
    @Test func aMisspeltForEachVariableIsAnError() {
        let misspelt = Self.storeErasedDiagnostics(check: "  check: {followed_by: {type: data.deleted, where: {store: $stroe}}}")
        #expect(misspelt.map { "\($0.location.line):\($0.location.column ?? 0)" } == ["7:60"], "\(misspelt)")
        #expect(misspelt.first?.message.hasSuffix("did you mean '$store'?") == true, "\(misspelt)")
        let nested = Self.storeErasedDiagnostics(
            check: """
                  check:
                    for_each: [eu, us]
                    as: region
                    check: {followed_by: {type: data.deleted, where: {store: $store, region: $region, note: $5, plan: $premium}}}
                """)
        #expect(nested.isEmpty, "\(nested)")
    }

    /// What loading a rule says whose requirement is a `for_each` over two stores named `store`,
    /// with `check` (written from column 1, its body from line 7) as the body.
    private static func storeErasedDiagnostics(check: String) -> [Diagnostic] {
        RuleLoader.load(
            text: """
                id: store-erased
                severity: error
                when: {type: account.deleted}
                require:
                  for_each: [firestore, storage]
                  as: store
                \(check)
                message: m
                """, path: "rule.yml", sha256: ""
        ).diagnostics
    }

    @Test func aMisspeltKeyPointsAtTheKeyAndSuggestsTheRightOne() {
        let marked = MarkedText(
            """
            id: custom-rule
            severity: error
            when:
              type: signin
            require:
              preceded_by: {type: consent.granted}
              1️⃣withinn: 30d
            message: "x"
            """)
        let found = diagnostics(marked)
        #expect(found.count == 1)
        #expect(found.first?.location.description == "rule.yml:\(marked.position("1️⃣"))")
        #expect(found.first?.message.contains("unknown key 'withinn'") == true)
        #expect(found.first?.message.contains("did you mean 'within'?") == true)
    }

    @Test func everyProblemInAFileIsReportedAtOnce() {
        let marked = MarkedText(
            """
            id: custom-rule
            severity: 1️⃣fatal
            when:
              type: signin
              before: {anonymized: 2️⃣yes, holds: 3️⃣emial}
            require:
              followed_by: {type: account.deleted}
              within: 4️⃣30 days
            message: 5️⃣"deleted {evnt.id}"
            """)
        let found = diagnostics(marked).map { "\($0.location.line):\($0.location.column ?? 0)" }
        #expect(found == ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣"].map { marked.position($0) })
    }

    @Test(arguments: [
        ("id: Bad_Id\nseverity: error\nwhen: {type: a}\nrequire: {preceded_by: {type: b}}\nmessage: m\n", "kebab-case"),
        (
            "id: r\nseverity: error\nwhen: {type: a}\nrequire: {preceded_by: {type: b}, followed_by: {type: c}}\nmessage: m\n",
            "exactly one of"
        ),
        ("id: r\nseverity: error\nwhen: {type: a}\nrequire: {manifest: {b: true}}\nmessage: m\n", "for app rules"),
        ("id: r\nseverity: error\nwhen: {type: a}\nrequire: {for_each: [x], check: {exists: {type: b}}}\nmessage: m\n", "needs 'as'"),
        (
            "id: r\nseverity: error\nparams: {w: 3d}\nwhen: {type: a}\nrequire: {followed_by: {type: b}, within: $params.x}\nmessage: m\n",
            "unknown parameter 'x'"
        ),
        (
            "id: r\nseverity: error\nwhen: {type: a, where: {to: {same_as: to}}}\nrequire: {exists: {type: b}}\nmessage: m\n",
            "takes event.FIELD"
        ),
        ("id: r\nseverity: error\nscope: app\nrequire: {preceded_by: {type: b}}\nmessage: m\n", "for subject rules"),
        ("id: r\nseverity: error\nrequire: {preceded_by: {type: b}}\nmessage: m\n", "needs 'when'"),
        (
            "id: r\nseverity: error\nwhen: {type: a}\nrequire: {followed_by: {type: b}, since_last: {type: c}}\nmessage: m\n",
            "goes with preceded_by"
        ),
        ("id: r\nseverity: error\nwhen: {}\nrequire: {preceded_by: {type: b}}\nmessage: m\n", "must not be empty"),
        ("id: r\nseverity: error\nwhen: {type: a, where: {x: {in: b}}}\nrequire: {preceded_by: {type: b}}\nmessage: m\n", "must be a list"),
        (
            "id: r\nseverity: error\nwhen: {type: a}\nrequire: {preceded_by: {type: b}}\nmessage: m\nexamples: [{name: x}]\n",
            "missing required key 'fires'"
        ),
        ("id: r\nid: s\n", "duplicate key"),
        ("id: [unclosed\n", "invalid YAML"),
        ("id: r\n---\nid: s\n", "a second YAML document starts here: the file must hold one"),
        (
            "id: r\nseverity: error\nwhen: {type: a}\nrequire: {preceded_by: {type: b}, within: 106752d}\nmessage: m\n",
            "'within' is longer than relaylint handles: a number below 1000000 before each unit, and at most 106751d"
        ),
        (String(repeating: "[", count: 1_100) + String(repeating: "]", count: 1_100), "invalid YAML: nesting deeper than 1000 levels"),
    ])
    func explainsWhatIsWrong(text: String, expected: String) {
        let found = RuleLoader.load(text: text, path: "rule.yml", sha256: "").diagnostics
        #expect(found.contains { $0.message.contains(expected) }, "\(found)")
        #expect(found.allSatisfy { $0.location.line >= 1 }, "\(found)")
    }

    /// A repeated key is named, masked, and not followed by the document (which Yams hands over
    /// as the error's context: a 60 MB manifest went to standard error, addresses and all).
    @Test func aRepeatedKeyIsNamedWithoutTheDocument() {
        let text = "id: r\nann@example.com: 1\nann@example.com: 2\n# owner secret.person@example.com +14155550123\n"
        let found = RuleLoader.load(text: text, path: "rule.yml", sha256: "").diagnostics
        let message = found.first { $0.message.hasPrefix("duplicate key") }?.message ?? "\(found)"
        #expect(message == "duplicate key 'a•••@example.com' in a mapping")
    }

    @Test func yamlOneOneBooleansStayStrings() throws {
        let loaded = RuleLoader.load(
            text: """
                id: r
                severity: note
                when: {type: a, where: {answer: no, on: yes}}
                require: {preceded_by: {type: b}}
                message: m
                """, path: "rule.yml", sha256: "")
        let rule = try #require(loaded.rules.first, "\(loaded.diagnostics)")
        #expect(rule.trigger?.fields.map(\.test) == [.oneOf([.string("no")]), .oneOf([.string("yes")])])
    }

    @Test func duplicateRuleIdsAcrossFilesAreAnError() throws {
        let first = try Fixtures.temporaryFile(named: "a.yml", contents: Self.valid)
        let second = try Fixtures.temporaryFile(named: "b.yml", contents: Self.valid)
        #expect(throws: DiagnosticsError.self) { try RuleSet.load(paths: [first, second]) }
    }

    /// A rule file that is not UTF-8 is told at its first bad byte's line and column.
    @Test func aRuleFileThatIsNotUTF8IsToldAtItsFirstBadByte() throws {
        let folder = try Fixtures.temporaryDirectory()
        let path = folder.appendingPathComponent("latin1.yml").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("id: x\nmessage: \"caf".utf8) + [0xE9] + Data("\"\n".utf8)))
        #expect {
            try RuleSet.load(paths: [path])
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.map(\.description) == ["\(path):2:14: error: rule file is not UTF-8 text"]
        }
    }

    /// A folder given twice (in the configuration's `rule_paths` and on the command line, or
    /// through a link) is read once: its rules are not each other's duplicates.
    @Test func aRuleFileReachedTwiceIsReadOnce() throws {
        let folder = try Fixtures.temporaryDirectory()
        try Self.valid.write(to: folder.appendingPathComponent("rule.yml"), atomically: true, encoding: .utf8)
        let link = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-link")
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        let rules = try RuleSet.load(paths: [folder.path, folder.path + "/", link.path])
        #expect(rules.rules.count == 1)
        #expect(rules.files.count == 1)
    }

    /// A file of a rule or mapping folder that is not a regular file (a link to `/dev/stdout`,
    /// a FIFO) is an error at its path: reading it waited for its writer, forever when standard
    /// output is a pipe.
    @Test func aFolderEntryThatIsNotAFileIsAnError() throws {
        let folder = try Fixtures.temporaryDirectory()
        try Self.valid.write(to: folder.appendingPathComponent("rule.yml"), atomically: true, encoding: .utf8)
        let fifo = folder.appendingPathComponent("zz.yml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let expected =
            "\(fifo): error: cannot read file: not a regular file (a device, a pipe or a link to one); a folder's rule and mapping files must be files"
        #expect {
            try RuleSet.load(paths: [folder.path])
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.map(\.description) == [expected]
        }
        #expect {
            try MappingSet.load(userPaths: [folder.path], includeBuiltIn: false)
        } throws: { error in
            (error as? DiagnosticsError)?.diagnostics.map(\.description).contains(expected) == true
        }
    }
}

/// YAML aliases are refused before the document is composed: nine anchors of nine aliases
/// each ("billion laughs") took gigabytes and did not finish, in a rule file, `.relaylint.yml`
/// or a manifest alike.
@Suite struct YAMLAliasTests {
    static func bomb(levels: Int = 9, aliasAsKey: Bool = false) -> MarkedText {
        var lines = [#"a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]"#]
        for level in 1..<levels {
            let aliases = (0..<9).map { $0 == 0 && level == 1 ? "1️⃣*a0" : "*a\(level - 1)" }
            lines.append("a\(level): &a\(level) [\(aliases.joined(separator: ", "))]")
        }
        if aliasAsKey { lines.append("? *a\(levels - 1)\n: x") }
        return MarkedText(lines.joined(separator: "\n") + "\n")
    }

    @Test(arguments: [false, true])
    func anAliasBombIsAnErrorAtTheFirstAlias(aliasAsKey: Bool) {
        let marked = Self.bomb(aliasAsKey: aliasAsKey)
        let found = RuleLoader.load(text: marked.text, path: "rule.yml", sha256: "").diagnostics
        #expect(found.count == 1)
        #expect(found.first?.location.description == "rule.yml:\(marked.position("1️⃣"))")
        #expect(found.first?.message == "YAML aliases are not supported (*a0); write the value out")
    }

    /// A rule or mapping path the configuration names that does not exist is told at the line
    /// and column that names it: told at the path alone, it did not say which file to mend.
    @Test func aConfiguredPathThatDoesNotExistIsToldWhereItIsWritten() throws {
        let folder = try Fixtures.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("rules"), withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(".relaylint.yml").path
        try Data("rule_paths: [rules, rulez]\nmappings:\n  - mappings/backend.yml\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try ConfigurationLoader.load(path: path)
        } throws: { error in
            let found = ((error as? DiagnosticsError)?.diagnostics ?? []).map {
                "\($0.location.line):\($0.location.column ?? 0) \($0.message)"
            }
            return found.count == 2 && found[0].hasPrefix("1:21 'rule_paths' names 'rulez', which does not exist")
                && found[1].hasPrefix("3:5 'mappings' names 'mappings/backend.yml', which does not exist")
        }
    }

    /// An absolute path is read as written, so no "read as" follows it, also when it holds an
    /// address (masked, it differed from itself).
    @Test func aMissingAbsolutePathIsNotToldWhereItWasRead() throws {
        let path = try Fixtures.temporaryFile(named: ".relaylint.yml", contents: "rule_paths: [/nonexistent/jane@example.com/rules]\n")
        #expect {
            _ = try ConfigurationLoader.load(path: path)
        } throws: { error in
            let found = ((error as? DiagnosticsError)?.diagnostics ?? []).map(\.message)
            return found == ["'rule_paths' names '/nonexistent/j•••@example.com/rules', which does not exist"]
        }
    }

    @Test func aConfigurationAndAManifestRefuseAliasesToo() throws {
        let marked = Self.bomb()
        for name in [".relaylint.yml", "manifest.yml"] {
            let path = try Fixtures.temporaryFile(named: name, contents: marked.text)
            #expect {
                if name == "manifest.yml" {
                    _ = try AppManifestLoader.load(path: path, ruleKeys: [])
                } else {
                    _ = try ConfigurationLoader.load(path: path)
                }
            } throws: { error in
                let diagnostics = (error as? DiagnosticsError)?.diagnostics ?? []
                return diagnostics.count == 1 && diagnostics[0].location.description == "\(path):\(marked.position("1️⃣"))"
            }
        }
    }

    /// A YAML tag is refused where it is written rather than read past: `!!int 5` was the text
    /// "5" and `!!python/object:…` nothing at all. `!!str` means what quotes mean, and is kept.
    @Test func yamlTagsAreRefusedButStrIsText() throws {
        let tagged = "a: !!int 5\nb: !!python/object:os.system x\nc: !custom [1]\n!!python/object:os.system d: 1\n"
        guard case .failure(let error) = YAMLTree.parse(tagged, path: "t.yml") else {
            Issue.record("tags were read past")
            return
        }
        #expect(
            error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" } == [
                "1:4 YAML tags are not supported (!!int); write the value without it, in quotes for text",
                "2:4 YAML tags are not supported (!!python/object:os.system); write the value without it, in quotes for text",
                "3:4 YAML tags are not supported (!custom); write the value without it, in quotes for text",
                "4:1 YAML tags are not supported (!!python/object:os.system); write the key without it",
            ])
        let tree = try #require(try YAMLTree.parse("a: !!str 5\nb: \"5\"\nc: 5\nd: true\n", path: "t.yml").get())
        #expect(
            tree.jsonValue
                == .object(["a": .string("5"), "b": .string("5"), "c": .number(JSONNumber(text: "5", value: 5)), "d": .bool(true)]))
    }

    /// The problems of a manifest of `contents`, each as `line:column message`.
    private static func manifestProblems(_ contents: String) throws -> [String] {
        let path = try Fixtures.temporaryFile(named: "manifest.yml", contents: contents)
        do {
            _ = try AppManifestLoader.load(path: path, ruleKeys: [])
            return []
        } catch {
            return error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
        }
    }

    /// A blank relay sender would match a mail whose sender is blank, as if registered.
    @Test func aManifestRefusesABlankRelaySender() throws {
        let problems = try Self.manifestProblems(
            "apps:\n  - bundle_id: com.example.app\n    relay_senders: [\"\", \" \", mail.example.com]\n")
        #expect(
            problems == [
                "3:21 each item of 'relay_senders' must be an address or a domain, found a blank string",
                "3:25 each item of 'relay_senders' must be an address or a domain, found a blank string",
            ])
    }

    /// A bundle id reaches every finding of its app's data: one of a megabyte made a report of
    /// 200 MB from a log of 21 KB. One of 255 bytes is the longest taken; a letter with 1,500
    /// combining marks is one character of 3,001 bytes.
    @Test func aManifestRefusesABundleIdLongerThanAnyApps() throws {
        let longest = String(repeating: "a", count: 255)
        let marks = "a" + String(repeating: "\u{301}", count: 1_500)
        let problems = try Self.manifestProblems(
            "apps:\n  - bundle_id: \(longest)\n  - bundle_id: \(longest)b\n  - bundle_id: \(marks)\n")
        #expect(
            problems == [
                "3:16 'bundle_id' must be a bundle id (at most 255 bytes), found one of 256",
                "4:16 'bundle_id' must be a bundle id (at most 255 bytes), found one of 3001",
            ])
    }

    /// `relay_senders:` left empty, or given a mapping, is told as what a list key expects.
    @Test(arguments: [("    relay_senders:\n", "null"), ("    relay_senders: {a: b}\n", "a mapping")])
    func aManifestListLeftEmptyAsksForAList(line: String, found: String) throws {
        let path = try Fixtures.temporaryFile(named: "manifest.yml", contents: "apps:\n  - bundle_id: com.example.app\n" + line)
        #expect {
            _ = try AppManifestLoader.load(path: path, ruleKeys: [])
        } throws: { error in
            let messages = ((error as? DiagnosticsError)?.diagnostics ?? []).map(\.message)
            return messages == ["'relay_senders' must be a string or a list of strings, found \(found)"]
        }
    }

    /// A `*` that is not an alias is text: in quotes, in a block scalar, inside a plain scalar.
    @Test func anAsteriskInTextIsNotAnAlias() throws {
        let text = """
            id: stars
            severity: note
            description: |
              * a bullet
              *another
            when: {type: "*signin", where: {note: a*b}}
            require: {preceded_by: {type: '*x'}}
            message: "* {subject}"
            """
        #expect(YAMLAliases.first(in: text) == nil)
        #expect(RuleLoader.load(text: text, path: "rule.yml", sha256: "").diagnostics.isEmpty)
    }
}

/// How YAML text becomes a tree, whatever file it is in.
@Suite struct YAMLTreeTests {
    /// libyaml's reader reports a bad character by byte offset; the error still names the line
    /// and the column, counted in characters.
    @Test(arguments: [
        ("id: é\ndescription: \"ab\u{01}\"\n", "rule.yml:2:17"),
        ("a: 1\r\nb: 2\r\nc: 3\r\n\u{01}: x", "rule.yml:4:1"),
        ("id: 😀 ☃\r\nx: \u{01}", "rule.yml:2:4"),
    ])
    func aControlCharacterIsAnErrorAtItsLineAndColumn(text: String, place: String) {
        guard case .failure(let error) = YAMLTree.parse(text, path: "rule.yml") else {
            Issue.record("a control character was accepted")
            return
        }
        #expect(error.diagnostics.map(\.location.description) == [place])
        #expect(error.diagnostics.first?.message == "invalid YAML: control characters are not allowed (U+0001)")
    }

    /// Scalars are typed by relaylint, not by YAML 1.1's resolver: `no`, `on`, `0x1F`, dates and
    /// `.inf` stay the strings they were written as.
    @Test func onlyTrueFalseNullAndJSONNumbersAreTyped() throws {
        let text = "a: no\nb: on\nc: 0x1F\nd: 2026-11-25\ne: .inf\nf: true\ng: ~\nh: -1.5e3\ni: '7'\nj: <<\n"
        guard case .success(let tree?) = YAMLTree.parse(text, path: "x.yml"), case .mapping(let pairs) = tree.content else {
            Issue.record("did not parse")
            return
        }
        let values = pairs.map { pair -> JSONValue in
            guard case .scalar(let value) = pair.value.content else { return .null }
            return value
        }
        #expect(
            values == [
                .string("no"), .string("on"), .string("0x1F"), .string("2026-11-25"), .string(".inf"), .bool(true), .null,
                try JSONParser.parseDocument("-1.5e3"), .string("7"), .string("<<"),
            ])
    }
}
