import Analysis
import Benchmark
import BenchmarkSupport
import Foundation
import SensorData

/// ResearchKit's golden set (`../shared/data/researchkit/ORKAudiometryTestData.json`, 3,561
/// audiograms), nil when the shared data is absent.
let goldenSet: AudiogramTable? = sharedData("researchkit/ORKAudiometryTestData.json").flatMap { try? JSONContents.read($0).audiograms }

/// One second of a 1 kHz tone at −20 dBFS with a 50 ms raised-cosine ramp at 44.1 kHz, the
/// steady part as `audiometry verify` analyses it.
let steadyTone: [Double] = {
    let rendered = (try? ToneSpecification(frequencyHz: 1000, amplitude: 0.1, durationSeconds: 1, ear: .left, sampleRateHz: 44_100).render()) ?? []
    let left = stride(from: 0, to: rendered.count, by: 2).map { Double(rendered[$0]) }
    return Array(left.dropFirst(2205 + 4410).dropLast(2205 + 4410))
}()

let audiometryBenchmarks: @Sendable () -> Void = {
    if let goldenSet {
        /// Runs A and B plus the combined run: 49,854 + 28,488 threshold searches.
        Benchmark("Audiometry: ResearchKit procedure over the golden set (3,561 audiograms, 78,342 searches)",
                  configuration: configuration(seconds: 20, iterations: 20)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(GoldenSet.run(goldenSet))
            }
        }
    } else {
        print("../shared/data is absent: the golden-set benchmark is skipped")
    }

    Benchmark("Tone verification: flat-top level, Hann + IEEE 1057 frequency, THD, THD+N of 0.8 s at 44.1 kHz") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(ToneVerification.analyze(steadyTone, sampleRateHz: 44_100))
        }
    }

    Benchmark("Tone verification: Hilbert-envelope ramp times of a 1.1 s tone at 44.1 kHz") { benchmark in
        let rendered = (try? ToneSpecification(frequencyHz: 1000, amplitude: 0.1, durationSeconds: 1, ear: .left, sampleRateHz: 44_100).render()) ?? []
        let left = stride(from: 0, to: rendered.count, by: 2).map { Double(rendered[$0]) }
        for _ in benchmark.scaledIterations {
            blackHole(ToneVerification.rampTimes(left, sampleRateHz: 44_100))
        }
    }
}
