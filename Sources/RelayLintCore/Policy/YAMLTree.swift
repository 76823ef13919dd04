import Foundation
import Yams

/// A YAML document as a `Sendable` tree whose every node knows its file, line and column.
///
/// Yams' `Node` is not `Sendable`, and its tag resolution follows YAML 1.1 (`no` becomes false,
/// dates become timestamps). relaylint converts at this boundary and types scalars itself:
/// plain `true`/`false` are booleans, plain numbers are numbers, plain `null`/`~` is null, and
/// everything else, including `no`, `yes` and dates, stays a string.
public struct YAMLTree: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case scalar(JSONValue)
        case mapping([(key: String, keyLocation: SourceLocation, value: YAMLTree)])
        case sequence([YAMLTree])

        public static func == (lhs: Content, rhs: Content) -> Bool {
            switch (lhs, rhs) {
            case (.scalar(let a), .scalar(let b)): a == b
            case (.sequence(let a), .sequence(let b)): a == b
            case (.mapping(let a), .mapping(let b)):
                a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: false
            }
        }
    }

    public var content: Content
    public var location: SourceLocation

    init(content: Content, location: SourceLocation) {
        self.content = content
        self.location = location
    }

    /// Reads and parses a YAML (or JSON) file, returning its tree (nil when empty) and SHA-256;
    /// an unreadable file or a syntax error becomes diagnostics.
    static func load(path: String) throws(DiagnosticsError) -> (tree: YAMLTree?, sha256: String) {
        let file: (data: Data, sha256: String)
        do {
            file = try FileBytes.read(path: path)
        } catch {
            throw DiagnosticsError(error.diagnostics)
        }
        switch parse(try text(of: file.data, path: path), path: path) {
        case .failure(let error): throw error
        case .success(let tree): return (tree, file.sha256)
        }
    }

    /// A YAML file's text; an error at the first byte that is not UTF-8, which decoding would
    /// have replaced with U+FFFD, silently (`type: "dat\xFFa"` became an event type of its own).
    static func text(of data: Data, path: String) throws(DiagnosticsError) -> String {
        if let text = String(validating: data, as: UTF8.self) { return text }
        var bad = InvalidUTF8Lines(data)
        let at = bad.next()
        throw DiagnosticsError([
            Diagnostic(
                .error, "invalid UTF-8: the file must be UTF-8 text",
                at: SourceLocation(file: path, line: at?.line ?? 1, column: at?.column))
        ])
    }

    /// Parses YAML text; syntax errors, keys written twice and non-string keys become diagnostics.
    /// The first key written twice ends the reading, as a configuration or a manifest (which
    /// may be large) has nothing more to tell once it is refused.
    public static func parse(_ text: String, path: String) -> Result<YAMLTree?, DiagnosticsError> {
        let parsed = parse(text, path: path, settingRepeatsAside: false)
        return parsed.problems.isEmpty ? .success(parsed.tree) : .failure(DiagnosticsError(parsed.problems))
    }

    /// Parses YAML text as `parse` does, except that a key written twice does not end the
    /// reading: each repeat is reported, and the tree, with the first of each repeated key, is
    /// given beside the reports, so that a rule or mapping loader reports its own problems too
    /// (every problem at once; one repeated key hid all the others). Any other problem gives no
    /// tree. Nil tree and no problem: the document is empty.
    static func parseKeepingRepeatedKeys(_ text: String, path: String) -> (tree: YAMLTree?, problems: [Diagnostic]) {
        parse(text, path: path, settingRepeatsAside: true)
    }

    private static func parse(_ text: String, path: String, settingRepeatsAside: Bool) -> (tree: YAMLTree?, problems: [Diagnostic]) {
        // A byte order mark, as editors on Windows write one, is no part of the document: libyaml,
        // told the text is UTF-8, read it as a character, and `\u{FEFF}mapping: x` failed at line 2.
        if text.unicodeScalars.first == "\u{FEFF}" {
            return parse(String(text.unicodeScalars.dropFirst()), path: path, settingRepeatsAside: settingRepeatsAside)
        }
        // Before composing: an alias bomb blows up in whatever walks the composed tree.
        if let alias = YAMLAliases.first(in: text) {
            let problem = Diagnostic(
                .error, "YAML aliases are not supported (*\(alias.name)); write the value out",
                at: SourceLocation(file: path, line: alias.line, column: alias.column))
            return (nil, [problem])
        }
        var text = text
        var repeats: [Diagnostic] = []
        var setAsideKeys: Set<String> = []
        // Each reading again costs a reading of the whole text: bounded by bytes read, so that a
        // large file full of repeats costs a few readings, not minutes.
        var bytesLeft = settingRepeatsAside ? maximumBytesReadForRepeats : 0
        let node: Node?
        while true {
            do {
                // `.basic`: no tag resolution. Scalars are typed by `typed(_:)` below, and Yams' YAML 1.1
                // resolver would match every plain scalar against seven regular expressions for nothing.
                // `.utf8`, not `.default`: the default reads the environment on every call (and prints
                // to standard output when YAMS_DEFAULT_ENCODING is set, which would corrupt a report).
                node = try Yams.compose(yaml: text, .basic, .default, .utf8)
                break
            } catch let error as YamlError {
                // Yams stops at the first mapping with a key written twice, naming every key
                // repeated there. Each repeat is reported where it is written, then written out of
                // the way (`setAside`), and the text is read again.
                bytesLeft -= text.utf8.count
                if case .duplicatedKeysInMapping(let keys, let context) = error, bytesLeft >= 0,
                    setAsideKeys.count + keys.count <= setAsideMarks.count
                {
                    var patched = text
                    var found: [Diagnostic] = []
                    for key in keys {
                        // Each search reads the text again too.
                        bytesLeft -= text.utf8.count
                        guard bytesLeft >= 0,
                            let place = repeatedKey(key, in: patched, from: (context.mark.line, context.mark.column)),
                            let renamed = setAside(keyAt: place, in: patched, number: setAsideKeys.count)
                        else { break }
                        found.append(repeatedKeyDiagnostic([key], at: SourceLocation(file: path, line: place.line, column: place.column)))
                        setAsideKeys.insert(renamed.key)
                        patched = renamed.text
                    }
                    if found.count == keys.count {
                        repeats += found
                        text = patched
                        continue
                    }
                }
                return (nil, (repeats + [YAMLTree.diagnostic(for: error, path: path, text: text)]).sorted { $0.location < $1.location })
            } catch {
                return (nil, repeats + [Diagnostic(.error, "invalid YAML: \(error)", at: SourceLocation(file: path))])
            }
        }
        guard let node else { return (nil, repeats) }
        var problems: [Diagnostic] = []
        let tree = YAMLTree(node: node, path: path, problems: &problems, setAside: setAsideKeys)
        return problems.isEmpty ? (tree, repeats) : (nil, repeats + problems)
    }

    /// How many bytes of text a document with keys written twice may be read for, in all (a
    /// reading and a search for each repeat), to find its other problems: 4 MiB, a rule file of
    /// 100 KB forty times; a larger file gets fewer, down to the first repeat alone.
    static let maximumBytesReadForRepeats = 4 << 20

    /// The text with the first character of the key written at `place` (its 1-based line and
    /// column, in Unicode scalars, as `repeatedKey` gives it) replaced with a character of
    /// private use that no one types, a different one for each key set aside (U+E000 for the
    /// first), and the key as renamed, which `init` leaves out of the tree. One character for
    /// one: every other line and column stays where it is.
    private static func setAside(keyAt place: (line: Int, column: Int), in text: String, number: Int) -> (text: String, key: String)? {
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        for _ in 1..<max(1, place.line) {
            guard let newline = scalars[index...].firstIndex(of: "\n") else { return nil }
            index = scalars.index(after: newline)
        }
        guard var at = scalars.index(index, offsetBy: place.column - 1, limitedBy: scalars.endIndex), at < scalars.endIndex,
            number < setAsideMarks.count, let mark = Unicode.Scalar(setAsideMarks.lowerBound + UInt32(number))
        else { return nil }
        // A quoted key is renamed inside its quotes, and ends at the closing one.
        var end: Unicode.Scalar = ":"
        if scalars[at] == "\"" || scalars[at] == "'" {
            end = scalars[at]
            at = scalars.index(after: at)
            guard at < scalars.endIndex, scalars[at] != end else { return nil }
        }
        var patched = String.UnicodeScalarView()
        patched.append(contentsOf: scalars[..<at])
        patched.append(mark)
        patched.append(contentsOf: scalars[scalars.index(after: at)...])
        // The key as the text now spells it: from the mark to the `:` that ends a plain key, or
        // to the closing quote.
        var key = String.UnicodeScalarView([mark])
        var rest = scalars.index(after: at)
        while rest < scalars.endIndex, scalars[rest] != end {
            key.append(scalars[rest])
            rest = scalars.index(after: rest)
        }
        return (String(patched), end == ":" ? String(key).trimmingWhitespace : String(key))
    }

    /// The first characters of the keys `setAside` renames.
    private static let setAsideMarks: Range<UInt32> = 0xE000..<0xE100

    /// - Parameter setAside: the keys `setAside` renamed, left out of the tree.
    private init(node: Node, path: String, problems: inout [Diagnostic], setAside: Set<String>) {
        let location = YAMLTree.location(node.mark, path: path)
        self.location = location
        // A tag (`!!int 5`, `!!python/object:os.system`, `!custom`) was read past without a
        // word: `!!int 5` was the text "5", `!!bool "false"` the text "false". None is honoured
        // but `!!str`, which means what quotes mean.
        if let tag = YAMLTree.unsupportedTag(of: node) {
            problems.append(
                Diagnostic(.error, "YAML tags are not supported (\(tag)); write the value without it, in quotes for text", at: location))
        }
        switch node {
        case .scalar(let scalar) where scalar.tag.description == Tag.Name.str.rawValue:
            content = .scalar(.string(scalar.string))
        case .scalar(let scalar):
            content = .scalar(YAMLTree.typed(scalar))
        case .sequence(let sequence):
            content = .sequence(sequence.map { YAMLTree(node: $0, path: path, problems: &problems, setAside: setAside) })
        case .mapping(let mapping):
            var pairs: [(key: String, keyLocation: SourceLocation, value: YAMLTree)] = []
            var seen: Set<String> = []
            for (key, value) in mapping {
                let keyLocation = YAMLTree.location(key.mark, path: path)
                guard case .scalar(let keyScalar) = key else {
                    problems.append(Diagnostic(.error, "mapping keys must be plain strings", at: keyLocation))
                    continue
                }
                // A repeat already reported, renamed by `setAside`.
                if setAside.contains(keyScalar.string) { continue }
                if let tag = YAMLTree.unsupportedTag(of: key) {
                    problems.append(
                        Diagnostic(
                            .error, "YAML tags are not supported (\(tag)); write the key without it", at: keyLocation))
                }
                if !seen.insert(keyScalar.string).inserted {
                    problems.append(Diagnostic(.error, "duplicate key '\(keyScalar.string)'", at: keyLocation))
                }
                pairs.append(
                    (keyScalar.string, keyLocation, YAMLTree(node: value, path: path, problems: &problems, setAside: setAside)))
            }
            content = .mapping(pairs)
        case .alias:
            problems.append(Diagnostic(.error, "YAML aliases are not supported here; write the value out", at: location))
            content = .scalar(.null)
        }
    }

    /// The tag written on a node, as it was written (`!!int` for YAML's own), when it is one
    /// relaylint does not honour; nil for none and for `!!str`. Read before anything resolves
    /// the node's tag (`Node.tag` does).
    private static func unsupportedTag(of node: Node) -> String? {
        let written: String
        switch node {
        case .scalar(let scalar): written = scalar.tag.description
        case .mapping(let mapping): written = mapping.tag.description
        case .sequence(let sequence): written = sequence.tag.description
        case .alias: return nil
        }
        guard !written.isEmpty, written != Tag.Name.str.rawValue else { return nil }
        let core = "tag:yaml.org,2002:"
        return written.hasPrefix(core) ? "!!" + written.dropFirst(core.count) : written
    }

    static func location(_ mark: Mark?, path: String) -> SourceLocation {
        SourceLocation(file: path, line: mark?.line ?? 0, column: mark?.column)
    }

    /// Types a scalar as relaylint reads YAML (see the type's documentation).
    static func typed(_ scalar: Node.Scalar) -> JSONValue {
        let text = scalar.string
        guard scalar.style == .plain || scalar.style == .any else { return .string(text) }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null", "~", "": return .null
        default: break
        }
        if let first = text.utf8.first, first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39),
            let value = try? JSONParser.parseDocument(text), case .number = value
        {
            return value
        }
        return .string(text)
    }

    /// The 1-based line and column of the character at `offset` (counted in characters, as Yams
    /// reports a reader error) in `text`. A CRLF is one character in Swift and ends a line.
    static func lineAndColumn(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for character in text.prefix(offset) {
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    /// How deep libyaml lets a document nest (its `MAX_NESTING_LEVEL`).
    static let maximumNesting = 1000

    /// Where `key` is written a second time as a key of the mapping libyaml marks at `start` (the
    /// mapping, or its first key): in a block mapping, the next time it is written at the
    /// column of the mapping's keys, before a line indented less ends the mapping; in a flow
    /// mapping (`{a: 1, a: 2}`), on the same line. Comments are no keys. A key may be written
    /// plain or in quotes (`"title":`), as it is. Nil when the text does not show it so (a key
    /// spelled with escapes, a flow mapping over several lines).
    static func repeatedKey(_ key: String, in text: String, from start: (line: Int, column: Int)) -> (line: Int, column: Int)? {
        let escaped = NSRegularExpression.escapedPattern(for: key)
        guard !key.isEmpty,
            let pattern = try? Regex(#"(?:^|[\s{,])((?:"# + escaped + #"|""# + escaped + #""|'"# + escaped + #"'))\s*:(?:\s|$)"#)
        else { return nil }
        var first: (line: Int, column: Int)?
        // Split on the scalar: "\r\n" is one `Character`, and a file with CRLF line ends was one line.
        for (offset, scalars) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let written = Substring(String(String.UnicodeScalarView(scalars)))
            let line = offset + 1
            guard line >= start.line else { continue }
            // The line without its comment (from a `#` at its start or after a space).
            let lineText = written.firstRange(of: #/(?:^|\s)#/#).map { written[..<$0.lowerBound] } ?? written[...]
            let content = lineText.drop { $0 == " " }
            // A line indented less than the mapping's keys ends a block mapping.
            if line > start.line, !content.isEmpty, lineText.count - content.count + 1 < start.column { return nil }
            for match in lineText.matches(of: pattern) {
                guard let range = match.output[1].range else { continue }
                let column = lineText.unicodeScalars.distance(from: lineText.startIndex, to: range.lowerBound) + 1
                guard line > start.line || column >= start.column else { continue }
                guard let seen = first else {
                    if column == start.column || line == start.line { first = (line, column) }
                    continue
                }
                if line == seen.line || column == seen.column { return (line, column) }
            }
        }
        return nil
    }

    /// Keys written twice in one mapping, told where the first of them is written again; keys
    /// are masked like any address or number a message quotes.
    private static func repeatedKeyDiagnostic(_ keys: [String], at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, "duplicate key '\(keys.map { PIIMasker().maskText($0) }.joined(separator: "', '"))' in a mapping", at: location)
    }

    static func diagnostic(for error: YamlError, path: String, text: String = "") -> Diagnostic {
        switch error {
        case .parser(_, let problem, let mark, _) where problem.hasPrefix("Maximum nesting level reached"):
            // libyaml's own words name a C function a user cannot call.
            return Diagnostic(
                .error, "invalid YAML: nesting deeper than \(maximumNesting) levels",
                at: SourceLocation(file: path, line: mark.line, column: mark.column))
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            return Diagnostic(.error, "invalid YAML: \(detail)", at: SourceLocation(file: path, line: mark.line, column: mark.column))
        case .composer(_, let problem, let mark, _) where problem == "but found another document":
            return Diagnostic(
                .error, "a second YAML document starts here: the file must hold one (remove the '---' or split the file)",
                at: SourceLocation(file: path, line: mark.line, column: mark.column))
        case .composer(let context, let problem, let mark, _):
            // libyaml's context comes first: "expected …, but found …".
            let detail = context.map { "\($0.text) \(problem)" } ?? problem
            return Diagnostic(.error, "invalid YAML: \(detail)", at: SourceLocation(file: path, line: mark.line, column: mark.column))
        case .reader(let problem, let offset, let value, let yaml):
            // libyaml's reader (bad characters) reports no mark; Yams turns its byte offset into
            // a count of characters.
            let at = offset.map { YAMLTree.lineAndColumn(ofCharacter: $0, in: yaml) }
            let character = value >= 0 ? String(format: " (U+%04X)", Int(value)) : ""
            return Diagnostic(
                .error, "invalid YAML: \(problem)\(character)",
                at: SourceLocation(file: path, line: at?.line ?? 0, column: at?.column))
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Not Yams's context text: for this error it is the whole document, which printed a
            // manifest of 60 MB, addresses and all, to standard error.
            // libyaml marks the mapping, or its first key; the key given again is what to fix.
            let place =
                duplicates.first.flatMap { repeatedKey($0, in: text, from: (context.mark.line, context.mark.column)) }
                ?? (context.mark.line, context.mark.column)
            return repeatedKeyDiagnostic(duplicates, at: SourceLocation(file: path, line: place.line, column: place.column))
        default:
            return Diagnostic(.error, "invalid YAML: \(error)", at: SourceLocation(file: path))
        }
    }

    /// The tree as plain JSON, for values handed on unchanged (example events, manifest entries).
    public var jsonValue: JSONValue {
        switch content {
        case .scalar(let value): return value
        case .sequence(let elements): return .array(elements.map(\.jsonValue))
        case .mapping(let pairs):
            var members: [String: JSONValue] = [:]
            for pair in pairs { members[pair.key] = pair.value.jsonValue }
            return .object(members)
        }
    }

    /// The value's kind, for messages.
    var kindName: String {
        switch content {
        case .scalar(let value): value.kindName
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }
}

extension YAMLTree {
    /// Where each item of a list is; nil for anything but a list.
    var sequenceLocations: [SourceLocation]? {
        guard case .sequence(let items) = content else { return nil }
        return items.map(\.location)
    }
}
