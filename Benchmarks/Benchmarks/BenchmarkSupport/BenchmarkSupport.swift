import Benchmark
import Foundation

/// `ATK_BENCHMARK_QUICK=1` — the CI gate's short pass (Benchmarks/gate.sh): shorter inputs where
/// a benchmark names a duration, at most 2 s and 20 iterations per benchmark.
public let quick = ProcessInfo.processInfo.environment["ATK_BENCHMARK_QUICK"] != nil

/// `short` in the gate's quick pass, `full` otherwise.
public func quickOr<T>(_ short: T, _ full: T) -> T { quick ? short : full }

/// Wall time, throughput, mallocs and peak resident memory, within `seconds` and `iterations`
/// (both capped in the quick pass). `scaling` repeats a microsecond-sized body per measurement
/// (`benchmark.scaledIterations`), so timer overhead does not swamp it.
public func configuration(seconds: Int = 3, iterations: Int = 10_000, scaling: BenchmarkScalingFactor = .one) -> Benchmark.Configuration {
    .init(metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
          scalingFactor: scaling,
          maxDuration: .seconds(quick ? min(seconds, 2) : seconds),
          maxIterations: quick ? min(iterations, 20) : iterations)
}

/// The repository's root folder.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// `../shared/data/<relative>` next to the repository, nil when absent.
public func sharedData(_ relative: String) -> String? {
    let path = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data/" + relative).path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}

/// The CI gate's yardstick, registered in every suite as "Reference: …": a fixed computation
/// with the hot loops' ingredients — a floating-point recurrence (latency-bound, like an IIR
/// filter), a pass over 8 MB (memory-bound, like decoding) and a sort of 2¹⁴ values (branches).
/// The gate divides each benchmark's time by this one's from the same run, so a slower or busier
/// machine moves both alike; it allocates once, so its malloc count stays fixed.
public func registerReference() {
    Benchmark("Reference: IIR recurrence (2^20 steps), 8 MB pass, sort of 2^14 values", configuration: configuration()) { benchmark in
        let values = (0..<(1 << 20)).map { Double(($0 &* 2_654_435_761) & 0xFFFF) }
        var scratch = [Double](repeating: 0, count: 1 << 14)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var y = 0.0
            for i in 0..<(1 << 20) { y = 0.999 * y + values[i & 0xFFFF] }
            var sum = 0.0
            for v in values { sum += v }
            scratch.withUnsafeMutableBufferPointer { buffer in
                for i in buffer.indices { buffer[i] = values[i] }
                buffer.sort()
            }
            blackHole((y, sum, scratch[0]))
        }
    }
}
