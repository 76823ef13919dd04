import Foundation

/// The log mappings a run knows: the built-in ones (`Mappings/`, Google Cloud Logging and
/// Apple's notifications) and the team's own, which are tried first when a file is recognised.
public struct MappingSet: Sendable {
    public let mappings: [LogMapping]

    public init(mappings: [LogMapping]) { self.mappings = mappings }

    /// The folder of the built-in mappings, found as the built-in rules are (next to them).
    static func builtInDirectory() -> String? {
        if let override = ProcessInfo.processInfo.environment["RELAYLINT_MAPPINGS"], !override.isEmpty { return override }
        guard let rules = BuiltInRules.directory() else { return nil }
        let sibling = URL(fileURLWithPath: rules).deletingLastPathComponent().appendingPathComponent("Mappings").path
        return FileManager.default.fileExists(atPath: sibling) ? sibling : nil
    }

    /// Loads the user's mapping files (each a file or a folder of `.yml`/`.yaml` files) before
    /// the built-in ones; every problem of every file is reported at once.
    public static func load(userPaths: [String], includeBuiltIn: Bool = true) throws(DiagnosticsError) -> MappingSet {
        var files: [(path: String, isBuiltIn: Bool)] = []
        var problems: [Diagnostic] = []
        for path in userPaths { files += yamlFiles(at: path).map { ($0, false) } }
        if includeBuiltIn {
            guard let directory = builtInDirectory() else {
                throw DiagnosticsError([
                    Diagnostic(
                        .error, "the built-in log mappings were not found (set RELAYLINT_MAPPINGS to the Mappings folder)",
                        at: SourceLocation(file: "Mappings"))
                ])
            }
            files += yamlFiles(at: directory).map { ($0, true) }
        }
        var mappings: [LogMapping] = []
        var seen: [String: SourceLocation] = [:]
        for file in files {
            let text: String
            let sha256: String
            do {
                let read = try FileBytes.read(path: file.path)
                text = String(decoding: read.data, as: UTF8.self)
                sha256 = read.sha256
            } catch {
                problems += error.diagnostics
                continue
            }
            switch MappingLoader.load(text: text, path: file.path, sha256: sha256) {
            case .failure(let error): problems += error.diagnostics
            case .success(let mapping):
                if let first = seen[mapping.id] {
                    // A team's mapping of a built-in name replaces the built-in one.
                    if !file.isBuiltIn {
                        problems.append(Diagnostic(.error, "mapping '\(mapping.id)' is also defined at \(first)", at: mapping.location))
                    }
                    continue
                }
                seen[mapping.id] = mapping.location
                mappings.append(mapping)
            }
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        return MappingSet(mappings: mappings)
    }

    private static func yamlFiles(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted().map { (path as NSString).appendingPathComponent($0) }
    }

    /// Runs every mapping's examples.
    public func runExamples() -> [MappingExampleResult] {
        mappings.flatMap(MappingExampleRunner.run).map {
            MappingExampleResult(mapping: $0.mapping, example: $0.example, location: $0.location, problem: $0.problem)
        }
    }
}

/// One mapping example's result, for `relaylint mappings test`; `problem` is nil when it passed.
public struct MappingExampleResult: Sendable {
    public let mapping: String
    public let example: String
    public let location: SourceLocation
    public let problem: String?
}

extension LogMapping {
    /// Whether some event's subject is found by Apple user id: such a log is read last.
    var joinsAppleIDs: Bool { defaults.subjectAppleID != nil || events.contains { $0.reserved.subjectAppleID != nil } }
    /// How many examples it carries.
    public var exampleCount: Int { examples.count }
}
