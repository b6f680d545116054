import Glibc
import SignalProcessing

/// Cepstral peak prominence as Praat computes it (Praat 6.1.38 LPC/PowerCepstrogram.cpp,
/// LPC/PowerCepstrum.cpp; J. Hillenbrand, R. A. Houde, "Acoustic correlates of breathy vocal
/// quality: dysphonic voices and continuous speech", J. Speech Hear. Res. 39:311–321, 1996):
///
/// "Sound: To PowerCepstrogram" (pitch floor 60 Hz, time step 0.002 s, maximum frequency 5000 Hz,
/// pre-emphasis from 50 Hz): the sound resampled to twice the maximum frequency and
/// pre-emphasised; frames of 2 × 3/floor s (Gaussian window, mean removed) every time step, fitted
/// into the original sound; per frame the power cepstrum (the squared inverse FFT of the natural
/// log of the power spectrum, both on Praat's FFT).
///
/// "PowerCepstrogram: Get CPPS" with Praat's defaults: the trend subtracted before smoothing
/// (an exponential-decay trend, dB = a·ln q + b, fitted by Theil's incomplete robust method to
/// the quefrencies 0.001–0.05 s; what lies below it set to 0 dB), then averaged over 0.02 s of
/// frames and 0.0005 s of quefrency (Praat's interpolating Sampled_getMean, as weights summed in
/// Double where Praat sums in 80 bits: a few units in the last place apart, except where that
/// rounding would decide the peak, below); per frame the
/// highest peak (parabolic interpolation) between 1/330 and 1/60 s and its height above the trend
/// fitted again to the smoothed frame: the CPP, dB; CPPS is their mean over all frames.
public struct PraatCepstralAnalysis: Sendable, Hashable {
    /// "To PowerCepstrogram" pitch floor, Hz: frames are 2 × 3/floor s long.
    public var pitchFloorHz = 60.0
    var timeStep = 0.002
    var maximumFrequencyHz = 5000.0
    var preEmphasisFromHz = 50.0
    var timeAveragingSeconds = 0.02
    var quefrencyAveragingSeconds = 0.0005
    /// "Get CPPS" peak search range, Hz.
    public var peakSearchFloorHz = 60.0
    public var peakSearchCeilingHz = 330.0
    var trendFromSeconds = 0.001
    var trendToSeconds = 0.05
    public init() {}

    /// Per frame the CPP, dB, and the quefrency of its peak, s; CPPS, dB; the slice of the
    /// median-CPP frame.
    struct Result {
        var firstTime: Double
        var timeStep: Double
        var cppDb: [Double]
        var peakQuefrencySeconds: [Double]
        var cppsDb: Double?
        var slice: Slice?
    }

    /// One frame of the smoothed power cepstrogram (for the chart): its level up to the end of
    /// the trend fit, the fitted trend dB = slope·ln q + intercept over [from, to], and the CPP
    /// peak (the peak's level less the trend's at its quefrency).
    public struct Slice: Sendable, Hashable {
        public var timeSeconds: Double
        public var quefrencySeconds: [Double]
        public var levelDb: [Double]
        public var trendSlopeDb: Double
        public var trendInterceptDb: Double
        public var trendFromSeconds: Double
        public var trendToSeconds: Double
        public var peakQuefrencySeconds: Double
        public var peakDb: Double
        public var cppDb: Double

        /// The trend line's level at `quefrency`, dB.
        public func trendDb(_ quefrency: Double) -> Double { trendSlopeDb * log(quefrency) + trendInterceptDb }
    }

    /// The frames of the power cepstrogram, each made when asked for: the resampled,
    /// pre-emphasised sound and what every frame shares.
    struct Frames {
        let samples: [Double]
        let dx: Double
        let x1: Double
        let firstTime: Double
        let timeStep: Double
        let count: Int
        /// The end of the time domain (the original sound's), s.
        let end: Double
        let windowDuration: Double
        let window: [Double]
        let fft: PraatFFT
        /// Quefrency step, s; bins 0…size/2.
        let quefrencyStep: Double
        var bins: Int { fft.size / 2 + 1 }

        /// What ``cepstra(_:in:)`` works in, made once and used for every group of frames.
        struct Workspace {
            /// The frames one after the other, `window.count` samples each.
            var frames: [Double]
            var data: [SIMD4<Double>]
            var power: [SIMD4<Double>]
            /// The power cepstra, `bins` values per frame, one frame after the other.
            var cepstra: [Double]
        }

        func workspace() -> Workspace {
            Workspace(frames: [Double](repeating: 0, count: 4 * window.count), data: [SIMD4<Double>](repeating: .zero, count: fft.size),
                      power: [SIMD4<Double>](repeating: .zero, count: bins), cepstra: [Double](repeating: 0, count: 4 * bins))
        }

