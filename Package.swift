// swift-tools-version:6.0
import PackageDescription

// The line scanner finds newlines, candidate literals and envelope shapes with SSSE3/SSE4.1 vector
// instructions (the x86-64-v2 level that current distributions require: Intel since 2008, AMD since 2011).
// Elsewhere it uses the portable path (memchr and PCRE2 JIT), which gives the same results.
#if arch(x86_64)
let vectorSettings: [SwiftSetting] = [
    .unsafeFlags(["-Xcc", "-msse4.2", "-Xcc", "-mpopcnt"]),
    .define("VCLINT_SSSE3"),
]
let vectorTestSettings: [SwiftSetting] = [.define("VCLINT_SSSE3")]
// The bulk pass has an AVX2 version in a module of its own, used only where the CPU has AVX2.
let avx2Settings: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-mavx2"])]
#else
let avx2Settings: [SwiftSetting] = []
let vectorSettings: [SwiftSetting] = []
let vectorTestSettings: [SwiftSetting] = []
#endif

let package = Package(
    name: "vclint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "vclint", targets: ["vclint"]),
        .library(name: "VCLintCore", targets: ["VCLintCore"]),
        // The navigation simulator, for the tests, vclint-loggen and the benchmarks; not shipped in vclint.
        .library(name: "VCLintSimulation", targets: ["VCLintSimulation"]),
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
        .target(name: "VCLintAVX2", swiftSettings: avx2Settings),
        .target(
            name: "VCLintCore",
            dependencies: ["CPCRE2", "CZlib", "VCLintAVX2", .product(name: "Yams", package: "Yams")],
            // Exclusivity checks cost ~5% on the per-line path; each object's state is confined to one thread.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))] + vectorSettings
        ),
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
            dependencies: ["VCLintCore", "VCLintSimulation"],
            swiftSettings: vectorTestSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
