import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A mapping with mistakes is refused with every problem at its line and column at once.
@Suite struct MappingLoaderTests {
    /// What loading `text` reports, each problem as "line:column message"; an issue is
    /// recorded, and nothing returned, when it loads.
    private func problems(loading text: String) -> [String] {
        guard case .failure(let error) = MappingLoader.load(text: text, path: "m.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return []
        }
        return error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
    }

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

    /// A value read before its line, through itself, or `$item` outside a `for_each`, is told
    /// as that, not as undeclared; a misspelt one gets the same suggestion on every run.
    @Test func aValueReadInTheWrongPlaceIsToldWhy() {
        let text = """
            mapping: m
            recognize: {path: u, is: string}
            let:
              a: {path: $b.x}
              b: {path: $b.y}
              ab: {path: x}
              ac: {path: y}
            defaults: {id: {path: i}, time: {path: t}, subject: {path: $ad}}
            events:
              - type: {path: $item}
            """
        for _ in 0..<5 {
            guard case .failure(let error) = MappingLoader.load(text: text, path: "m.yml", sha256: "") else {
                Issue.record("the mapping loaded")
                return
            }
            let lines = error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
            #expect(lines.count == 4, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("4:13 '$b' is declared below; a value reads only those declared above it") })
            #expect(lines.contains { $0.hasPrefix("5:13 '$b' reads itself") })
            #expect(lines.contains { $0.hasPrefix("8:60 unknown value '$ad'; did you mean '$a'?") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("10:18 '$item' is a for_each list's element") }, "\(lines)")
        }
    }

