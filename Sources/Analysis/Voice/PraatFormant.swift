import Glibc
import SignalProcessing

/// Praat's "Sound: To Formant (burg)..." (Praat 6.1.38 fon/Sound_to_Formant.cpp; Praat manual,
/// "Sound: To Formant (burg)..."), on channel 0:
/// 1. the sound resampled to twice the maximum formant (``PraatSound/resampled(toRateHz:precision:)``,
///    depth 50), unless its rate is already that;
/// 2. pre-emphasis s[i] −= e^(−2π·F·Δt)·s[i − 1] from the last sample back (F: "pre-emphasis from");
/// 3. frames every `timeStep` (0: window length / 4) fitted symmetrically into the sound, each
///    2 × window length long, multiplied by Praat's Gaussian window
///    (e^(−48(i − m)²/(N + 1)²) − e^(−12)) / (1 − e^(−12)), m = (N + 1)/2;
/// 4. per frame Burg's LPC (J. P. Burg 1967; Praat's VECburg, its sums in twice double precision) of order
///    2 × maximum number of formants, the roots of its polynomial (``PolynomialRoots``), each root
///    outside the unit circle reflected into it, and a formant for every root on or above the real
///    axis at F = |arg z|·fₙ/π within [50 Hz, fₙ − 50 Hz], bandwidth −ln|z|²·fₙ/π, sorted by F.
/// A frame whose samples are all zero has no formants. The resampling runs on Praat's own FFT
/// (SignalProcessing's `PraatFFT`), so the resampled sound is Praat's to the bit, also its ringing
/// in a digitally silent stretch; the LPC sums differ from Praat's 80-bit ones by their rounding,
/// so the formants equal Praat's to rounding where the LPC polynomial is well-conditioned and
/// within the parity test's tolerance where it is not (that ringing's near-double roots, in frames
/// the features leave out as unvoiced; docs/accuracy.md).
public struct PraatFormantAnalysis: Sendable, Hashable {
    /// Seconds between frame centres (0: window length / 4).
    public var timeStep = 0.0
    /// Formants sought per frame (LPC order 2 × this).
    public var maximumFormantCount = 5.0
    /// The top of the analysed band, Hz (Praat's default 5500; its manual advises 5000 for a male
    /// and 5500 for a female voice).
    public var maximumFormantHz = 5500.0
    /// Praat's "window length", s: the Gaussian window is twice as long.
    public var windowLength = 0.025
    /// Pre-emphasis from this frequency, Hz.
    public var preEmphasisFromHz = 50.0
    public init() {}

    /// One frame's formants, lowest first.
    struct Frame: Sendable, Hashable {
        var frequencyHz: [Double] = []
        var bandwidthHz: [Double] = []
    }

    /// The frames of an analysis: centre of frame i at `firstTime + i·timeStep`.
    struct Track: Sendable, Hashable {
        var firstTime: Double
        var timeStep: Double
        var frames: [Frame]
        func time(_ frame: Int) -> Double { firstTime + Double(frame) * timeStep }
    }

    enum Failure: Error, Equatable {
        /// The window holds fewer samples than the LPC order + 1.
        case windowTooShort(samples: Int, order: Int)
        /// Twice the maximum formant is more than four times the recording's rate: the resampled
        /// sound would outgrow the voice analysis' memory model.
        case rateTooHigh(maximumFormantHz: Double, sampleRateHz: Double)
    }

    func analyze(_ input: PraatSound) throws(Failure) -> Track {
        let plan = try plan(input)
        return plan.track((0..<plan.chunkCount).map(plan.frames(chunk:)))
    }

    /// The resampled, pre-emphasised sound and its frames, to be analysed in chunks of
    /// consecutive frames (on different threads, if wanted).
    func plan(_ input: PraatSound) throws(Failure) -> Plan {
        let poles = Int(clamping: (2 * maximumFormantCount).rounded(.toNearestOrAwayFromZero), to: 1...1000)
        let nyquist = 0.5 / input.dx
        guard maximumFormantHz <= 4 * nyquist else { throw .rateTooHigh(maximumFormantHz: maximumFormantHz, sampleRateHz: 2 * nyquist) }
        let sound = maximumFormantHz <= 0 || abs(maximumFormantHz / nyquist - 1) < 1e-12 ? input : input.resampled(toRateHz: 2 * maximumFormantHz)
        var s = sound.samples
        let dx = sound.dx, nx = s.count
        let dt = timeStep > 0 ? timeStep : windowLength / 4
        let duration = Double(nx) * dx
        var windowSeconds = 2 * windowLength
        var frameCount = Int(clamping: (duration - windowSeconds) / dt, rounding: .down, to: -1...Int(Int32.max)) + 1
        var windowSamples = Int(clamping: windowSeconds / dx, rounding: .down, to: 0...Int(Int32.max))
        let halfWindow = windowSamples / 2
        guard windowSamples >= poles + 1 else { throw .windowTooShort(samples: windowSamples, order: poles) }
        var firstTime = sound.x1 + 0.5 * (duration - dx - Double(frameCount - 1) * dt)
        if frameCount < 1 {
            frameCount = 1
            firstTime = sound.x1 + 0.5 * duration
            windowSeconds = duration
            windowSamples = nx
        }
        // Pre-emphasis, from the end back so that each step uses the sample before it unchanged.
        let preEmphasis = exp(-2 * Double.pi * preEmphasisFromHz * dx)
        if nx >= 2 { for i in stride(from: nx - 1, through: 1, by: -1) { s[i] -= preEmphasis * s[i - 1] } }
        let edge = exp(-12.0)
        let middle = 0.5 * Double(windowSamples + 1), span = Double(windowSamples + 1)
        let window = (1...max(windowSamples, 1)).map { i -> Double in
            let d = Double(i) - middle
            return (exp(-48 * d * d / span / span) - edge) / (1 - edge)
        }
        return Plan(samples: s, dx: dx, x1: sound.x1, firstTime: firstTime, timeStep: dt, frameCount: frameCount,
                    halfWindow: halfWindow, window: window, poles: poles)
    }