        /// The power cepstra of up to four frames `indices` into `w.cepstra` (Sound_into_Sound,
        /// mean removed, windowed; the ln power spectrum scaled by Δt, back through
        /// Spectrum_to_Sound scaled by Δf; squared), the frames' transforms side by side in the
        /// lanes of Praat's FFT.
        func cepstra(_ indices: Range<Int>, in w: inout Workspace) {
            precondition(indices.count <= 4, "cepstra: four frames at most")
            let length = window.count, size = fft.size, bins = self.bins
            // The frames one after the other (a lane not in use all zeros), then their sums in 80
            // bits, four chains side by side (each the sequential sum of its frame).
            w.frames.withUnsafeMutableBufferPointer { frames in
                frames.update(repeating: 0)
                for (lane, index) in indices.enumerated() {
                    let t = firstTime + Double(index) * timeStep
                    // The frame starts at the sample nearest t − window/2 (Sampled_xToNearestIndex, 1-based);
                    // samples outside the sound are zeros.
                    let first = Int(clamping: ((t - windowDuration / 2 - x1) / dx + 1 + 0.5).rounded(.down), to: Int(Int32.min)...Int(Int32.max))
                    let low = max(first, 1), high = min(first + length - 1, samples.count)
                    if low <= high {
                        let start = lane * length + low - first
                        _ = UnsafeMutableBufferPointer(rebasing: frames[start..<start + high - low + 1]).update(fromContentsOf: samples[(low - 1)..<high])
                    }
                }
            }
            w.data.withUnsafeMutableBufferPointer { data in
                w.frames.withUnsafeBufferPointer { f in
                    data.update(repeating: .zero)
                    var s0: Float80 = 0, s1: Float80 = 0, s2: Float80 = 0, s3: Float80 = 0
                    for i in 0..<length {
                        s0 += Float80(f[i])
                        s1 += Float80(f[length + i])
                        s2 += Float80(f[2 * length + i])
                        s3 += Float80(f[3 * length + i])
                    }
                    let count = Float80(length)
                    let means = SIMD4(Double(s0 / count), Double(s1 / count), Double(s2 / count), Double(s3 / count))
                    for lane in 0..<indices.count {
                        for i in 0..<length { data[i][lane] = (f[lane * length + i] - means[lane]) * window[i] }
                    }
                }
            }
            fft.forward(&w.data)
            // Every lane's ln power spectrum (a lane not in use is never read), scaled back.
            let spectrumStep = 1 / (dx * Double(size))
            w.data.withUnsafeMutableBufferPointer { data in
                w.power.withUnsafeMutableBufferPointer { power in
                    let r0 = data[0] * dx, rn = data[size - 1] * dx, none = SIMD4<Double>(repeating: 0 * 0)
                    power[0] = r0 * r0 + none + 1e-300
                    for k in 1..<bins - 1 {
                        let re = data[2 * k - 1] * dx, im = data[2 * k] * dx
                        power[k] = re * re + im * im + 1e-300
                    }
                    power[bins - 1] = rn * rn + none + 1e-300
                    power.withMemoryRebound(to: Double.self) { VectorMath.log($0) }
                    data[0] = power[0] * spectrumStep
                    for k in 1..<bins - 1 {
                        data[2 * k - 1] = power[k] * spectrumStep
                        data[2 * k] = SIMD4(repeating: 0 * spectrumStep)
                    }
                    data[size - 1] = power[bins - 1] * spectrumStep
                }
            }
            fft.inverse(&w.data)
            w.data.withUnsafeBufferPointer { data in
                w.cepstra.withUnsafeMutableBufferPointer { out in
                    for lane in 0..<indices.count {
                        for k in 0..<bins { out[lane * bins + k] = data[k][lane] * data[k][lane] }
                    }
                }
            }
        }
    }

    /// "To PowerCepstrogram": the sound resampled and pre-emphasised, frames fitted into the
    /// original sound (Sampled_shortTermAnalysis); nil when no frame fits.
    func frames(_ sound: PraatSound) -> Frames? {
        let duration = sound.dx * Double(sound.count)
        var windowDuration = 2 * (3 / pitchFloorHz)
        if windowDuration > duration { windowDuration = duration }
        let rate = 2 * maximumFrequencyHz
        let resampled = sound.resampled(toRateHz: rate)
        var s = resampled.samples
        let rdx = resampled.dx
        if preEmphasisFromHz < 0.5 / rdx, s.count >= 2 {
            let factor = exp(-(2 * Double.pi) * preEmphasisFromHz * rdx)
            for i in stride(from: s.count - 1, through: 1, by: -1) { s[i] -= factor * s[i - 1] }
        }
        let frameCount = Int(clamping: (duration - windowDuration) / timeStep, rounding: .down, to: -1...Int(Int32.max)) + 1
        guard frameCount >= 1, windowDuration > 0, !s.isEmpty else { return nil }
        let middle = sound.x1 - 0.5 * sound.dx + 0.5 * duration
        let firstTime = middle - 0.5 * (Double(frameCount) * timeStep) + 0.5 * timeStep
        let length = Int(clamping: (windowDuration * rate).rounded(.toNearestOrAwayFromZero), to: 1...Int(Int32.max))
        let edge = exp(-12.0), centre = 0.5 * Double(length + 1), span = Double(length + 1)
        let window = (1...length).map { i -> Double in
            let d = Double(i) - centre
            return (exp(-48 * d * d / span / span) - edge) / (1 - edge)
        }
        var size = 2
        while size < length { size *= 2 }
        guard let fft = PraatFFT(size: size) else { return nil }
        return Frames(samples: s, dx: rdx, x1: resampled.x1, firstTime: firstTime, timeStep: timeStep, count: frameCount, end: sound.xmax,
                      windowDuration: windowDuration, window: window, fft: fft, quefrencyStep: (0.5 * Double(size) / rate) / Double(size / 2))
    }

