// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "relaylint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "relaylint", targets: ["relaylint"]),
        .library(name: "RelayLintCore", targets: ["RelayLintCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
    ],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The SIGBUS handler that keeps a mapped input cut short under the reader from ending the
        // process: C, because it runs inside a signal.
        .target(name: "CMappedRegions"),
        .target(
            name: "RelayLintCore",
            dependencies: [
                "CZlib",
                "CMappedRegions",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Plot", package: "Plot"),
            ],
            swiftSettings: strictSettings,
            plugins: ["EmbedBuiltInFilesPlugin"]
        ),
        // Compiles the top-level Rules/, Mappings/ and Vocabulary/ folders into RelayLintCore, so one copied
        // executable carries its built-in rules and log mappings. The folders are resources of the
        // generator only so that SwiftPM notices a file added to or removed from them and runs the
        // plugin again; the shipped executable needs no resource bundle.
        .executableTarget(
            name: "EmbedBuiltInFiles", resources: [.copy("../../Rules"), .copy("../../Mappings"), .copy("../../Vocabulary")],
            swiftSettings: strictSettings),
        .plugin(name: "EmbedBuiltInFilesPlugin", capability: .buildTool(), dependencies: ["EmbedBuiltInFiles"]),
        .executableTarget(
            name: "relaylint",
            dependencies: [
                "RelayLintCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/RelayLintCLI",
            swiftSettings: strictSettings
        ),
        .target(
            name: "RelayLintTestSupport",
            dependencies: ["RelayLintCore"],
            path: "Tests/RelayLintTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RelayLintCoreTests",
            // Plot: the HTML report's tests render its document whole, to compare with what the
            // reporter writes a piece at a time.
            dependencies: ["RelayLintCore", "RelayLintTestSupport", .product(name: "Plot", package: "Plot")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RelayLintCLITests",
            dependencies: ["RelayLintTestSupport", "relaylint"],
            swiftSettings: strictSettings
        ),
    ]
)
