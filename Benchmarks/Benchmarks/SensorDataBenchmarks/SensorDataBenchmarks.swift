import Benchmark
import BenchmarkSupport
import Foundation
import SensorData

/// The real mPower walk (`../shared/data/mpower/pdkit_mpower_gait.json`, 196 KB, 2,023
/// accelerometer items) when present, else the project's own 10 s sample walk.
let walk: (name: String, bytes: [UInt8]) = {
    if let shared = sharedData("mpower/pdkit_mpower_gait.json"), let bytes = try? FileBytes.read(shared) { return ("mPower gait", bytes) }
    let samples = repositoryRoot.appendingPathComponent("SampleData")
    let name = (try? FileManager.default.contentsOfDirectory(atPath: samples.path))?.first { $0.hasPrefix("accel_") } ?? ""
    return ("SampleData walk", (try? FileBytes.read(samples.appendingPathComponent(name).path)) ?? [])
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = configuration()
    registerReference()

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

    /// An Oxford Step Counter style CSV walk (ns, foot flags, m/s²) → table → accelerometer
    /// columns, as `score gait` reads CSV. 60 s at 100 Hz, made from the walk above's items.
    Benchmark("CSV walk → columns, 6,000 rows (Oxford layout)") { benchmark in
        var text = ""
        for i in 0..<6_000 {
            let t = Double(i) / 100
            text += "\(Int64(t * 1e9)),\(i % 50 == 0 ? 1 : 0),\(0.3 * sin(t)),\(0.1 * cos(3 * t)),\(-9.80665 + 2 * sin(11 * t))\n"
        }
        let bytes = Array(text.utf8)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let table = try CSVTable.parse(bytes, file: "walk.csv")
            blackHole(try SensorSeries.accelerometer(from: table, layout: .oxfordStepCounter, file: "walk.csv"))
        }
    }
}
