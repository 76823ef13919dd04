import Foundation
import PackagePlugin

/// Compiles the top-level `Rules/` and `Mappings/` folders into the core library, so the built-in
/// rules and log mappings travel inside the executable. The folders stay the single source: the
/// generated Swift file lives in the build directory and is remade whenever a YAML file changes.
@main
struct EmbedBuiltInFilesPlugin: BuildToolPlugin {
    static let folders = ["Rules", "Mappings", "Vocabulary"]

    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedFiles+All.swift")
        var inputs: [URL] = []
        for folder in Self.folders {
            let directory = root.appendingPathComponent(folder)
            // The folder itself is an input too: adding or removing a file changes it.
            inputs.append(directory)
            let names = (try? FileManager.default.subpathsOfDirectory(atPath: directory.path)) ?? []
            inputs += names.filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted().map { directory.appendingPathComponent($0) }
        }
        return [
            .buildCommand(
                displayName: "Embedding \(Self.folders.joined(separator: " and ")) in \(target.name)",
                executable: try context.tool(named: "EmbedBuiltInFiles").url,
                arguments: [output.path, root.path] + Self.folders,
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
