import Foundation
import InputGuards
import Glibc
import SensorData
import SignalProcessing

/// Gait from a phone's accelerometer anywhere on the body (docs/analyses.md §2.3–2.7): vertical
/// projection against the gravity estimate, walking bouts, steps as peaks of the 0.5–3 Hz
/// band, cadence by four estimators, step/stride times, Moe-Nilssen regularity and symmetry,
/// and Menz harmonic ratio; sway on mostly-still recordings (§2.8) and the tremor spectrum
/// (§2.9). Pure functions of a `MotionSignal`.
public enum GaitAnalysis {
    /// Tunable values; defaults are the ones tuned on the Oxford Step Counter walks (see the
    /// issue note and `activetask evaluate oxford`).
    public struct Parameters: Sendable, Hashable, Codable {
        /// Analysis rate after resampling, Hz.
        public var rateHz = 100.0
        /// Gravity low-pass cutoff, Hz (2nd-order Butterworth, zero-phase).
        public var gravityCutoffHz = 0.3
        /// Step band's lower edge, Hz.
        public var bandLowHz = 0.5
        /// Step band's upper edge, Hz.
        public var bandHighHz = 3.0
        /// Minimum peak prominence as a multiple of the band signal's SD within the bout.
        public var prominenceFactor = 0.5
        /// Minimum spacing of steps, × the step period (the spacing is the larger of this and `minimumSpacingSeconds`).
        public var spacingFactor = 0.6
        /// The spacing's lower bound, s.
        public var minimumSpacingSeconds = 0.25
        /// Walking windows: SD of |a_d| at least this, in g …
        public var walkingSdG = 0.02
        /// … and at least this share of v's 0.3–15 Hz power in the step band (0.5 in the spec's
        /// starting values; pocket walks put 20–50 % there).
        public var walkingBandFraction = 0.15
        /// Bouts must be periodic: autocorrelation at the stride lag at least this, judged on
        /// chunks of `chunkSeconds`.
        public var minimumStrideRegularity = 0.3
        /// Length of the chunks the periodicity is judged on, s.
        public var chunkSeconds = 10.0
        /// Below this ratio R(step)/R(stride) a bout's steps are not separable in the signal
        /// (phone in a trouser pocket: one leg's heel strikes dominate); steps are then placed
        /// at each stride peak and half-way to the next.
        public var strideModeRatio = 0.35
        /// Bout assembly: walking windows up to this far apart are merged, s.
        public var mergeGapSeconds = 1.0
        /// Bouts shorter than this are dropped, s.
        public var minimumBoutSeconds = 5.0
        /// Seconds trimmed at both ends of a bout for regularity, symmetry and harmonic ratio.
        public var trimSeconds = 1.0
        /// Window of the per-window cadence, s.
        public var cadenceWindowSeconds = 20.0
        /// Hop of the per-window cadence, s.
        public var cadenceHopSeconds = 10.0

        public init() {}

