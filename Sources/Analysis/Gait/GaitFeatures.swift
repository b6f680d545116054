import InputGuards
import Glibc
import SignalProcessing

extension StepAnalysis {
    /// The four cadence estimators of docs/analyses.md §2.6 and the chosen value, steps/min.
    struct Cadence {
        var fromSteps: Double?
        var medianFromSteps: Double?
        var autocorrelation: Double?
        var dominantFrequency: Double?
        var dominantFrequencyHz: Double?
        var value: Double?
        var source: CadenceSource
        /// Set when the estimators disagree by more than 15 %, or the steps imply a cadence that
        /// walking does not reach (``walkingCadenceRange``).
        var warnings: [String] = []
    }

    /// Cadences an adult reaches walking, steps/min: below 40 there is no gait cycle to speak of;
    /// the walk–run transition lies near 140–150 steps/min, so a "walk" above 160 is a miscount
    /// (double-counted steps, a phone shaken) or not a walk.
    static let walkingCadenceRange = 40.0...160.0

    /// Steps grouped into runs: a gap longer than 2.5 × the median step interval starts a run.
    var runs: [[Double]] {
        guard steps.count >= 2 else { return steps.isEmpty ? [] : [steps] }
        var intervals = zip(steps.dropFirst(), steps).map { $0 - $1 }
        let limit = 2.5 * Selection.sortedElement(intervals.count / 2, of: &intervals)
        var runs: [[Double]] = [[steps[0]]]
        for i in 1..<steps.count {
            if steps[i] - steps[i - 1] > limit { runs.append([]) }
            runs[runs.count - 1].append(steps[i])
        }
        return runs
    }

    var cadence: Cadence {
        var c = Cadence(source: .none)
        let fs = p.rateHz
        let runs = self.runs.filter { $0.count >= 2 }
        let stepSpan = runs.reduce(0.0) { $0 + ($1.last! - $1.first!) }
        if stepSpan > 0 {
            c.fromSteps = 60 * Double(runs.reduce(0) { $0 + $1.count - 1 }) / stepSpan
            let rates = runs.flatMap { run in zip(run.dropFirst(), run).map { 60 / ($0 - $1) } }
            c.medianFromSteps = rates.statistic(Statistics.median)
        }
        // Autocorrelation: bouts weighted by their length.
        var weighted = 0.0, weight = 0.0
        for segment in segments {
            for (bout, lags) in zip(segment.bouts, segment.lags) {
                weighted += Double(bout.count) * 120 * fs / lags.m2
                weight += Double(bout.count)
            }
        }
        if weight > 0 { c.autocorrelation = weighted / weight }
        if let peak = dominantFrequency {
            c.dominantFrequencyHz = peak
            let lags = longestBoutLags
            if let lags, abs(peak * lags.m2 / fs - 1) < abs(peak * lags.m1 / fs - 1) {
                c.dominantFrequency = 120 * peak
            } else {
                c.dominantFrequency = 60 * peak
            }
        }
        // The rule (docs/analyses.md §2.6): the step-based value with ≥ 8 steps when it is within 10 % of
        // the autocorrelation value, else the autocorrelation value; the steps alone without one.
        // Disagreement beyond 15 % among the estimators, and step counts that walking cannot
        // produce, are warned about, never passed silently.
        let stepsUsable = steps.count >= 8 ? c.fromSteps : nil
        if let fromSteps = stepsUsable, let auto = c.autocorrelation, abs(fromSteps - auto) <= 0.1 * auto {
            (c.value, c.source) = (fromSteps, .steps)
        } else if let auto = c.autocorrelation {
            (c.value, c.source) = (auto, .autocorrelation)
        } else if let fromSteps = stepsUsable {
            (c.value, c.source) = (fromSteps, .steps)
        }
        let estimates = [("steps", stepsUsable), ("autocorrelation", c.autocorrelation), ("dominant frequency", c.dominantFrequency)]
            .compactMap { name, value in value.map { (name, $0) } }
        if let low = estimates.map(\.1).min(), let high = estimates.map(\.1).max(), high > 1.15 * low, let value = c.value {
            let listed = estimates.map { "\($0.0) \(($0.1 * 10).rounded() / 10)" }.joined(separator: ", ")
            c.warnings.append("cadenceDisagreement: the estimators differ by more than 15 % (\(listed) steps/min); reported \((value * 10).rounded() / 10) from the \(c.source.rawValue) by the documented rule")
        }
        if c.value == nil {
            // Without a bout (every bout has its stride lag): what walked, and why it is no bout.
            let walking = segments.reduce(0) { $0 + $1.walkingSeconds }, aperiodic = segments.reduce(0) { $0 + $1.aperiodicBouts }
            let seconds = (walking * 10).rounded() / 10
            c.warnings.append(aperiodic > 0
                ? "noCadence: \(aperiodic) walking stretch\(aperiodic == 1 ? "" : "es") of at least \(p.minimumBoutSeconds.compactDescription) s (\(seconds.compactDescription) s of walking windows) without a stride: the autocorrelation at the stride lag stays below \(p.minimumStrideRegularity) in every chunk of \(p.chunkSeconds.compactDescription) s: no steps, cadence null"
                : walking > 0
                ? "noWalking: \(seconds.compactDescription) s of walking windows, none in a stretch of \(p.minimumBoutSeconds.compactDescription) s (the shortest bout): no steps, cadence null"
                : "noWalking: no 2-s window walks (the dynamic acceleration's SD at least \(p.walkingSdG) g with at least \(p.walkingBandFraction) of the vertical's power in the step band): no steps, cadence null")
        }
        if let fromSteps = c.fromSteps, !Self.walkingCadenceRange.contains(fromSteps) {
            c.warnings.append("implausibleCadence: \(steps.count) steps imply \((fromSteps * 10).rounded() / 10) steps/min, outside walking's \(Int(Self.walkingCadenceRange.lowerBound))–\(Int(Self.walkingCadenceRange.upperBound)) steps/min (miscounted steps, or not a walk)")
        } else if let value = c.value, !Self.walkingCadenceRange.contains(value) {
            c.warnings.append("implausibleCadence: \((value * 10).rounded() / 10) steps/min (\(c.source.rawValue)) is outside walking's \(Int(Self.walkingCadenceRange.lowerBound))–\(Int(Self.walkingCadenceRange.upperBound)) steps/min")
        }
        return c
    }

