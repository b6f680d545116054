import Glibc
import SensorData
import SignalProcessing

/// Deterministic sample generators for tests, `SampleData/` and `activetask record --source simulate`.
public enum Simulator {
    /// Accelerometer items (g) of a walker at `cadenceStepsPerMinute`: gravity on y plus a vertical
    /// oscillation at the step frequency and a lateral one at half of it (one per stride), with
    /// seeded noise of 0.01 g. Items `first..<first + count` at `frequencyHz`; `timestamp` counts
    /// from `bootSeconds`, `timestampSince1970` from `startSeconds`.
    public static func walkerAccelerometer(first: Int, count: Int, frequencyHz: Double, cadenceStepsPerMinute: Double,
                                           startSeconds: Double, bootSeconds: Double = 1000, seed: UInt64 = 1) -> SensorSeries {
        var series = SensorSeries(kind: .accelerometer)
        let step = cadenceStepsPerMinute / 60
        for i in first..<(first + count) {
            var random = SplitMix64(seed: seed &+ UInt64(i) &* 0x9E37_79B9)
            let t = Double(i) / frequencyHz
            let noise = { 0.01 * (2 * random.unit() - 1) }
            let vertical = 0.3 * sin(2 * Double.pi * step * t)
            let lateral = 0.1 * sin(Double.pi * step * t)
            series.append(numbers: [bootSeconds + t, startSeconds + t, lateral + noise(), -1 + vertical + noise(), 0.05 * vertical + noise()])
        }
        return series
    }

    /// Device-motion items of the same walker: gravity −1 g on y, user acceleration the walker's
    /// oscillation without gravity, a slow yaw (0.1 rad/s), attitude the matching quaternion;
    /// magnetic field unavailable (omitted).
    public static func walkerDeviceMotion(first: Int, count: Int, frequencyHz: Double, cadenceStepsPerMinute: Double,
                                          startSeconds: Double, bootSeconds: Double = 1000) -> SensorSeries {
        var series = SensorSeries(kind: .deviceMotion)
        let step = cadenceStepsPerMinute / 60
        for i in first..<(first + count) {
            let t = Double(i) / frequencyHz
            let yaw = 0.1 * t
            let vertical = 0.3 * sin(2 * Double.pi * step * t)
            let lateral = 0.1 * sin(Double.pi * step * t)
            series.append(numbers: [bootSeconds + t, startSeconds + t, 0, 0, sin(yaw / 2), cos(yaw / 2), 0, 0, 0.1, 0, -1, 0,
                                    lateral, vertical, 0.05 * vertical, .nan, .nan, .nan, .nan])
        }
        return series
    }

    /// Cumulative pedometer updates of the walker, one per `intervalSeconds`: steps since the
    /// start (⌊cadence · t / 60⌋) and distance at `stepLengthMeters` per step.
    public static func pedometer(first: Int, count: Int, intervalSeconds: Double, cadenceStepsPerMinute: Double, startSeconds: Double,
                                 stepLengthMeters: Double = 0.7) -> SensorSeries {
        var series = SensorSeries(kind: .pedometer)
        for i in first..<(first + count) {
            let end = Double(i + 1) * intervalSeconds
            let steps = (cadenceStepsPerMinute * end / 60).rounded(.down)
            series.append(numbers: [startSeconds.rounded(.down), (startSeconds + end).rounded(.down), steps, steps * stepLengthMeters, 0, 0])
        }
        return series
    }

    /// Heart-rate items (`count/min`, one per second) drifting sinusoidally ±5 around `beatsPerMinute`.
    public static func heartRate(first: Int, count: Int, beatsPerMinute: Double, startSeconds: Double) -> SensorSeries {
        var series = SensorSeries(kind: .healthQuantity)
        for i in first..<(first + count) {
            let t = startSeconds + Double(i)
            let value = (beatsPerMinute + 5 * sin(2 * Double.pi * Double(i) / 60)).rounded()
            series.append(numbers: [.nan, t.rounded(.down), t.rounded(.down) + 1, .nan, value, .nan],
                          strings: ["HKQuantityTypeIdentifierHeartRate", nil, nil, "count/min", nil, "activetask simulator"])
        }
        return series
    }

    /// `count` interleaved frames of a sustained vowel-like tone (F0 `f0Hz` with 4 harmonics,
    /// peak amplitude `amplitude`) on every channel, starting at frame `first`.
    public static func voice(first: Int, count: Int, sampleRateHz: Double, channels: Int, f0Hz: Double = 150, amplitude: Double = 0.3) -> [Float] {
        var out = [Float](repeating: 0, count: count * channels)
        for i in 0..<count {
            let t = Double(first + i) / sampleRateHz
            var x = 0.0
            for h in 1...4 { x += sin(2 * Double.pi * f0Hz * Double(h) * t) / Double(h) }
            let value = Float(amplitude * x / 2.0833)
            for c in 0..<channels { out[i * channels + c] = value }
        }
        return out
    }
}