        /// Why these parameters cannot be used (nil: they can): every value finite and
        /// positive (fractions in 0…1), a band inside 0–rate/2, a hop no longer than its window.
        public var problem: String? {
            let values: [(String, Double)] = [
                ("rateHz", rateHz), ("gravityCutoffHz", gravityCutoffHz), ("bandLowHz", bandLowHz), ("bandHighHz", bandHighHz),
                ("prominenceFactor", prominenceFactor), ("spacingFactor", spacingFactor), ("minimumSpacingSeconds", minimumSpacingSeconds),
                ("walkingSdG", walkingSdG), ("walkingBandFraction", walkingBandFraction), ("minimumStrideRegularity", minimumStrideRegularity),
                ("chunkSeconds", chunkSeconds), ("strideModeRatio", strideModeRatio), ("mergeGapSeconds", mergeGapSeconds),
                ("minimumBoutSeconds", minimumBoutSeconds), ("trimSeconds", trimSeconds), ("cadenceWindowSeconds", cadenceWindowSeconds),
                ("cadenceHopSeconds", cadenceHopSeconds),
            ]
            if let (name, value) = values.first(where: { !($0.1.isFinite && $0.1 >= 0 && $0.1 <= 1e6) }) {
                return "\(name) \(value) is not a number in 0…1000000"
            }
            if !(rateHz >= 10 && rateHz <= 1000) { return "rateHz \(rateHz) is outside 10…1000 Hz" }
            if !(bandLowHz < bandHighHz && bandHighHz < rateHz / 2) { return "step band \(bandLowHz)–\(bandHighHz) Hz is not a band below rateHz/2" }
            if !(gravityCutoffHz > 0 && gravityCutoffHz < rateHz / 2) { return "gravityCutoffHz \(gravityCutoffHz) is not in 0…rateHz/2" }
            for (name, value) in [("walkingBandFraction", walkingBandFraction), ("minimumStrideRegularity", minimumStrideRegularity)] where value > 1 {
                return "\(name) \(value) is a fraction (0…1)"
            }
            // A window, hop or chunk shorter than one sample at rateHz would count more windows or
            // chunks than the recording has samples (a hop of 1e-6 s, a chunk of 1e-300 s): the
            // counts stay bounded by the samples, checked before anything is allocated.
            for (name, value) in [("cadenceWindowSeconds", cadenceWindowSeconds), ("cadenceHopSeconds", cadenceHopSeconds), ("chunkSeconds", chunkSeconds)]
            where !(value * rateHz >= 1) {
                return "\(name) \(value) s is shorter than one sample at rateHz (\(1 / rateHz) s); windows, hops and chunks are at least one sample long"
            }
            return nil
        }
    }

    /// Steps and bouts of a recording, with its features.
    public struct Result: Sendable {
        /// Step times, s (the recording's clock).
        public var stepTimes: [Double]
        /// Walking bouts, s.
        public var bouts: [ClosedRange<Double>]
        /// Steps, cadence, regularity, symmetry, harmonic ratio, bouts, sway and tremor (docs/analyses.md §2).
        public var features: GaitFeatures
        /// Cadence estimators that disagree, or a cadence walking does not reach.
        public var warnings: [String]
        /// Rows left out for values no sensor measures (``implausibleRowsWarning``) and parts without
        /// a vertical reference (`noVerticalReference`), for gait and balance alike.
        public var inputWarnings: [String]
        /// Why sway's measures are null (a recording mostly walking, too short, without horizontal
        /// power), nil when they are all numbers: a balance score's warning.
        public var swayMissing: String?

        /// Whether the recording was long enough (≥ 5 s without gaps) for the tremor spectrum (§2.9).
        public var hasTremorSpectrum: Bool { features.tremor.tremorDominantFrequencyHzAccel != nil }
    }

    /// Analyses `signal`. With `windows` true, the cadence of every 20-s window (10-s hop) is
    /// added as `cadenceWindowsStepsPerMinute`, each window analysed as a recording of its own.
    public static func analyze(_ signal: MotionSignal, parameters p: Parameters = Parameters(), windows: Bool = true) -> Result {
        analyze(signal, parameters: p, windows: windows, parallelFrom: StepAnalysis.parallelSamples)
    }

