import Foundation
import InputGuards
import Glibc
import SignalProcessing

/// A mono sound on Praat's time grid: sample i (0-based) sits at x1 + i·dx with x1 = dx/2, so a
/// file's sound covers [0, n·dx].
struct PraatSound {
    let samples: [Double]
    let dx: Double
    /// Time of the first sample, s: ½·dx for a sound read from a file; elsewhere after resampling.
    let x1: Double
    /// The end of the time domain, s (it starts at 0): n/rate for a sound read from a file, which
    /// Praat's resampling keeps and measures with, not n·dx.
    let xmax: Double
    init(samples: [Double], dx: Double, firstTime: Double? = nil, endTime: Double? = nil) {
        self.samples = samples
        self.dx = dx
        x1 = firstTime ?? 0.5 * dx
        xmax = endTime ?? Double(samples.count) * dx
    }

    /// A sound as Praat reads it from a file at `sampleRateHz`: dx = 1/rate, x1 = ½·dx, xmax = n/rate.
    init(samples: [Double], sampleRateHz: Double) {
        self.init(samples: samples, dx: 1 / sampleRateHz, endTime: Double(samples.count) / sampleRateHz)
    }
    var count: Int { samples.count }
    var duration: Double { Double(count) * dx }

    /// The sound times the power of two that brings its largest |x| into [½, 1) where that largest
    /// |x| lies outside [2⁻¹²⁸, 2¹²⁸]; otherwise, or when it is 0 or not finite, the sound itself.
    /// The correlations behind pitch, harmonicity, pulses and shimmer divide by the square root of
    /// a product of two sums of squares, which underflows below a peak of about 2⁻²⁵⁵ and
    /// overflows above about 2²⁴⁰ (windows of 10⁵ samples). A power of two changes no bit of a
    /// sum, product, quotient or square root that stays normal, so those measures keep every bit
    /// of a sound within the range, and a quieter or louder one gets the values its scaled copy
    /// has (scaling down, a sample more than 2¹⁰²¹ below the peak loses bits to underflow).
    func scaledForCorrelation() -> PraatSound {
        let peak = samples.withUnsafeBufferPointer { Statistics.peakDeviation($0) }
        guard Self.needsScaling(peak: peak) else { return self }
        let power = Int32(-peak.exponent - 1)  // peak = m·2^e, 1 ≤ m < 2: −1074 ≤ e ≤ 1023
        return PraatSound(samples: samples.map { scalbn($0, power) }, dx: dx, firstTime: x1, endTime: xmax)
    }

    /// Whether a sound whose largest |x| is `peak` is scaled for its correlations.
    static func needsScaling(peak: Double) -> Bool { peak > 0 && peak.isFinite && (peak < 0x1p-128 || peak > 0x1p128) }

    func time(_ index: Double) -> Double { x1 + index * dx }
    /// Index of the last sample at or before t (0-based; may be out of range).
    func lowIndex(_ t: Double) -> Int { Self.lowIndex(t, x1: x1, dx: dx) }
    /// Index of the first sample at or after t.
    func highIndex(_ t: Double) -> Int { Self.highIndex(t, x1: x1, dx: dx) }
    /// Index of the sample nearest t, a tie to the later.
    func nearestIndex(_ t: Double) -> Int { Self.nearestIndex(t, x1: x1, dx: dx) }

    /// Praat's Sampled_xToIndex: the 1-based real index of time t on the grid x1 + (i − 1)·dx,
    /// (t − x1)/dx + 1 with Praat's roundings. Its integer parts (below) and the phase of a
    /// contour's value are taken from this sum, not from (t − x1)/dx: adding 1 rounds where the
    /// two lie on either side of a power of two (127.49999999999999 + 1 is 128.5), or the
    /// quotient is within 2⁻⁵⁴ below 0.
    static func praatIndex(_ t: Double, x1: Double, dx: Double) -> Double { (t - x1) / dx + 1 }
    /// Praat's Sampled_xToLowIndex (Melder_ifloor of ``praatIndex(_:x1:dx:)``) less one: 0-based.
    static func lowIndex(_ t: Double, x1: Double, dx: Double) -> Int {
        Int(clamping: praatIndex(t, x1: x1, dx: dx), rounding: .down, to: -Int.max...Int.max) - 1
    }
    /// Praat's Sampled_xToHighIndex (Melder_iceiling) less one.
    static func highIndex(_ t: Double, x1: Double, dx: Double) -> Int {
        Int(clamping: praatIndex(t, x1: x1, dx: dx), rounding: .up, to: -Int.max...Int.max) - 1
    }
    /// Praat's Sampled_xToNearestIndex (Melder_iround: ⌊x + 0.5⌋, a tie to the later) less one.
    static func nearestIndex(_ t: Double, x1: Double, dx: Double) -> Int {
        Int(clamping: praatIndex(t, x1: x1, dx: dx) + 0.5, rounding: .down, to: -Int.max...Int.max) - 1
    }
}

