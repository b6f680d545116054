import Glibc
import SignalProcessing

/// The LPC formants of openSMILE 2.6.0's eGeMAPSv02 (cSpecResample to 11 kHz, cLpc with
/// `method = acf`, `p = 11`, cFormantLpc with `minF = 50`, `maxF = 5450`, `nFormants = 5`), as
/// its output shows them (equal within its single precision; `EGeMAPSv02PeerTests`):
///
/// f_s is the rate of openSMILE's frequency axis, N/0.02 s
/// (``EGeMAPSv02Analysis/spectrumRate(length:seconds:sampleRateHz:)``), which cSpecResample takes
/// for the frame's: the recording's rate wherever 0.02·f_s is a whole number of samples.
///
/// 1. Each 20-ms Hamming frame (N samples, zero-padded to M, a power of two, with ⌊(M − N)/2⌋
///    zeros before it) is resampled to L = ⌊N·11000/f_s + ½⌋ samples from the first L/2 bins
///    of its transform: y[n] = (2/M)·Σₖ₌₀^(L/2−1) Re(X[k]·e^(2πik·t_n/M)), t_n = n·f_s/r −
///    ⌊(M − N)/2⌋ with r = f_s·L/N (11 kHz) — DC counted twice and a low-pass at (L/2)·f_s/M
///    (3.4 kHz at 16 kHz, 4.7 kHz at 44.1 kHz), as openSMILE's resampler does; the sum by
///    Clenshaw's recurrence in cos θ_n (``TrigSeries``: within about (L/2)²·ε of the spectrum's
///    size, far below the peer's single precision).
/// 2. The autocorrelation r₀…r₁₁ of y and Levinson's recursion give A(z) = 1 + Σ aₖz⁻ᵏ.
/// 3. The formants are the roots of 1 − Σ aₖz⁻ᵏ (openSMILE's sign; not the roots of A), as the
///    Aberth sweeps leave them (no extended-precision polish: single precision is the peer's);
///    a root outside the unit circle taken as 1/z̄ inside it, as cFormantLpc does (that
///    polynomial is not minimum-phase); those above the real axis give frequency arg(z)·r/2π
///    and bandwidth −ln|z|·r/π, the lowest five within 50…5450 Hz (inclusive), 0 where fewer.
struct OpenSmileFormants: Sendable {
    static let targetRateHz = 11000.0, order = 11, count = 5, lowestHz = 50.0, highestHz = 5450.0

    let length: Int
    private let fft: FFT
    private let window: [Double]
    /// The resampling's series at θ_n = 2π·t_n/M, n < L.
    private let series: TrigSeries
    private let bins: Int, outputs: Int
    /// The rate of the resampled frame, f_s·L/N (cSpecResample rounds the frame to L samples and
    /// takes the rate that makes exact): 11 kHz, as L = 220 = 0.02 s·11 kHz.
    let rateHz: Double

    /// For frames of `length` samples at `sampleRateHz` through `window`; nil when the frame is
    /// too short to give the twelve autocorrelation lags or no transform can be made.
    init?(length: Int, window: [Double], sampleRateHz: Double) {
        var size = 1
        while size < length { size <<= 1 }
        guard let fft = try? FFT(size: size),
              let outputs = Int(checking: Double(length) * Self.targetRateHz / sampleRateHz + 0.5, rounding: .down, in: (2 * Self.order + 2)...(1 << 20))
        else { return nil }
        (self.length, self.fft, self.window, self.outputs) = (length, fft, window, outputs)
        let rateHz = sampleRateHz * Double(outputs) / Double(length)
        self.rateHz = rateHz
        let offset = (size - length) / 2
        bins = min(outputs / 2, fft.realBins)
        series = TrigSeries(angles: (0..<outputs).map { n in 2 * Double.pi * (Double(n) * sampleRateHz / rateHz - Double(offset)) / Double(size) })
    }

    /// Working space of ``append(_:from:frequencies:bandwidths:scratch:)``, reused from frame to frame.
    struct Scratch {
        var input: [Double] = [], spectrum: [Double] = [], resampled: [Double] = []
        var lags = [Double](repeating: 0, count: OpenSmileFormants.order + 1)
        var coefficients = [Double](repeating: 0, count: OpenSmileFormants.order + 1)
        var polynomial = [Double](repeating: 0, count: OpenSmileFormants.order + 1)
        var found: [(Double, Double)] = []
        /// The roots of the frame before, where the next frame's search starts.
        var roots: [PolynomialRoots.Root]?
    }