    /// The longest bout with its segment.
    var longestBout: (segment: Segment, bout: Range<Int>, index: Int)? {
        var best: (Segment, Range<Int>, Int)?
        for segment in segments {
            for (index, bout) in segment.bouts.enumerated() where bout.count > (best?.1.count ?? 0) {
                best = (segment, bout, index)
            }
        }
        return best
    }

    var longestBoutLags: (m1: Double, m2: Double, r1: Double, r2: Double)? {
        guard let (segment, _, index) = longestBout else { return nil }
        return segment.lags[index]
    }

    /// Peak of the summed Welch PSD of the step band over all bouts (Hann, 8-s segments, 50 %
    /// overlap, zero-padded to 8,192 points ≈ 0.012 Hz at 100 Hz), parabolically interpolated, in
    /// [bandLow, bandHigh] Hz. The sums come from ``PaddedPeriodogram`` (at 100 Hz through the
    /// segments' summed autocorrelation: 2,048-point transforms instead of 8,192).
    var dominantFrequency: Double? {
        let fs = p.rateHz
        let size = 8192, length = min(Int(clamping: 8 * fs), size)  // rateHz ≤ 1000 (Parameters.problem): 8,000 at most
        let resolution = fs / Double(size)
        let low = Int(clamping: p.bandLowHz / resolution, rounding: .up), high = Int(clamping: p.bandHighHz / resolution, rounding: .down)
        // The band's bins and one on either side, for the parabola.
        guard low >= 1, high < size / 2, low <= high, var periodogram = try? PaddedPeriodogram(size: size, maximumLength: length, bins: (low - 1)...(high + 1))
        else { return nil }
        let hann = Window.hann.values(count: length)
        for segment in segments {
            segment.vBand.withUnsafeBufferPointer { band in
                for bout in segment.bouts {
                    let segmentLength = min(length, bout.count)
                    let w = segmentLength == length ? hann : Window.hann.values(count: segmentLength)
                    var start = bout.lowerBound
                    while start + segmentLength <= bout.upperBound {
                        w.withUnsafeBufferPointer { w in periodogram.add(band.baseAddress! + start, window: w) }
                        start += max(1, segmentLength / 2)
                    }
                }
            }
        }
        guard periodogram.segments > 0 else { return nil }
        let density = periodogram.sums()
        guard let k = (1...(density.count - 2)).max(by: { density[$0] < density[$1] }) else { return nil }
        let offset = Peaks.parabolicVertex(density[k - 1], density[k], density[k + 1]).offset
        return (Double(low - 1 + k) + offset) * resolution
    }