/// Praat's "Sound: To Pitch (ac)" and the cross-correlation variant its harmonicity uses,
/// reimplemented from P. Boersma, "Accurate short-term analysis of the fundamental frequency and
/// the harmonics-to-noise ratio of a sampled sound", Proc. IFA 17:97–110 (1993), and the Praat
/// manual ("Sound: To Pitch (ac)...", "Sound: To Harmonicity (cc)..."), docs/analyses.md §4.6:
/// per frame the local-mean-removed, windowed signal's autocorrelation divided by the window's,
/// candidates at its maxima refined by sinc interpolation, then the best path through the
/// candidates by dynamic programming with octave, octave-jump and voicing costs.
struct PraatPitchAnalysis {
    enum Method {
        /// Autocorrelation with a Hann window of `periodsPerWindow` periods of the floor (default).
        case autocorrelation
        /// Forward cross-correlation, sinc-700 peak refinement (Praat's "accurate" cc).
        case crossCorrelation
    }

    var timeStep = 0.0  // 0: periodsPerWindow / floor / 4
    var floor = 75.0
    var ceiling = 600.0
    var method = Method.autocorrelation
    var periodsPerWindow = 3.0
    var maxCandidates = 15
    var silenceThreshold = 0.03
    var voicingThreshold = 0.45
    var octaveCost = 0.01
    var octaveJumpCost = 0.35
    var voicedUnvoicedCost = 0.14
    /// Frames are analysed in runs of at least this many (at most ``maxRuns`` runs), the runs
    /// over Dispatch's threads (``Parallel``); each run is the frames a single pass would give.
    var framesPerRun = 48
    var maxRuns = 16

    struct Candidate {
        var frequency: Double
        var strength: Double
    }

    struct Frame {
        var intensity = 0.0
        var candidates: [Candidate] = [Candidate(frequency: 0, strength: 0)]
    }

    /// The chosen path: per frame (frequency Hz, 0 = unvoiced; strength).
    struct Contour {
        var x1: Double
        var dx: Double
        var ceiling: Double
        var frequency: [Double]
        var strength: [Double]

        func time(_ frame: Int) -> Double { x1 + Double(frame) * dx }
        func isVoiced(_ frame: Int) -> Bool { frequency[frame] > 0 && frequency[frame] < ceiling }

        /// Linear interpolation between frame centres, nil where the nearer frame is unvoiced
        /// (extrapolating from it when the farther one is; Praat's Sampled_getValueAtX) and at a
        /// time that is not finite.
        func value(at t: Double) -> Double? {
            guard t.isFinite else { return nil }
            // Praat's 1-based index and phase (PraatSound.praatIndex), then 0-based frames.
            let real = PraatSound.praatIndex(t, x1: x1, dx: dx)
            let left = Int(clamping: real, rounding: .down, to: 0...frequency.count + 1)
            var phase = real - Double(left)
            let near: Int, far: Int
            if phase < 0.5 {
                (near, far) = (left - 1, left)
            } else {
                (near, far) = (left, left - 1)
                phase = 1 - phase
            }
            guard near >= 0, near < frequency.count, isVoiced(near) else { return nil }
            guard far >= 0, far < frequency.count, isVoiced(far) else { return frequency[near] }
            return frequency[near] + phase * (frequency[far] - frequency[near])
        }
    }

