// swift-tools-version: 6.1
//
// libFuzzer targets for ActiveTaskKit's parsers (docs/reliability.md). Kept out of the main
// package: every target is built with `-sanitize=fuzzer,address`, which only fuzz binaries want.
// Run: bash Fuzz/run.sh [seconds per target]

import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which differs between clones.
let toolkit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// A libFuzzer target in Sources/NAME: one file with the test function; libFuzzer
/// drives it from `@main` (FuzzSupport/FuzzDriver.swift). Fuzz/run.sh builds everything with
/// `-Xswiftc -sanitize=fuzzer,address`, so the toolkit's own modules carry the coverage
/// instrumentation that guides libFuzzer.
func fuzzTarget(_ name: String, using products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: toolkit) },
        swiftSettings: [.swiftLanguageMode(.v6)],
        // gold fails on ASan's symbols ("internal error in format_file_lineno"); lld links them.
        linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
    )
}

/// A target that runs its input through a whole batch into a store (FuzzBatchSupport).
func batchFuzzTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", "FuzzBatchSupport", .product(name: "Batch", package: toolkit), .product(name: "Scoring", package: toolkit)],
        swiftSettings: [.swiftLanguageMode(.v6)],
        linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
    )
}

let package = Package(
    name: "ActiveTaskKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..", traits: ["FFmpeg"])],
    targets: [
        .target(name: "FuzzSupport", swiftSettings: [.swiftLanguageMode(.v6)]),
        fuzzTarget("fuzz-json-items", using: ["Scoring"]),
        fuzzTarget("fuzz-tapping", using: ["Scoring", "Analysis"]),
        fuzzTarget("fuzz-audio-results", using: ["Scoring"]),
        fuzzTarget("fuzz-csv", using: ["Scoring"]),
        fuzzTarget("fuzz-wav", using: ["AudioIO"]),
        fuzzTarget("fuzz-heart-rate", using: ["Recording"]),
        fuzzTarget("fuzz-recorder-lines", using: ["Recording", "SensorData"]),
        fuzzTarget("fuzz-analysis", using: ["Scoring", "Analysis", "Reports"]),
        fuzzTarget("fuzz-archive", using: ["Scoring"]),
        fuzzTarget("fuzz-calibration", using: ["Analysis", "SensorData"]),
        fuzzTarget("fuzz-iio", using: ["Recording", "SensorData"]),
        // The batch path (docs/reliability.md §6): configurations, manifests and archives into a store.
        .target(
            name: "FuzzBatchSupport",
            dependencies: [.product(name: "Batch", package: toolkit)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        batchFuzzTarget("fuzz-config"),
        batchFuzzTarget("fuzz-manifest"),
        batchFuzzTarget("fuzz-zip-directory"),
    ]
)