    /// Appends the formants of samples[start..<start + length] (full scale; the window carries
    /// openSMILE's sample scale) to `frequencies[k]` and `bandwidths[k]`, k < 5, 0 where missing.
    func append(_ samples: [Double], from start: Int, frequencies: inout [[Double]], bandwidths: inout [[Double]], scratch: inout Scratch) {
        let size = fft.size
        if scratch.input.count != size {
            scratch.input = [Double](repeating: 0, count: size)
            scratch.spectrum = [Double](repeating: 0, count: 2 * fft.realBins)
            scratch.resampled = [Double](repeating: 0, count: outputs)
        }
        for j in 0..<length { scratch.input[j] = samples[start + j] * window[j] }
        scratch.input.withUnsafeBufferPointer { i in scratch.spectrum.withUnsafeMutableBufferPointer { fft.forward(i, into: $0) } }
        // The spectrum of the frame at offset 0; the resampler's frame sits `offset` later, which
        // t_n already accounts for.
        scratch.spectrum.withUnsafeBufferPointer { bins in scratch.resampled.withUnsafeMutableBufferPointer { series.sum(bins, terms: self.bins, into: $0) } }
        let scale = 2 / Double(size)
        for lag in 0...Self.order {
            var sum = 0.0
            for n in 0..<(outputs - lag) { sum += scratch.resampled[n] * scratch.resampled[n + lag] }
            scratch.lags[lag] = sum * scale * scale
        }
        scratch.found.removeAll(keepingCapacity: true)
        if scratch.lags[0] > 0, scratch.lags.allSatisfy(\.isFinite), Self.levinson(scratch.lags, into: &scratch.coefficients) {
            // zᵖ − a₁zᵖ⁻¹ − … − aₚ, lowest power first.
            for k in 1...Self.order { scratch.polynomial[Self.order - k] = -scratch.coefficients[k] }
            scratch.polynomial[Self.order] = 1
            scratch.roots = PolynomialRoots.roots(scratch.polynomial, near: scratch.roots, polished: false)
            for z in scratch.roots ?? [] {
                if let formant = Self.formant(z, rateHz: rateHz) { scratch.found.append(formant) }
            }
            scratch.found.sort { $0.0 < $1.0 }
        }
        for k in 0..<Self.count {
            frequencies[k].append(k < scratch.found.count ? scratch.found[k].0 : 0)
            bandwidths[k].append(k < scratch.found.count ? scratch.found[k].1 : 0)
        }
    }

    /// The formant of root `z` of a signal at `rateHz`, (frequency, bandwidth) in Hz: arg(z)·rate/2π
    /// and −ln|z|·rate/π of z, or of 1/z̄ when z lies outside the unit circle (the same frequency,
    /// bandwidth ln|z|·rate/π); nil for a root on or below the real axis (whose arg π lies below
    /// 5450 Hz at a rate under 10.9 kHz) or a frequency outside 50…5450 Hz.
    static func formant(_ z: PolynomialRoots.Root, rateHz: Double) -> (frequencyHz: Double, bandwidthHz: Double)? {
        guard z.im > 0 else { return nil }
        let f = atan2(z.im, z.re) * rateHz / (2 * Double.pi)
        guard f >= lowestHz, f <= highestHz else { return nil }
        return (f, abs(log(z.squaredMagnitude)) / 2 * rateHz / Double.pi)
    }

    /// Levinson's recursion: a[0] = 1, a[1…p] of A(z) = 1 + Σ aₖz⁻ᵏ minimising the prediction
    /// error of the autocorrelation r₀…r_p, into `a` (p + 1 values); false when the error vanishes.
    static func levinson(_ r: [Double], into a: inout [Double]) -> Bool {
        let p = r.count - 1
        var error = r[0]
        for j in 0...p { a[j] = 0 }
        a[0] = 1
        for i in 1...p {
            guard error > 0 else { return false }
            var acc = r[i]
            for j in 1..<i { acc += a[j] * r[i - j] }
            let k = -acc / error
            // a[j] ← a[j] + k·a[i − j] for 0 < j < i, pairwise in place.
            var low = 1, high = i - 1
            while low < high {
                (a[low], a[high]) = (a[low] + k * a[high], a[high] + k * a[low])
                low += 1
                high -= 1
            }
            if low == high { a[low] += k * a[low] }
            a[i] = k
            error *= 1 - k * k
        }
        return true
    }
}