    /// ``analyze(_:parameters:windows:)`` with segments of `parallelFrom` samples or more on two
    /// threads (`Int.max`: all on this one; the results are the same bits).
    static func analyze(_ signal: MotionSignal, parameters p: Parameters, windows: Bool, parallelFrom: Int) -> Result {
        let core = StepAnalysis(signal, parameters: p, tremor: true, parallelFrom: parallelFrom)
        let (cadence, regularity) = Parallel.pair(parallel: core.isLong) { core.cadence } _: { core.regularityAndHarmonicRatios }
        var features = core.features(cadence: cadence, regularity: regularity)
        // Sway describes standing still: only for recordings that are mostly not walking.
        let span = (core.sampleTimes.last ?? 0) - (core.sampleTimes.first ?? 0)
        let walking = core.bouts.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
        let swayMissing: String?
        if walking < 0.5 * span {
            (features.sway, swayMissing) = core.sway
        } else {
            swayMissing = String(format: "sway: %.3g of the recording's %.3g s are walking bouts; sway describes standing still and is null for a recording mostly walking", walking, span)
        }
        if windows {
            // Windows over the cleaned (sorted, finite) samples; windows without samples are
            // skipped in one jump, so the work follows the samples, not the time span. Each
            // window is analysed on its own, over the cores when there are many.
            var found: [Range<Int>] = []
            let times = core.cleaned.time, width = p.cadenceWindowSeconds, hop = p.cadenceHopSeconds
            if let first = times.first, let last = times.last {
                var start = first, lower = 0
                while start + width <= last + 1e-9 {
                    while lower < times.count, times[lower] < start { lower += 1 }
                    var upper = lower
                    while upper < times.count, times[upper] < start + width { upper += 1 }
                    let next: Double
                    if upper > lower {
                        found.append(lower..<upper)
                        next = start + hop
                    } else {
                        next = start + max(1, ((times[lower] - start - width) / hop).rounded(.down)) * hop
                    }
                    guard next > start else { break }  // a time so large that a hop no longer moves it
                    start = next
                }
            }
            let cleaned = core.cleaned, spans = found
            let cadences = Parallel.map(spans.count, parallel: spans.count >= 8 && cleaned.count >= parallelFrom) {
                StepAnalysis(cleaned.slice(spans[$0]), parameters: p).cadence.value ?? .nan
            }
            features.cadenceWindowsStepsPerMinute = cadences
        }
        var inputWarnings = core.implausibleRows > 0 ? [implausibleRowsWarning(core.implausibleRows)] : []
        let flat = core.segments.filter(\.noVertical).count
        if flat > 0 {
            inputWarnings.append("noVerticalReference: gravity averages under 0.2 g in \(flat) of \(core.segments.count) gap-free part\(core.segments.count == 1 ? "" : "s") "
                + "(gravity removed, or a device-motion gravity of zero): the axis of largest variance stands in for the vertical, the next for H1, and H2 is 0")
        }
        return Result(stepTimes: core.steps, bouts: core.bouts, features: features, warnings: cadence.warnings, inputWarnings: inputWarnings,
                      swayMissing: swayMissing)
    }

    /// The warning for `count` rows left out because they hold an acceleration beyond ±1,000 g or
    /// a rotation rate beyond ±1,000 rad/s (docs/analyses.md §2.3, step 1; docs/reliability.md).
    static func implausibleRowsWarning(_ count: Int) -> String {
        "implausibleValues: \(count) row\(count == 1 ? "" : "s") with an acceleration beyond ±1,000 g (9,806.65 m/s²) or a rotation rate beyond ±1,000 rad/s, which no phone sensor measures, left out"
    }

    /// Cadence of a recording only (the per-window estimator), steps/min; nil if no walking.
    public static func cadence(_ signal: MotionSignal, parameters: Parameters = Parameters()) -> Double? {
        StepAnalysis(signal, parameters: parameters).cadence.value
    }
}

/// One pass of preprocessing, bouts, autocorrelation and steps over a recording.
struct StepAnalysis {
    let p: GaitAnalysis.Parameters
    /// Per gap-free segment.
    var segments: [Segment] = []
    var steps: [Double] = []
    var bouts: [ClosedRange<Double>] = []
    /// The recording sorted by time, without non-finite or implausible rows and repeated timestamps.
    let cleaned: MotionSignal
    /// Rows left out for an acceleration or rotation rate no sensor measures.
    let implausibleRows: Int
    var sampleTimes: [Double] { cleaned.time }

