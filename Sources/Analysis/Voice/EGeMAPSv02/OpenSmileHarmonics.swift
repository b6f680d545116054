import Glibc
import SignalProcessing

/// The harmonics-to-noise ratio and the H1–H2 difference of openSMILE 2.6.0's eGeMAPSv02
/// (cHarmonics on the 60-ms Gaussian-window spectrum and the smoothed F0), as its output shows
/// them (`EGeMAPSv02PeerTests`):
///
/// - HNR (HarmonicsToNoiseRatioACFLogdB): the autocorrelation r of the frame, the inverse
///   transform of its power spectrum; of its local maxima (r[τ] > r[τ−1], r[τ] ≥ r[τ+1]) between
///   half and one and a half periods (T = f_s/F0 samples) the one nearest T;
///   10·lg(r[τ]/(r[0] − r[τ])) dB. openSMILE picks another lag in some frames of creak and speech
///   (1–8 % of their voiced frames); where r[τ] is not positive the frame has no value here.
/// - H1–H2 (HarmonicDifferenceLogRelH1-H2): the level of a harmonic is the magnitude at the
///   local maximum reached by climbing from the bin nearest h·F0, refined by a parabola through
///   it and its neighbours, 20·lg; openSMILE's "H1" is the harmonic at 2·F0 and "H2" the one at
///   3·F0 (its numbering), so the value is level(2F0) − level(3F0), dB.
struct OpenSmileHarmonics: Sendable {
    let fft: FFT
    let binHz: Double
    let sampleRateHz: Double

    init(fft: FFT, binHz: Double, sampleRateHz: Double) {
        (self.fft, self.binHz, self.sampleRateHz) = (fft, binHz, sampleRateHz)
    }

    /// Working space of ``harmonicsToNoise(power:f0Hz:scratch:)``, reused from frame to frame.
    struct Scratch {
        var spectrum: [Double] = [], r: [Double] = []
    }

    /// HNR, dB, of a frame with power spectrum `power` (`fft.realBins` values) and F0 `f0Hz`;
    /// nil when no lag qualifies.
    func harmonicsToNoise(power: [Double], f0Hz: Double, scratch: inout Scratch) -> Double? {
        let period = sampleRateHz / f0Hz
        guard period.isFinite, period > 2 else { return nil }
        if scratch.r.count != fft.size {
            scratch.spectrum = [Double](repeating: 0, count: 2 * fft.realBins)
            scratch.r = [Double](repeating: 0, count: fft.size)
        }
        for k in 0..<fft.realBins { scratch.spectrum[2 * k] = power[k] }
        scratch.spectrum.withUnsafeBufferPointer { s in scratch.r.withUnsafeMutableBufferPointer { fft.inverse(s, into: $0) } }
        let r = scratch.r
        let last = min(fft.size / 2, Int(1.5 * period))
        var best: Int? = nil
        var lag = max(1, Int(0.5 * period))
        while lag < last {
            if r[lag] > r[lag - 1], r[lag] >= r[lag + 1], best.map({ abs(Double(lag) - period) < abs(Double($0) - period) }) ?? true { best = lag }
            lag += 1
        }
        guard let tau = best, r[tau] > 0, r[0] > r[tau] else { return nil }
        return 10 * log10(r[tau] / (r[0] - r[tau]))
    }

    /// level(2F0) − level(3F0), dB, from the power spectrum `power`; nil when 3·F0 lies beyond the
    /// spectrum or a level is not positive.
    func h1MinusH2(power: [Double], f0Hz: Double) -> Double? {
        guard let second = level(power, at: 2 * f0Hz), let third = level(power, at: 3 * f0Hz) else { return nil }
        return second - third
    }

    /// The refined level, dB, of the harmonic nearest `frequencyHz` (the climb compares powers,
    /// the parabola runs through magnitudes).
    func level(_ power: [Double], at frequencyHz: Double) -> Double? {
        guard let start = Int(checking: frequencyHz / binHz + 0.5, rounding: .down, in: 1...(power.count - 2)) else { return nil }
        var k = start
        while true {
            if k + 1 < power.count - 1, power[k + 1] > power[k], power[k + 1] >= power[k - 1] { k += 1 } else if k > 1, power[k - 1] > power[k] { k -= 1 } else { break }
        }
        let a = power[k - 1].squareRoot(), b = power[k].squareRoot(), c = power[k + 1].squareRoot(), curvature = a - 2 * b + c
        let value = curvature == 0 ? b : b - 0.25 * (a - c) * (0.5 * (a - c) / curvature)
        return value > 0 ? 20 * log10(value) : nil
    }
}