    func analyze(_ sound: PraatSound) -> Contour? {
        guard let plan = plan(sound) else { return nil }
        return plan.contour(Parallel.map(plan.runCount, parallel: plan.runCount > 1, plan.frames(run:)))
    }

    /// The window of this analysis in `sound`: its duration, s (`periodsPerWindow` periods of the
    /// floor), the span a frame reads, s (one period more for the cross-correlation), and half its
    /// samples less one (``plan(_:)`` needs at least 2).
    func window(_ sound: PraatSound) -> (seconds: Double, analysisSeconds: Double, halfSamples: Int) {
        let seconds = periodsPerWindow / floor
        return (seconds, method == .crossCorrelation ? 1 / floor + seconds : seconds,
                Int(clamping: seconds / sound.dx, rounding: .down, to: 0...sound.count) / 2 - 1)
    }

    /// Why ``plan(_:)`` found no frame in `sound` (it gave nil): the recording shorter than the
    /// analysis window, or the window too few samples wide.
    func noFrame(_ sound: PraatSound) -> String {
        let window = window(sound)
        let periods = "\(periodsPerWindow.compactDescription) period\(periodsPerWindow == 1 ? "" : "s") of the \(floor.compactDescription)-Hz floor"
            + (method == .crossCorrelation ? " and one more for the cross-correlation" : "")
        if window.halfSamples < 2, sound.duration >= window.analysisSeconds {
            return "its window of \(periods) holds fewer than 6 samples at \((1 / sound.dx).compactDescription) Hz"
        }
        return "the recording's \(String(format: "%.3g", sound.duration)) s are shorter than its window of \(periods) (\(String(format: "%.3g", window.analysisSeconds)) s)"
    }

    /// The frames of this analysis of `sound` and the runs to analyse them in; nil where the
    /// sound is too short for one frame.
    func plan(_ sound: PraatSound) -> Plan? {
        let ceiling = min(self.ceiling, 0.5 / sound.dx)
        let periodsPerWindow = self.periodsPerWindow
        let accurate = method == .crossCorrelation
        let interpolationDepth = method == .autocorrelation ? 0.5 : 1.0
        let brentDepth = accurate ? 700 : 70
        let dt = timeStep > 0 ? timeStep : periodsPerWindow / floor / 4
        guard floor >= periodsPerWindow / sound.duration else { return nil }
        let maxCandidates = max(self.maxCandidates, Int(clamping: ceiling / floor, to: 0...100_000))
        let samplesPerPeriod = Int(clamping: 1 / sound.dx / floor, rounding: .down, to: 0...sound.count)
        let halfSamplesPerPeriod = samplesPerPeriod / 2 + 1
        let (_, analysisWindow, halfWindow) = window(sound)
        guard halfWindow >= 2 else { return nil }
        let windowSamples = 2 * halfWindow
        let maximumLag = min(Int(clamping: Double(windowSamples) / periodsPerWindow, rounding: .down, to: 0...windowSamples) + 2, windowSamples)

        // Frames fitted symmetrically into the sound (Praat's Sampled_shortTermAnalysis).
        let frameCount = Int(clamping: (sound.duration - analysisWindow) / dt, rounding: .down, to: -1...sound.count) + 1
        guard frameCount >= 1 else { return nil }
        let middle = sound.x1 - 0.5 * sound.dx + 0.5 * sound.duration
        let firstTime = middle - 0.5 * Double(frameCount) * dt + 0.5 * dt

        let mean = sound.samples.reduce(0, +) / Double(sound.count)
        let globalPeak = sound.samples.withUnsafeBufferPointer { Statistics.peakDeviation($0, from: mean) }
        let context = globalPeak > 0
            ? FrameContext(sound: sound, windowSamples: windowSamples, halfWindow: halfWindow, maximumLag: maximumLag,
                           samplesPerPeriod: samplesPerPeriod, halfSamplesPerPeriod: halfSamplesPerPeriod,
                           interpolationDepth: interpolationDepth, brentDepth: brentDepth, globalPeak: globalPeak, crossCorrelation: accurate)
            : nil
        // Runs of frames, each with its own buffers. A cross-correlation frame computes the lags
        // its stretch of the sound holds and keeps the others from the frames before. Frames
        // fitted into the sound (the analysis window spans maximumLag + windowSamples samples and
        // more) all compute the same lags, so a lag none computes stays 0 in every run and the
        // frames of a run are those of one pass. Should the last frame's stretch fall short of
        // the sound's end, one pass.
        let lastTime = firstTime + Double(frameCount - 1) * dt
        let fitted = !accurate || sound.count - crossCorrelationStart(sound, at: lastTime) >= maximumLag + windowSamples
        let runCount = fitted && context != nil ? min(max(frameCount / max(framesPerRun, 1), 1), max(maxRuns, 1)) : 1
        return Plan(analysis: self, context: context, ceiling: ceiling, firstTime: firstTime, dt: dt, frameCount: frameCount,
                    runCount: runCount, maxCandidates: maxCandidates, accurate: accurate)
    }