    /// "Get CPPS" over the frames of `sound`, chunk after chunk on this thread (``plan(_:)`` for
    /// the chunks on several threads).
    func analyze(_ sound: PraatSound) -> Result? {
        guard let plan = plan(sound) else { return nil }
        return plan.result((0..<plan.chunkCount).map(plan.peaks(chunk:)))
    }

    /// The cepstrogram's frames and what "Get CPPS" applies to every one of them; nil when no
    /// frame fits.
    func plan(_ sound: PraatSound) -> Plan? {
        frames(sound).map { Plan(frames: $0, settings: self) }
    }

    /// "Get CPPS" frame by frame, in chunks of consecutive frames that can run on different
    /// threads: each frame's trend subtracted, the time averaging over the flattened frames
    /// around it, the quefrency averaging, the trend fitted again, the peak. A chunk makes the
    /// flattened frames it reads (those of its frames and `reach` either side) and keeps
    /// 2·reach + 1 of them: memory for that many frames, whatever the recording's length.
    struct Plan: Sendable {
        let frames: Frames
        let settings: PraatCepstralAnalysis
        /// ln q of every bin (bin 0: ln(½·dq), as the flattening takes it).
        let logQuefrency: [Double]
        /// The bins both trend fits read (``trendBins(count:dq:from:to:)``).
        let trendBins: ClosedRange<Int>?
        /// Frames whose values a window around frame f reads: those within reach + 1 either side.
        let reach: Int
        let averageTime: Bool
        /// The quefrency averaging's window of every bin (the same in every frame); empty when
        /// there is no quefrency averaging.
        let quefrencyWindows: [InterpolatedMean]
        let quefrencyTaps: TapTable
        /// The bins the peak search and its quefrency windows read: a frame whose flattened
        /// neighbours are all constant over these is smoothed in Praat's own order (below).
        let searchBins: ClosedRange<Int>
        static let chunkLength = 500
        var chunkCount: Int { (frames.count + Self.chunkLength - 1) / Self.chunkLength }

        init(frames: Frames, settings: PraatCepstralAnalysis) {
            self.frames = frames
            self.settings = settings
            let dq = frames.quefrencyStep, bins = frames.bins
            logQuefrency = (0..<bins).map { $0 == 0 ? log(0.5 * dq) : PraatCepstralAnalysis.logQuefrency($0, dq) }
            trendBins = PraatCepstralAnalysis.trendBins(count: bins, dq: dq, from: settings.trendFromSeconds, to: settings.trendToSeconds)
            averageTime = Int(clamping: settings.timeAveragingSeconds / settings.timeStep, rounding: .down, to: 0...Int.max) > 1
            reach = Int(clamping: (0.5 * settings.timeAveragingSeconds / settings.timeStep).rounded(.up), to: 0...1_000_000) + 2
            let qmax = dq * Double(bins - 1)
            let averageQuefrency = Int(clamping: settings.quefrencyAveragingSeconds / dq, rounding: .down, to: 0...Int.max) > 1
            quefrencyWindows = averageQuefrency ? (0..<bins).map { j in
                InterpolatedMean(count: bins, x1: 0, dx: dq, domain: 0...qmax, from: Double(j) * dq - 0.5 * settings.quefrencyAveragingSeconds,
                                 to: Double(j) * dq + 0.5 * settings.quefrencyAveragingSeconds)
            } : []
            quefrencyTaps = TapTable(quefrencyWindows.map(\.taps))
            let spread = Int(clamping: (settings.quefrencyAveragingSeconds / dq).rounded(.up), to: 0...bins) + 2
            let low = Int(clamping: (1 / settings.peakSearchCeilingHz / dq).rounded(.down), to: 0...bins - 1)
            let high = Int(clamping: (1 / settings.peakSearchFloorHz / dq).rounded(.up), to: 0...bins - 1)
            searchBins = max(0, min(low, high) - spread)...min(bins - 1, max(low, high) + spread)
        }

        /// One frame's CPP, dB, and the quefrency of its peak, s (NaN where undefined).
        struct Peak: Sendable {
            var cppDb = Double.nan
            var quefrencySeconds = Double.nan
        }

        /// The peaks of chunk `c`'s frames.
        func peaks(chunk c: Int) -> [Peak] {
            let frameRange = c * Self.chunkLength..<min(frames.count, (c + 1) * Self.chunkLength)
            let pass = Pass(self)
            return frameRange.map { f in
                guard let ((slope, intercept), (level, quefrency)) = pass.peak(pass.smoothed(f)) else { return Peak() }
                return Peak(cppDb: level - (slope * log(quefrency) + intercept), quefrencySeconds: quefrency)
            }
        }

