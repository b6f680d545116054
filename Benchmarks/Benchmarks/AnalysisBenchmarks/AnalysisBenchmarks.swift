import Analysis
import Benchmark
import BenchmarkSupport
import Foundation
import SensorData

/// 20 s of alternating tapping at ~5 Hz (100 taps), the size of an mPower tapping test.
let tapping: TappingResult = {
    var result = TappingResult(dialect: .appCore)
    result.buttonRectLeft = Rect(origin: Point(x: 44, y: 364), size: Size(width: 104, height: 104))
    result.buttonRectRight = Rect(origin: Point(x: 172, y: 364), size: Size(width: 104, height: 104))
    var t = 0.0
    for k in 0..<100 {
        let left = k % 2 == 0
        result.append(timestamp: t, x: (left ? 96 : 224) + Double(k % 7), y: 416 + Double(k % 5), button: left ? .left : .right)
        t += 0.2 + 0.01 * Double(k % 3)
    }
    return result
}()

/// One hour (10 min in the quick pass) of 100 Hz accelerometer with ±1 ms jitter: walking at
/// 108 steps/min (phone upright, Apple convention, g) alternating with 5-minute rests.
let walkMinutes = quickOr(10, 60)
let hour: MotionSignal = {
    let n = walkMinutes * 60 * 100
    var time = [Double](repeating: 0, count: n), z = time
    var state: UInt64 = 7
    for i in 0..<n {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let t = Double(i) / 100 + 0.001 * (Double(state >> 11) / Double(1 << 53) - 0.5)
        let walking = Int(t / 300) % 2 == 0
        let v = walking ? 1.2 * sin(2 * .pi * 1.8 * t) + 0.4 * sin(.pi * 1.8 * t + 1) : 0.02 * sin(2 * .pi * 0.2 * t)
        time[i] = t
        z[i] = -(standardGravity + v)
    }
    return MotionSignal(time: time, x: [Double](repeating: 0, count: n), y: [Double](repeating: 0, count: n), z: z)
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = configuration()
    registerReference()

    Benchmark("Tapping: mhealthtools + atk features, 100 taps (20 s)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(TappingAnalysis.analyze(tapping))
        }
    }

    Benchmark("Gait: \(walkMinutes) min of 100 Hz accelerometer, whole-recording features", configuration: configuration(seconds: 20, iterations: 5)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(GaitAnalysis.analyze(hour, windows: false))
        }
    }

    Benchmark("Gait: \(walkMinutes) min of 100 Hz accelerometer, with 20-s window cadences", configuration: configuration(seconds: 30, iterations: 3)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(GaitAnalysis.analyze(hour, windows: true))
        }
    }

    soundBenchmarks()
    audiometryBenchmarks()
}

/// One 65,536-sample block of pseudo-random noise, reused: the meters' cost does not depend on
/// the values, and memory stays that of one block.
let noiseBlock: [Double] = {
    var state: UInt64 = 11
    return (0..<65_536).map { _ in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return 0.1 * (Double(state >> 11) / Double(1 << 53) - 0.5)
    }
}()

/// A 10-s synthetic sustained vowel at 44.1 kHz (pulse train through three formants, F0 120 Hz).
let vowel: [Double] = {
    let rate = 44_100.0, n = Int(10 * rate)
    var x = [Double](repeating: 0, count: n)
    var t = 0.0
    while t < 10 {
        let start = Int((t * rate).rounded(.up))
        for i in start..<min(n, start + 2205) {
            let tau = Double(i) / rate - t
            x[i] += 0.05 * (exp(-.pi * 250 * tau) * sin(2 * .pi * 700 * tau) + 0.5 * exp(-.pi * 250 * tau) * sin(2 * .pi * 1220 * tau))
        }
        t += 1.0 / 120
    }
    return x
}()

let soundBenchmarks: @Sendable () -> Void = {
    let splMinutes = quickOr(2, 60)
    Benchmark("SPL: A/C/Z, F/S, Leq, percentiles of \(splMinutes) min of 48 kHz mono", configuration: configuration(seconds: 30, iterations: 3)) { benchmark in
        for _ in benchmark.scaledIterations {
            var meter = SoundLevelMeter(sampleRateHz: 48_000, calibrationOffsetDecibels: 117.3)
            for _ in 0..<(splMinutes * 60 * 48_000 / 65_536) { meter.process(noiseBlock) }
            blackHole(meter.result)
        }
    }

    let loudnessMinutes = quickOr(1, 10)
    Benchmark("BS.1770: integrated loudness and range of \(loudnessMinutes) min of 48 kHz stereo", configuration: configuration(seconds: 30, iterations: 5)) { benchmark in
        let stereo = noiseBlock.flatMap { [$0, -$0] }
        for _ in benchmark.scaledIterations {
            var meter = LoudnessMeter(sampleRateHz: 48_000, channels: 2)
            for _ in 0..<(loudnessMinutes * 60 * 48_000 / 65_536) { meter.process(interleaved: stereo) }
            blackHole((meter.integratedLUFS, meter.loudnessRangeLU))
        }
    }

    Benchmark("Voice: every feature set (F0, perturbation, HNR, formants, CPPS, MFCCs) of a 10-s 44.1 kHz vowel", configuration: configuration(seconds: 30, iterations: 5)) { benchmark in
        var options = VoiceAnalysis.Options()
        options.sets.remove(.egemapsv02)   // the row below
        for _ in benchmark.scaledIterations {
            blackHole(VoiceAnalysis.analyze(interleaved: vowel, channels: 1, sampleRateHz: 44_100, options: options))
        }
    }

    Benchmark("Voice: openSMILE's eGeMAPSv02 functionals of a 10-s 44.1 kHz vowel", configuration: configuration(seconds: 30, iterations: 5)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(EGeMAPSv02Analysis().features(vowel, sampleRateHz: 44_100))
        }
    }
}
