import Foundation
import FuzzSupport
@testable import RelayLintCore

@main enum FuzzYAMLLoadersMain {
    static func main() { runFuzzer(fuzzYAMLLoaders) }
}

/// The YAML loaders on any text: the first byte picks the loader (rules, configuration,
/// manifest), the rest is the file. Each returns its model or diagnostics; none crashes or hangs.
/// The configuration and manifest loaders read a path, so the text is written to a file first.
private func fuzzYAMLLoaders(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(data, count)
    guard let first = input.first else { return 0 }
    let bytes = UnsafeBufferPointer(rebasing: input.dropFirst())
    let text = String(decoding: bytes, as: UTF8.self)
    switch first % 3 {
    case 0:
        _ = RuleLoader.load(text: text, path: "fuzz.yml", sha256: "")
    case 1:
        guard FileManager.default.createFile(atPath: scratch, contents: Data(buffer: bytes)) else { return 0 }
        _ = try? ConfigurationLoader.load(path: scratch)
    default:
        guard FileManager.default.createFile(atPath: scratch, contents: Data(buffer: bytes)) else { return 0 }
        _ = try? AppManifestLoader.load(path: scratch, ruleKeys: ["in_app_deletion_url"])
    }
    return 0
}

/// A file of this process's own for the loaders that read a path.
private let scratch: String = {
    let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    return directory + "/relaylint-fuzz-\(ProcessInfo.processInfo.processIdentifier).yml"
}()
