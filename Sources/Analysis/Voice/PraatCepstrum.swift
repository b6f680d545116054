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
                    let first = min(max(PraatSound.nearestIndex(t - windowDuration / 2, x1: x1, dx: dx) + 1, Int(Int32.min)), Int(Int32.max))
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
}
