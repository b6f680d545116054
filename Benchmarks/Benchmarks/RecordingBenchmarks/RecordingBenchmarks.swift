import Benchmark
import BenchmarkSupport
import Foundation
import Recording
import SensorData

/// 10,000 simulated 100 Hz accelerometer items (100 s), recorded in 50-ms batches as a live source delivers them.
let walk = Simulator.walkerAccelerometer(first: 0, count: 10_000, frequencyHz: 100, cadenceStepsPerMinute: 110, startSeconds: 1_700_000_000)
/// One 1,024-frame block of 48 kHz stereo voice-like audio.
let audioBlock = Simulator.voice(first: 0, count: 1_024, sampleRateHz: 48_000, channels: 2)
/// The same 10,000 items as JSON lines and as CSV lines (with a header), as a live source sends them.
let jsonLines: [[UInt8]] = (0..<walk.count).map { i in
    Array(#"{"timestamp":\#(walk["timestamp"]![i]),"x":\#(walk["x"]![i]),"y":\#(walk["y"]![i]),"z":\#(walk["z"]![i])}"#.utf8)
}
let csvLines: [[UInt8]] = [Array("timestamp,x,y,z".utf8)] + (0..<walk.count).map { i in
    Array("\(walk["timestamp"]![i]),\(walk["x"]![i]),\(walk["y"]![i]),\(walk["z"]![i])".utf8)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = configuration(seconds: 5, iterations: 1_000)
    registerReference()
    let folder = NSTemporaryDirectory() + "activetask-benchmarks-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

    /// items/s = throughput (it/s) × 10,000.
    Benchmark("Data logger: 10,000 accelerometer items through SensorRecorder (encode + append, flush every 1 s)") { benchmark in
        for _ in benchmark.scaledIterations {
            let recorder = try SensorRecorder(RecorderConfiguration(identifier: "accelerometer", kind: .sensor(.accelerometer)), outputDirectory: folder)
            var first = 0
            while first < walk.count {
                try recorder.record(walk.slice(first..<min(first + 5, walk.count)))
                first += 5
            }
            for file in try recorder.stop() { try? FileManager.default.removeItem(atPath: folder + "/" + file.fileName) }
        }
    }

    /// items/s = throughput (it/s) × 10,000; decoded in chunks of 600 lines (one 64-KiB read).
    for (format, lines) in [(LineFormat.json, jsonLines), (.csv, csvLines)] {
        Benchmark("Line decoding: 10,000 accelerometer items as \(format.rawValue) lines, 600-line chunks") { benchmark in
            for _ in benchmark.scaledIterations {
                var decoder = try LineDecoder(format: format, kind: .accelerometer, name: "stdin")
                var first = 0
                while first < lines.count {
                    blackHole(decoder.decode(Array(lines[first..<min(first + 600, lines.count)])))
                    first += 600
                }
            }
        }
    }

    /// MB/s = throughput (it/s) × 46.9 MiB (1,024 frames × 2 channels × 4 bytes × 6,000 blocks).
    Benchmark("WAV writing: 128 s of 48 kHz stereo float32 in 1,024-frame blocks, header updated on every write") { benchmark in
        for _ in benchmark.scaledIterations {
            let recorder = try AudioRecorder(RecorderConfiguration(identifier: "streamingAudio", kind: .audio(sampleRateHz: 48_000, channels: 2, encoding: .float32)),
                                             outputDirectory: folder)
            for _ in 0..<6_000 { try recorder.write(audioBlock) }
            let file = try recorder.stop()
            try? FileManager.default.removeItem(atPath: folder + "/" + file.fileName)
        }
    }
}
