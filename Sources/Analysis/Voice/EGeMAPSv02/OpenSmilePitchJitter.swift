import Glibc
import SignalProcessing

/// Local jitter and shimmer of every 60-ms pitch frame as openSMILE 2.6.0's cPitchJitter computes
/// them in eGeMAPSv02 (searchRangeRel 0.1, minNumPeriods 2, minCC 0.5, correlation-peak period
/// lengths, peak-to-peak amplitudes), from the waveform and the smoothed F0 of each frame — not
/// Praat's (``Perturbation``), which finds glottal pulses first.
///
/// The frames are read back to back: each reads ⌈0.01·f_s⌉ samples on from where the last full
/// period of the previous one ended, with what that period left unread (unvoiced frames restart
/// at their own step). Where that place and the frame's own start (frame i at i·step) disagree —
/// at rates where ⌈0.01·f_s⌉ is not the step, 11,025 Hz (111 against 110) and 11, 22 or 44 kHz
/// (0.01/(1/f_s) rounds a hair above the whole number) — the frame reads from its own start
/// instead, at most its length, as cPitchJitter does. In a voiced frame with F0 and
/// T = f_s/F0 samples, a period starts at s = 0 and for each length L in ⌊0.9·T⌋…⌈1.1·T⌉ the
/// Pearson correlation of x[s..<s+L] and x[s+L..<s+2L] is taken; the highest strict local
/// maximum (not at either end of that range) is the period, its length and value refined by the
/// parabola through it and its neighbours; without one the period is ⌊T + ½⌋ and unmeasured.
/// A measured period whose refined correlation exceeds 0.5 counts: its length P, and the
/// peak-to-peak amplitudes A of it and of the next P samples (each without its first and last
/// sample). Periods are taken while s < n − 2·⌈1.1·T⌉ − 1 (n the samples read).
///
/// - jitterLocal = mean |P_i − P_{i−1}| / mean P over the frame's counted periods, the previous
///   one carried over from the frame before while voiced; at most 1.
/// - shimmerLocaldB = 20·lg(1 + Σ|A_i − A_i'| / Σ(A_i + A_i')/2), the ratio at most 1.
///
/// A voiced frame without a counted period repeats the previous value (0 after an unvoiced
/// frame); unvoiced frames are 0.
struct OpenSmilePitchJitter: Sendable {
    /// Local jitter (a fraction of the mean period) and shimmer (dB) of each frame.
    var jitterLocal: [Double] = []
    var shimmerLocalDb: [Double] = []

    /// The search range around the expected period, a share of it.
    static let searchRange = 0.1
    /// The least refined correlation for a period to count.
    static let minimumCorrelation = 0.5

    /// No frames.
    init() {}

    /// The measures of the frames with F0 `f0Hz` (0 where unvoiced) of `samples` at `sampleRateHz`,
    /// frames `step` samples apart and `length` long.
    init(_ samples: [Double], sampleRateHz: Double, f0Hz: [Double], length: Int, step: Int) {
        jitterLocal.reserveCapacity(f0Hz.count)
        shimmerLocalDb.reserveCapacity(f0Hz.count)
        var state = State()
        let read = Self.readStep(sampleRateHz: sampleRateHz, step: step)
        samples.withUnsafeBufferPointer { x in
            for (index, f0) in f0Hz.enumerated() {
                let frame = state.frame(x, f0Hz: f0, sampleRateHz: sampleRateHz, start: index * step, length: length, read: read)
                jitterLocal.append(frame.jitter)
                shimmerLocalDb.append(frame.shimmerDb)
            }
        }
    }

    /// The samples a frame reads on from the last one's end, ⌈0.01 s / (1/f_s)⌉ as cPitchJitter
    /// computes it from the frame period and the sample period (`step` where that is not a
    /// usable count).
    static func readStep(sampleRateHz: Double, step: Int) -> Int {
        Int(checking: 0.01 / (1 / sampleRateHz), rounding: .up, in: 1...(1 << 30)) ?? step
    }

    /// What carries from one frame to the next.
    struct State {
        /// Where the next frame's reading starts, and how many samples before its own start that is.
        var next = 0, behind = 0
        /// The last counted period, s (0 after an unvoiced frame).
        var lastPeriod = 0.0
        /// The last jitter and shimmer ratios.
        var jitter = 0.0, shimmer = 0.0

        /// The expected period `period` (samples): its rounded length and the search range; nil
        /// unless each is a whole number of samples in 1…`limit`.
        static func lengths(_ period: Double, limit: Int) -> (expected: Int, low: Int, high: Int)? {
            guard let expected = Int(checking: period + 0.5, rounding: .down, in: 1...limit),
                  let low = Int(checking: (1 - searchRange) * period, rounding: .down, in: 1...limit),
                  let high = Int(checking: (1 + searchRange) * period, rounding: .up, in: 1...limit) else { return nil }
            return (expected, low, high)
        }