    /// The frames of one analysis of one sound in ``runCount`` runs: ``frames(run:)`` of every
    /// run, on any threads, then ``contour(_:)`` of them in order.
    struct Plan: Sendable {
        let analysis: PraatPitchAnalysis
        /// The buffers each run starts from; nil for a silent sound (every frame unvoiced).
        let context: FrameContext?
        let ceiling: Double, firstTime: Double, dt: Double
        let frameCount: Int, runCount: Int, maxCandidates: Int
        let accurate: Bool

        func frames(run: Int) -> [Frame] {
            let range = run * frameCount / runCount..<(run + 1) * frameCount / runCount
            guard var context else { return [Frame](repeating: Frame(), count: range.count) }
            return range.map { context.frame(at: firstTime + Double($0) * dt, analysis: analysis, maxCandidates: maxCandidates, accurate: accurate) }
        }

        func contour(_ runs: [[Frame]]) -> Contour {
            analysis.pathFinder(Array(runs.joined()), x1: firstTime, dx: dt, ceiling: ceiling)
        }
    }

    /// The first sample of the cross-correlation's stretch at frame centre `t`.
    func crossCorrelationStart(_ sound: PraatSound, at t: Double) -> Int {
        max(sound.lowIndex(t - 0.5 * (1 / floor + periodsPerWindow / floor)), 0)  // dt_window in seconds, as Praat
    }

    /// Buffers and constants of the per-frame analysis.
    struct FrameContext {
        let sound: PraatSound
        let windowSamples: Int, halfWindow: Int, maximumLag: Int
        let samplesPerPeriod: Int, halfSamplesPerPeriod: Int
        let interpolationDepth: Double
        let brentDepth: Int
        let globalPeak: Double
        let window: [Double]
        let windowAutocorrelation: [Double]
        let fft: FFT?
        let fftSize: Int
        let brentMax: Int
        var r: [Double]
        /// Scratch of the cross-correlation: the mean-removed stretch (with room to start it on a
        /// cache line) and the lags' energy products.
        var segment: [Double], norms: [Double]
        /// Scratch of the autocorrelation: the windowed frame zero-padded to the FFT size, its
        /// spectrum, its autocorrelation.
        var padded: [Double], spectrum: [Double], lagged: [Double]
        /// The cross-correlation's lag products through the FFT (nil: summed directly).
        var lagProducts: LagProducts?
        /// r[−brentMax…brentMax] for the sinc interpolation.
        var interpolant: SincInterpolant
        /// Scratch of the candidates: their lags (places[0] stands for the unvoiced candidate),
        /// the depths of their second pass and its maxima (places, then values).
        var places: [Int] = [], depths: [Int] = [], maxima: [Double] = []
        /// Scratch of the first pass: the maxima's lags, their parabolic frequencies (Hz) and
        /// their strengths (holding first the places to interpolate at, in lags).
        var peakLags: [Int] = [], peakFrequencies: [Double] = [], peakStrengths: [Double] = []
        /// Scratch of ``tiedLags(_:lags:threshold:error:into:)``: the lags to redo.
        var tied: [Int] = []

