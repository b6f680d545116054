import Glibc
import SignalProcessing

/// The LPC formants of openSMILE 2.6.0's eGeMAPSv02 (cSpecResample to 11 kHz, cLpc with
/// `method = acf`, `p = 11`, cFormantLpc with `minF = 50`, `maxF = 5450`, `nFormants = 5`), as
/// its output shows them (equal within its single precision; `EGeMAPSv02PeerTests`):
///
/// 1. Each 20-ms Hamming frame (N samples, zero-padded to M, a power of two, with ⌊(M − N)/2⌋
///    zeros before it) is resampled to L = ⌊N·11000/f_s + ½⌋ samples from the first L/2 bins
///    of its transform: y[n] = (2/M)·Σₖ₌₀^(L/2−1) Re(X[k]·e^(2πik·t_n/M)), t_n = n·f_s/11000 −
///    ⌊(M − N)/2⌋ — DC counted twice and a low-pass at (L/2)·f_s/M (3.4 kHz at 16 kHz, 4.7 kHz
///    at 44.1 kHz), as openSMILE's resampler does.
/// 2. The autocorrelation r₀…r₁₁ of y and Levinson's recursion give A(z) = 1 + Σ aₖz⁻ᵏ.
/// 3. The formants are the roots of 1 − Σ aₖz⁻ᵏ (openSMILE's sign; not the roots of A) above the
///    real axis: frequency arg(z)·11000/2π, bandwidth −ln|z|·11000/π, the lowest five within
///    50…5450 Hz, 0 where fewer.
struct OpenSmileFormants: Sendable {
    static let rateHz = 11000.0, order = 11, count = 5, lowestHz = 50.0, highestHz = 5450.0

    /// One frame's formant frequencies and bandwidths, Hz (0 where missing).
    struct Frame: Sendable, Hashable {
        var frequencyHz = [Double](repeating: 0, count: OpenSmileFormants.count)
        var bandwidthHz = [Double](repeating: 0, count: OpenSmileFormants.count)
    }

    let length: Int
    private let fft: FFT
    private let window: [Double]
    private let offset: Int
    /// cos and sin of 2πk·t_n/M for the L/2 bins (rows) and L outputs.
    private let cosines: [Double], sines: [Double]
    private let bins: Int, outputs: Int

    /// For frames of `length` samples at `sampleRateHz` through `window`; nil when the frame is
    /// too short to give the twelve autocorrelation lags or no transform can be made.
    init?(length: Int, window: [Double], sampleRateHz: Double) {
        var size = 1
        while size < length { size <<= 1 }
        guard let fft = try? FFT(size: size),
              let outputs = Int(checking: Double(length) * Self.rateHz / sampleRateHz + 0.5, rounding: .down, in: (2 * Self.order + 2)...(1 << 20))
        else { return nil }
        (self.length, self.fft, self.window, self.outputs) = (length, fft, window, outputs)
        offset = (size - length) / 2
        bins = min(outputs / 2, fft.realBins)
        var cosines = [Double](repeating: 0, count: bins * outputs), sines = cosines
        for k in 0..<bins {
            for n in 0..<outputs {
                let t = Double(n) * sampleRateHz / Self.rateHz - Double(offset)
                let phase = 2 * Double.pi * Double(k) * t / Double(size)
                cosines[k * outputs + n] = cos(phase)
                sines[k * outputs + n] = sin(phase)
            }
        }
        (self.cosines, self.sines) = (cosines, sines)
    }

    /// The formants of samples[start..<start + length] (full scale; the window carries openSMILE's sample scale).
    func frame(_ samples: [Double], from start: Int) -> Frame {
        let size = fft.size
        var input = [Double](repeating: 0, count: size), spectrum = [Double](repeating: 0, count: 2 * fft.realBins)
        for j in 0..<length { input[j] = samples[start + j] * window[j] }
        input.withUnsafeBufferPointer { i in spectrum.withUnsafeMutableBufferPointer { fft.forward(i, into: $0) } }
        // The spectrum of the frame at offset 0; the resampler's frame sits `offset` later, which
        // t_n already accounts for.
        var y = [Double](repeating: 0, count: outputs)
        for k in 0..<bins {
            let re = spectrum[2 * k], im = spectrum[2 * k + 1], row = k * outputs
            for n in 0..<outputs { y[n] += re * cosines[row + n] - im * sines[row + n] }
        }
        let scale = 2 / Double(size)
        var r = [Double](repeating: 0, count: Self.order + 1)
        for lag in 0...Self.order {
            var sum = 0.0
            for n in 0..<(outputs - lag) { sum += y[n] * y[n + lag] }
            r[lag] = sum * scale * scale
        }
        guard r[0] > 0, r.allSatisfy(\.isFinite), let a = Self.levinson(r) else { return Frame() }
        // zᵖ − a₁zᵖ⁻¹ − … − aₚ, lowest power first.
        var polynomial = [Double](repeating: 0, count: Self.order + 1)
        for k in 1...Self.order { polynomial[Self.order - k] = -a[k] }
        polynomial[Self.order] = 1
        guard let roots = PolynomialRoots.roots(polynomial) else { return Frame() }
        var found: [(Double, Double)] = []
        for z in roots where z.im > 0 {
            let f = atan2(z.im, z.re) * Self.rateHz / (2 * Double.pi)
            guard f > Self.lowestHz, f < Self.highestHz else { continue }
            found.append((f, -log(z.squaredMagnitude) / 2 * Self.rateHz / Double.pi))
        }
        found.sort { $0.0 < $1.0 }
        var result = Frame()
        for (k, (f, b)) in found.prefix(Self.count).enumerated() { (result.frequencyHz[k], result.bandwidthHz[k]) = (f, b) }
        return result
    }

    /// Levinson's recursion: a[0] = 1, a[1…p] of A(z) = 1 + Σ aₖz⁻ᵏ minimising the prediction
    /// error of the autocorrelation r₀…r_p; nil when the error vanishes.
    static func levinson(_ r: [Double]) -> [Double]? {
        let p = r.count - 1
        var a = [Double](repeating: 0, count: p + 1), error = r[0]
        a[0] = 1
        for i in 1...p {
            var acc = r[i]
            for j in 1..<i { acc += a[j] * r[i - j] }
            guard error > 0 else { return nil }
            let k = -acc / error
            let previous = a
            for j in 1..<i { a[j] = previous[j] + k * previous[i - j] }
            a[i] = k
            error *= 1 - k * k
        }
        return a
    }
}
