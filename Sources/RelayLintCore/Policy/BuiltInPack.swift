import Foundation

/// A built-in pack of YAML files: the rules or the log mappings that ship inside the executable.
///
/// The files are compiled in (`EmbeddedFiles`), so the tool needs nothing next to it. An
/// environment variable may name a folder that replaces them, to try a changed pack without a
/// rebuild. Either way the files are named by their path in the repository (`Rules/…`), so
/// reports do not depend on the machine.
struct BuiltInPack: Sendable {
    /// The folder the files come from in the repository, which names them in reports.
    let folder: String
    /// The variable that may name a folder to read instead of the compiled-in files.
    let environmentVariable: String

    static let rules = BuiltInPack(folder: "Rules", environmentVariable: "RELAYLINT_RULES")
    static let mappings = BuiltInPack(folder: "Mappings", environmentVariable: "RELAYLINT_MAPPINGS")
    static let vocabulary = BuiltInPack(folder: "Vocabulary", environmentVariable: "RELAYLINT_VOCABULARY")

    /// The folder named by the environment variable, when it is set.
    var overrideDirectory: String? {
        guard let value = ProcessInfo.processInfo.environment[environmentVariable], !value.isEmpty else { return nil }
        return value
    }

    /// The compiled-in files of this pack, in name order.
    var embeddedFiles: [EmbeddedFiles.File] { EmbeddedFiles.all.filter { $0.path.hasPrefix(folder + "/") } }
}
