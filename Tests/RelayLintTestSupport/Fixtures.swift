import Foundation

/// Paths of the repository's fixtures, found from this file's location so tests run from any
/// working directory.
public enum Fixtures {
    /// The repository's top folder.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The built-in rule pack as checked in.
    public static var rules: String { path("Rules") }

    /// A new, empty temporary folder, inside one folder per test process that is removed when the
    /// process exits (left behind, a run's hundreds of folders piled up in the system's).
    public static func temporaryDirectory() throws -> URL {
        let directory = temporaryRoot.appendingPathComponent("relaylint-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static let temporaryRoot: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("relaylint-tests-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: Fixtures.temporaryRoot) }
        return root
    }()

    /// `path` compressed by the system's `gzip`, beside it (`path` + `.gz`).
    public static func gzipped(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-k", "-f", path]
        try process.run()
        process.waitUntilExit()
        return path + ".gz"
    }

    /// Writes `contents` to a new temporary file with the given name and returns its path.
    /// A rule whose condition and parameters list people's addresses and a phone number: what
    /// relaylint prints of the rule itself (`explain RULE`, the audit reports) must mask them.
    public static let ruleListingAddresses = """
        id: vip-mail
        severity: error
        params: {vips: [vip.customer@gmail.com, "+14155550251"]}
        when: {type: email.sent, where: {to: boss.person@gmail.com}}
        require:
          preceded_by: {type: consent.granted, where: {to: {in: $params.vips}}}
        message: "{event.id} without consent (VIPs: {params.vips})"

        """

    public static func temporaryFile(named name: String, contents: String) throws -> String {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url.path
    }
}
