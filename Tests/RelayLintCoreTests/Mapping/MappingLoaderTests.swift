import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A mapping with mistakes is refused with every problem at its line and column at once.
@Suite struct MappingLoaderTests {
    @Test func everyProblemIsReportedAtItsPlace() {
        let text = """
            mapping: Bad_Name
            recognize: {path: kind, equls: x}
            let:
              method: {last_part: {path: payload.methodName}}
            events:
              - type: signin
                subject: {path: $methdo}
                fields:
                  provider: {lokup: {path: x}}
                  id: {path: y}
              - type: signin
                time: {regex: {path: ua}, pattern: "(unclosed"}
            """
        guard case .failure(let error) = MappingLoader.load(text: text, path: "bad.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        let lines = error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
        #expect(lines.contains { $0.hasPrefix("1:10 mapping name 'Bad_Name' must be kebab-case") })
        #expect(lines.contains { $0.hasPrefix("2:25 unknown key 'equls'") && $0.contains("did you mean 'equals'?") })
        #expect(lines.contains { $0.hasPrefix("7:21 unknown value '$methdo'; did you mean '$method'?") })
        #expect(lines.contains { $0.hasPrefix("9:18 unknown key 'lokup'") && $0.contains("did you mean 'lookup'?") })
        #expect(lines.contains { $0.hasPrefix("10:7 'id' is a reserved field") })
        #expect(lines.contains { $0.hasPrefix("12:40 'pattern' is not a valid regular expression") })
        #expect(lines.contains { $0.hasPrefix("2:12 'recognize' needs a test") })
        #expect(error.diagnostics.count == 7)
    }

    /// A folder given as a mapping that holds none is an error at the folder, as it is for
    /// `--rules`: it was taken for no mapping, and the log it was meant for went unrecognised.
    @Test func aFolderWithoutMappingsIsAnError() throws {
        let folder = try Fixtures.temporaryDirectory().path
        guard case .failure(let error) = Result(catching: { () throws(DiagnosticsError) in try MappingSet.load(userPaths: [folder]) })
        else {
            Issue.record("an empty folder loaded as mappings")
            return
        }
        #expect(error.diagnostics.map { $0.message } == ["no mapping files (.yml, .yaml) found"])
        #expect(error.diagnostics.first?.location.file == folder)
    }

    /// A key written twice in a YAML mapping is reported where it is written the second time,
    /// in a block mapping (one key under the other) and a flow one: libyaml's mark is the
    /// mapping's, or its first key's, which pointed at a line with nothing wrong on it.
    @Test(arguments: [
        ("mapping: m\ndefaults:\n  id: {path: a}\n  time: {path: ts}\n  subject: {path: uid}\n  time: {path: other}\n", "6:3"),
        ("mapping: m\nmapping: n\nevents: []\n", "2:1"),
        ("mapping: m\ndefaults: {id: {path: a}, time: {path: t}, time: {path: u}}\n", "2:44"),
        ("mapping: m\nlet:\n  time: {path: t}\ndefaults:\n  time: {path: t}\n  id: {path: a}\n  time: {path: u}\n", "7:3"),
        // A comment is no key; a key of the same name in a nested mapping is another mapping's.
        ("mapping: m\ndefaults:\n  id: {path: a}\n  # time: commented out\n  time: {path: t}\n  time: {path: u}\n", "6:3"),
        ("mapping: m\ndefaults:\n  x:\n    time: 1\n  z:\n    time: 2\n  time: 3\n  time: 4\n", "8:3"),
    ])
    func aRepeatedKeyIsReportedWhereItIsRepeated(text: String, place: String) {
        guard case .failure(let error) = MappingLoader.load(text: text, path: "m.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        let places = error.diagnostics.filter { $0.message.hasPrefix("duplicate key") }.map {
            "\($0.location.line):\($0.location.column ?? 0)"
        }
        #expect(places == [place], "\(error.diagnostics)")
    }

    /// A byte that is not UTF-8 in a YAML file (a mapping, a manifest) is an error at its line
    /// and column, as in a rule file or a log: it was replaced with U+FFFD, silently, and
    /// `type: "dat\xFFa"` made events of a type of its own.
    @Test func aYAMLFileThatIsNotUTF8IsAnErrorAtTheByte() throws {
        let folder = try Fixtures.temporaryDirectory()
        let mapping = folder.appendingPathComponent("m.yml")
        try Data("mapping: m\nrecognize: {path: a, is: string}\nevents:\n  - type: \"dat".utf8 + [0xFF] + Data("a\"\n".utf8))
            .write(to: mapping)
        guard case .failure(let error) = Result(catching: { () throws(DiagnosticsError) in try MappingSet.load(userPaths: [mapping.path]) })
        else {
            Issue.record("the mapping loaded")
            return
        }
        #expect(
            error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" } == [
                "4:15 invalid UTF-8: the file must be UTF-8 text"
            ])
        let manifest = folder.appendingPathComponent("apps.yml")
        try Data("apps:\n  - bundle_id: com.".utf8 + [0xC3] + Data("x\n".utf8)).write(to: manifest)
        guard
            case .failure(let manifestError) = Result(catching: { () throws(DiagnosticsError) in
                try AppManifestLoader.load(path: manifest.path, ruleKeys: [])
            })
        else {
            Issue.record("the manifest loaded")
            return
        }
        #expect(manifestError.diagnostics.first?.location.line == 2)
        #expect(manifestError.diagnostics.first?.message == "invalid UTF-8: the file must be UTF-8 text")
    }

    /// A byte order mark before the first key, as editors on Windows save YAML, is no part of
    /// the mapping: it loaded only when a comment came first.
    @Test func aByteOrderMarkBeforeTheFirstKeyIsSkipped() throws {
        let text = """
            mapping: backend
            recognize: {path: action, is: string}
            events:
              - type: consent.granted
                id: {path: ts}
                time: {path: ts}
                subject: {path: uid}
            """
        let plain = try MappingLoader.load(text: text, path: "m.yml", sha256: "").get()
        let marked = try MappingLoader.load(text: "\u{FEFF}" + text, path: "m.yml", sha256: "").get()
        #expect(marked.id == plain.id && marked.events.count == plain.events.count)
        guard case .failure(let error) = MappingLoader.load(text: "\u{FEFF}mapping: Bad_Name\n", path: "m.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        #expect(error.diagnostics.contains { $0.location.line == 1 && $0.message.contains("must be kebab-case") })
    }

    /// Named values are worked out when first read: one named `item` would be the list element
    /// or the value depending on where it was first read, so the name is refused.
    @Test func aValueNamedItemIsRefused() {
        let text = """
            mapping: items
            recognize: {path: kind, is: string}
            let:
              item: {path: payload}
            events:
              - type: signin
                subject: {path: uid}
            """
        guard case .failure(let error) = MappingLoader.load(text: text, path: "items.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        #expect(
            error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
                == ["4:3 'item' is the name of a for_each list's element; give the value another name"])
    }

    /// A path longer than records nest, and values each reading the one before, recursed past
    /// the thread's stack on the first record (a crash) though `mappings validate` passed them.
    @Test func pathsAndValuesTooDeepToEvaluateAreRefused() {
        let longPath = Array(repeating: "a", count: 513).joined(separator: ".")
        let chain = (1..<1100).map { "  v\($0): {concat: [{path: $v\($0 - 1)}]}" }.joined(separator: "\n")
        let text = """
            mapping: deep
            recognize: {path: kind, is: string}
            let:
              v0: {path: \(longPath)}
            \(chain)
            events:
              - type: signin
                subject: {path: $v1099}
            """
        guard case .failure(let error) = MappingLoader.load(text: text, path: "deep.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        #expect(
            error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
                == [
                    "4:14 a path of 513 parts; at most 512, as records nest no deeper",
                    // Two levels a value (`concat`, then `path`): v500 is 1000 deep.
                    "505:3 'let.v501' nests 1002 levels deep through the values it reads; at most 1000",
                    // Counted afresh after the value reported.
                    "1006:3 'let.v1002' nests 1002 levels deep through the values it reads; at most 1000",
                ])
    }

    @Test func itemIsKnownOnlyInsideForEach() {
        let text = """
            mapping: items
            recognize: {path: a, exists: true}
            events:
              - type: x
                subject: {path: $item}
            """
        guard case .failure(let error) = MappingLoader.load(text: text, path: "m.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        #expect(error.diagnostics.map(\.message) == ["unknown value '$item' (declare it under 'let')"])
    }

    /// `epoch_milliseconds` of a number below `Decimal`'s range gave the text "NaN", which no
    /// time reader takes; it now gives the time the native log gives for the same number.
    @Test(arguments: ["1e-300", "5e-324", "1.5", "1772236800"])
    func epochMillisecondsOfAnyNumberIsATime(text: String) throws {
        let seconds = JSONNumber(text: text, value: Double(text)!)
        let scope = MappingScope(record: .null, tokens: TokenReader(keys: nil))
        let value = try MappingExpression.epochMilliseconds(.constant(.number(seconds))).evaluate(in: scope)
        guard case .number(let milliseconds)? = value else {
            Issue.record("not a number: \(String(describing: value))")
            return
        }
        #expect(milliseconds.text != "NaN")
        #expect(
            Timestamp(epochMilliseconds: milliseconds)
                == Timestamp(epochMilliseconds: JSONNumber(text: "\(seconds.value * 1000)", value: seconds.value * 1000)))
        #expect(Timestamp(epochMilliseconds: milliseconds) != nil)
    }
}