    struct Segment {
        var motion: UniformMotion
        var v: [Double], vBand: [Double], v20: [Double], h1: [Double], h2: [Double]
        /// Gravity averaged under 0.2 g (``MotionPreprocessing/decompose(_:)``): v is the axis of
        /// largest variance, h1 the next, h2 zero.
        var noVertical: Bool
        /// Bouts as sample ranges.
        var bouts: [Range<Int>]
        /// Per bout: step and stride lags (samples) and R at them.
        var lags: [(m1: Double, m2: Double, r1: Double, r2: Double)]
        /// What walked but is no bout, for the warning without a cadence: seconds of walking
        /// windows (merged), and the walking stretches long enough for a bout whose stride
        /// regularity stays below `minimumStrideRegularity` throughout.
        var walkingSeconds = 0.0, aperiodicBouts = 0
        /// Per bout: step sample positions (fractional).
        var steps: [[Double]]
    }

    /// Features of the tremor spectrum (§2.9) of the longest segment, when asked for.
    var tremor = TremorFeatures()

    /// Segments of this many samples or more run their independent stages on two threads.
    let parallelFrom: Int

    /// Whether the longest segment is long enough for two threads (``parallelFrom``).
    let isLong: Bool

    /// The default ``parallelFrom`` (samples; 164 s at 100 Hz): below, a thread handoff
    /// (``Parallel``) costs more than the stage.
    static let parallelSamples = 1 << 14

    /// With `tremor`, the tremor spectrum of the longest segment too, beside the steps on another
    /// thread when that segment is long.
    init(_ signal: MotionSignal, parameters: GaitAnalysis.Parameters, tremor: Bool = false, parallelFrom: Int = parallelSamples) {
        p = parameters
        self.parallelFrom = parallelFrom
        let (cleaned, ranges, implausible) = MotionPreprocessing.clean(signal, parallel: signal.count >= parallelFrom)
        self.cleaned = cleaned
        implausibleRows = implausible
        let p = parameters
        let motions = ranges.compactMap { MotionPreprocessing.uniform(cleaned.slice($0), rateHz: p.rateHz, gravityCutoffHz: p.gravityCutoffHz, parallelFrom: parallelFrom) }
        // The first of the longest, as `longestSegment` picks it.
        let longest = motions.indices.max { motions[$0].count < motions[$1].count }
        let long = longest.map { motions[$0].count >= parallelFrom } ?? false
        isLong = long
        (segments, self.tremor) = Parallel.pair(parallel: tremor && long) {
            motions.map { Self.segment($0, parameters: p, parallelFrom: parallelFrom) }
        } _: {
            tremor ? Self.tremorFeatures(of: longest.map { motions[$0] }, rateHz: p.rateHz) : TremorFeatures()
        }
        for segment in segments {
            for bout in segment.bouts {
                bouts.append(segment.motion.time(Double(bout.lowerBound))...segment.motion.time(Double(bout.upperBound - 1)))
            }
            steps += segment.steps.flatMap { $0.map(segment.motion.time) }
        }
    }

