import FuzzSupport
@testable import RelayLintCore

@main enum FuzzMappingLoaderMain {
    static func main() { runFuzzer(fuzzMappingLoader) }
}

/// The log-mapping loader on any text: a mapping or diagnostics, never a crash; a mapping that
/// loads runs its own examples without crashing.
private func fuzzMappingLoader(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, count), as: UTF8.self)
    if case .success(let mapping) = MappingLoader.load(text: text, path: "fuzz-mapping.yml", sha256: "") {
        _ = MappingExampleRunner.run(mapping)
    }
    return 0
}
