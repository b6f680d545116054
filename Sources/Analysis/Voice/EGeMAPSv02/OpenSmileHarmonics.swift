import Glibc
import SignalProcessing

/// The harmonics-to-noise ratio, the H1–H2 and H1–A3 differences and the formant amplitudes of
/// openSMILE 2.6.0's eGeMAPSv02 (cHarmonics on the 60-ms Gaussian-window spectrum, the smoothed
/// F0 and the LPC formants), as its output shows them (`EGeMAPSv02PeerTests`):
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
/// - Formant amplitude (FormantAmplitudeByMaxHarmonicLogRelF0): of the harmonics h·F0,
///   h = 1…100, found as above, those whose refined peak lies within ±20 % of the formant
///   frequency; the highest refined magnitude, in dB relative to the magnitude of the bin the
///   climb from F0 ends on (unrefined). openSMILE's option text speaks of half a bandwidth either
///   side; its output follows ±20 % of the frequency (88–89 % of the frames exactly, the
///   bandwidth rule 39 %). No harmonic in the range (or no formant): no value.
/// - H1–A3 (HarmonicDifferenceLogRelH1-A3): level(2F0) − A3, dB, A3 the third formant's
///   amplitude found so; without A3, level(2F0) relative to the F0 bin minus 201, at least −201
///   (openSMILE's floor).
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

    /// The spectral peak a climb from the bin nearest `frequencyHz` ends on (the climb compares
    /// powers): the magnitude of that bin, and the vertex of the parabola through the magnitudes
    /// of it and its neighbours (magnitude, frequency in Hz); nil when the bin lies outside the
    /// spectrum's inner bins.
    func peak(_ power: [Double], at frequencyHz: Double) -> (bin: Double, magnitude: Double, frequencyHz: Double)? {
        guard let start = Int(checking: frequencyHz / binHz + 0.5, rounding: .down, in: 1...(power.count - 2)) else { return nil }
        var k = start
        while true {
            if k + 1 < power.count - 1, power[k + 1] > power[k], power[k + 1] >= power[k - 1] { k += 1 } else if k > 1, power[k - 1] > power[k] { k -= 1 } else { break }
        }
        let a = power[k - 1].squareRoot(), b = power[k].squareRoot(), c = power[k + 1].squareRoot(), curvature = a - 2 * b + c
        guard curvature != 0 else { return (b, b, Double(k) * binHz) }
        let offset = 0.5 * (a - c) / curvature
        return (b, b - 0.25 * (a - c) * offset, (Double(k) + offset) * binHz)
    }

    /// Harmonics searched for each formant amplitude (openSMILE's nHarmonics, F0 included).
    static let harmonicCount = 100
    /// The formant amplitudes' range: the formant frequency ± this share of it.
    static let formantRange = 0.2
    /// openSMILE's floor of logarithmic values, dB.
    static let floorDb = -201.0

    /// From one search of the harmonics h·F0, h = 1…100, of the power spectrum `power` of a frame
    /// with F0 `f0Hz`: H1–H2 = level(2F0) − level(3F0), dB (nil when 3·F0 lies beyond the spectrum
    /// or a level is not positive); the amplitudes of the formants at `formantsHz` (0 for none)
    /// relative to F0, dB (nil where no harmonic lies within range); and H1–A3, dB, A3 being the
    /// amplitude of the third. `peaks` is working space.
    func harmonicDifferences(power: [Double], f0Hz: Double, formantsHz: [Double], peaks: inout [(bin: Double, magnitude: Double, frequencyHz: Double)])
        -> (h1MinusH2Db: Double?, amplitudesDb: [Double?], h1MinusA3Db: Double?) {
        peaks.removeAll(keepingCapacity: true)
        for h in 1...Self.harmonicCount {
            guard let p = peak(power, at: Double(h) * f0Hz) else { break }
            peaks.append(p)
        }
        let h1MinusH2 = peaks.count > 2 && peaks[1].magnitude > 0 && peaks[2].magnitude > 0
            ? 20 * log10(peaks[1].magnitude) - 20 * log10(peaks[2].magnitude) : nil
        guard let fundamental = peaks.first?.bin, fundamental > 0 else { return (h1MinusH2, formantsHz.map { _ in nil }, nil) }
        let amplitudes: [Double?] = formantsHz.map { formant in
            guard formant > 0 else { return nil }
            let low = (1 - Self.formantRange) * formant, high = (1 + Self.formantRange) * formant
            var highest: Double? = nil
            for p in peaks where p.frequencyHz >= low && p.frequencyHz <= high { highest = max(highest ?? -.infinity, p.magnitude) }
            return highest.flatMap { $0 > 0 ? 20 * log10($0 / fundamental) : nil }
        }
        guard peaks.count > 1, peaks[1].magnitude > 0 else { return (h1MinusH2, amplitudes, nil) }
        let h1 = 20 * log10(peaks[1].magnitude / fundamental)
        let a3 = formantsHz.count >= 3 ? amplitudes[2] : nil
        return (h1MinusH2, amplitudes, a3.map { h1 - $0 } ?? max(Self.floorDb, h1 + Self.floorDb))
    }
}
