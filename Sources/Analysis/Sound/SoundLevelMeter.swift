import InputGuards
import Glibc
import SignalProcessing

/// A streaming integrating-averaging sound level meter (IEC 61672-1): A, C and Z weighting,
/// time weighting F and S on the A-weighted signal, Leq overall and per interval, SEL,
/// LAFmax/LASmax, and LAF percentiles (docs/analyses.md §3.4). Feed blocks of samples of one channel;
/// memory does not grow with the length of the input except for the per-interval series (one
/// value per interval), and percentiles come from a fixed 0.01-dB histogram.
///
/// Levels are dBFS + `calibrationOffsetDecibels` (the SPL an RMS of 1.0 reads, §3.5).
public struct SoundLevelMeter: Sendable {
    /// The lowest sample rate A-weighting is metered at, Hz (exclusive): its response rises to
    /// 1 kHz, which a rate of 2 kHz or less cannot hold.
    public static let lowestRateHz = 2000.0
    public let sampleRateHz: Double
    public let calibrationOffsetDecibels: Double
    /// Length of the Leq intervals, s (ResearchKit: 1 s).
    public let intervalSeconds: Double
    /// Weighting of the F/S time-weighted levels (LAF, LAS by default).
    public let timeWeighting: FrequencyWeighting
    /// Samples filtered but not integrated at the start, s (0 by default: the filters start in
    /// their steady state for the first sample, so there is no start transient to skip).
    public let settlingSeconds: Double
    /// 1, 2 or 4: weighting and integration at that multiple of the input rate, after half-band
    /// FIR upsampling, which keeps the bilinear filters close to the analogue curves up to
    /// 20 kHz (docs/analyses.md §3.3: −1.11 instead of −6.21 dB at 16 kHz for 2× at 48 kHz).
    public let oversampling: Int
    private var upsamplers: [HalfBandUpsampler]
    /// The rate the filters and time constants run at: sampleRateHz × oversampling.
    private let workingRateHz: Double

    /// The A and C weighting filters.
    private var weightings: [BiquadCascade]
    private let settlingSamples: Int
    private var seen = 0
    /// Mean-square accumulators over everything so far (A, C, Z).
    private var energyA = 0.0, energyC = 0.0, energyZ = 0.0
    private(set) var samples = 0
    /// Exponential time weighting (F, S) of the weighted squares.
    private var fast: ExponentialAverage, slow: ExponentialAverage
    private var maxFast = -Double.infinity, maxSlow = -Double.infinity
    /// Σ A-weighted squares of the current interval.
    private var intervals: IntervalEnergy
    private let samplesPerInterval: Int
    /// LAeq per complete interval, dB.
    public private(set) var intervalLevelsDecibels: [Double] = []
    /// LAF every 0.1 s in a 0.01-dB histogram over [−100, 250) dB: the count of each bin that
    /// has any (a dense array of 35,000 bins cost a short recording 70 pages to zero).
    private var histogram: [Int: Int] = [:]
    private static let histogramBins = 35_000
    private var histogramCount = 0
    private let samplesPerLevelSample: Int
    /// Integrated samples until the next LAF histogram entry (a countdown, not a division per sample).
    private var untilLevelSample: Int
    /// Per-block work buffer (five parts of a block's length), grown to the largest block seen.
    private var scratch: [Double] = []

