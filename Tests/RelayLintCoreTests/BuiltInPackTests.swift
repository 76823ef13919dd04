import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// The built-in rules and log mappings are compiled into the tool from `Rules/` and `Mappings/`,
/// which stay the single source: what is compiled in must be those files, byte for byte.
@Suite struct BuiltInPackTests {
    /// The `.yml` files of a top-level folder, by their path in the repository, with their text.
    static func filesOnDisk(_ folder: String) throws -> [String: String] {
        let names = try FileManager.default.subpathsOfDirectory(atPath: Fixtures.path(folder))
        var files: [String: String] = [:]
        for name in names where name.hasSuffix(".yml") || name.hasSuffix(".yaml") {
            files[folder + "/" + name] = try String(contentsOfFile: Fixtures.path(folder + "/" + name), encoding: .utf8)
        }
        return files
    }

    @Test(arguments: ["Rules", "Mappings"])
    func theCompiledInFilesAreTheFolderByteForByte(folder: String) throws {
        let pack = try #require([BuiltInPack.rules, BuiltInPack.mappings].first { $0.folder == folder })
        let compiled = Dictionary(uniqueKeysWithValues: pack.embeddedFiles.map { ($0.path, $0.text) })
        let onDisk = try Self.filesOnDisk(pack.folder)
        #expect(compiled.keys.sorted() == onDisk.keys.sorted())
        for (path, text) in onDisk { #expect(compiled[path] == text, "\(path) differs from its compiled-in copy") }
    }

    @Test func theBuiltInPackNamesItsFilesByTheirRepositoryPath() throws {
        let builtIn = try RuleSet.builtIn()
        let fromFolder = try RuleSet.load(paths: [Fixtures.rules])
        #expect(builtIn.rules.map(\.id) == fromFolder.rules.map(\.id))
        #expect(builtIn.files.map(\.path) == fromFolder.files.map { "Rules" + $0.path.dropFirst(Fixtures.rules.count) })
        #expect(builtIn.files.map(\.sha256) == fromFolder.files.map(\.sha256))
        #expect(builtIn.packSHA256 == fromFolder.packSHA256)
        #expect(builtIn.rules.allSatisfy { $0.location.file.hasPrefix("Rules/") })
    }

    @Test func theBuiltInMappingsAreNamedByTheirRepositoryPath() throws {
        let set = try MappingSet.load(userPaths: [])
        #expect(set.mappings.map(\.location.file) == ["Mappings/apple-notifications.yml", "Mappings/google-cloud-logging.yml"])
    }

}