        init(sound: PraatSound, windowSamples: Int, halfWindow: Int, maximumLag: Int, samplesPerPeriod: Int, halfSamplesPerPeriod: Int,
             interpolationDepth: Double, brentDepth: Int, globalPeak: Double, crossCorrelation: Bool) {
            self.sound = sound
            self.windowSamples = windowSamples
            self.halfWindow = halfWindow
            self.maximumLag = maximumLag
            self.samplesPerPeriod = samplesPerPeriod
            self.halfSamplesPerPeriod = halfSamplesPerPeriod
            self.interpolationDepth = interpolationDepth
            self.brentDepth = brentDepth
            self.globalPeak = globalPeak
            brentMax = Int(clamping: Double(windowSamples) * interpolationDepth, rounding: .down, to: 0...Int.max)
            r = [Double](repeating: 0, count: brentMax + 1)
            segment = [Double](repeating: 0, count: maximumLag + windowSamples + 8)
            norms = r
            interpolant = SincInterpolant(capacity: brentMax)
            lagProducts = crossCorrelation ? LagProducts(window: windowSamples, lags: min(maximumLag, brentMax)) : nil
            var size = 1
            while Double(size) < Double(windowSamples) * (1 + interpolationDepth) { size *= 2 }
            fftSize = size
            padded = [Double](repeating: 0, count: size)
            var spectrum = [Double](repeating: 0, count: 2 * (size / 2 + 1)), lagged = padded
            // Hann window w_i = 0.5 − 0.5·cos(2πi/(N + 1)), i = 1…N, and its normalised autocorrelation.
            window = (1...windowSamples).map { (i: Int) -> Double in 0.5 - 0.5 * cos(Double(i) * 2 * Double.pi / Double(windowSamples + 1)) }
            fft = try? FFT(size: size)
            if let fft {
                Self.autocorrelate(window + padded[windowSamples...], into: &lagged, spectrum: &spectrum, fft: fft)
                windowAutocorrelation = lagged.map { $0 / lagged[0] }
            } else {
                windowAutocorrelation = []
            }
            self.spectrum = spectrum
            self.lagged = lagged
        }

        /// The largest difference between a lag's cross-correlation from the fast sums and from
        /// Praat's 80-bit running sums, for a window of `window` values (both round the same
        /// products x·y): the transform's ``LagProducts/tolerance`` where the FFT's sums are kept,
        /// and the direct sums' rounding — sixteen partial sums of W/16 terms and four levels
        /// joining them, (W/16 + 3)·ε/2 of Σ|x·y| ≤ √(Σx²·Σy²) (Cauchy–Schwarz), the
        /// normalisation — taken twice, with five more ε/2 for Praat's own sum, the square root
        /// and the division.
        static func fastSumsError(window: Int) -> Double {
            LagProducts.tolerance + (Double(max(window, 0)) / 16 + 8) * Double.ulpOfOne
        }

        /// Whether Praat's maxima of r at lags 2…`lags` − 1 (r[i] > `threshold`, r[i] > r[i − 1],
        /// r[i] ≥ r[i + 1]) could fall otherwise with Praat's sums: r[1…lags] holds the fast
        /// sums' values, each within `error` (``fastSumsError(window:)``) of Praat's, so a
        /// comparison whose sides differ by more than twice their two errors falls as Praat's
        /// does. The lags of every other comparison go into `tied` (a plateau: digital silence
        /// less its local mean correlates to 1 − 10⁻⁵ at every lag, neighbours equal but for
        /// rounding); redone with Praat's sums, they leave every comparison with a lag not redone
        /// more than one error apart, decided alike too.
        static func tiedLags(_ r: UnsafeBufferPointer<Double>, lags: Int, threshold: Double, error: Double, into tied: inout [Int]) -> Bool {
            tied.removeAll(keepingCapacity: true)
            guard lags >= 2 else { return false }
            let tie = 4 * error
            for i in 1...lags where abs(r[i] - threshold) <= tie / 2 || (i > 1 && abs(r[i] - r[i - 1]) <= tie) || (i < lags && abs(r[i] - r[i + 1]) <= tie) {
                tied.append(i)
            }
            return !tied.isEmpty
        }

        /// The autocorrelation of `frame` (fft.size values, zero-padded) into `lagged`
        /// (``Autocorrelation/circular(_:spectrum:into:fft:)``); `spectrum` is scratch.
        static func autocorrelate(_ frame: [Double], into lagged: inout [Double], spectrum: inout [Double], fft: FFT) {
            frame.withUnsafeBufferPointer { frame in
                spectrum.withUnsafeMutableBufferPointer { spectrum in
                    lagged.withUnsafeMutableBufferPointer { Autocorrelation.circular(frame, spectrum: spectrum, into: $0, fft: fft) }
                }
            }
        }