    /// The gait features (docs/analyses.md §2.5–2.7), with `c` this recording's ``cadence`` and
    /// `regularity` its ``regularityAndHarmonicRatios``; sway, tremor and windows are the caller's.
    func features(cadence c: Cadence, regularity: GaitRegularity) -> GaitFeatures {
        let runs = self.runs
        let stepTimes: [Double] = runs.flatMap { (run: [Double]) -> [Double] in zip(run.dropFirst(), run).map { $0 - $1 } }
        let strideTimes: [Double] = runs.flatMap { (run: [Double]) -> [Double] in run.count >= 3 ? (2..<run.count).map { run[$0] - run[$0 - 2] } : [] }
        let origin = sampleTimes.first ?? 0
        return GaitFeatures(
            stepCount: steps.count, cadenceStepsPerMinute: c.value, cadenceSource: c.source,
            cadenceFromStepsStepsPerMinute: c.fromSteps, cadenceMedianFromStepsStepsPerMinute: c.medianFromSteps,
            cadenceAutocorrStepsPerMinute: c.autocorrelation, cadenceDominantFrequencyStepsPerMinute: c.dominantFrequency,
            dominantGaitFrequencyHz: c.dominantFrequencyHz,
            stepTimeMeanSeconds: stepTimes.isEmpty ? nil : stepTimes.statistic(Statistics.mean),
            stepTimeSdSeconds: stepTimes.count < 2 ? nil : stepTimes.statistic(Statistics.standardDeviation),
            strideTimeMeanSeconds: strideTimes.isEmpty ? nil : strideTimes.statistic(Statistics.mean),
            strideTimeSdSeconds: strideTimes.count < 2 ? nil : strideTimes.statistic(Statistics.standardDeviation),
            regularity: regularity,
            walkingBoutCount: bouts.count, walkingDurationSeconds: bouts.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) },
            walkingBoutStartsSeconds: bouts.map { $0.lowerBound - origin }, walkingBoutEndsSeconds: bouts.map { $0.upperBound - origin },
            sway: SwayFeatures(), tremor: tremor)
    }

    /// Regularity and symmetry (Moe-Nilssen & Helbostad 2004) and harmonic ratios of the longest
    /// bout, trimmed.
    var regularityAndHarmonicRatios: GaitRegularity {
        let fs = p.rateHz
        var result = GaitRegularity(v: AxisRegularity(), h1: AxisRegularity())
        guard let (segment, bout, index) = longestBout else { return result }
        let trim = Int(clamping: p.trimSeconds * fs)
        let inner = bout.count > 2 * trim + Int(clamping: 2 * fs) ? (bout.lowerBound + trim)..<(bout.upperBound - trim) : bout
        func axis(_ signal: [Double]) -> (lags: (m1: Double, m2: Double, r1: Double, r2: Double)?, AxisRegularity) {
            let lags = StepAnalysis.strideLags(Array(signal[inner]), fs: fs)
            return (lags, AxisRegularity(
                stepRegularity: lags?.r1, strideRegularity: lags?.r2, stepSymmetryRatio: lags.map { $0.r1 / $0.r2 },
                stepSymmetryDifference: lags.map { abs($0.r2 - $0.r1) }, regularityIndex: lags.map { 1 - 2 * abs($0.r2 - $0.r1) / ($0.r2 + $0.r1) }))
        }
        let vertical = axis(segment.v20)
        (result.stepLagSamples, result.strideLagSamples, result.v) = (vertical.lags?.m1, vertical.lags?.m2, vertical.1)
        result.h1 = axis(segment.h1).1
        let boutSteps = segment.steps[index].filter { $0 >= Double(inner.lowerBound) && $0 < Double(inner.upperBound) }
        let horizontal = Self.harmonicRatios(segment.h1, steps: boutSteps)
        result.harmonicRatioV = Self.harmonicRatios(segment.v20, steps: boutSteps).even
        (result.harmonicRatioH1, result.harmonicRatioML) = (horizontal.even, horizontal.odd)
        return result
    }

    /// Harmonic ratios (Menz, Lord & Fitzpatrick 2003, Gait Posture 18:35–46): per stride
    /// [t_s, t_{s+2}), demeaned, DFT amplitudes A_k at k/T for k = 1…20 below Nyquist;
    /// `even` is the median over strides of Σ even / Σ odd (vertical and anteroposterior), `odd`
    /// that of Σ odd / Σ even (mediolateral). One DFT per stride serves both.
    static func harmonicRatios(_ x: [Double], steps: [Double]) -> (even: Double?, odd: Double?) {
        guard steps.count >= 3 else { return (nil, nil) }
        var evenRatios: [Double] = [], oddRatios: [Double] = []
        var tables = HarmonicTables()
        var stride: [Double] = []
        for s in 0..<(steps.count - 2) {
            let start = Int(clamping: steps[s], rounding: .toNearestOrAwayFromZero), end = Int(clamping: steps[s + 2], rounding: .toNearestOrAwayFromZero)
            guard start >= 0, end <= x.count, end - start >= 8 else { continue }
            let n = end - start
            let mean = x[start..<end].reduce(0, +) / Double(n)
            stride.removeAll(keepingCapacity: true)
            for i in start..<end { stride.append(x[i] - mean) }  // demeaned once, not per harmonic
            let amplitude = tables.amplitudes(stride)
            var evenSum = 0.0, oddSum = 0.0
            for k in 1...amplitude.count {
                if k % 2 == 0 { evenSum += amplitude[k - 1] } else { oddSum += amplitude[k - 1] }
            }
            if (evenSum / oddSum).isFinite { evenRatios.append(evenSum / oddSum) }
            if (oddSum / evenSum).isFinite { oddRatios.append(oddSum / evenSum) }
        }
        return (evenRatios.isEmpty ? nil : evenRatios.statistic(Statistics.median), oddRatios.isEmpty ? nil : oddRatios.statistic(Statistics.median))
    }
}