    /// Decomposition, step band, bouts, lags and steps of one gap-free segment.
    static func segment(_ motion: UniformMotion, parameters p: GaitAnalysis.Parameters, parallelFrom: Int) -> Segment {
        let (v, h1, h2, magnitude, noVertical) = MotionPreprocessing.decompose(motion)
        let fs = p.rateHz
        // The step band, the 20-Hz signal and the walking windows, each from v alone.
        let long = motion.count >= parallelFrom
        let ((vBand, v20), bouts) = Parallel.pair(parallel: long) {
            Parallel.pair(parallel: long) {
                Butterworth.bandPass(lowHz: p.bandLowHz, highHz: p.bandHighHz, sampleRateHz: fs).filtfilt(v, padding: Int(clamping: 2 * fs))
            } _: {
                Butterworth.lowPass(cutoffHz: 20, sampleRateHz: fs).filtfilt(v, padding: Int(clamping: fs))
            }
        } _: {
            walkingBouts(v: v, magnitude: magnitude, fs: fs, p: p)
        }
        var segment = Segment(motion: motion, v: v, vBand: vBand, v20: v20, h1: h1, h2: h2, noVertical: noVertical, bouts: [], lags: [], steps: [])
        let parts = periodicParts(of: bouts.long, v20: v20, fs: fs, p: p, parallel: long)
        segment.walkingSeconds = Double(bouts.walking.reduce(0) { $0 + $1.count }) / fs
        segment.aperiodicBouts = bouts.long.filter { bout in !parts.contains { $0.0.overlaps(bout) } }.count
        segment.bouts = parts.map(\.0)
        segment.lags = parts.map(\.1)
        segment.steps = Parallel.map(parts.count, parallel: long) { steps(in: Array(vBand[parts[$0].0]), offset: parts[$0].0.lowerBound, lags: parts[$0].1, fs: fs, p: p) }
        return segment
    }

    /// Splits each bout into chunks of about `chunkSeconds`, keeps the runs of consecutive chunks
    /// whose stride regularity reaches `minimumStrideRegularity` (long walks change pace, so one
    /// autocorrelation over minutes understates regularity), and gives each run the median of its
    /// chunks' lags. With `parallel`, the chunks' lags over two threads.
    static func periodicParts(of bouts: [Range<Int>], v20: [Double], fs: Double, p: GaitAnalysis.Parameters, parallel: Bool = false)
        -> [(Range<Int>, (m1: Double, m2: Double, r1: Double, r2: Double))]
    {
        // Every bout's chunks in order, and each chunk's lags (each from its own samples alone).
        var chunks: [Range<Int>] = [], chunkCounts: [Int] = []
        for bout in bouts {
            let chunkCount = max(1, Int(clamping: Double(bout.count) / (p.chunkSeconds * fs), rounding: .toNearestOrAwayFromZero))
            let size = bout.count / chunkCount
            for c in 0..<chunkCount {
                let lower = bout.lowerBound + c * size
                chunks.append(lower..<(c == chunkCount - 1 ? bout.upperBound : lower + size))
            }
            chunkCounts.append(chunkCount)
        }
        let chunkLags = Parallel.map(chunks.count, parallel: parallel) { [chunks] in strideLags(Array(v20[chunks[$0]]), fs: fs) }
        var parts: [(Range<Int>, (m1: Double, m2: Double, r1: Double, r2: Double))] = []
        var next = 0
        for chunkCount in chunkCounts {
            var run: (range: Range<Int>, lags: [(m1: Double, m2: Double, r1: Double, r2: Double)])?
            func close() {
                guard let current = run, !current.lags.isEmpty else { return }
                func median(_ values: [Double]) -> Double { values.statistic(Statistics.median) }
                let lags = current.lags
                parts.append((current.range, (median(lags.map(\.m1)), median(lags.map(\.m2)), median(lags.map(\.r1)), median(lags.map(\.r2)))))
                run = nil
            }
            for c in next..<(next + chunkCount) {
                if let lags = chunkLags[c], lags.r2 >= p.minimumStrideRegularity {
                    run = ((run?.range.lowerBound ?? chunks[c].lowerBound)..<chunks[c].upperBound, (run?.lags ?? []) + [lags])
                } else {
                    close()
                }
            }
            close()
            next += chunkCount
        }
        return parts
    }