    public init(sampleRateHz inputRateHz: Double, calibrationOffsetDecibels: Double, intervalSeconds: Double = 1,
                timeWeighting: FrequencyWeighting = .a, settlingSeconds: Double = 0, oversampling: Int = 1) {
        let factor = oversampling >= 4 ? 4 : oversampling >= 2 ? 2 : 1
        self.oversampling = factor
        upsamplers = Array(repeating: HalfBandUpsampler(), count: factor == 4 ? 2 : factor == 2 ? 1 : 0)
        workingRateHz = inputRateHz * Double(factor)
        let sampleRateHz = workingRateHz
        self.sampleRateHz = inputRateHz
        self.calibrationOffsetDecibels = calibrationOffsetDecibels
        self.intervalSeconds = intervalSeconds
        self.timeWeighting = timeWeighting
        self.settlingSeconds = settlingSeconds
        settlingSamples = Int(clamping: settlingSeconds * sampleRateHz, rounding: .toNearestOrAwayFromZero, to: 0...Int.max)
        weightings = [FrequencyWeighting.a.filter(sampleRateHz: sampleRateHz), FrequencyWeighting.c.filter(sampleRateHz: sampleRateHz)]
        fast = ExponentialAverage(timeConstantSeconds: 0.125, sampleRateHz: sampleRateHz)
        slow = ExponentialAverage(timeConstantSeconds: 1, sampleRateHz: sampleRateHz)
        samplesPerInterval = Int(clamping: intervalSeconds * sampleRateHz, rounding: .toNearestOrAwayFromZero, to: 1...Int.max)
        intervals = IntervalEnergy(length: samplesPerInterval)
        samplesPerLevelSample = Int(clamping: 0.1 * sampleRateHz, rounding: .toNearestOrAwayFromZero, to: 1...Int.max)
        untilLevelSample = samplesPerLevelSample
    }

    /// Processes one block of one channel's samples (any length). Metering starts at the first
    /// sample: the upsamplers and weighting filters begin in the steady state of that sample's
    /// value (no start transient), and the F and S averages begin at 0 — a meter switched on in
    /// silence — so an event at t = 0 reads as the IEC 61672-1 tone-burst response says.
    ///
    /// Block-wise passes, each over the whole block: A and C weighting together, one per vector
    /// lane with each signal split in time over the lanes left (``BiquadCascade/processLanes``;
    /// several times faster than sequential filtering in blocks of ``BiquadCascade/laneBlockFrames(channels:)``
    /// or more), the A-weighted squares with the A, C and Z sums in one pass (stretches ending
    /// where an interval ends: the A sums are the intervals' too), F and S averaging with their
    /// maxima (the C kernels of CKernels), then the LAF samples every 0.1 s.
    public mutating func process(_ input: [Double]) {
        if seen == 0, let first = input.first {
            for k in upsamplers.indices { upsamplers[k].prime(constantInput: first) }
            for k in weightings.indices { weightings[k].prime(constantInput: first) }
        }
        var block = input  // not copied unless upsampled
        for k in upsamplers.indices { block = upsamplers[k].process(block) }
        let n = block.count
        guard n > 0 else { return }
        // Samples before `settlingSamples` are filtered but not integrated.
        let skip = seen >= settlingSamples ? 0 : min(n, settlingSamples - seen)
        seen = seen > Int.max - n ? Int.max : seen + n
        let count = n - skip
        // The work buffer, taken out of self while the closures below update the meter.
        var work: [Double] = []
        swap(&work, &scratch)
        defer { swap(&work, &scratch) }
        // Every value is written before it is read, and the C- and Z-weighted squares' third
        // is written only when the time weighting needs it: not zeroed (each page is touched
        // first by what is written to it, or never). The A-weighted squares are written over
        // the A-weighted samples they come from (behind the kernel's reads).
        if work.count < 3 * n { work = [Double](unsafeUninitializedCapacity: 3 * n) { $1 = 3 * n } }
        block.withUnsafeBufferPointer { z in
            work.withUnsafeMutableBufferPointer { work in
                // A- and C-weighted samples, A-weighted and time-weighted squares, F averages.
                let base = work.baseAddress!
                let a = UnsafeMutableBufferPointer(start: base, count: n), c = UnsafeMutableBufferPointer(start: base + n, count: n)
                let pa = a, pt = UnsafeMutableBufferPointer(start: base + 2 * n, count: n)
                BiquadCascade.processLanes(&weightings, inputs: { _ in z.baseAddress! }, stride: 1, count: n,
                                           outputs: { $0 == 0 ? a.baseAddress! : c.baseAddress! })
                guard count > 0 else { return }
                let kept = skip..<n
                // The A-weighted squares with the A, C and Z sums, stretch by stretch: each stretch
                // ends where an interval or the block does, so its A sum is also the interval's
                // share (the sum IntervalEnergy forms of the same samples, in the same order).
                var completed: [Double] = []
                var start = skip
                while start < n {
                    let stretch = start..<min(n, start + intervals.remaining)
                    let sums = Statistics.squares(of: UnsafeBufferPointer(rebasing: a[stretch]), into: UnsafeMutableBufferPointer(rebasing: pa[(start - skip)...]),
                                                  summingSquaresOf: UnsafeBufferPointer(rebasing: c[stretch]), UnsafeBufferPointer(rebasing: z[stretch]))
                    energyA += sums.a
                    energyC += sums.c
                    energyZ += sums.z
                    intervals.add(sumOfSquares: sums.a, count: stretch.count) { completed.append($0) }
                    start = stretch.upperBound
                }
                intervalLevelsDecibels += completed.map { level($0 / Double(samplesPerInterval)) }
                // The squares the time weighting averages; the F averages are written over them
                // (the kernel reads each block before it writes it).
                let weighted: UnsafeMutableBufferPointer<Double>
                switch timeWeighting {
                case .a:
                    weighted = UnsafeMutableBufferPointer(rebasing: pa[0..<count])
                case .c:
                    _ = Statistics.squares(of: UnsafeBufferPointer(rebasing: c[kept]), into: pt)
                    weighted = UnsafeMutableBufferPointer(rebasing: pt[0..<count])
                case .z:
                    _ = Statistics.squares(of: UnsafeBufferPointer(rebasing: z[kept]), into: pt)
                    weighted = UnsafeMutableBufferPointer(rebasing: pt[0..<count])
                }
                let maxima = ExponentialAverage.add(UnsafeBufferPointer(weighted), to: &fast, averages: weighted, and: &slow)
                let fastOut = weighted
                maxFast = max(maxFast, maxima.first)
                maxSlow = max(maxSlow, maxima.second)
                // LAF every 0.1 s: the average after the sample that ends each period.
                var next = untilLevelSample - 1
                while next < count {
                    record(level(fastOut[next]))
                    next += samplesPerLevelSample
                }
                untilLevelSample = next - count + 1
            }
        }
        samples += count
    }