        /// The chunks' peaks joined, CPPS, and the slice of the frame whose CPP is the median (the
        /// lower middle one), made again.
        func result(_ chunks: [[Peak]]) -> Result {
            let cpp = chunks.flatMap { $0.map(\.cppDb) }, peaks = chunks.flatMap { $0.map(\.quefrencySeconds) }
            let dq = frames.quefrencyStep
            var slice: Slice?
            let defined = cpp.indices.filter { cpp[$0].isFinite }.sorted { cpp[$0] < cpp[$1] }
            if !defined.isEmpty {
                let f = defined[(defined.count - 1) / 2]
                let pass = Pass(self)
                let smoothed = pass.smoothed(f)
                if let ((slope, intercept), (level, quefrency)) = pass.peak(smoothed) {
                    let shown = min(frames.bins, Int(clamping: settings.trendToSeconds / dq, rounding: .down, to: 0...frames.bins - 1) + 1)
                    slice = Slice(timeSeconds: frames.firstTime + Double(f) * frames.timeStep, quefrencySeconds: (0..<shown).map { Double($0) * dq },
                                  levelDb: smoothed.prefix(shown).map { 10 * log10($0 + 1e-30) }, trendSlopeDb: slope, trendInterceptDb: intercept,
                                  trendFromSeconds: settings.trendFromSeconds, trendToSeconds: settings.trendToSeconds,
                                  peakQuefrencySeconds: quefrency, peakDb: level, cppDb: cpp[f])
                }
            }
            var sum: Float80 = 0
            for value in cpp { sum += Float80(value) }
            let complete = cpp.allSatisfy(\.isFinite) && !cpp.isEmpty
            return Result(firstTime: frames.firstTime, timeStep: frames.timeStep, cppDb: cpp, peakQuefrencySeconds: peaks,
                          cppsDb: complete ? Double(sum) / Double(cpp.count) : nil, slice: slice)
        }
    }

    /// The flattened frames one chunk has made: a ring of the 2·reach + 1 a window reads and the
    /// three made ahead with them; and the buffers of one frame's work, made once per chunk.
    private final class Pass {
        let plan: Plan
        let bins: Int
        let rows: Int
        /// Row r % rows holds flattened frame r, for r in `made`.
        var ring: [Double]
        var made = 0..<0
        private var workspace: Frames.Workspace
        /// A frame's levels, dB; the trend fit's slopes and intercepts; the exponents of the
        /// flattening; the time-averaged and the smoothed frame: `bins` values each.
        private let buffer: UnsafeMutableBufferPointer<Double>
        private var levels: UnsafeMutableBufferPointer<Double> { part(0) }
        private var fit: UnsafeMutableBufferPointer<Double> { part(1) }
        private var exponent: UnsafeMutableBufferPointer<Double> { part(2) }
        private var timeAveraged: UnsafeMutableBufferPointer<Double> { part(3) }
        private var smoothedValues: UnsafeMutableBufferPointer<Double> { part(4) }

        init(_ plan: Plan) {
            self.plan = plan
            bins = plan.frames.bins
            rows = 2 * plan.reach + 4
            ring = [Double](repeating: 0, count: rows * bins)
            workspace = plan.frames.workspace()
            buffer = .allocate(capacity: 5 * bins)
            buffer.initialize(repeating: 0)
        }

        deinit { buffer.deallocate() }

        private func part(_ k: Int) -> UnsafeMutableBufferPointer<Double> { UnsafeMutableBufferPointer(rebasing: buffer[k * bins..<(k + 1) * bins]) }

        /// PowerCepstrum_fitTrendLine, exponential decay, Theil's incomplete method: dB = a·ln q + b
        /// fitted to the levels in `levels` (10·lg(power + 10⁻³⁰)) over the plan's trend bins.
        private func trend() -> (Double, Double)? {
            guard let trendBins = plan.trendBins else { return nil }
            return plan.logQuefrency.withUnsafeBufferPointer { lnq in
                PraatCepstralAnalysis.theil(UnsafeBufferPointer(rebasing: lnq[trendBins]), UnsafeBufferPointer(rebasing: levels[trendBins]), scratch: fit)
            }
        }

        /// Flattened frames `indices` (up to four) made into their rows: each power cepstrum
        /// with the trend subtracted in dB (what lies below the trend set to 0 dB).
        func make(_ indices: Range<Int>) {
            let bins = self.bins, levels = self.levels, exponent = self.exponent
            plan.frames.cepstra(indices, in: &workspace)
            for (lane, index) in indices.enumerated() {
                workspace.cepstra.withUnsafeBufferPointer { PraatCepstralAnalysis.decibels(UnsafeBufferPointer(rebasing: $0[lane * bins..<(lane + 1) * bins]), into: levels) }
                let row = (index % rows) * bins
                let trend = self.trend()
                ring.withUnsafeMutableBufferPointer { ring in
                    let out = UnsafeMutableBufferPointer(rebasing: ring[row..<row + bins])
                    guard let (slope, intercept) = trend else {
                        _ = out.update(fromContentsOf: workspace.cepstra[lane * bins..<(lane + 1) * bins])
                        return
                    }
                    plan.logQuefrency.withUnsafeBufferPointer { lnq in
                        for j in 0..<bins {
                            exponent[j] = max(0, levels[j] - (slope * lnq[j] + intercept)) * M_LN10 / 10
                            out[j] = exponent[j]
                        }
                    }
                    VectorMath.exp(out)
                    // 1 exactly where the trend lies above (10^0); both values loaded, one chosen
                    // without a branch.
                    for j in 0..<bins {
                        let power = out[j]
                        out[j] = (exponent[j] == 0 ? 1 : power) - 1e-30
                    }
                }
            }
        }

