import Batch
import Benchmark
import BenchmarkSupport
import Foundation
import Recording

/// Task runs in the generated corpus (each: tapping, walking with three recorders — its outbound
/// walk scored by gait, its rest recording by balance —, a 10-s voice WAV, an SPL result and a
/// dB HL result: 7 analyses).
let runs = quickOr(1, 40)

/// The corpus, written once per process with `Corpus.write` (as `activetask generate-corpus`).
let corpus: String = {
    let folder = NSTemporaryDirectory() + "activetask-batch-benchmark-\(getpid())/corpus"
    try? Corpus.write(runs: runs, to: folder)
    return folder
}()

/// Two iterations in the quick pass, however long one takes (a run's 10-s voice WAV now holds
/// formants, CPPS and MFCCs: an iteration of the 1-run quick corpus takes about a second, and the
/// gate needs at least two samples for a throughput).
func batchConfiguration() -> Benchmark.Configuration {
    var configuration = configuration(seconds: 60, iterations: 5)
    if quick {
        configuration.maxDuration = .seconds(15)
        configuration.maxIterations = 2
    }
    return configuration
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = configuration()
    registerReference()

    /// Discovery, hashing, every analysis and the SQLite store (a fresh one per iteration), on
    /// all cores. recordings/s = throughput × 5 × runs (5 units per run), results/s = throughput × 7 × runs.
    Benchmark("Batch: generated corpus of \(runs) task runs (\(7 * runs) analyses) into a new store",
              configuration: batchConfiguration()) { benchmark in
        let folder = (corpus as NSString).deletingLastPathComponent
        for iteration in benchmark.scaledIterations {
            let path = folder + "/results-\(iteration).sqlite"
            let store = try ResultStore(path: path)
            let options = BatchOptions(toolkitVersion: "benchmark")
            blackHole(try await BatchRunner.run([corpus], store: store, options: options))
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }
}