    private func level(_ meanSquare: Double) -> Double {
        10 * log10(meanSquare) + calibrationOffsetDecibels
    }

    private mutating func record(_ decibels: Double) {
        guard decibels.isFinite else { return }
        let bin = Int(clamping: (decibels + 100) * 100, rounding: .down, to: 0...(Self.histogramBins - 1))
        histogram[bin, default: 0] += 1
        histogramCount += 1
    }

    /// The results so far.
    public var result: Result {
        let duration = Double(samples) / workingRateHz
        let laeq = level(energyA / Double(max(samples, 1)))
        return Result(
            durationSeconds: duration,
            laeqDecibels: laeq,
            lceqDecibels: level(energyC / Double(max(samples, 1))),
            lzeqDecibels: level(energyZ / Double(max(samples, 1))),
            laeDecibels: laeq + 10 * log10(duration),
            lafmaxDecibels: maxFast.isFinite ? level(maxFast) : nil,
            lasmaxDecibels: maxSlow.isFinite ? level(maxSlow) : nil,
            // Percentiles interpolate between 0.01-dB bin centres; LAFmax bounds them.
            laf10Decibels: capped(percentile(90)), laf50Decibels: capped(percentile(50)), laf90Decibels: capped(percentile(10)),
            intervalLevelsDecibels: intervalLevelsDecibels, calibrationOffsetDecibels: calibrationOffsetDecibels)
    }

    private func capped(_ percentile: Double?) -> Double? {
        guard let percentile, maxFast.isFinite else { return percentile }
        return min(percentile, level(maxFast))
    }