        /// Makes the flattened frames in `needed` that are not yet made, four at a time (a
        /// chunk's frames ascend; the ring keeps the three made ahead).
        func ensure(_ needed: ClosedRange<Int>) {
            if needed.lowerBound < made.lowerBound || needed.lowerBound > made.upperBound {
                made = needed.lowerBound..<needed.lowerBound
            }
            while made.upperBound <= needed.upperBound {
                let group = made.upperBound..<min(made.upperBound + 4, plan.frames.count)
                make(group)
                made = max(made.lowerBound, group.upperBound - rows)..<group.upperBound
            }
        }

        /// The smoothed power cepstrum of frame f, valid until the next call.
        func smoothed(_ f: Int) -> UnsafeBufferPointer<Double> {
            let frames = plan.frames, settings = plan.settings, bins = self.bins, count = frames.count
            let out = timeAveraged
            let low = max(0, f - plan.reach), high = min(count - 1, f + plan.reach)
            ensure(low...high)
            let row = { (i: Int) in (i % self.rows) * bins }
            // Where the time-averaged frame is constant over the peak's bins (the frames it
            // averages are, as in digital silence), the smoothed values there differ only by the
            // rounding of the quefrency averaging, and that rounding decides the peak: such a
            // frame is averaged again in Praat's order, in 80 bits, as Praat does.
            var exact = false
            ring.withUnsafeBufferPointer { ring in
                if plan.averageTime {
                    let mid = frames.firstTime + Double(f) * frames.timeStep
                    let window = InterpolatedMean(count: count, x1: frames.firstTime, dx: frames.timeStep, domain: 0...frames.end,
                                                  from: mid - 0.5 * settings.timeAveragingSeconds, to: mid + 0.5 * settings.timeAveragingSeconds)
                    if let taps = window.taps {
                        // out[j] = Σ_k weight_k·r_k[j], k ascending from 0, eight bins at a time in registers.
                        let rows = taps.weights.indices.map { ring.baseAddress! + row(taps.first - 1 + $0) }
                        var j = 0
                        while j + 8 <= bins {
                            var sum = SIMD8<Double>.zero
                            for (k, weight) in taps.weights.enumerated() {
                                sum += weight * UnsafeRawPointer(rows[k] + j).loadUnaligned(as: SIMD8<Double>.self)
                            }
                            for l in 0..<8 { out[j + l] = sum[l] }
                            j += 8
                        }
                        for i in j..<bins { out[i] = 0 }
                        for (k, weight) in taps.weights.enumerated() {
                            for i in j..<bins { out[i] += weight * rows[k][i] }
                        }
                    } else {
                        out.update(repeating: .nan)
                    }
                    let level = out[plan.searchBins.lowerBound]
                    exact = plan.searchBins.allSatisfy { out[$0] == level }
                    if exact {
                        for j in 0..<bins { out[j] = window { ring[row($0 - 1) + j] } }
                    }
                } else {
                    _ = out.update(fromContentsOf: ring[row(f)..<row(f) + bins])
                    exact = plan.searchBins.allSatisfy { out[$0] == out[plan.searchBins.lowerBound] }
                }
            }
            guard !plan.quefrencyWindows.isEmpty else { return UnsafeBufferPointer(out) }
            let y = UnsafeBufferPointer(out), smoothed = smoothedValues
            if exact {
                for j in 0..<bins { smoothed[j] = plan.quefrencyWindows[j].callAsFunction { y[$0 - 1] } }
            } else {
                plan.quefrencyTaps.apply(y, into: smoothed)
            }
            return UnsafeBufferPointer(smoothed)
        }

        /// A smoothed frame's trend line and peak: (slope, intercept), (peak dB, quefrency s).
        func peak(_ values: UnsafeBufferPointer<Double>) -> (trend: (Double, Double), peak: (Double, Double))? {
            let settings = plan.settings, dq = plan.frames.quefrencyStep
            PraatCepstralAnalysis.decibels(values, into: levels)
            guard let trend = trend(),
                  let found = PraatCepstralAnalysis.maximum(UnsafeBufferPointer(levels), dx: dq, from: 1 / settings.peakSearchCeilingHz, to: 1 / settings.peakSearchFloorHz)
            else { return nil }
            return (trend, found)
        }
    }

    /// Per bin the weights of a window on consecutive values (``InterpolatedMean/taps``), laid
    /// out flat: bin j's sum is Σ_k weights[k]·y[first + k], k ascending from 0 (NaN for a window
    /// with no taps). Four bins whose windows have as many taps and start at consecutive values
    /// (every bin but the edges) run side by side in the lanes of a vector, their weights
    /// interleaved once here: each lane's sum in its own order, the same bits as one bin at a time.
    struct TapTable: Sendable {
        /// 0-based index of each bin's first value; -1 for a bin whose mean is NaN.
        let first: [Int]
        let count: [Int]
        /// Where each bin's weights start in `weights`.
        let offset: [Int]
        let weights: [Double]
        /// Per group of four bins from 4·g: where its interleaved weights start in `lanes`, or -1
        /// when its bins are not side by side as above.
        let group: [Int]
        let lanes: [SIMD4<Double>]