        mutating func frame(at t: Double, analysis a: PraatPitchAnalysis, maxCandidates: Int, accurate: Bool) -> Frame {
            let s = sound.samples
            let left = sound.lowIndex(t), right = left + 1
            // Local mean over one longest period each side.
            var localMean = 0.0
            let meanStart = max(0, right - samplesPerPeriod), meanEnd = min(s.count - 1, left + samplesPerPeriod)
            for i in meanStart...meanEnd { localMean += s[i] }
            localMean /= Double(2 * samplesPerPeriod)
            // The autocorrelation's frame: mean removed and windowed (samples outside the sound 0).
            let start = right - halfWindow
            if !accurate {
                let count = s.count, mean = localMean
                s.withUnsafeBufferPointer { s in
                    window.withUnsafeBufferPointer { w in
                        padded.withUnsafeMutableBufferPointer { frame in
                            for j in 0..<w.count {
                                let i = start + j
                                frame[j] = (i >= 0 && i < count ? s[i] - mean : 0) * w[j]
                            }
                        }
                    }
                }
            }
            // Local peak of the frame over half a longest period each side of its centre (the
            // cross-correlation's frame is not windowed; outside the sound its 0 never raises it).
            let peakFirst = max(0, halfWindow - halfSamplesPerPeriod), peakLast = min(windowSamples - 1, halfWindow + halfSamplesPerPeriod - 1)
            func peak(_ x: [Double], _ first: Int, _ last: Int, from center: Double) -> Double {
                first <= last ? x.withUnsafeBufferPointer { Statistics.peakDeviation(UnsafeBufferPointer(rebasing: $0[first...last]), from: center) } : 0
            }
            let localPeak = accurate
                ? peak(s, max(start + peakFirst, 0), min(start + peakLast, s.count - 1), from: localMean)
                : peak(padded, peakFirst, peakLast, from: 0)
            var result = Frame(intensity: localPeak > globalPeak ? 1 : localPeak / globalPeak)
            guard localPeak > 0 else { return result }

            // r[m] for m = 0…brentMax, the sinc interpolant's support r[−brentMax…brentMax] as in
            // Praat. The buffer lives across frames, as Praat's does: lags a frame does not compute
            // keep their earlier values (see ``plan(_:)`` for why runs of frames still agree).
            if accurate {
                // The mean-removed stretch once, contiguous, so the lag products run over
                // unchecked pointers, from a 64-byte boundary (a cache line): the kernel's loads
                // of x never straddle two lines, whatever address the allocator gave the buffer.
                let begin = a.crossCorrelationStart(sound, at: t)
                let span = min(maximumLag + windowSamples, s.count - begin)
                let count = max(span, 0), window = windowSamples, lastLag = min(span - windowSamples, brentMax)
                if lastLag >= 1 { segment.withUnsafeMutableBufferPointer { storage in
                    let offset = (64 - Int(bitPattern: storage.baseAddress) % 64) % 64 / MemoryLayout<Double>.stride
                    for j in 0..<count { storage[offset + j] = s[begin + j] - localMean }
                    let x = UnsafeBufferPointer(rebasing: storage[offset..<(offset + count)])
                    // The window's energy and the lagged window's by Praat's running update, in
                    // its 80 bits (one chain each); the lag products (through the FFT where that
                    // is as good, with long windows); then the square roots and divisions four at
                    // a time; then Praat's own sums where their rounding decides a maximum.
                    var sumX2: Float80 = 0
                    for i in 0..<window { sumX2 += Float80(x[i] * x[i]) }
                    r.withUnsafeMutableBufferPointer { r in
                        norms.withUnsafeMutableBufferPointer { norms in
                            var sumY2 = sumX2
                            for lag in 1...lastLag {
                                let y0 = x[lag - 1], yZ = x[lag - 1 + window]
                                sumY2 += Float80(yZ * yZ - y0 * y0)
                                norms[lag] = Double(sumX2) * Double(sumY2)
                            }
                            let products = UnsafeMutableBufferPointer(rebasing: r[1...lastLag])
                            if lagProducts != nil {
                                lagProducts!(x, window: window, lags: 1...lastLag, norms: UnsafeBufferPointer(rebasing: norms[1...lastLag]), into: products)
                            } else {
                                Autocorrelation.lagProducts(x, window: window, lags: 1...lastLag, into: products)
                            }
                            r[0] = 1
                            var lag = 1
                            while lag + 3 <= lastLag {
                                let products = SIMD4(r[lag], r[lag + 1], r[lag + 2], r[lag + 3])
                                let energies = SIMD4(norms[lag], norms[lag + 1], norms[lag + 2], norms[lag + 3])
                                let ratios = products / energies.squareRoot()
                                for k in 0..<4 { r[lag + k] = ratios[k] }
                                lag += 4
                            }
                            while lag <= lastLag {
                                r[lag] /= norms[lag].squareRoot()
                                lag += 1
                            }
                            // Where the fast sums' rounding could decide a maximum, Praat's sums.
                            if Self.tiedLags(UnsafeBufferPointer(r), lags: min(lastLag, maximumLag), threshold: 0.5 * a.voicingThreshold,
                                             error: Self.fastSumsError(window: window), into: &tied) {
                                for lag in tied { r[lag] = Autocorrelation.extendedLagProduct(x, window: window, lag: lag) / norms[lag].squareRoot() }
                            }
                        }
                    }
                } }
            } else if let fft {
                // The frame's autocorrelation, over the window's.
                Self.autocorrelate(padded, into: &lagged, spectrum: &spectrum, fft: fft)
                let lastLag = min(brentMax, windowAutocorrelation.count - 1, r.count - 1)
                r[0] = 1
                if lastLag >= 1 {
                    r.withUnsafeMutableBufferPointer { r in
                        lagged.withUnsafeBufferPointer { ac in
                            windowAutocorrelation.withUnsafeBufferPointer { w in
                                for lag in 1...lastLag { r[lag] = ac[lag] / (ac[0] * w[lag]) }
                            }
                        }
                    }
                }
            }

            r.withUnsafeBufferPointer { interpolant.load($0) }

            // Candidates at the maxima of r, strongest kept: every maximum's parabolic frequency
            // and its strength (the interpolant at depth 30 there, all maxima at once), then the
            // maxima in order.
            places.removeAll(keepingCapacity: true)
            places.append(0)
            let maxLag = min(maximumLag, brentMax)
            peakLags.removeAll(keepingCapacity: true)
            peakFrequencies.removeAll(keepingCapacity: true)
            for i in 2..<max(2, maxLag) where r[i] > 0.5 * a.voicingThreshold && r[i] > r[i - 1] && r[i] >= r[i + 1] {
                let dr = 0.5 * (r[i + 1] - r[i - 1]), d2r = 2 * r[i] - r[i - 1] - r[i + 1]
                peakLags.append(i)
                peakFrequencies.append(1 / sound.dx / (Double(i) + dr / d2r))
            }
            if peakStrengths.count < peakFrequencies.count { peakStrengths = [Double](repeating: 0, count: peakFrequencies.count) }
            // Each at its lag as Praat places it: in its vector's places (lag + B + 1), rounded
            // there, then back (exact).
            let origin = Double(brentMax + 1)
            for k in peakFrequencies.indices { peakStrengths[k] = (1 / sound.dx / peakFrequencies[k] + origin) - origin }
            peakStrengths.withUnsafeMutableBufferPointer { s in
                let places = UnsafeMutableBufferPointer(rebasing: s[..<peakFrequencies.count])
                interpolant.values(at: UnsafeBufferPointer(places), depth: 30, into: places)
            }
            for (peak, i) in peakLags.enumerated() {
                let frequency = peakFrequencies[peak]
                var strength = peakStrengths[peak]
                if strength > 1 { strength = 1 / strength }
                var place: Int?
                if result.candidates.count < maxCandidates {
                    result.candidates.append(Candidate(frequency: frequency, strength: strength))
                    places.append(i)
                    continue
                }
                var weakest = 2.0
                for k in 1..<result.candidates.count {
                    let local = result.candidates[k].strength - a.octaveCost * log2(a.floor / result.candidates[k].frequency)
                    if local < weakest {
                        weakest = local
                        place = k
                    }
                }
                if strength - a.octaveCost * log2(a.floor / frequency) <= weakest { place = nil }
                if let place {
                    result.candidates[place] = Candidate(frequency: frequency, strength: strength)
                    places[place] = i
                }
            }
            // Second pass: maximise the sinc interpolant of r around each candidate (eight
            // searches at a time, each as it would run alone).
            let refine = result.candidates.count - 1
            guard refine > 0 else { return result }
            depths.removeAll(keepingCapacity: true)
            for k in 1...refine { depths.append(result.candidates[k].frequency > 0.3 / sound.dx ? 700 : brentDepth) }
            if maxima.count < 2 * refine { maxima = [Double](repeating: 0, count: 2 * max(refine, maxCandidates)) }
            maxima.withUnsafeMutableBufferPointer { xy in
                places.withUnsafeBufferPointer { places in
                    depths.withUnsafeBufferPointer { depths in
                        interpolant.maxima(around: UnsafeBufferPointer(rebasing: places[1...refine]), depths: depths,
                                           x: UnsafeMutableBufferPointer(rebasing: xy[..<refine]), y: UnsafeMutableBufferPointer(rebasing: xy[refine..<(2 * refine)]))
                    }
                }
            }
            for k in 1...refine {
                let x = maxima[k - 1], y = maxima[refine + k - 1]
                result.candidates[k].frequency = 1 / sound.dx / x
                result.candidates[k].strength = y > 1 ? 1 / y : y
            }
            return result
        }
    }

