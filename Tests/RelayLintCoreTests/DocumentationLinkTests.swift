import Foundation
import RelayLintTestSupport
import Testing

/// The project's Markdown documents stand on their own: every relative link points at a file or
/// folder of the repository (and at a heading of it, when it names one), and none points outside.
@Suite struct DocumentationLinkTests {
    /// Folders that hold no project documents: build output, caches, tarballs.
    static let skippedFolders: Set<String> = [".build", ".git", ".swiftpm", ".cache", "out"]

    /// Every `.md` file of the repository, relative to its root.
    static func markdownFiles() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: Fixtures.root.path) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let first = String(relative.prefix { $0 != "/" })
            if skippedFolders.contains(first) || first.hasPrefix(".build") {
                enumerator.skipDescendants()
                continue
            }
            if relative.hasSuffix(".md") { files.append(relative) }
        }
        return files.sorted()
    }

    /// One link of a document: its target as written and the line it is on.
    struct Link: Equatable {
        var target: String
        var line: Int
    }

    /// Inline links and images `[text](target "title")` and reference definitions
    /// `[name]: target`, outside code blocks and code spans.
    static func links(in text: String) -> [Link] {
        var result: [Link] = []
        var inFence = false
        for (index, rawLine) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = rawLine.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            // Code spans may hold brackets and parentheses that are no links.
            let line = rawLine.replacingOccurrences(of: "`[^`]*`", with: "``", options: .regularExpression)
            let inline = try! NSRegularExpression(pattern: #"\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#)
            let definition = try! NSRegularExpression(pattern: #"^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?"#)
            let range = NSRange(line.startIndex..., in: line)
            for regex in [inline, definition] {
                for match in regex.matches(in: line, range: range) {
                    if let target = Range(match.range(at: 1), in: line) {
                        result.append(Link(target: String(line[target]), line: index + 1))
                    }
                }
            }
        }
        return result
    }

    /// The anchors GitHub makes of a document's headings: lower case, punctuation dropped,
    /// spaces as hyphens, repeated headings numbered.
    static func anchors(in text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") || line.hasPrefix("~~~") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = String(
                heading.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                    if scalar == " " { return "-" }
                    if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { return Character(scalar) }
                    return nil
                })
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            result.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return result
    }

    /// What is wrong with one relative link of `document`, or nil when it resolves.
    static func problem(with link: Link, in document: String) -> String? {
        let target = link.target
        if target.contains("://") || target.hasPrefix("mailto:") { return nil }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let path = parts[0].removingPercentEncoding ?? parts[0]
        let fragment = parts.count > 1 ? parts[1] : nil
        let documentFolder = Fixtures.root.appendingPathComponent(document).deletingLastPathComponent()
        let resolved = path.isEmpty ? Fixtures.root.appendingPathComponent(document) : documentFolder.appendingPathComponent(path)
        let standardized = resolved.standardizedFileURL.path
        guard standardized.hasPrefix(Fixtures.root.standardizedFileURL.path + "/") else {
            return "\(document):\(link.line): '\(target)' points outside the repository"
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: standardized, isDirectory: &isDirectory) else {
            return "\(document):\(link.line): '\(target)' names no file of the repository"
        }
        if let fragment, !isDirectory.boolValue, standardized.hasSuffix(".md") {
            let text = (try? String(contentsOfFile: standardized, encoding: .utf8)) ?? ""
            if !anchors(in: text).contains(fragment.lowercased()) {
                return "\(document):\(link.line): '\(target)' names no heading of \(path.isEmpty ? document : path)"
            }
        }
        return nil
    }

    @Test func everyRelativeLinkInTheProjectsMarkdownResolves() throws {
        let documents = Self.markdownFiles()
        #expect(documents.contains("README.md") && documents.contains("docs/inputs.md"))
        var problems: [String] = []
        for document in documents {
            let text = try String(contentsOfFile: Fixtures.path(document), encoding: .utf8)
            problems += Self.links(in: text).compactMap { Self.problem(with: $0, in: document) }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theCheckFindsABrokenLinkAndABrokenAnchor() {
        let text = """
            See [the rules](../Rules) and [inputs](inputs.md#identities), `[not](a link)`, and
            [gone](missing.md), [no heading](inputs.md#no-such-heading), [out](../../shared/CONTRACT.md).
            ```
            [in a fence](nowhere.md)
            ```
            [web](https://example.com)
            """
        let problems = Self.links(in: text).compactMap { Self.problem(with: $0, in: "docs/example.md") }
        #expect(problems.count == 3, "\(problems)")
        #expect(problems[0].contains("'missing.md' names no file"))
        #expect(problems[1].contains("names no heading"))
        #expect(problems[2].contains("points outside the repository"))
    }

    @Test func anchorsAreMadeAsGitHubMakesThem() {
        let anchors = Self.anchors(
            in: "# Order, ties and duplicates\n## Which source can supply each rule's evidence\n# A `code` heading\n# A\n# A\n")
        #expect(anchors == ["order-ties-and-duplicates", "which-source-can-supply-each-rules-evidence", "a-code-heading", "a", "a-1"])
    }
}