    /// The level exceeded `percent` % of the intervals (type-7 quantile of the interval LAeq
    /// series), dB; nil without intervals.
    public func intervalLevelExceeded(percent: Double) -> Double? {
        guard !intervalLevelsDecibels.isEmpty else { return nil }
        return Statistics.quantileOfSorted(intervalLevelsDecibels.sorted(), 1 - percent / 100)
    }

    /// The p-th percentile of the LAF samples (type 7 between histogram bin centres).
    private func percentile(_ p: Double) -> Double? {
        guard histogramCount > 0 else { return nil }
        let h = Double(histogramCount - 1) * p / 100
        let bins = histogram.sorted { $0.key < $1.key }
        func value(at rank: Int) -> Double {
            var seen = 0
            for (bin, count) in bins {
                seen += count
                if seen > rank { return Double(bin) / 100 - 100 + 0.005 }
            }
            return .nan
        }
        let lower = Int(clamping: h, rounding: .down, to: 0...(histogramCount - 1))
        let low = value(at: lower), high = value(at: min(lower + 1, histogramCount - 1))
        return low + (h - Double(lower)) * (high - low)
    }

    /// Levels of a recording, dB (dBFS + calibration offset).
    public struct Result: Sendable {
        /// Length of the audio metered, s.
        public var durationSeconds: Double
        /// A-weighted equivalent continuous level, dB.
        public var laeqDecibels: Double
        /// C-weighted equivalent continuous level, dB.
        public var lceqDecibels: Double
        /// Unweighted (Z) equivalent continuous level, dB.
        public var lzeqDecibels: Double
        /// Sound exposure level: LAeq + 10·lg(T / 1 s).
        public var laeDecibels: Double
        /// Maximum fast time-weighted level (of `timeWeighting`, A by default), dB; nil when not
        /// finite. Both maxima weight from zero, as IEC 61672-1's tone-burst response does: a
        /// recording shorter than a few τ reads below its steady level (docs/analyses.md §3.7).
        public var lafmaxDecibels: Double?
        /// Maximum slow time-weighted level, dB; nil when not finite.
        public var lasmaxDecibels: Double?
        /// Level exceeded 10 % of the time (LAF every 0.1 s, ISO 1996-1), dB.
        public var laf10Decibels: Double?
        /// Level exceeded 50 % of the time, dB.
        public var laf50Decibels: Double?
        /// Level exceeded 90 % of the time, dB.
        public var laf90Decibels: Double?
        /// LAeq of each complete interval.
        public var intervalLevelsDecibels: [Double]
        /// The offset the levels were read with: dB SPL at RMS 1.0.
        public var calibrationOffsetDecibels: Double
    }
}

/// ResearchKit's environment-SPL decision (ORKEnvironmentSPLMeterStepViewController.m,
/// docs/analyses.md §3.6): a reading below `threshold` counts, one at or above resets; the step passes
/// at `required` consecutive readings below the threshold.
public enum ResearchKitSPL {
    /// iPhone and iPod touch sensitivity offset (dB); the calibration offset is 94 − it = 117.3.
    public static let iPhoneSensitivityOffset = -23.3
    /// iPad sensitivity offset (dB); calibration offset 123.3.
    public static let iPadSensitivityOffset = -29.3
    /// The step's threshold, dB(A), and the consecutive readings below it that pass.
    public static let thresholdDecibels = 35.0
    public static let requiredReadings = 5

    /// The calibration offset (dB SPL at RMS 1.0) of a sensitivity offset: 94 − it (a 94-dB
    /// calibrator reads at RMS 1 + the offset).
    public static func calibrationOffset(sensitivityOffset: Double) -> Double { 94 - sensitivityOffset }

    /// The 0-based index of the reading at which the step passes, or nil.
    public static func decision(readings: [Double], threshold: Double = thresholdDecibels, required: Int = requiredReadings) -> Int? {
        var run = 0
        for (index, reading) in readings.enumerated() {
            run = reading < threshold ? run + 1 : 0
            if run >= required { return index }
        }
        return nil
    }
}
