import Glibc

/// The spectral-balance descriptors of openSMILE 2.6.0's eGeMAPSv02 configuration (its cSpectral
/// component with `squareInput`, `useLogSpectrum`, `normBandEnergies` and `freqRange = 0-5000`),
/// as its output shows them (black-box comparison, `Benchmarks/peers/opensmile_reference.py`),
/// on one frame's power spectrum P[k] = |X[k]|² (bin k at k·`binHz`).
///
/// Where openSMILE departs from the definitions of F. Eyben et al. 2016 (§3.1), its behaviour is
/// kept and said here; `EGeMAPSAnalysis` keeps the paper's.
struct OpenSmileSpectralBalance: Sendable, Hashable {
    /// Hz per bin.
    let binHz: Double
    /// Bins of the spectrum (N/2 + 1).
    let bins: Int

    /// The power floor of the log spectrum: the square of cSpectral's 1e-7, so −140 dB.
    static let logPowerFloor = 1e-14

    /// The bins below `hertz`: f_k < hertz.
    func bins(below hertz: Double) -> Int {
        Int(clamping: hertz / binHz, rounding: .up, to: 0...bins)
    }

    /// The bins at or below `hertz`: f_k ≤ hertz.
    func bins(through hertz: Double) -> Int {
        Int(clamping: hertz / binHz + 1, rounding: .down, to: 0...bins)
    }

    /// Alpha ratio, dB: 10·lg(Σ P over 1000 ≤ f ≤ 5000 Hz / Σ P over f < 1000 Hz) — the energy
    /// above 1 kHz over the energy below (the paper's ratio the other way up); 0 when either band
    /// holds no energy (openSMILE's value on digital silence); NaN when no bin lies at or above
    /// 1 kHz (a rate below 2 kHz: openSMILE's 0 there would read as a measurement).
    func alphaRatio(_ power: UnsafeBufferPointer<Double>) -> Double {
        let split = bins(below: 1000), top = bins(through: 5000)
        guard top > split else { return .nan }
        var low = 0.0, high = 0.0
        for k in 0..<split { low += power[k] }
        for k in split..<top { high += power[k] }
        return low > 0 && high > 0 ? 10 * log10(high / low) : 0
    }

    /// Hammarberg index, dB: 10·lg(max P over f < 2000 Hz / max P over 2000 ≤ f ≤ 5000 Hz); 0
    /// when either band holds no energy; NaN when no bin lies at or above 2 kHz (a rate below
    /// 4 kHz).
    func hammarbergIndex(_ power: UnsafeBufferPointer<Double>) -> Double {
        let split = bins(below: 2000), top = bins(through: 5000)
        guard top > split else { return .nan }
        var low = 0.0, high = 0.0
        for k in 0..<split { low = max(low, power[k]) }
        for k in split..<top { high = max(high, power[k]) }
        return low > 0 && high > 0 ? 10 * log10(low / high) : 0
    }

    /// The slope of the log spectrum over `low`…`high` Hz, dB/Hz, as openSMILE computes it: a
    /// least-squares line through y_k = 10·lg max(P[k], 1e-14) at x_k = k·binHz for the bins
    /// k = ⌊low/Δf⌋ … ⌊high/Δf⌋, where the edge bins enter with the fraction c_k of the bin
    /// [k, k + 1) inside the band (c = 1 inside; the last bin whole when high falls on it):
    ///
    ///     slope = (N·Σ c_k x_k y_k − S_x·Σ c_k y_k) / (N·Σ (c_k x_k)² − S_x²),  S_x = Σ c_k x_k,
    ///
    /// with N one less than the number of bins (openSMILE's count; the textbook N makes the
    /// weights sum to zero, this one does not, so the slope also depends on the spectrum's level).
    /// NaN when the band has fewer than two bins below the Nyquist frequency.
    func logSlope(_ power: UnsafeBufferPointer<Double>, from low: Double, to high: Double) -> Double {
        let a = low / binHz, b = high / binHz
        let first = Int(clamping: a, rounding: .down, to: 0...bins), last = Int(clamping: b, rounding: .down, to: 0...bins)
        guard last < bins, last > first else { return .nan }
        let n = Double(last - first)
        var sx = 0.0, sxx = 0.0, scy = 0.0, scxy = 0.0
        for k in first...last {
            var weight = 1.0
            if k == first { weight = 1 - (a - Double(first)) }
            if k == last, b > Double(last) { weight = b - Double(last) }
            let x = Double(k) * binHz, y = 10 * log10(max(power[k], Self.logPowerFloor))
            sx += weight * x; sxx += weight * x * weight * x
            scy += weight * y; scxy += weight * x * y
        }
        return (n * scxy - sx * scy) / (n * sxx - sx * sx)
    }

    /// Spectral flux: the root mean square over the bins below 5 kHz of the change in magnitude
    /// |X[k]| from the previous frame (cSpectral's flux on the magnitude spectrum, not normalised
    /// by the frame's energy); openSMILE gives the first frame 0.
    func flux(_ magnitude: UnsafeBufferPointer<Double>, previous: UnsafeBufferPointer<Double>) -> Double {
        let top = bins(below: 5000)
        guard top > 0 else { return 0 }
        var sum = 0.0
        for k in 0..<top {
            let d = magnitude[k] - previous[k]
            sum += d * d
        }
        return (sum / Double(top)).squareRoot()
    }
}
