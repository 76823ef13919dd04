import Foundation

/// The rules a run evaluates, with the files they came from (and their hashes, for the report).
public struct RuleSet: Sendable, Equatable {
    /// A rule file that was read.
    public struct File: Sendable, Equatable, Codable {
        public var path: String
        public var sha256: String
        public var rules: [String]
    }

    public var rules: [Rule]
    public var files: [File]

    public init(rules: [Rule], files: [File]) {
        self.rules = rules
        self.files = files
    }

    public func rule(id: String) -> Rule? { rules.first { $0.id == id } }

    /// A combined fingerprint of the pack: the SHA-256 of the sorted file hashes.
    public var packSHA256: String {
        FileBytes.sha256(of: Data(files.map(\.sha256).sorted().joined(separator: "\n").utf8))
    }

    /// Loads every `.yml`/`.yaml` file under the given paths (files or folders, searched
    /// recursively in name order). Throws every problem found, in every file, at once.
    public static func load(paths: [String], parameterOverrides: [String: [String: YAMLTree]] = [:]) throws(DiagnosticsError) -> RuleSet {
        try load(sources: paths.map(RuleSource.path), parameterOverrides: parameterOverrides)
    }

    /// Loads the rules of every source in order: the built-in pack and the user's files or
    /// folders. Throws every problem found, in every file, at once.
    public static func load(
        sources: [RuleSource], parameterOverrides: [String: [String: YAMLTree]] = [:]
    ) throws(DiagnosticsError) -> RuleSet {
        var rules: [Rule] = []
        var files: [File] = []
        var diagnostics: [Diagnostic] = []
        var seen: [String: SourceLocation] = [:]
        var read: Set<String> = []
        for source in sources {
            let (texts, problems) = ruleTexts(of: source, skipping: &read)
            diagnostics.append(contentsOf: problems)
            for (filePath, data, sha256) in texts {
                guard let text = String(data: data, encoding: .utf8) else {
                    var bad = InvalidUTF8Lines(data)
                    let at = bad.next()
                    diagnostics.append(
                        Diagnostic(
                            .error, "rule file is not UTF-8 text",
                            at: SourceLocation(file: filePath, line: at?.line ?? 0, column: at?.column)))
                    continue
                }
                let loaded = RuleLoader.load(text: text, path: filePath, sha256: sha256, parameterOverrides: parameterOverrides)
                // Once each: a parameter a rule reads in several places (a `window` for each of
                // its stores) was told as wrong once per place, 20,000 times for 20,000 stores.
                var told: Set<Diagnostic> = []
                diagnostics.append(contentsOf: loaded.diagnostics.filter { told.insert($0).inserted })
                for rule in loaded.rules {
                    if let first = seen[rule.id] {
                        diagnostics.append(
                            Diagnostic(.error, "duplicate rule id '\(rule.id)' (first defined at \(first))", at: rule.location))
                        continue
                    }
                    seen[rule.id] = rule.location
                    rules.append(rule)
                }
                files.append(File(path: filePath, sha256: sha256, rules: loaded.rules.map(\.id)))
            }
        }
        guard diagnostics.isEmpty else { throw DiagnosticsError(diagnostics) }
        return RuleSet(rules: rules, files: files)
    }

    /// Loads the built-in pack.
    public static func builtIn(parameterOverrides: [String: [String: YAMLTree]] = [:]) throws(DiagnosticsError) -> RuleSet {
        try load(sources: [.builtIn], parameterOverrides: parameterOverrides)
    }

    /// The rule files of one source with their bytes, each named as reports name it, and the
    /// problems met reading them.
    /// A file already read through another source (its real path in `read`: a folder given
    /// both in the configuration and on the command line) is read once.
    private static func ruleTexts(
        of source: RuleSource, skipping read: inout Set<String>
    ) -> (texts: [(path: String, data: Data, sha256: String)], problems: [Diagnostic]) {
        let pack = BuiltInPack.rules
        let path: String
        switch source {
        case .builtIn:
            guard let directory = pack.overrideDirectory else {
                let texts = pack.embeddedFiles.map { file in
                    let data = Data(file.text.utf8)
                    return (path: file.path, data: data, sha256: FileBytes.sha256(of: data))
                }
                return (texts, [])
            }
            path = directory
        case .path(let given): path = given
        }
        let filePaths: [String]
        let listed: Bool
        do {
            (filePaths, listed) = try ruleFiles(at: path)
        } catch {
            return ([], error.diagnostics)
        }
        if filePaths.isEmpty {
            return ([], [Diagnostic(.error, "no rule files (.yml, .yaml) found", at: SourceLocation(file: path))])
        }
        var texts: [(path: String, data: Data, sha256: String)] = []
        var problems: [Diagnostic] = []
        for diskPath in filePaths {
            var filePath = diskPath
            if source == .builtIn {
                // A replacement for the built-in pack is named `Rules/…` too, like the compiled-in one.
                let relative = diskPath.dropFirst(path.count).drop { $0 == "/" }
                filePath = pack.folder + "/" + relative
            }
            guard read.insert(URL(fileURLWithPath: diskPath).resolvingSymlinksInPath().path).inserted else { continue }
            if listed, let problem = FileBytes.listedFileProblem(diskPath) {
                problems.append(contentsOf: problem.diagnostics)
                continue
            }
            do {
                let (data, sha256) = try FileBytes.read(path: diskPath)
                texts.append((filePath, data, sha256))
            } catch {
                problems.append(contentsOf: error.diagnostics)
            }
        }
        return (texts, problems)
    }

    /// The files a folder of rules is read as (its `.yml` and `.yaml` files at any depth, hidden
    /// names left out); nil for a path that is no folder or cannot be listed. A report written
    /// there would be read as a rule by the next run.
    public static func files(inFolder path: String) -> [String]? {
        guard let (paths, listed) = try? ruleFiles(at: path), listed else { return nil }
        return paths
    }

    /// Whether a file written at `path` would be read as a rule of the folder `folder`, as
    /// `ruleFiles` lists it: a YAML name not hidden, at any depth under the folder's real path,
    /// hidden folders included, links inside it not followed (a link into it from outside is).
    public static func reads(_ path: String, under folder: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        guard !name.hasPrefix("."), name.hasSuffix(".yml") || name.hasSuffix(".yaml") else { return false }
        // The nearest folder on the way that exists, where the file would be.
        var existing = URL(fileURLWithPath: path).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" { existing.deleteLastPathComponent() }
        let place = existing.resolvingSymlinksInPath().path
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        return place == root || place.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// The rule files at `path`, and whether they were found by listing a folder.
    private static func ruleFiles(at path: String) throws(InputError) -> (paths: [String], listed: Bool) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError.unreadable(path: path, reason: "no such file or folder")
        }
        guard isDirectory.boolValue else { return ([path], false) }
        // Listed through its real path: the enumerator lists nothing of a link to a folder.
        guard let enumerator = FileManager.default.enumerator(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path) else {
            throw InputError.unreadable(path: path, reason: "cannot list folder")
        }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard !name.hasPrefix("."), relative.hasSuffix(".yml") || relative.hasSuffix(".yaml") else { continue }
            found.append((path as NSString).appendingPathComponent(relative))
        }
        return (found.sorted(), true)
    }
}
