// swift-tools-version: 6.1
//
// ActiveTaskKit: records and analyses the sensor data of ResearchKit active tasks on Linux.
// Layout and conventions: docs/layout.md and README.md.

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

/// The modules with sample and byte loops are optimised in debug builds too: the readers
/// (InputGuards, SensorData, AudioIO, Scoring: JSON, CSV and audio decoding), the signal processing
/// and the analyses (Praat's FFT and resampling, Burg's recursion, the pitch frames) run 5–20
/// times slower unoptimised, and the test suite, a debug build, runs them on minutes of audio and
/// on thousands of mutated files (MutationTests). Each such module is compiled whole (`-wmo`, its
/// code generation on two threads so that SwiftPM finds one object per source file; batch mode,
/// which SwiftPM asks for, is off as WMO ignores it): the per-file jobs of an optimised debug
/// build each type-checked the rest of their module again, 9 % of the tests' build (642 → 585
/// CPU-s at a9f3abc on the 2-core Zen 3 EPYC), and the fuzzing build inherits the same settings.
let optimisedSwiftSettings = swiftSettings
    + [.unsafeFlags(["-O", "-wmo", "-num-threads", "2", "-disable-batch-mode"], .when(configuration: .debug))]
/// Where libdbus-1-dev puts its headers (`pkg-config --cflags dbus-1`), for the C target and the Swift that imports it.
let dbusIncludes = ["/usr/include/dbus-1.0", "/usr/lib/x86_64-linux-gnu/dbus-1.0/include", "/usr/lib/aarch64-linux-gnu/dbus-1.0/include"]
    .map { "-I" + $0 }

