// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for relaylint's parsers and loaders. A package of its own, beside the main
// one and depending on it by path, so that `swift build` and `swift test` of relaylint never
// build or see them. Build and run them with `Scripts/fuzz.sh` (it passes the sanitizer flags
// and `-enable-testing`, which lets the targets reach the core's internal parsers).
let fuzzers = [
    "FuzzJSONParser", "FuzzEventLine", "FuzzTimestamp", "FuzzAccountExport", "FuzzYAMLLoaders", "FuzzRecordMapper",
    "FuzzMappingLoader",
]

let package = Package(
    name: "relaylint-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "relaylint", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
    ]
        + fuzzers.map { name in
            .executableTarget(
                name: name,
                dependencies: ["FuzzSupport", .product(name: "RelayLintCore", package: "relaylint")],
                // Each target's `main` hands its test to libFuzzer's driver. Only the fuzz targets
                // link libFuzzer: the build tool that embeds the built-in rules keeps its own `main`
                // (the script instruments every module for coverage through the frontend).
                linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]
            )
        }
)