    /// ``plan(_:)``'s sound and frames.
    struct Plan: Sendable {
        let samples: [Double]
        let dx: Double
        let x1: Double
        let firstTime: Double
        let timeStep: Double
        let frameCount: Int
        let halfWindow: Int
        let window: [Double]
        let poles: Int
        static let chunkLength = 400
        var chunkCount: Int { (frameCount + Self.chunkLength - 1) / Self.chunkLength }

        /// The formants of chunk `c`'s frames; each frame's roots are sought from the roots of the
        /// chunk's frame before (``PolynomialRoots/roots(_:near:)``).
        func frames(chunk c: Int) -> [Frame] {
            let nx = samples.count
            var buffer = [Double](repeating: 0, count: window.count)
            let burg = BurgLPC(order: poles)
            var previous: [PolynomialRoots.Root]?
            return (c * Self.chunkLength..<min(frameCount, (c + 1) * Self.chunkLength)).map { frame in
                let t = firstTime + Double(frame) * timeStep
                // Sampled_xToLowIndex (1-based) and the window around it, clipped to the sound.
                let left = min(max(PraatSound.lowIndex(t, x1: x1, dx: dx), -1), nx) + 1
                let start = max(left + 1 - halfWindow, 1), end = min(left + halfWindow, nx)
                guard end >= start else { return Frame() }
                var peak = 0.0
                for i in start...end { peak = max(peak, samples[i - 1] * samples[i - 1]) }
                guard peak > 0 else { return Frame() }
                let length = end - start + 1
                for j in 0..<length { buffer[j] = samples[start - 1 + j] * window[j] }
                guard let coefficients = buffer.withUnsafeBufferPointer({ burg.coefficients(UnsafeBufferPointer(rebasing: $0[0..<length])) })
                else { return Frame() }
                return PraatFormantAnalysis.formants(coefficients, nyquist: 0.5 / dx, safetyMargin: 50, near: &previous)
            }
        }

        /// The chunks' frames joined.
        func track(_ chunks: [[Frame]]) -> Track {
            Track(firstTime: firstTime, timeStep: timeStep, frames: chunks.flatMap { $0 })
        }
    }

    /// The formants of LPC coefficients a[1…p] (x[n] ≈ Σ a[k]·x[n − k]): the roots of
    /// zᵖ − a₁zᵖ⁻¹ − … − aₚ, reflected into the unit circle, above the real axis, within the margins.
    /// `near`: the roots of a similar polynomial to start from, replaced by this one's.
    static func formants(_ a: [Double], nyquist: Double, safetyMargin: Double, near: inout [PolynomialRoots.Root]?) -> Frame {
        let p = a.count
        var polynomial = [Double](repeating: 0, count: p + 1)
        for i in 0..<p { polynomial[i] = -a[p - 1 - i] }
        polynomial[p] = 1
        guard let roots = PolynomialRoots.roots(polynomial, near: near) else { return Frame() }
        near = roots
        var found: [(Double, Double)] = []
        for var z in roots where z.im >= 0 {
            let magnitude = z.squaredMagnitude
            if magnitude > 1 { z = PolynomialRoots.Root(re: z.re / magnitude, im: z.im / magnitude) }
            let f = abs(atan2(z.im, z.re)) * nyquist / .pi
            guard f >= safetyMargin, f <= nyquist - safetyMargin else { continue }
            found.append((f, -log(z.squaredMagnitude) * nyquist / .pi))
        }
        found.sort { $0.0 < $1.0 }
        return Frame(frequencyHz: found.map(\.0), bandwidthHz: found.map(\.1))
    }
}
