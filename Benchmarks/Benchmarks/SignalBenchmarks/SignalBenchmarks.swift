import InputGuards
import AudioIO
import Benchmark
import BenchmarkSupport
import Foundation
import SignalProcessing

/// Deterministic noise in [−0.05, 0.05).
func noise(_ count: Int, seed: UInt64 = 3) -> [Double] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in 0.1 * (random.unit() - 0.5) }
}

/// 60 s of 48 kHz mono (PCM16) and 10 s of 44.1 kHz stereo (float32) noise, written once per
/// process to the temporary folder for the decoding benchmarks.
let wavFiles: (pcm16: String, float32: String) = {
    let folder = NSTemporaryDirectory() + "activetask-signal-benchmarks-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let pcm16 = folder + "/noise-60s-48k-pcm16.wav", float32 = folder + "/noise-10s-44k-stereo-float.wav"
    if let writer = try? WAVWriter(path: pcm16, sampleRateHz: 48_000, channels: 1, encoding: .pcm16) {
        try? writer.write(noise(60 * 48_000))
        try? writer.close()
    }
    if let writer = try? WAVWriter(path: float32, sampleRateHz: 44_100, channels: 2, encoding: .float32) {
        try? writer.write(noise(2 * 10 * 44_100))
        try? writer.close()
    }
    return (pcm16, float32)
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = configuration()
    registerReference()

    /// Transforms through the wrapper (plan lookup included), 1,000 per measurement up to 4,096
    /// points, on 64-byte aligned buffers as FFTW's own allocator gives (a Swift array is only
    /// 16-byte aligned, so whether FFTW may use its AVX codelets would change with the heap):
    /// compare with FFTW from C in Benchmarks/peers/compare.py.
    func aligned<T: BinaryFloatingPoint>(_ values: [T], count: Int) -> UnsafeMutableBufferPointer<T> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<T>.stride, alignment: 64)
        let buffer = UnsafeMutableBufferPointer(start: raw.bindMemory(to: T.self, capacity: count), count: count)
        _ = buffer.initialize(from: values + [T](repeating: 0, count: max(0, count - values.count)))
        return buffer
    }
    for size in [256, 1024, 4096, 65_536] {
        let scaled = configuration(scaling: size <= 4096 ? .kilo : .one)
        let fft = try? FFT(size: size)
        let bins = 2 * (size / 2 + 1)
        Benchmark("FFT: real forward, \(size) points, Double", configuration: scaled) { benchmark in
            let (input, output) = (aligned(noise(size), count: size), aligned([Double](), count: bins))
            defer { input.deallocate(); output.deallocate() }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                fft!.forward(UnsafeBufferPointer(input), into: output)
                blackHole(output[2])
            }
        }
        Benchmark("FFT: real forward, \(size) points, Float", configuration: scaled) { benchmark in
            let (input, output) = (aligned(noise(size).map(Float.init), count: size), aligned([Float](), count: bins))
            defer { input.deallocate(); output.deallocate() }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                fft!.forward(UnsafeBufferPointer(input), into: output)
                blackHole(output[2])
            }
        }
    }
    Benchmark("FFT: complex forward, 4096 points, Double", configuration: configuration(scaling: .kilo)) { benchmark in
        let fft = try FFT(size: 4096)
        let (input, output) = (aligned(noise(2 * 4096), count: 2 * 4096), aligned([Double](), count: 2 * 4096))
        defer { input.deallocate(); output.deallocate() }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            fft.transform(UnsafeBufferPointer(input), into: output)
            blackHole(output[2])
        }
    }

    let tenSeconds = noise(10 * 44_100)
    Benchmark("STFT: 10 s at 44.1 kHz, 2048-point Hann frames, hop 512 (|X|²)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try Spectrum.stft(tenSeconds, size: 2048, hop: 512, sampleRateHz: 44_100))
        }
    }
    Benchmark("Welch PSD: 10 s at 44.1 kHz, 1024-point segments, 50 % overlap") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try Spectrum.welch(tenSeconds, sampleRateHz: 44_100, segmentSize: 1024))
        }
    }

    /// Filters one second of 48 kHz noise in place per iteration (state carried on).
    let second = noise(48_000)
    for (name, design) in [("A", FrequencyWeighting.a.filter(sampleRateHz: 48_000)),
                           ("C", FrequencyWeighting.c.filter(sampleRateHz: 48_000)),
                           ("K (BS.1770)", KWeighting.filter(sampleRateHz: 48_000))] {
        Benchmark("Weighting filter \(name): 1 s of 48 kHz (\(design.sections.count) biquads)") { benchmark in
            var filter = design
            var block = second
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                filter.process(&block)
                blackHole(block[0])
                block.replaceSubrange(0..<second.count, with: second)
            }
        }
    }

    /// libsndfile through AudioIO, 65,536-frame blocks as the scorers stream them.
    for (name, path) in [("60 s of 48 kHz mono PCM16 WAV → Float blocks (5.8 MB)", wavFiles.pcm16),
                         ("10 s of 44.1 kHz stereo float32 WAV → Float blocks (3.5 MB)", wavFiles.float32)] {
        Benchmark("Audio decoding: \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                let file = try SoundFile(reading: path)
                var frames = 0
                try file.forEachBlock { _, count in frames += count }
                blackHole(frames)
            }
        }
    }
}
