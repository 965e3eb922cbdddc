// swift-tools-version:6.1
// Micro-benchmarks (ordo-one/benchmark) for vclint's front end: a package of its own so that the
// root package's `swift build`/`swift test` never build the benchmark framework.
// Run from this directory: `swift package benchmark`.
import PackageDescription

let benchmarkDependencies: [Target.Dependency] = [
    "BenchmarkInputs",
    .product(name: "VCLintCore", package: "vclint"),
    .product(name: "Benchmark", package: "benchmark"),
]

let package = Package(
    name: "vclint-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named explicitly: a path dependency's identity is otherwise its directory's name, which
        // differs between checkouts and worktrees.
        .package(name: "vclint", path: ".."),
        // The malloc interposer gives the malloc counts; naming the trait list also drops the
        // default Linux-6.3 runtime interposer, which is not needed for these metrics.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Deterministic inputs shared by the suites, generated in memory before measurement.
        .target(
            name: "BenchmarkInputs",
            dependencies: [
                .product(name: "VCLintCore", package: "vclint"),
                .product(name: "VCLintSimulation", package: "vclint"),
            ]
        ),
    ] + ["LogScanner", "MessageParser", "Timeline"].map { name in
        // The framework's layout: each suite is an executable target in Benchmarks/<Name>/<Name>.swift.
        .executableTarget(
            name: name,
            dependencies: benchmarkDependencies,
            path: "Benchmarks/\(name)",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    },
    swiftLanguageModes: [.v6]
)