let package = Package(
    name: "ActiveTaskKit",
    platforms: [.macOS(.v15)],
    // MARK: - Public API
    products: [
        .library(name: "InputGuards", targets: ["InputGuards"]),
        .library(name: "SensorData", targets: ["SensorData"]),
        .library(name: "AudioIO", targets: ["AudioIO"]),
        .library(name: "SignalProcessing", targets: ["SignalProcessing"]),
        .library(name: "Recording", targets: ["Recording"]),
        .library(name: "Analysis", targets: ["Analysis"]),
        .library(name: "Scoring", targets: ["Scoring"]),
        .library(name: "Batch", targets: ["Batch"]),
        .library(name: "Reports", targets: ["Reports"]),
        .executable(name: "activetask", targets: ["activetask"]),
    ],
    traits: [
        .trait(
            name: "FFmpeg",
            description: "Decode .m4a (AAC, ALAC) in process through the FFmpeg libraries "
                + "(Debian: libavformat-dev libavcodec-dev libswresample-dev libavutil-dev). "
                + "Without it, .m4a decodes through the `ffmpeg` tool when installed."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: - C libraries (each wrapped once, behind typed Swift errors)
        .systemLibrary(
            name: "CFFTW",
            pkgConfig: "fftw3",
            providers: [.apt(["libfftw3-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CNettle",
            pkgConfig: "nettle",
            providers: [.apt(["nettle-dev"])]
        ),

        // FFmpeg's headers (Debian: libavformat-dev libavcodec-dev libswresample-dev libavutil-dev),
        // its libraries loaded with dlopen when a file needs them, not linked.
        .target(name: "CFFmpeg", linkerSettings: [.linkedLibrary("dl")]),
        // libdbus-1's headers (Debian: libdbus-1-dev; pkg-config dbus-1 names these folders), the
        // library loaded with dlopen by a ble: source, not linked: BlueZ is reached over the system D-Bus.
        .target(name: "CDBus", dependencies: ["CProcess"], cSettings: [.unsafeFlags(dbusIncludes)], linkerSettings: [.linkedLibrary("dl")]),
        // libsndfile's headers (Debian: libsndfile1-dev), the library loaded with dlopen when an audio
        // file is opened, not linked.
        .target(name: "CSndFile", dependencies: ["CProcess"], linkerSettings: [.linkedLibrary("dl")]),
        // libasound's headers (Debian: libasound2-dev), the library loaded with dlopen when an alsa:
        // device is opened, not linked.
        .target(name: "CAlsa", dependencies: ["CProcess"], linkerSettings: [.linkedLibrary("dl")]),

        // MARK: - Implementation
        // Process-wide C: temporary outputs removed when a signal ends the process (an async-signal-safe
        // handler), malloc arenas under an address-space limit, the loader of the libraries loaded on
        // first use (LibraryLoader.h).
        .target(name: "CProcess"),
        // The checked Double → Int conversions every module routes input-derived numbers through,
        // and the process's outputs, signals and memory limits.
        .target(name: "InputGuards", dependencies: ["CProcess"], swiftSettings: optimisedSwiftSettings),
        .target(name: "SensorData", dependencies: ["InputGuards"], swiftSettings: optimisedSwiftSettings),
        .target(
            name: "AudioIO",
            dependencies: [
                "CSndFile", "CAlsa", "InputGuards",
                .target(name: "CFFmpeg", condition: .when(traits: ["FFmpeg"])),
            ],
            swiftSettings: optimisedSwiftSettings
        ),
        // The toolkit's own hot loops in C, compiled for AVX-512, AVX2 + FMA and SSE2, chosen at run time.
        // libmvec: glibc's vector log, log10 and exp (libm's linker script names it as needed anyway).
        // Optimised in debug builds too, as the Swift modules that call them (optimisedSwiftSettings).
        .target(name: "CKernels", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))], linkerSettings: [.linkedLibrary("mvec")]),
        .target(name: "SignalProcessing", dependencies: ["CFFTW", "CKernels", "InputGuards"], swiftSettings: optimisedSwiftSettings),
        .target(name: "Recording", dependencies: ["InputGuards", "SensorData", "AudioIO", "SignalProcessing", "CDBus"],
                swiftSettings: swiftSettings + [.unsafeFlags(dbusIncludes.flatMap { ["-Xcc", $0] })]),
        .target(
            name: "Analysis",
            dependencies: ["InputGuards", "SensorData", "SignalProcessing"],
            resources: [
                // Calibration data compiled into the binary (no bundle lookup at run time).
                .embedInCode("Audiometry/Tables/frequency_tables.csv"),
                .embedInCode("Audiometry/Tables/volume_curves.csv"),
                .embedInCode("Audiometry/Tables/standard_retspl.csv"),
            ],
            swiftSettings: optimisedSwiftSettings
        ),
        // Between the analyzers and the front ends: one classifier, inputs loaded once, typed scores.
        .target(
            name: "Scoring",
            dependencies: [
                "InputGuards", "SensorData", "AudioIO", "Analysis",
                "CZlib", "CNettle",
            ],
            swiftSettings: optimisedSwiftSettings
        ),
        .target(
            name: "Batch",
            dependencies: [
                "InputGuards", "SensorData", "AudioIO", "SignalProcessing", "Analysis", "Scoring",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // The hearing test a person takes, and calibrated tones: settings, session, room check.
        .target(name: "HearingTest", dependencies: ["InputGuards", "SensorData", "AudioIO", "SignalProcessing", "Analysis", "Scoring", "Recording"],
                swiftSettings: swiftSettings),
        .target(name: "Reports", dependencies: ["InputGuards", "Scoring", "Batch", "Analysis", "SensorData", "AudioIO", "SignalProcessing"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "activetask",
            dependencies: [
                "InputGuards", "SensorData", "AudioIO", "SignalProcessing", "Analysis", "Scoring", "Batch", "Recording", "HearingTest", "Reports",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tests
        .target(name: "TestSupport", dependencies: ["SignalProcessing"], path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "InputGuardsTests", dependencies: ["InputGuards"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SensorDataTests",
            dependencies: ["SensorData", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AudioIOTests",
            dependencies: ["AudioIO", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SignalProcessingTests",
            dependencies: ["SignalProcessing", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AnalysisTests",
            dependencies: ["Analysis", "InputGuards", "SensorData", "SignalProcessing", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BatchTests",
            dependencies: ["Batch", "Scoring", "SensorData", "AudioIO", "Analysis", "SignalProcessing", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScoringTests",
            dependencies: ["Scoring", "Analysis", "SensorData", "AudioIO", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "HearingTestTests", dependencies: ["HearingTest", "Analysis"], swiftSettings: swiftSettings),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Scoring", "Batch", "Analysis", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "RecordingTests",
            dependencies: ["Recording", "SensorData", "AudioIO", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "activetaskTests",
            dependencies: ["activetask", "InputGuards", "Scoring", "Batch", "SignalProcessing", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            // The help snapshots are read from the package directory (HelpSnapshotTests), not bundled.
            exclude: ["Snapshots"],
            swiftSettings: swiftSettings
        ),
    ]
)
