// swift-tools-version: 6.1
//
// Benchmarks of ActiveTaskKit's hot loops (package-benchmark). Kept out of the main package:
// with it inside, a clean build of the toolkit was ~5× slower (docs/layout.md).
// Run: cd Benchmarks && swift package benchmark

import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which differs between clones.
let toolkit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// A package-benchmark suite in Benchmarks/NAME, using these products of the toolkit.
func suite(_ name: String, using products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "package-benchmark"), "BenchmarkSupport"]
            + products.map { .product(name: $0, package: toolkit) },
        path: "Benchmarks/\(name)",
        swiftSettings: [.swiftLanguageMode(.v6)],
        plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    )
}

let package = Package(
    name: "ActiveTaskKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The FFmpeg trait as scripts/test.sh and the release CLI use it: `swift build --product activetask`
        // here then gives the same CLI from the release modules the benchmarks compiled (CI's cluster check).
        .package(path: "..", traits: ["FFmpeg"]),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Benchmark", package: "package-benchmark")],
            path: "Benchmarks/BenchmarkSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        suite("SensorDataBenchmarks", using: ["SensorData"]),
        suite("AnalysisBenchmarks", using: ["Analysis", "SensorData"]),
        suite("RecordingBenchmarks", using: ["Recording", "SensorData"]),
        suite("SignalBenchmarks", using: ["AudioIO", "SignalProcessing"]),
        suite("BatchBenchmarks", using: ["Batch", "Recording"]),
        /// The toolkit's side of Benchmarks/peers/compare.py (not a package-benchmark suite).
        .executableTarget(
            name: "peer-workloads",
            dependencies: [
                .product(name: "Analysis", package: toolkit),
                .product(name: "InputGuards", package: toolkit),
                .product(name: "AudioIO", package: toolkit),
                .product(name: "Scoring", package: toolkit),
                .product(name: "SensorData", package: toolkit),
                .product(name: "SignalProcessing", package: toolkit),
            ],
            path: "peers/PeerWorkloads",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
