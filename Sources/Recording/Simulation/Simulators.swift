import InputGuards
import Glibc
import SensorData
import SignalProcessing

/// What the simulators of a recorder produce (`activetask record --source simulate`).
public struct SimulatorSettings: Sendable, Hashable {
    /// Walker cadence (accelerometer, device motion, pedometer, location), steps/min.
    public var cadenceStepsPerMinute: Double
    /// Tapper rate (touch), taps/s, alternating between the two buttons.
    public var tapsPerSecond: Double
    /// Audio: room noise at this A-weighted level, dB(A) SPL, instead of the voice.
    public var roomNoiseDBA: Double?
    /// Audio: dB SPL that an RMS of 1.0 reads (the microphone calibration the noise is set for;
    /// ResearchKit's iPhone value 117.3 by default, docs/analyses.md §3.5).
    public var calibrationOffsetDecibels: Double

    public init(cadenceStepsPerMinute: Double = 110, tapsPerSecond: Double = 5, roomNoiseDBA: Double? = nil,
                calibrationOffsetDecibels: Double = 117.3) {
        self.cadenceStepsPerMinute = cadenceStepsPerMinute
        self.tapsPerSecond = tapsPerSecond
        self.roomNoiseDBA = roomNoiseDBA
        self.calibrationOffsetDecibels = calibrationOffsetDecibels
    }
}

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

    /// Location fixes of the walker, one per second: north-east at `speedMetersPerSecond` from
    /// `origin` (degrees), on a spherical Earth of 111,320 m per degree of latitude;
    /// horizontal accuracy 5 m, altitude 70 m, vertical accuracy 8 m, course 45°.
    public static func walkerLocation(first: Int, count: Int, startSeconds: Double, speedMetersPerSecond: Double = 1.3,
                                      origin: (latitude: Double, longitude: Double) = (51.753_4, -1.254_0)) -> SensorSeries {
        var series = SensorSeries(kind: .location)
        for k in first..<(first + count) {
            let metres = speedMetersPerSecond * Double(k)
            series.append(numbers: [
                startSeconds + Double(k), origin.latitude + metres * 0.707 / 111_320,
                origin.longitude + metres * 0.707 / (111_320 * cos(origin.latitude * .pi / 180)), 5, 70, 8, 45, speedMetersPerSecond, .nan,
            ])
        }
        return series
    }

    /// Touch items of a two-finger tapper on ResearchKit's tapping layout (mPower: a 320 × 504
    /// view, 104-point buttons centred at (96, 416) and (224, 416)): taps alternate between the
    /// buttons at `tapsPerSecond`, each a began (phase 0) and an ended (phase 3) item 0.1 s apart,
    /// with seeded jitter of ±10 ms and ±8 points. Items whose time lies in [`fromSeconds`,
    /// `toSeconds`), in time order; `timestamp` counts from `bootSeconds`.
    public static func tapperTouches(fromSeconds: Double, toSeconds: Double, tapsPerSecond: Double, bootSeconds: Double = 1000,
                                     seed: UInt64 = 7) -> SensorSeries {
        var items: [(Double, [Double])] = []
        let firstTap = Int(clamping: (fromSeconds - 0.2) * tapsPerSecond, rounding: .down, to: 0...Int.max / 2)
        let lastTap = Int(clamping: toSeconds * tapsPerSecond, rounding: .up, to: 0...Int.max / 2)
        for k in firstTap...max(firstTap, lastTap) {
            var random = SplitMix64(seed: seed &+ UInt64(k) &* 0x9E37_79B9)
            let began = Double(k) / tapsPerSecond + 0.01 * (2 * random.unit() - 1) + 0.01
            let x = (k % 2 == 0 ? 96.0 : 224) + 8 * (2 * random.unit() - 1)
            let y = 416 + 8 * (2 * random.unit() - 1)
            for (phase, time) in [(0.0, began), (3.0, began + 0.1)] where time >= fromSeconds && time < toSeconds {
                items.append((time, [bootSeconds + time, phase, 0, x, y, 320, 504]))
            }
        }
        var series = SensorSeries(kind: .touch)
        for item in items.sorted(by: { $0.0 < $1.0 }) { series.append(numbers: item.1) }
        return series
    }

    /// `count` interleaved frames, from frame `first`, of white room noise whose A-weighted level
    /// (IEC 61672-1 A-weighting) reads `levelDBA` dB SPL with `calibrationOffsetDecibels` (the SPL
    /// of an RMS of 1.0): uniform noise of unit variance scaled by 10^((L − offset)/20) divided by
    /// the RMS gain of the A-weighting for a flat spectrum up to the Nyquist frequency. The same
    /// noise on every channel; seeded per frame, so any block is reproducible. (A meter whose A
    /// filter is the 1× bilinear design reads this white noise about 0.8 dB low at 48 kHz, the
    /// top-octave error of docs/analyses.md §3.3; oversampled 4×, within 0.05 dB.)
    /// `aWeightedGain` is ``aWeightedGain(sampleRateHz:)``, computed once by callers that make many blocks.
    public static func roomNoise(first: Int, count: Int, sampleRateHz: Double, channels: Int, levelDBA: Double,
                                 calibrationOffsetDecibels: Double, aWeightedGain: Double? = nil, seed: UInt64 = 11) -> [Float] {
        let amplitude = pow(10, (levelDBA - calibrationOffsetDecibels) / 20) / (aWeightedGain ?? Self.aWeightedGain(sampleRateHz: sampleRateHz))
        var out = [Float](repeating: 0, count: count * channels)
        for i in 0..<count {
            var random = SplitMix64(seed: seed &+ UInt64(first + i) &* 0x9E37_79B9)
            let value = Float(amplitude * 3.0.squareRoot() * (2 * random.unit() - 1))
            for c in 0..<channels { out[i * channels + c] = value }
        }
        return out
    }

    /// √(mean of |A(f)|² over 0…fs/2): the factor by which A-weighting scales the RMS of white
    /// noise (trapezoidal rule, 10,000 intervals, the analogue response of IEC 61672-1).
    public static func aWeightedGain(sampleRateHz fs: Double) -> Double {
        let n = 10_000
        var sum = 0.0
        for k in 1...n {
            let f = fs / 2 * Double(k) / Double(n)
            let power = pow(10, FrequencyWeighting.a.analogueDecibels(atFrequencyHz: f) / 10)
            sum += k == n ? power / 2 : power
        }
        return (sum / Double(n)).squareRoot()
    }
}