/// DFT amplitudes |X_k| of harmonics k = 1…min(20, n/2 − 1) of a stride of n samples, from
/// tables of e^(−2πi·k·i/n) kept per stride length (the strides of a walk share a few lengths).
/// Each entry is cos or −sin of 2π·((k·i) mod n)/n, and each harmonic's sums run over i in order,
/// so the amplitudes are those of the DFT summed one harmonic at a time, bit for bit; the table is
/// a ``LaneMatrix`` (CKernels' atk_matrix_rows at the processor's vector width: eight rows share
/// each pass over the stride).
struct HarmonicTables {
    /// Per length n, rows of n entries: per group of eight harmonics their eight cosine rows, then
    /// their eight sine rows (harmonics past the last are zeros).
    private var tables: [Int: LaneMatrix] = [:]
    private var stored = 0
    private var sums = [Double](repeating: 0, count: 48)
    private var amplitude = [Double](repeating: 0, count: 24)

    mutating func amplitudes(_ x: [Double]) -> ArraySlice<Double> {
        let n = x.count, harmonics = min(20, n / 2 - 1), groups = (harmonics + 7) / 8
        precondition(harmonics >= 1, "harmonic amplitudes: a stride of \(n) samples")
        let table = tables[n] ?? makeTable(n, harmonics: harmonics)
        x.withUnsafeBufferPointer { x in sums.withUnsafeMutableBufferPointer { table.apply(x.baseAddress!, count: 1, into: $0.baseAddress!) } }
        for g in 0..<groups {
            for h in 0..<8 {
                let (re, im) = (sums[16 * g + h], sums[16 * g + 8 + h])
                amplitude[8 * g + h] = (re * re + im * im).squareRoot()
            }
        }
        return amplitude[0..<harmonics]
    }

    private mutating func makeTable(_ n: Int, harmonics: Int) -> LaneMatrix {
        let cosines = (0..<n).map { cos(2 * Double.pi * Double($0) / Double(n)) }, sines = (0..<n).map { -sin(2 * Double.pi * Double($0) / Double(n)) }
        let groups = (harmonics + 7) / 8
        var rows = [Double](repeating: 0, count: 16 * groups * n)
        for g in 0..<groups {
            for h in 0..<8 where 8 * g + h < harmonics {
                for i in 0..<n {
                    let j = (8 * g + h + 1) * i % n
                    rows[(16 * g + h) * n + i] = cosines[j]
                    rows[(16 * g + 8 + h) * n + i] = sines[j]
                }
            }
        }
        let table = LaneMatrix(rows: 16 * groups, columns: n, rows)
        // Kept while all the tables hold at most 2^20 values (8 MB); past that, they are dropped and kept anew.
        if stored + rows.count > 1 << 20 { (tables, stored) = ([:], 0) }
        tables[n] = table
        stored += rows.count
        return table
    }
}