        /// The frame that starts at sample `start`, `length` samples long, reading `read` samples
        /// on from the last one's end.
        mutating func frame(_ x: UnsafeBufferPointer<Double>, f0Hz: Double, sampleRateHz: Double, start: Int, length: Int, read: Int) -> (jitter: Double, shimmerDb: Double) {
            let stepRead = read + behind
            let expectedLengths = Self.lengths(sampleRateHz / f0Hz, limit: length)
            var toRead = min(expectedLengths.map { max(stepRead, 2 * $0.high + 2) } ?? stepRead, behind + length)
            if start - behind != next {
                next = start
                toRead = min(toRead, length)
            }
            guard let (expected, low, high) = expectedLengths else {
                self = State(next: next + stepRead)
                return (0, 0)
            }
            let n = max(0, min(toRead, x.count - next))
            let frame = UnsafeBufferPointer(rebasing: x[min(next, x.count)..<(min(next, x.count) + n)])
            var correlations = [Double](repeating: 0, count: high - low + 1)
            var periods = 0, differences = 0, periodSum = 0.0, differenceSum = 0.0, amplitudeSum = 0.0, amplitudeDifferenceSum = 0.0
            var s = 0, lastStart = 0
            while s < n - 2 * high - 1 {
                Self.correlations(frame, s, low: low, into: &correlations)
                var best: Int? = nil
                for i in stride(from: 1, to: high - low - 1, by: 1)
                where correlations[i - 1] < correlations[i] && correlations[i] > correlations[i + 1] && best.map({ correlations[i] > correlations[$0] }) ?? true {
                    best = i
                }
                if let i = best {
                    let periodStart = s
                    s += low + i
                    let a = Self.peakToPeak(frame, from: periodStart, count: low + i), b = Self.peakToPeak(frame, from: s, count: low + i)
                    let (offset, peak) = parabolicPeak(correlations[i - 1], correlations[i], correlations[i + 1])
                    if peak > OpenSmilePitchJitter.minimumCorrelation {
                        let period = abs(Double(low + i) + offset) / sampleRateHz
                        periods += 1
                        periodSum += period
                        if lastPeriod > 0 {
                            differenceSum += abs(lastPeriod - period)
                            differences += 1
                        }
                        lastPeriod = period
                        amplitudeSum += (a + b) / 2
                        amplitudeDifferenceSum += abs(a - b)
                    }
                } else {
                    s += expected
                }
                if s < stepRead - 1 { lastStart = s }
            }
            behind = stepRead - lastStart
            next += lastStart
            if periods > 0 {
                if differences > 0 { jitter = differenceSum / Double(differences) / (periodSum / Double(periods)) }
                shimmer = amplitudeSum > 0 ? amplitudeDifferenceSum / amplitudeSum : 0
            }
            jitter = min(jitter, 1)
            shimmer = min(shimmer, 1)
            return (periods == 0 || differences > 0 ? jitter : 0, 20 * log10(1 + shimmer))
        }

        /// Pearson correlation of x[s..<s+lag] and x[s+lag..<s+2·lag] for each lag in
        /// `low`…`low + into.count − 1`, into `into` (NaN where either part is constant). The
        /// parts' sums are carried from lag to lag; the centred products take eight lanes at a time.
        static func correlations(_ x: UnsafeBufferPointer<Double>, _ s: Int, low: Int, into c: inout [Double]) {
            let a = x.baseAddress! + s
            var sumA = 0.0, sumB = 0.0
            for i in 0..<low { sumA += a[i]; sumB += a[low + i] }
            for k in c.indices {
                let lag = low + k
                if k > 0 {
                    // From lag − 1: a gains a[lag − 1]; b loses a[lag − 1], gains a[2·lag − 2] and a[2·lag − 1].
                    sumA += a[lag - 1]
                    sumB += a[2 * lag - 2] + a[2 * lag - 1] - a[lag - 1]
                }
                c[k] = correlation(a, a + lag, count: lag, meanA: sumA / Double(lag), meanB: sumB / Double(lag))
            }
        }

        /// Σ(a−ā)(b−b̄) / √(Σ(a−ā)²·Σ(b−b̄)²) over `count` samples (the sums eight lanes at a
        /// time, ``Autocorrelation/centredProducts(_:_:count:meanA:meanB:)``).
        static func correlation(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count: Int, meanA: Double, meanB: Double) -> Double {
            let (cross, energyA, energyB) = Autocorrelation.centredProducts(a, b, count: count, meanA: meanA, meanB: meanB)
            return cross / (energyA.squareRoot() * energyB.squareRoot())
        }

        /// max − min of x[from+1..<from+count−1] (a period has at least ten samples: its search
        /// range has an interior peak).
        static func peakToPeak(_ x: UnsafeBufferPointer<Double>, from: Int, count: Int) -> Double {
            var high = x[from + 1], low = high
            for i in (from + 1)..<(from + count - 1) { high = max(high, x[i]); low = min(low, x[i]) }
            return high - low
        }
    }
}