        init(_ taps: [InterpolatedMean.Taps?]) {
            first = taps.map { $0.map { $0.first - 1 } ?? -1 }
            count = taps.map { $0?.weights.count ?? 0 }
            var start = 0
            offset = count.map { c in defer { start += c }; return start }
            weights = taps.flatMap { $0?.weights ?? [] }
            var lanes: [SIMD4<Double>] = []
            group = stride(from: 0, to: taps.count / 4 * 4, by: 4).map { j in
                guard let base = taps[j], !base.weights.isEmpty,
                      (1..<4).allSatisfy({ l in taps[j + l].map { $0.first == base.first + l && $0.weights.count == base.weights.count } ?? false })
                else { return -1 }
                defer { lanes += base.weights.indices.map { k in SIMD4((0..<4).map { taps[j + $0]!.weights[k] }) } }
                return lanes.count
            }
            self.lanes = lanes
        }

        func apply(_ y: UnsafeBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>) {
            let bins = first.count
            precondition(out.count >= bins, "tap table: output shorter than the bins")
            first.withUnsafeBufferPointer { first in
                count.withUnsafeBufferPointer { count in
                    offset.withUnsafeBufferPointer { offset in
                        weights.withUnsafeBufferPointer { weights in
                            lanes.withUnsafeBufferPointer { lanes in
                                var j = 0
                                while j < bins {
                                    if j + 4 <= bins, group[j / 4] >= 0 {
                                        let f = first[j], o = group[j / 4]
                                        precondition(f >= 0 && f + count[j] + 3 <= y.count, "tap table: window outside the values")
                                        var sum = SIMD4<Double>.zero
                                        for k in 0..<count[j] {
                                            sum += lanes[o + k] * UnsafeRawPointer(y.baseAddress! + f + k).loadUnaligned(as: SIMD4<Double>.self)
                                        }
                                        for l in 0..<4 { out[j + l] = sum[l] }
                                        j += 4
                                        continue
                                    }
                                    if first[j] < 0 {
                                        out[j] = .nan
                                    } else {
                                        var sum = 0.0
                                        for k in 0..<count[j] { sum += weights[offset[j] + k] * y[first[j] + k] }
                                        out[j] = sum
                                    }
                                    j += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// ln(k·dq), from a table for the usual quefrency step (the same value log gives).
    static func logQuefrency(_ k: Int, _ dq: Double) -> Double {
        dq == LogTable.step && k < LogTable.values.count ? LogTable.values[k] : log(Double(k) * dq)
    }

    /// ln(k·dq) for the cepstrogram of the default settings (1024-point frames at 10 kHz).
    enum LogTable {
        static let step = (0.5 * 1024 / 10_000.0) / 512
        static let values = (0..<513).map { log(Double($0) * step) }
    }

    /// 10·lg(power + 10⁻³⁰) of every value of `power` into `levels` (``VectorMath/log10(_:)``).
    static func decibels(_ power: UnsafeBufferPointer<Double>, into levels: UnsafeMutableBufferPointer<Double>) {
        precondition(levels.count >= power.count, "decibels: output shorter than the values")
        for j in power.indices { levels[j] = power[j] + 1e-30 }
        VectorMath.log10(UnsafeMutableBufferPointer(rebasing: levels[..<power.count]))
        for j in power.indices { levels[j] *= 10 }
    }

    /// The bins (0-based) PowerCepstrum_fitTrendLine fits of a cepstrum of `count` bins: those
    /// with q in [from, to], bin 0 left out (ln 0); nil when fewer than two.
    static func trendBins(count: Int, dq: Double, from: Double, to: Double) -> ClosedRange<Int>? {
        var first = 1 + Int(clamping: (from / dq).rounded(.up), to: -1...Int.max - 2)
        var last = 1 + Int(clamping: (to / dq).rounded(.down), to: -1...Int.max - 2)
        first = max(first, 1)
        last = min(last, count)
        guard first <= last else { return nil }
        if first == 1 { first = 2 }
        guard last - first + 1 > 1 else { return nil }
        return (first - 1)...(last - 1)
    }

    /// NUMlineFit_theil, incomplete: the median of the slopes between point i and point i + ⌈n/2⌉,
    /// then the median of y − slope·x (Praat's NUMquantile at ½ of the sorted values, its two
    /// order statistics found by selection, not a sort: the same values); `scratch` holds at
    /// least n values.
    static func theil(_ x: UnsafeBufferPointer<Double>, _ y: UnsafeBufferPointer<Double>, scratch: UnsafeMutableBufferPointer<Double>) -> (Double, Double) {
        let n = x.count
        precondition(y.count == n && scratch.count >= n, "theil: \(n) points, \(y.count) values, \(scratch.count) of scratch")
        if n == 1 { return (0, y[0]) }
        if n == 2 {
            let m = (y[1] - y[0]) / (x[1] - x[0])
            return (m, y[0] - m * x[0])
        }
        let pairs = n / 2, offset = n % 2 == 1 ? pairs + 1 : pairs
        for i in 0..<pairs { scratch[i] = (y[offset + i] - y[i]) / (x[offset + i] - x[i]) }
        let m = median(UnsafeMutableBufferPointer(rebasing: scratch[..<pairs]))
        for i in 0..<n { scratch[i] = y[i] - m * x[i] }
        return (m, median(UnsafeMutableBufferPointer(rebasing: scratch[..<n])))
    }

    /// Praat's NUMquantile(a, ½) of `a` sorted ascending: place = n/2 + ½, linear between the
    /// order statistics at ⌊place⌋ and ⌊place⌋ + 1 (1-based) — found by selection, reordering `a`.
    /// NaN when `a` holds a NaN (Praat's sort leaves such an order unspecified too).
    static func median(_ b: UnsafeMutableBufferPointer<Double>) -> Double {
        let n = b.count
        guard n > 1 else { return b.first ?? 0 }
        guard !Selection.containsNaN(UnsafeBufferPointer(b)) else { return .nan }
        let place = 0.5 * Double(n) + 0.5
        let left = min(max(Int(place.rounded(.down)), 1), n - 1)
        Selection.select(b, left - 1, in: 0..<n)
        let low = b[left - 1]
        var high = b[left]
        for i in left + 1..<n where b[i] < high { high = b[i] }
        if high == low { return low }
        return low + (place - Double(left)) * (high - low)
    }

    /// Vector_getMaximumAndX with parabolic interpolation over the samples whose x = (i − 1)·dx
    /// lies in [from, to]: the larger end value or the highest interpolated local maximum, and
    /// its x clipped to the range.
    static func maximum(_ y: UnsafeBufferPointer<Double>, dx: Double, from: Double, to: Double) -> (Double, Double)? {
        let n = y.count
        var low = 1 + Int(clamping: (from / dx).rounded(.up), to: -1...Int.max - 2)
        var high = 1 + Int(clamping: (to / dx).rounded(.down), to: -1...Int.max - 2)
        low = max(low, 1)
        high = min(high, n)
        guard low <= high else { return nil }
        var best = y[low - 1], place = Double(low)
        if y[high - 1] > best { best = y[high - 1]; place = Double(high) }
        if low == 1 { low += 1 }
        if high == n { high -= 1 }
        if low <= high {
            for i in low...high where y[i - 1] > y[i - 2] && y[i - 1] >= y[i] {
                let dy = 0.5 * (y[i] - y[i - 2])
                let d2y = 2 * y[i - 1] - y[i - 2] - y[i]
                let value = y[i - 1] + 0.5 * dy * dy / d2y
                if value > best {
                    best = value
                    place = Double(i) + dy / d2y
                }
            }
        }
        return (best, min(max((place - 1) * dx, from), to))
    }

    /// Praat's Sampled_getMean with interpolation: the area under the linearly interpolated
    /// values y(i), i = 1…n, at x1 + (i − 1)·dx over [from, to] ∩ domain, divided by its length in
    /// samples (constant extrapolation over the half sample at each end). The window's samples,
    /// edge phases and length depend on the grid only, so they are found once (``init``) and
    /// applied to any values (``callAsFunction(_:)``) with Praat's operations in Praat's order.
    struct InterpolatedMean {
        /// How an edge of a window that holds sample centres adds its partial sample.
        enum Edge {
            case none
            /// The edge sample's half taken off, the interpolation over `phase` toward its neighbour added.
            case interpolated(Double)
            /// The edge sample's half taken off, `phase` (≤ ½) of it added (no neighbour).
            case constant(Double)
            /// No sample at the edge: `width` of the neighbour outside it.
            case outside(Double)
        }
        enum Shape {
            case empty
            /// Sample centres low…high inside, and the edges.
            case centres(low: Int, high: Int, left: Edge, right: Edge)
            /// No centre inside, between samples `high` and `low` = high + 1: interpolated over [phase1, phase2].
            case between(left: Int, right: Int, width: Double, middle: Double)
            /// Only the left (right) sample exists: `width` of it.
            case leftOnly(Int, width: Double)
            case rightOnly(Int, width: Double)
        }
        let shape: Shape
        let length: Double

        init(count n: Int, x1: Double, dx: Double, domain: ClosedRange<Double>, from: Double, to: Double) {
            var a = from, b = to
            a = max(a, domain.lowerBound)
            b = min(b, domain.upperBound)
            guard from != to, b > a else {
                (shape, length) = (.empty, .nan)
                return
            }
            func exists(_ i: Int) -> Bool { i >= 1 && i <= n }
            var range: Float80 = 0
            let lowReal = 1 + ((a - x1) / dx).rounded(.up), highReal = 1 + ((b - x1) / dx).rounded(.down)
            let low = Int(clamping: lowReal, rounding: .down, to: 1...Int(Int32.max)), high = Int(clamping: highReal, rounding: .down, to: Int(Int32.min)...n)
            if low <= high {
                let leftEdge = x1 - 0.5 * dx, rightEdge = leftEdge + Double(n) * dx
                range = Float80(high - low + 1)
                var left = Edge.none, right = Edge.none
                if a > leftEdge {
                    let phase = (x1 + Double(low - 1) * dx - a) / dx
                    if exists(low) {
                        range -= 0.5
                        left = exists(low - 1) ? .interpolated(phase) : .constant(min(phase, 0.5))
                        range += Float80(min(phase, exists(low - 1) ? phase : 0.5))
                    } else if exists(low - 1), phase > 0.5 {
                        range += Float80(phase - 0.5)
                        left = .outside(phase - 0.5)
                    }
                }
                if b < rightEdge {
                    let phase = (b - (x1 + Double(high - 1) * dx)) / dx
                    if exists(high) {
                        range -= 0.5
                        right = exists(high + 1) ? .interpolated(phase) : .constant(min(phase, 0.5))
                        range += Float80(min(phase, exists(high + 1) ? phase : 0.5))
                    } else if exists(high + 1), phase > 0.5 {
                        range += Float80(phase - 0.5)
                        right = .outside(phase - 0.5)
                    }
                }
                shape = .centres(low: low, high: high, left: left, right: right)
            } else {
                // No sample centre inside: the mean of the interpolated values at the two ends.
                var phase1 = (a - (x1 + Double(high - 1) * dx)) / dx
                var phase2 = (b - (x1 + Double(high - 1) * dx)) / dx
                var found = Shape.empty
                if low == high + 1 {
                    if exists(high) {
                        if exists(low) {
                            found = .between(left: high, right: low, width: phase2 - phase1, middle: 0.5 * (phase1 + phase2))
                        } else if phase1 < 0.5 {
                            if phase2 > 0.5 { phase2 = 0.5 }
                            found = .leftOnly(high, width: phase2 - phase1)
                        }
                    } else if exists(low), phase2 > 0.5 {
                        if phase1 < 0.5 { phase1 = 0.5 }
                        found = .rightOnly(low, width: phase2 - phase1)
                    }
                }
                switch found {
                case .between(_, _, let width, _), .leftOnly(_, let width), .rightOnly(_, let width): range += Float80(width)
                default: break
                }
                shape = found
            }
            length = Double(range)
        }

        /// The mean as weights on consecutive samples: Σ weights[k]·y(first + k).
        struct Taps {
            var first: Int
            var weights: [Double]
        }

        /// The window's weights (nil where the mean is NaN): the same mean as
        /// ``callAsFunction(_:)`` gives, its sum in another order and in Double, so within a few
        /// units in the last place of it.
        var taps: Taps? {
            guard length > 0 else { return nil }
            let taps: Taps
            switch shape {
            case .empty:
                return nil
            case .centres(let low, let high, let left, let right):
                var weights = [Double](repeating: 1, count: high - low + 1)
                var first = low
                switch left {
                case .none: break
                case .interpolated(let phase):
                    weights[0] += phase - 0.5 * phase * phase - 0.5
                    weights.insert(0.5 * phase * phase, at: 0)
                    first -= 1
                case .constant(let phase):
                    weights[0] += phase - 0.5
                case .outside(let width):
                    weights.insert(width, at: 0)
                    first -= 1
                }
                switch right {
                case .none: break
                case .interpolated(let phase):
                    weights[weights.count - 1] += phase - 0.5 * phase * phase - 0.5
                    weights.append(0.5 * phase * phase)
                case .constant(let phase):
                    weights[weights.count - 1] += phase - 0.5
                case .outside(let width):
                    weights.append(width)
                }
                taps = Taps(first: first, weights: weights)
            case .between(let left, _, let width, let middle):
                taps = Taps(first: left, weights: [width * (1 - middle), width * middle])
            case .leftOnly(let i, let width), .rightOnly(let i, let width):
                taps = Taps(first: i, weights: [width])
            }
            return Taps(first: taps.first, weights: taps.weights.map { $0 / length })
        }

        /// The mean of the values `y(1…n)` over the window.
        @inline(__always)
        func callAsFunction(_ y: (Int) -> Double) -> Double {
            var sum: Float80 = 0
            switch shape {
            case .empty:
                return .nan
            case .centres(let low, let high, let left, let right):
                for i in low...high { sum += Float80(y(i)) }
                switch left {
                case .none: break
                case .interpolated(let phase):
                    let r = y(low), l = y(low - 1)
                    sum -= Float80(0.5 * r)
                    sum += Float80(phase * (r + 0.5 * phase * (l - r)))
                case .constant(let phase):
                    let r = y(low)
                    sum -= Float80(0.5 * r)
                    sum += Float80(phase * r)
                case .outside(let width):
                    sum += Float80(width * y(low - 1))
                }
                switch right {
                case .none: break
                case .interpolated(let phase):
                    let l = y(high), r = y(high + 1)
                    sum -= Float80(0.5 * l)
                    sum += Float80(phase * (l + 0.5 * phase * (r - l)))
                case .constant(let phase):
                    let l = y(high)
                    sum -= Float80(0.5 * l)
                    sum += Float80(phase * l)
                case .outside(let width):
                    sum += Float80(width * y(high + 1))
                }
            case .between(let left, let right, let width, let middle):
                let l = y(left), r = y(right)
                sum += Float80(width * (l + middle * (r - l)))
            case .leftOnly(let i, let width), .rightOnly(let i, let width):
                sum += Float80(width * y(i))
            }
            let total = Double(sum)
            return length <= 0 ? .nan : total / length
        }
    }
}