    /// A constant that every record would find wrong (`type: 42`) is an error of the mapping,
    /// where it is written, rather than every record it maps invalid.
    @Test func aReservedFieldsConstantIsCheckedAsARecordsWouldBe() {
        let text = """
            mapping: m
            recognize: {path: u, is: string}
            defaults: {id: {path: i}, time: "2026-13-01T00:00:00Z", subject: {path: u}, app: [a]}
            events:
              - {type: 42}
              - {type: signin, subject: {value: true}, time: 1767225600000}
              - {type: {value: signin}, app: null}
            """
        guard case .failure(let error) = MappingLoader.load(text: text, path: "m.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        let lines = error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.contains("3:33 'time' is not an RFC 3339 timestamp: '2026-13-01T00:00:00Z'"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("3:82 'app' must be a constant or a mapping") }, "\(lines)")
        #expect(lines.contains("5:12 'type' must be a string, found a number"), "\(lines)")
        #expect(lines.contains("6:29 'subject' must be a string, found a boolean"), "\(lines)")
        let bare =
            "mapping: m\nrecognize: {path: u, is: string}\nlet: {v: {path: a}}\nevents:\n  - {type: t, fields: {scope: $v, text: {value: $v}}}\n"
        guard case .failure(let bareError) = MappingLoader.load(text: bare, path: "m.yml", sha256: "") else {
            Issue.record("a bare $v loaded")
            return
        }
        #expect(
            bareError.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" } == [
                "5:31 field 'scope' is the text '$v'; to read the value write {path: $v} (or {value: \"$v\"} for the text)"
            ])
    }

    /// A function of constants gives every record the same value or the same failure: it is
    /// worked out and checked when the mapping loads, as a constant is.
    @Test func aReservedFieldMadeOfConstantsIsCheckedAtLoad() {
        let text = """
            mapping: m
            recognize: {path: u, is: string}
            defaults: {id: {path: i}, subject: {path: u}}
            events:
              - {type: a, time: {epoch_milliseconds: "2026"}}
              - {type: b, time: {epoch_milliseconds: 1767225600}}
              - {type: {lookup: x, table: {x: 5}}, time: {path: t}}
              - {type: {lookup: {path: k}, table: {x: 5}}, time: {path: t}}
              - {type: {regex: abc, pattern: x}, time: 99999999999999999999}
              - {type: c, time: {epoch_milliseconds: -1e300}}
            """
        #expect(
            problems(loading: text) == [
                "5:21 'time' fails for every record: '2026' must be a number of seconds or milliseconds, found a string",
                "7:12 'type' must be a string, found a number",
                "9:12 'type' gives no value for any record",
                "9:44 'time' is out of range: 99999999999999999999 (epoch milliseconds from year 1 to year 9999)",
                "10:21 'time' is out of range: -1e300 (epoch milliseconds from year 1 to year 9999)",
            ])
    }

    /// A table's values and a test's operands are constants: `$v` written there, for a value the
    /// mapping gives, was compared or given as the text "$v". Other text with a `$` is text.
    @Test func aNamedValueWrittenWhereConstantsGoIsAnError() {
        let text = """
            mapping: m
            recognize: {path: u, is: string}
            let: {v: {path: a}}
            events:
              - when: {any: [{path: b, equals: $v}, {path: b, not_equals: "$item"}, {path: b, in: [x, $v, "$1.99"]}]}
                type: {lookup: {path: c}, table: {a: $v, b: "$2"}}
              - when: {any: [{path: b, equals: {path: $v}}, {path: b, in: [{value: x}, {other: y}]}]}
                type: {lookup: {path: c}, table: {a: {path: d}}}
            """
        #expect(
            problems(loading: text) == [
                "5:36 'equals' is the text '$v', not the value of '$v': a test compares with constants only",
                "5:63 'not_equals' is the text '$item', not the value of '$item': a test compares with constants only",
                "5:91 an item of 'in' is the text '$v', not the value of '$v': a test compares with constants only",
                "6:42 a value of 'table' is the text '$v', not the value of '$v': a table gives constants only",
                "7:36 'equals' is an object with the key 'path', not a value worked out from the record: a test compares with constants only",
                "7:64 an item of 'in' is an object with the key 'value', not a value worked out from the record: a test compares with constants only",
                "8:42 a value of 'table' is an object with the key 'path', not a value worked out from the record: a table gives constants only",
            ])
    }

    /// Values that each join the one before twice grow as 2^n: weighed as they grow, the
    /// record is invalid at 1 MiB, where a record of 60 bytes took 15 GB before.
    @Test func aValueThatDoublesThroughItsNamedValuesStopsAtTheLimit() throws {
        let lets = (1...40).map { "  v\($0): {concat: [{path: $v\($0 - 1)}, {path: $v\($0 - 1)}]}" }.joined(separator: "\n")
        let text = """
            mapping: bomb
            recognize: {path: a, is: string}
            let:
              v0: {path: a}
            \(lets)
            defaults: {id: {value: e1}, time: {value: "2026-01-01T00:00:00Z"}, subject: {value: u1}}
            events:
              - {type: t, fields: {big: {path: $v40}}}
            """
        let mapping = try MappingLoader.load(text: text, path: "m.yml", sha256: "").get()
        let mapper = RecordMapper(mapping: mapping, tokens: TokenReader(keys: nil))
        guard case .invalid(let message) = mapper.map(.object(["a": .string(String(repeating: "x", count: 40))])) else {
            Issue.record("the record was mapped")
            return
        }
        #expect(message.hasPrefix("a 'concat' value would take more than 1 MiB"), "\(message)")
    }

    /// A record that is not JSON can be an example of an invalid record, as only `record_json`
    /// can write it; expecting events of it is a mistake in the example.
    @Test func anExampleMayShowThatARecordThatIsNotJSONIsInvalid() throws {
        let mapping = """
            mapping: m
            recognize: {path: u, is: string}
            defaults: {id: {path: i}, time: {path: t}, subject: {path: u}}
            events: [{type: signin}]
            examples:
              - name: a key written twice
                record_json: '{"i":"e1","t":"2026-01-01T00:00:00Z","u":"a","u":"b"}'
                invalid: duplicate key 'u'

            """
        let loaded = try MappingLoader.load(text: mapping, path: "m.yml", sha256: "").get()
        let results = MappingExampleRunner.run(loaded)
        #expect(results.map(\.problem) == [nil])
        #expect(results.map(\.warning) == [nil])
        let expectingEvents = mapping.replacingOccurrences(of: "invalid: duplicate key 'u'", with: "events: []")
        guard case .failure(let error) = MappingLoader.load(text: expectingEvents, path: "m.yml", sha256: "") else {
            Issue.record("an example expecting events of a record that is not JSON loaded")
            return
        }
        #expect(
            error.diagnostics.map(\.message) == [
                "'record_json' is not valid JSON: duplicate key 'u' in an object (an example of a record that is not JSON expects 'invalid')"
            ])
    }

    /// `is: null`, as the reference writes it, tests for null: YAML reads the word as null, which
    /// was refused as "found nothing".
    @Test func isNullTestsForNullAsWritten() throws {
        let mapping = """
            mapping: m
            recognize: {path: u, is: string}
            defaults: {id: {path: i}, time: {path: t}, subject: {path: u}}
            events:
              - {type: signin, when: {path: e, is: null}}
              - {type: other, when: {path: e, is: string}}
            examples:
              - name: a null
                record: {i: e1, t: "2026-01-01T00:00:00Z", u: a, e: null}
                events: [{id: e1, time: "2026-01-01T00:00:00Z", subject: a, type: signin}]
              - name: a string
                record: {i: e2, t: "2026-01-01T00:00:00Z", u: a, e: x}
                events: [{id: e2, time: "2026-01-01T00:00:00Z", subject: a, type: other}]
            """
        let results = MappingExampleRunner.run(try MappingLoader.load(text: mapping, path: "m.yml", sha256: "").get())
        #expect(results.map(\.problem) == [nil, nil])
    }

    /// A failing example shows the events' numbers as the record wrote them, not as the
    /// duplicate check compares them (`15e0`).
    @Test func aFailingExampleShowsNumbersAsWritten() throws {
        let mapping = """
            mapping: m
            recognize: {path: u, is: string}
            defaults: {id: {path: i}, time: {path: t}, subject: {path: u}}
            events: [{type: signin, fields: {n: {path: n}}}]
            examples:
              - name: a number
                record: {i: e1, t: "2026-01-01T00:00:00Z", u: a, n: 15}
                events: [{id: e1, time: "2026-01-01T00:00:00Z", subject: a, type: signin, n: 16}]
            """
        let problem = try #require(
            MappingExampleRunner.run(try MappingLoader.load(text: mapping, path: "m.yml", sha256: "").get()).first?.problem)
        #expect(problem.contains(#""n":15,"#) && problem.contains(#""n":16,"#), "\(problem)")
    }

    /// A mapping file named twice (in `.relaylint.yml` and with `--mapping`, or by two spellings)
    /// is one mapping, read once, not a second definition of itself.
    @Test func aMappingFileNamedTwiceIsReadOnce() throws {
        let folder = try Fixtures.temporaryDirectory()
        let mapping = folder.appendingPathComponent("backend.yml")
        try Data(
            """
            mapping: backend
            recognize: {path: uid, is: string}
            defaults: {id: {path: id}, time: {path: ts}, subject: {path: uid}}
            events: [{type: signin}]
            """.utf8
        ).write(to: mapping)
        let loaded = try MappingSet.load(userPaths: [mapping.path, folder.path + "/./backend.yml", folder.path], includeBuiltIn: false)
        #expect(loaded.mappings.map(\.id) == ["backend"])
        let copy = folder.appendingPathComponent("copy.yml")
        try FileManager.default.copyItem(at: mapping, to: copy)
        #expect(throws: DiagnosticsError.self) { try MappingSet.load(userPaths: [mapping.path, copy.path], includeBuiltIn: false) }
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

    /// Keys written twice do not hide a file's other problems: libyaml stops at the first
    /// mapping with a repeat, which was the only problem reported, whatever else was wrong.
    @Test func repeatedKeysAreReportedWithEveryOtherProblem() {
        let text = """
            mapping: m
            titel: M
            recognize: {path: uid, is: strng}
            defaults:
              id: {path: id}
              time: {path: ts}
              subject: {path: uid}
              time: {path: other}
            events:
              - {type: signin, fields: {x: 1, y: 2, x: 3, y: 4}}
            """
        guard case .failure(let error) = MappingLoader.load(text: text, path: "m.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        let lines = error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
        #expect(lines.contains { $0.hasPrefix("2:1 unknown key 'titel'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("3:28 'is' must be one of") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("8:3 duplicate key 'time'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("10:41 duplicate key 'x'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("10:47 duplicate key 'y'") }, "\(lines)")
        #expect(lines.count == 5, "\(lines)")
        let quoted = RuleLoader.load(text: "\"title\": a\n'title': b\ntitle: c\nbogus: 1\n", path: "r.yml", sha256: "").diagnostics
        let quotedLines = quoted.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
        #expect(quotedLines.contains("2:1 duplicate key 'title' in a mapping"), "\(quotedLines)")
        #expect(quotedLines.contains("3:1 duplicate key 'title' in a mapping"), "\(quotedLines)")
        #expect(quotedLines.contains { $0.hasPrefix("4:1 unknown key 'bogus'") }, "\(quotedLines)")
        let rule = RuleLoader.load(text: "id: r\nid: s\nseverty: error\n", path: "r.yml", sha256: "")
        let ruleLines = rule.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
        #expect(ruleLines.contains { $0.hasPrefix("2:1 duplicate key 'id'") }, "\(ruleLines)")
        // Once: a rule's keys are read twice (before and after its parameters are put in).
        #expect(ruleLines.filter { $0.hasPrefix("3:1 unknown key 'severty'") }.count == 1, "\(ruleLines)")
    }

    /// Repeats in a file with CRLF line ends, and several repeats of one mapping, are each
    /// reported where they are written, with the file's other problems: a CRLF file was one
    /// line to the search for the repeat, and one mapping's repeats took one reading each.
    @Test func repeatsInACRLFFileAndManyInOneMappingAreEachReported() {
        let keys = (1...30).map { "  k\($0): 1\r\n  k\($0): 2\r\n" }.joined()
        let text = "mapping: m\r\nrecognize: {path: u, is: string}\r\nlet:\r\n" + keys + "bogus: 1\r\nevents: [{type: t}]\r\n"
        guard case .failure(let error) = MappingLoader.load(text: text, path: "m.yml", sha256: "") else {
            Issue.record("the mapping loaded")
            return
        }
        let lines = error.diagnostics.map { "\($0.location.line):\($0.location.column ?? 0) \($0.message)" }
        #expect(lines.filter { $0.contains("duplicate key") }.count == 30, "\(lines)")
        #expect(lines.contains("5:3 duplicate key 'k1' in a mapping"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("64:1 unknown key 'bogus'") }, "\(lines)")
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
        #expect(
            problems(loading: text)
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
        #expect(error.diagnostics.map(\.message) == ["'$item' is a for_each list's element: it is read only in an event with 'for_each'"])
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
