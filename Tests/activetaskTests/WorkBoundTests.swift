import Foundation
import Testing
import TestSupport

/// Parameters that are valid numbers but would ask for absurd work: every window, hop and chunk
/// is at least one sample at the analysis rate, so their counts are bounded by the samples,
/// refused before anything is allocated (GaitAnalysis.Parameters.problem).
@Suite struct WorkBoundTests {
    static let walk = SharedData.sampleData.appendingPathComponent("walk_accelerometer.csv").path

    @Test("a window, hop or chunk shorter than one sample is refused (status 2, naming the key), from an option or the configuration", arguments: [
        ("--cadence-hop-seconds", "cadenceHopSeconds", "1e-6"), ("--chunk-seconds", "chunkSeconds", "1e-300"),
        ("--cadence-window-seconds", "cadenceWindowSeconds", "0.0099"), ("--chunk-seconds", "chunkSeconds", "5e-324"),
    ])
    func refused(option: String, key: String, value: String) throws {
        let run = try Run(["score", "gait", Self.walk, option, value])
        #expect(run.status == 2 && run.stderr.contains(key) && run.stderr.contains("one sample"), "\(run.status) \(run.stderr)")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try folder.write("c.toml", "[gait.analysis]\n\(key) = \(value)\n")
        let configured = try Run(["score", "gait", Self.walk, "--config", config])
        #expect(configured.status == 2 && configured.stderr.contains(key), "\(configured.stderr)")
    }

    @Test("exactly one sample (0.01 s at 100 Hz) is accepted")
    func oneSample() throws {
        let run = try Run(["score", "gait", Self.walk, "--json", "--cadence-hop-seconds", "0.01", "--chunk-seconds", "0.01"])
        #expect(run.status == 0, "\(run.stderr)")
    }
}
