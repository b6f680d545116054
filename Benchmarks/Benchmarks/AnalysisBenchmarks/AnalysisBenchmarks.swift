import Analysis
import Benchmark
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

/// One hour of 100 Hz accelerometer with ±1 ms jitter: walking at 108 steps/min (phone upright,
/// Apple convention, g) alternating with 5-minute rests.
let hour: MotionSignal = {
    let n = 3600 * 100
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
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    Benchmark("Tapping: mhealthtools + atk features, 100 taps (20 s)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(TappingAnalysis.analyze(tapping))
        }
    }

    Benchmark("Gait: 1 h of 100 Hz accelerometer, whole-recording features", configuration: .init(maxDuration: .seconds(20), maxIterations: 5)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(GaitAnalysis.analyze(hour, windows: false))
        }
    }

    Benchmark("Gait: 1 h of 100 Hz accelerometer, with 20-s window cadences", configuration: .init(maxDuration: .seconds(30), maxIterations: 3)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(GaitAnalysis.analyze(hour, windows: true))
        }
    }
}
