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
        var rules: [Rule] = []
        var files: [File] = []
        var diagnostics: [Diagnostic] = []
        var seen: [String: SourceLocation] = [:]
        for path in paths {
            let filePaths: [String]
            do {
                filePaths = try ruleFiles(at: path)
            } catch {
                diagnostics.append(contentsOf: error.diagnostics)
                continue
            }
            if filePaths.isEmpty {
                diagnostics.append(Diagnostic(.error, "no rule files (.yml, .yaml) found", at: SourceLocation(file: path)))
            }
            let builtIn = BuiltInRules.directory().map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            let isBuiltIn = builtIn != nil && URL(fileURLWithPath: path).standardizedFileURL.path == builtIn
            for diskPath in filePaths {
                // The built-in pack is named `Rules/…` wherever the binary runs, so reports do not
                // depend on the machine.
                let filePath = isBuiltIn ? "Rules" + diskPath.dropFirst(path.count) : diskPath
                let data: Data
                let sha256: String
                do {
                    (data, sha256) = try FileBytes.read(path: diskPath)
                } catch {
                    diagnostics.append(contentsOf: error.diagnostics)
                    continue
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    diagnostics.append(Diagnostic(.error, "rule file is not UTF-8 text", at: SourceLocation(file: filePath)))
                    continue
                }
                let loaded = RuleLoader.load(text: text, path: filePath, sha256: sha256, parameterOverrides: parameterOverrides)
                diagnostics.append(contentsOf: loaded.diagnostics)
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
        try load(paths: [try builtInDirectory()], parameterOverrides: parameterOverrides)
    }

    /// Where the built-in pack is, or an error saying how to point at one.
    public static func builtInDirectory() throws(DiagnosticsError) -> String {
        guard let directory = BuiltInRules.directory() else {
            throw DiagnosticsError([
                Diagnostic(
                    .error,
                    "the built-in rules were not found next to the executable; pass --rules PATH or set \(BuiltInRules.environmentVariable)",
                    at: SourceLocation(file: "Rules"))
            ])
        }
        return directory
    }

    private static func ruleFiles(at path: String) throws(InputError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError.unreadable(path: path, reason: "no such file or folder")
        }
        guard isDirectory.boolValue else { return [path] }
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            throw InputError.unreadable(path: path, reason: "cannot list folder")
        }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard !name.hasPrefix("."), relative.hasSuffix(".yml") || relative.hasSuffix(".yaml") else { continue }
            found.append((path as NSString).appendingPathComponent(relative))
        }
        return found.sorted()
    }
}
