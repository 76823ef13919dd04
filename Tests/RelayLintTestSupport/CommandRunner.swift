import Foundation

/// Runs the built `relaylint` executable, as a user would, from the repository root.
public enum CommandRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The folder SwiftPM built the test bundle and the executable into.
    public static var productsDirectory: URL {
        if let executable = Bundle.main.executableURL {
            let directory = executable.deletingLastPathComponent()
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("relaylint").path) { return directory }
        }
        for candidate in [".build/debug", ".build/release"] {
            let directory = Fixtures.root.appendingPathComponent(candidate)
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("relaylint").path) { return directory }
        }
        return Bundle.main.bundleURL
    }

    /// - Parameters:
    ///   - standardOutput: where the command's standard output goes instead of a pipe
    ///     (`/dev/full`, say); `Result.stdout` is then empty.
    ///   - executable: another program to run (a copy of the executable elsewhere, or a shell
    ///     that pipes into relaylint).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL = Fixtures.root,
        standardOutput: FileHandle? = nil, executable: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? productsDirectory.appendingPathComponent("relaylint")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = standardOutput ?? out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if standardOutput != nil { try out.fileHandleForWriting.close() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