    /// Praat's Pitch_pathFinder: Viterbi over candidates with octave, jump and voicing costs
    /// (the latter two scaled by 0.01 s / time step).
    func pathFinder(_ frames: [Frame], x1: Double, dx: Double, ceiling: Double) -> Contour {
        let correction = 0.01 / dx
        let jump = octaveJumpCost * correction, vuv = voicedUnvoicedCost * correction
        func voiced(_ f: Double) -> Bool { f > 0 && f < ceiling }
        var delta: [[Double]] = frames.map { frame in
            let unvoiced = voicingThreshold + max(0, silenceThreshold <= 0 ? 0 : 2 - frame.intensity / (silenceThreshold / (1 + voicingThreshold)))
            return frame.candidates.map { c in voiced(c.frequency) ? c.strength - octaveCost * log2(ceiling / c.frequency) : unvoiced }
        }
        var psi = frames.map { [Int](repeating: 0, count: $0.candidates.count) }
        for f in 1..<max(1, frames.count) {
            for c2 in frames[f].candidates.indices {
                let f2 = frames[f].candidates[c2].frequency
                var best = -1e30, place = 0
                for c1 in frames[f - 1].candidates.indices {
                    let f1 = frames[f - 1].candidates[c1].frequency
                    let cost: Double
                    switch (voiced(f1), voiced(f2)) {
                    case (false, false): cost = 0
                    // Without a jump cost (harmonicity) the cost is 0 exactly: voiced
                    // frequencies lie in (rate/count, ceiling), so log2 of their ratio is finite.
                    case (true, true): cost = jump == 0 ? 0 : jump * abs(log2(f1 / f2))
                    default: cost = vuv
                    }
                    let value = delta[f - 1][c1] - cost + delta[f][c2]
                    if value > best {
                        best = value
                        place = c1
                    }
                }
                delta[f][c2] = best
                psi[f][c2] = place
            }
        }
        var frequency = [Double](repeating: 0, count: frames.count), strength = frequency
        guard let last = frames.indices.last else { return Contour(x1: x1, dx: dx, ceiling: ceiling, frequency: [], strength: []) }
        var place = delta[last].indices.max { delta[last][$0] < delta[last][$1] } ?? 0
        for f in stride(from: last, through: 0, by: -1) {
            frequency[f] = frames[f].candidates[place].frequency
            strength[f] = frames[f].candidates[place].strength
            place = psi[f][place]
        }
        return Contour(x1: x1, dx: dx, ceiling: ceiling, frequency: frequency, strength: strength)
    }
}
