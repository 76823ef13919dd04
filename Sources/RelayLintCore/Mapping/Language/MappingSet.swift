import Foundation

/// The log mappings a run knows: the built-in ones (`Mappings/`, Google Cloud Logging and
/// Apple's notifications) and the team's own, which are tried first when a file is recognised.
public struct MappingSet: Sendable {
    public let mappings: [LogMapping]
    /// How many of `mappings` are built in (the last ones), for messages that count the team's own.
    public private(set) var builtInCount = 0

    public init(mappings: [LogMapping]) { self.mappings = mappings }

    /// Loads the user's mapping files (each a file or a folder of `.yml`/`.yaml` files) before
    /// the built-in ones; every problem of every file is reported at once. The built-in mappings
    /// are compiled into the tool (or read from the folder `$RELAYLINT_MAPPINGS` names) and named
    /// `Mappings/…` either way.
    public static func load(userPaths: [String], includeBuiltIn: Bool = true) throws(DiagnosticsError) -> MappingSet {
        var files: [(path: String, isBuiltIn: Bool, read: Result<(text: String, sha256: String), InputError>)] = []
        var problems: [Diagnostic] = []
        // A file named twice (in `.relaylint.yml` and with `--mapping`, or through a folder and
        // by name) is one mapping, read once, as a rule file is: read twice, it was refused as
        // "also defined at" itself.
        var named: Set<String> = []
        for path in userPaths {
            let found = yamlFiles(at: path)
            // A folder without a mapping in it is a wrong path, as it is for `--rules`: read as
            // no mapping at all, the log it was meant for was refused as of no known format.
            if found.isEmpty {
                problems.append(Diagnostic(.error, "no mapping files (.yml, .yaml) found", at: SourceLocation(file: path)))
            }
            for file in found where named.insert(URL(fileURLWithPath: file.path).resolvingSymlinksInPath().path).inserted {
                files.append((file.path, false, read(path: file.path, listed: file.listed)))
            }
        }
        if includeBuiltIn {
            let pack = BuiltInPack.mappings
            if let directory = pack.overrideDirectory {
                files += yamlFiles(at: directory).map {
                    (pack.folder + "/" + ($0.path as NSString).lastPathComponent, true, read(path: $0.path, listed: $0.listed))
                }
            } else {
                files += pack.embeddedFiles.map { file in
                    (file.path, true, .success((file.text, FileBytes.sha256(of: Data(file.text.utf8)))))
                }
            }
        }
        var mappings: [LogMapping] = []
        var builtIn = 0
        var seen: [String: SourceLocation] = [:]
        for file in files {
            let text: String
            let sha256: String
            switch file.read {
            case .success(let read): (text, sha256) = read
            case .failure(let error):
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
                if file.isBuiltIn { builtIn += 1 }
            }
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        var set = MappingSet(mappings: mappings)
        set.builtInCount = builtIn
        return set
    }

    private static func read(path: String, listed: Bool) -> Result<(text: String, sha256: String), InputError> {
        if listed, let problem = FileBytes.listedFileProblem(path) { return .failure(problem) }
        let read: (data: Data, sha256: String)
        do {
            read = try FileBytes.read(path: path)
        } catch {
            return .failure(error)
        }
        do {
            return .success((try YAMLTree.text(of: read.data, path: path), read.sha256))
        } catch {
            return .failure(.refused(error.diagnostics))
        }
    }

    /// The files a folder of mappings is read as (its own `.yml` and `.yaml` files); nil for a
    /// path that is no folder. A report written there would be read as a mapping by the next run.
    public static func files(inFolder path: String) -> [String]? {
        let found = yamlFiles(at: path)
        // A path that is no folder is its own only file, not listed.
        guard found.allSatisfy(\.listed) else { return nil }
        return found.map(\.path)
    }

    /// Whether a file written at `path` would be read as a mapping of the folder `folder`: a
    /// `.yml` or `.yaml` file right in it (compared by device and inode, so a link counts).
    public static func reads(_ path: String, under folder: String) -> Bool {
        guard path.hasSuffix(".yml") || path.hasSuffix(".yaml") else { return false }
        let parent = (path as NSString).deletingLastPathComponent
        var inFolder = stat()
        var inParent = stat()
        guard stat(folder, &inFolder) == 0, stat(parent.isEmpty ? "." : parent, &inParent) == 0 else { return false }
        return inFolder.st_dev == inParent.st_dev && inFolder.st_ino == inParent.st_ino
    }

    /// The mapping files at `path`, each with whether it was found by listing a folder.
    private static func yamlFiles(at path: String) -> [(path: String, listed: Bool)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [(path, false)] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted().map {
            ((path as NSString).appendingPathComponent($0), true)
        }
    }

    /// Runs every mapping's examples.
    public func runExamples() -> [MappingExampleResult] {
        mappings.flatMap(MappingExampleRunner.run)
    }
}

/// One mapping example's result, for `relaylint mappings test`; `problem` is nil when it passed.
public struct MappingExampleResult: Sendable {
    public let mapping: String
    public let example: String
    public let location: SourceLocation
    public let problem: String?
    /// Something the example shows that passing does not tell (`recognize` not holding).
    public let warning: String?
}

extension LogMapping {
    /// Whether some event's subject is found by Apple user id: such a log is read last.
    var joinsAppleIDs: Bool { defaults.subjectAppleID != nil || events.contains { $0.reserved.subjectAppleID != nil } }
    /// How many examples it carries.
    public var exampleCount: Int { examples.count }
}
