import Foundation
import Testing
import TestSupport
@testable import Batch
@testable import Scoring

/// `--analyzers NAME`: what the user names runs on every file it can read whose task nothing
/// states; files that get no result are counted per reason.
@Suite struct AnalyzerSelectionTests {
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("in"), withIntermediateDirectories: true)
        for (name, destination) in [("voice_aaah.wav", "recording.wav"), ("voice_aaah.wav", "phonation_voice.wav"),
                                    ("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json", "motion.json"),
                                    ("tapping_results.json", "tapping.json")] {
            var bytes = try Data(contentsOf: SharedData.sampleData.appendingPathComponent(name))
            if destination == "phonation_voice.wav" { bytes[bytes.count - 1] ^= 1 }  // other content than recording.wav
            try bytes.write(to: URL(fileURLWithPath: folder.path("in/" + destination)))
        }
        return folder
    }

    static func run(_ folder: TemporaryFolder, _ analyzers: Set<Analyzer>) async throws -> (rows: [String], counts: BatchCounts) {
        var options = BatchOptions(toolkitVersion: "test")
        options.configuration.analyzers = analyzers
        let store = try ResultStore(path: folder.path("\(analyzers.map(\.rawValue).sorted().joined()).sqlite"))
        let counts = try await BatchRunner.run([folder.path("in")], store: store, options: options)
        let rows = try store.resultRows().map { "\(URL(fileURLWithPath: $0.recording).lastPathComponent) \($0.key.analyzer) \($0.status.rawValue)" }.sorted()
        return (rows, counts)
    }

    @Test("--analyzers spl scores a stand-alone WAV whose name says no task (not the voice default) but not one named as a voice task; the rest is counted: only gait, only tapping, only voice applies")
    func spl() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let (rows, counts) = try await Self.run(folder, [.spl])
        #expect(rows == ["recording.wav spl ok"], "\(rows)")
        #expect(counts.withoutResult == ["only gait applies, not selected": 1, "only tapping applies, not selected": 1, "only voice applies, not selected": 1],
                "\(counts.withoutResult)")
    }

    @Test("--analyzers balance scores a motion file nothing names as a walk; with gait too, gait scores it")
    func balance() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let balance = try await Self.run(folder, [.balance]).rows, both = try await Self.run(folder, [.balance, .gait]).rows
        #expect(balance == ["motion.json balance ok"], "\(balance)")
        #expect(both == ["motion.json gait ok"], "\(both)")
        // A recording named as a walk is never scored as standing still.
        let outbound = folder.path("accel_walking.outbound.json")
        try FileManager.default.copyItem(atPath: folder.path("in/motion.json"), toPath: outbound)
        #expect(throws: ScoringError.self) { try AnalyzerParameters().score(.balance, file: outbound) }
        // Without a selection the defaults hold: gait for the walk, voice for both WAVs.
        let all = try await Self.run(folder, Set(Analyzer.allCases).subtracting([.loudness])).rows
        #expect(all.contains("recording.wav voice ok") && all.contains("recording.wav spl ok") && all.contains("motion.json gait ok"), "\(all)")
    }
}