    /// Steps of one bout (docs/analyses.md §2.5): peaks of the band signal with prominence ≥
    /// prominenceFactor × SD, spaced ≥ max(spacingFactor × step period, minimumSpacing),
    /// refined parabolically; in stride mode (R(step) < strideModeRatio × R(stride)) the peaks
    /// are strides and a step is added half-way between consecutive strides.
    static func steps(in band: [Double], offset: Int, lags: (m1: Double, m2: Double, r1: Double, r2: Double), fs: Double,
                      p: GaitAnalysis.Parameters) -> [Double] {
        let strideMode = lags.r1 < p.strideModeRatio * lags.r2
        let period = (strideMode ? lags.m2 : lags.m1) / fs
        let sd = band.statistic(Statistics.standardDeviation)
        let spacing = max(p.spacingFactor * period, p.minimumSpacingSeconds) * fs
        let peaks = Peaks.find(band, minimumProminence: p.prominenceFactor * sd, minimumDistance: Int(spacing.rounded(.down)))
        var positions = peaks.map { peak -> Double in
            guard peak > 0, peak < band.count - 1 else { return Double(offset + peak) }
            return Double(offset + peak) + Peaks.parabolicVertex(band[peak - 1], band[peak], band[peak + 1]).offset
        }
        if strideMode, positions.count >= 2 {
            var withHalves: [Double] = []
            for (a, b) in zip(positions, positions.dropFirst()) {
                withHalves.append(a)
                if b - a < 1.5 * lags.m2 { withHalves.append((a + b) / 2) }
            }
            withHalves.append(positions[positions.count - 1])
            positions = withHalves
        }
        return positions
    }

    // MARK: Bouts (docs/analyses.md §2.4)

