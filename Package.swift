// swift-tools-version:6.0
import PackageDescription

// No unsafe flags: SwiftPM refuses them in a package that is depended on by version. The line
// scanner's vector kernels (SSSE3/SSE4.2 and AVX2) are C functions in CVectorScan that carry their own
// instruction set and are chosen at run time from the CPU's features; elsewhere (another architecture,
// a CPU below x86-64-v2) the portable path (memchr and PCRE2 JIT) gives the same results.

let package = Package(
    name: "vclint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "vclint", targets: ["vclint"]),
        .library(name: "VCLintCore", targets: ["VCLintCore"]),
        // The navigation simulator, for the tests, vclint-loggen and the benchmarks; not shipped in vclint.
        .library(name: "VCLintSimulation", targets: ["VCLintSimulation"]),
        // `swift package vclint lint capture.ndjson`: vclint at the version a package pins.
        .plugin(name: "VCLintCommand", targets: ["VCLintCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        // `.gz` captures are inflated while streaming.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // The scanner's vector kernels, each compiled for the instruction set it names.
        .target(name: "CVectorScan"),
        .target(
            name: "VCLintCore",
            dependencies: ["CPCRE2", "CZlib", "CVectorScan", .product(name: "Yams", package: "Yams")],
            plugins: ["VersionPlugin"]
        ),
        .plugin(
            name: "VCLintCommand",
            capability: .command(intent: .custom(verb: "vclint", description: "Run vclint (lint, explain, timeline, leaks, …) at the version the package pins"))
        ),
        // `git describe` of the checkout, baked in at build time (VCLintVersion).
        .plugin(name: "VersionPlugin", capability: .buildTool()),
        .executableTarget(
            name: "vclint",
            dependencies: [
                "VCLintCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Simulated captures with their ground truth (NavigationSimulator): test and benchmark input only.
        .target(name: "VCLintSimulation", dependencies: ["VCLintCore"]),
        .executableTarget(
            name: "vclint-loggen",
            dependencies: ["VCLintCore", "VCLintSimulation", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Precision and recall per rule on simulated captures (Benchmarks/accuracy.sh).
        .executableTarget(
            name: "vclint-accuracy",
            dependencies: ["VCLintCore", "VCLintSimulation"]
        ),
        .testTarget(
            name: "VCLintCoreTests",
            dependencies: ["VCLintCore", "VCLintSimulation"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
