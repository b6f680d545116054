import Benchmark
import Foundation
import SensorData

/// The real mPower walk (`../shared/data/mpower/pdkit_mpower_gait.json`, 196 KB, 2,023
/// accelerometer items) when present, else the project's own 10 s sample walk.
let walk: (name: String, bytes: [UInt8]) = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let shared = root.deletingLastPathComponent().appendingPathComponent("shared/data/mpower/pdkit_mpower_gait.json")
    if let bytes = try? FileBytes.read(shared.path) { return ("mPower gait", bytes) }
    let samples = root.appendingPathComponent("SampleData")
    let name = (try? FileManager.default.contentsOfDirectory(atPath: samples.path))?.first { $0.hasPrefix("accel_") } ?? ""
    return ("SampleData walk", (try? FileBytes.read(samples.appendingPathComponent(name).path)) ?? [])
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    /// Accelerometer items → columns through the project's own parser. MB/s = throughput (it/s)
    /// × file size; the size is in the benchmark's name.
    Benchmark("JSON items → columns, \(walk.name) (\(walk.bytes.count) bytes)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONContents.decode(walk.bytes, file: "walk.json"))
        }
    }

    /// The same bytes through Foundation's JSONSerialization into [[String: Any]] and then
    /// columns: the reference computation for the ratio, measured in the same run.
    Benchmark("Foundation JSONSerialization → columns, \(walk.name) (\(walk.bytes.count) bytes)") { benchmark in
        let data = Data(walk.bytes)
        for _ in benchmark.scaledIterations {
            let items = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
            var x: [Double] = [], y: [Double] = [], z: [Double] = [], t: [Double] = []
            for item in items {
                t.append((item["timestamp"] as? NSNumber)?.doubleValue ?? .nan)
                x.append((item["x"] as? NSNumber)?.doubleValue ?? .nan)
                y.append((item["y"] as? NSNumber)?.doubleValue ?? .nan)
                z.append((item["z"] as? NSNumber)?.doubleValue ?? .nan)
            }
            blackHole((t, x, y, z))
        }
    }
}