    /// 2-s windows, 1-s hop: walking if SD(|a_d|) ≥ walkingSdG·g and ≥ walkingBandFraction of
    /// v's 0.3–15 Hz power lies in the step band; windows merged across ≤ mergeGap, bouts shorter
    /// than minimumBout dropped: the merged windows, and those long enough.
    static func walkingBouts(v: [Double], magnitude: [Double], fs: Double, p: GaitAnalysis.Parameters) -> (walking: [Range<Int>], long: [Range<Int>]) {
        let window = Int(clamping: 2 * fs), hop = Int(clamping: fs)
        guard v.count >= window, let fft = try? FFT(size: window) else { return ([], []) }
        let hann = Window.hann.values(count: window)
        // The bins of the 0.3–15 Hz total and of the step band, decided once (each a run of bins).
        func bins(_ low: Double, _ high: Double) -> Range<Int> {
            let inside = (0..<fft.realBins).filter { k in
                let f = Double(k) * fs / Double(window)
                return f >= low && f <= high
            }
            return inside.first.map { $0..<(inside.last! + 1) } ?? 0..<0
        }
        let totalBins = bins(0.3, 15), bandBins = bins(p.bandLowHz, p.bandHighHz)
        var walking: [Range<Int>] = []
        var frame = [Double](repeating: 0, count: window), spectrum = [Double](repeating: 0, count: 2 * fft.realBins)
        var power = [Double](repeating: 0, count: fft.realBins)
        // Hops from the start, plus one window flush with the end so the tail is judged too.
        var starts = Array(stride(from: 0, through: v.count - window, by: hop))
        if let last = starts.last, last + window < v.count { starts.append(v.count - window) }
        // Every window's SD of |a_d| (Statistics.variance's sums, in its order), then the mean of
        // v of those moving enough, eight windows side by side.
        let n = Double(window)
        let moving = magnitude.withUnsafeBufferPointer { magnitude in
            var means = Statistics.frameSums(magnitude, starts: starts, length: window)
            for k in means.indices { means[k] /= n }
            let sums = Statistics.frameSums(magnitude, starts: starts, length: window, centers: means)
            return starts.indices.compactMap { (sums[$0] / (n - 1)).squareRoot() >= p.walkingSdG * standardGravity ? starts[$0] : nil }
        }
        v.withUnsafeBufferPointer { v in
        var means = Statistics.frameSums(v, starts: moving, length: window)
        for k in means.indices { means[k] /= n }
        hann.withUnsafeBufferPointer { hann in frame.withUnsafeMutableBufferPointer { frame in
        spectrum.withUnsafeMutableBufferPointer { spectrum in power.withUnsafeMutableBufferPointer { power in
            for (start, mean) in zip(moving, means) {
                let first = v.baseAddress! + start  // no index sums to check: the loop vectorises
                for i in 0..<window { frame[i] = (first[i] - mean) * hann[i] }
                fft.forward(UnsafeBufferPointer(frame), into: spectrum)
                FrameSpectra.power(spectrum.baseAddress!, bins: fft.realBins, into: power.baseAddress!, stride: 1)
                // Each sum over its bins in order, as one pass over all bins adds them.
                let band = power[bandBins].reduce(0, +), total = power[totalBins].reduce(0, +)
                if total > 0, band / total >= p.walkingBandFraction { walking.append(start..<(start + window)) }
            }
        } } } } }
        var merged: [Range<Int>] = []
        for range in walking {
            if let last = merged.last, range.lowerBound - last.upperBound <= Int(clamping: p.mergeGapSeconds * fs) {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return (merged, merged.filter { Double($0.count) / fs >= p.minimumBoutSeconds })
    }

    // MARK: Lags (docs/analyses.md §2.6–2.7)

    /// Step and stride lags from the autocorrelation R of `x` (docs/analyses.md §2.6, with a check
    /// the spec's rule lacks): stride candidates are the local maxima of R in [0.5, 2.4] s with
    /// R ≥ 0.5 × the largest; taking them by increasing lag, a candidate c is the stride if R has
    /// a positive local maximum in [0.35·c, 0.65·c] (the step), else c is itself a step (R at
    /// half a step is a trough) and the search goes on. This removes the cadence doubling of the
    /// "first peak ≥ 0.9 × largest" rule on symmetric gaits, where R(step) ≈ R(stride). The step
    /// lag m1 is the highest local maximum in [0.35·m2, 0.65·m2] (none → m2/2). Lags are in
    /// samples, refined parabolically, with R at each.
    static func strideLags(_ x: [Double], fs: Double) -> (m1: Double, m2: Double, r1: Double, r2: Double)? {
        let mean = x.reduce(0, +) / Double(max(1, x.count))
        let r = Autocorrelation.unbiased(x.map { $0 - mean }, maxLag: Int(clamping: 2.4 * fs) + 1)
        let low = Int(clamping: 0.5 * fs), high = min(Int(clamping: 2.4 * fs), r.count - 2)
        guard high > low else { return nil }
        func isMaximum(_ i: Int) -> Bool { r[i] > r[i - 1] && r[i] >= r[i + 1] }
        let maxima = (max(1, low)...high).filter(isMaximum)
        guard let largest = maxima.map({ r[$0] }).max(), largest > 0 else { return nil }
        let candidates = maxima.filter { r[$0] >= 0.5 * largest }
        func stepPeak(_ stride: Double) -> Int? {
            let from = max(1, Int(clamping: 0.35 * stride, rounding: .up)), to = min(r.count - 2, Int(clamping: 0.65 * stride, rounding: .down))
            guard from <= to else { return nil }
            return (from...to).filter(isMaximum).max { r[$0] < r[$1] }
        }
        let m2 = candidates.first { c in stepPeak(Double(c)).map { r[$0] > 0 } ?? false } ?? candidates.first { r[$0] >= 0.9 * largest }!
        let (o2, r2) = Peaks.parabolicVertex(r[m2 - 1], r[m2], r[m2 + 1])
        let stride = Double(m2) + o2
        if let m1 = stepPeak(stride) {
            let (o1, r1) = Peaks.parabolicVertex(r[m1 - 1], r[m1], r[m1 + 1])
            return (Double(m1) + o1, stride, r1, r2)
        }
        let half = stride / 2
        let lower = Int(clamping: half, rounding: .down)
        let r1 = lower + 1 < r.count ? r[lower] + (half - Double(lower)) * (r[lower + 1] - r[lower]) : .nan
        return (half, stride, r1, r2)
    }
}
