import Glibc
import InputGuards
import SignalProcessing

/// The spectral-balance, loudness and temporal descriptors of eGeMAPS v02, from the definitions
/// of F. Eyben et al., "The Geneva Minimalistic Acoustic Parameter Set (GeMAPS) for Voice
/// Research and Affective Computing", IEEE Trans. Affective Computing 7(2):190–202, 2016
/// (§3.1 and §3.2), with Praat's pitch contour (``PraatPitchAnalysis``) deciding which frames
/// are voiced and Praat's Burg formants (``PraatFormantAnalysis``) placing the third formant.
///
/// Per frame of `frameLengthSeconds` (Hamming window, zero-padded to a power of two) every
/// `frameStepSeconds`, from the power spectrum P(f) = |X(f)|² of samples in full scale:
/// - alpha ratio = 10·lg(Σ P over 50–1000 Hz / Σ P over 1–5 kHz), dB (the paper's "ratio of the
///   summed energy from 50–1000 Hz and 1–5 kHz"; openSMILE 2.6.0 reports the inverse ratio,
///   1–5 kHz over 0–1 kHz);
/// - Hammarberg index = 10·lg(max P over 0–2 kHz / max P over 2–5 kHz), dB;
/// - spectral slopes: the least-squares slope of 10·lg P(f) against f over the bins in 0–500 Hz
///   and in 500–1500 Hz, dB/Hz;
/// - loudness: the sum over an auditory spectrum, H. Hermansky, "Perceptual linear predictive
///   (PLP) analysis of speech", J. Acoust. Soc. Am. 87(4):1738–1752, 1990: 26 triangular bands
///   equally spaced on the mel scale (2595·lg(1 + f/700)) from 20 to 8000 Hz (or the Nyquist
///   frequency), each band's power weighted by PLP's equal-loudness curve
///   E(ω) = (ω² + 56.8·10⁶)·ω⁴ / ((ω² + 6.3·10⁶)²·(ω² + 0.38·10⁹)) at its centre and raised to
///   the power 0.33 (the intensity–loudness power law), in those auditory units;
/// - at voiced frames (F0 defined at the frame's centre): H1–H2 and H1–A3, dB, from a
///   `harmonicFrameLengthSeconds` Gaussian-windowed frame (σ = 0.4 of the half-length; Harris
///   1978's α = 2.5) centred there: H_k is the largest power bin within k·F0 ± F0/10, refined by
///   a parabola through its dB neighbours; A3 is the largest harmonic within F3 ± B3/2 (the third
///   formant "range") of the Burg formant frame nearest in time.
///
/// Every frame series is smoothed by a symmetric three-frame moving average (the paper's sma3),
/// within runs of voiced (or of unvoiced) frames for the measures taken apart by voicing, and
/// summarised as the paper's functionals: mean and coefficient of variation over the voiced
/// frames, mean over the unvoiced ones; loudness's mean, CV and 20th/50th/80th percentiles over
/// all frames. The temporal features come from the pitch contour's frames: voiced runs (F0 > 0)
/// per second of recording, the mean and SD of their lengths and of the unvoiced runs' lengths
/// (those at either end included), and loudness peaks per second — maxima of the smoothed
/// loudness that rise and fall by at least `loudnessPeakThreshold` of its range.
public struct EGeMAPSAnalysis: Sendable, Hashable {
    /// Spectral frames: length and step, s (openSMILE's eGeMAPSv02 configuration frames these
    /// descriptors at 20 ms every 10 ms).
    public var frameLengthSeconds = 0.020
    public var frameStepSeconds = 0.010
    /// The Gaussian-windowed frame the harmonic amplitudes are read from, s.
    public var harmonicFrameLengthSeconds = 0.060
    /// Rise and fall a loudness peak needs, as a fraction of the loudness range.
    public var loudnessPeakThreshold = 0.1
    public init() {}

    /// Per spectral frame: centre time, s; voicing; the descriptors (NaN where undefined).
    struct Frames: Sendable, Hashable {
        var timeSeconds: [Double] = []
        var voiced: [Bool] = []
        var alphaRatioDb: [Double] = []
        var hammarbergIndexDb: [Double] = []
        var slope0To500DbPerHz: [Double] = []
        var slope500To1500DbPerHz: [Double] = []
        var loudness: [Double] = []
        var h1MinusH2Db: [Double] = []
        var h1MinusA3Db: [Double] = []
    }

    /// The frames of `samples` at `sampleRateHz`; `f0` gives F0 at a time (nil: unvoiced), `thirdFormant`
    /// F3 and B3, Hz, at a time (nil: none).
    func frames(_ samples: [Double], sampleRateHz: Double, f0: (Double) -> Double?, thirdFormant: (Double) -> (Double, Double)?) -> Frames {
        let length = Int(clamping: frameLengthSeconds * sampleRateHz, rounding: .toNearestOrEven, to: 2...Int(Int32.max))
        let step = Int(clamping: frameStepSeconds * sampleRateHz, rounding: .toNearestOrEven, to: 1...Int(Int32.max))
        var result = Frames()
        guard samples.count >= length, var spectral = FramePowerSpectrum(length: length, window: Window.hamming.values(count: length, periodic: false), sampleRateHz: sampleRateHz) else { return result }
        let harmonicLength = Int(clamping: harmonicFrameLengthSeconds * sampleRateHz, rounding: .toNearestOrEven, to: 2...Int(Int32.max))
        let half = 0.5 * Double(harmonicLength - 1)
        let gaussian = (0..<harmonicLength).map { n in exp(-0.5 * pow((Double(n) - half) / (0.4 * half), 2)) }
        guard var harmonic = FramePowerSpectrum(length: harmonicLength, window: gaussian, sampleRateHz: sampleRateHz) else { return result }
        let bands = AuditoryBands(spectrum: spectral)
        let frameCount = 1 + (samples.count - length) / step
        var power = [Double](repeating: 0, count: spectral.bins), levels = [Double](repeating: 0, count: harmonic.bins)
        for index in 0..<frameCount {
            let start = index * step
            let centre = (Double(start) + 0.5 * Double(length)) / sampleRateHz
            spectral.power(samples, from: start, into: &power)
            result.timeSeconds.append(centre)
            result.alphaRatioDb.append(Self.decibels(spectral.sum(power, spectral.bins(50, below: 1000)), spectral.sum(power, spectral.bins(1000, through: 5000))))
            result.hammarbergIndexDb.append(Self.decibels(spectral.maximum(power, spectral.bins(0, below: 2000)), spectral.maximum(power, spectral.bins(2000, through: 5000))))
            let defined = spectral.sum(power, spectral.bins(0, through: 5000)) > 0
            result.slope0To500DbPerHz.append(defined ? spectral.logSlope(power, spectral.bins(0, through: 500)) : .nan)
            result.slope500To1500DbPerHz.append(defined ? spectral.logSlope(power, spectral.bins(500, through: 1500)) : .nan)
            result.loudness.append(bands.loudness(power))
            let fundamental = f0(centre)
            result.voiced.append(fundamental != nil)
            guard let fundamental, fundamental > 0 else {
                result.h1MinusH2Db.append(.nan)
                result.h1MinusA3Db.append(.nan)
                continue
            }
            // The Gaussian frame centred at the spectral frame's centre (zeros beyond the recording).
            harmonic.power(samples, from: start + length / 2 - harmonicLength / 2, into: &levels)
            let h1 = harmonic.harmonicLevelDb(levels, at: fundamental, f0: fundamental)
            let h2 = harmonic.harmonicLevelDb(levels, at: 2 * fundamental, f0: fundamental)
            result.h1MinusH2Db.append(h1 - h2)
            var a3 = -Double.infinity
            if let (f3, b3) = thirdFormant(centre), f3.isFinite, b3.isFinite {
                let lowest = max(1, (f3 - b3 / 2) / fundamental).rounded(.up), highest = ((f3 + b3 / 2) / fundamental).rounded(.down)
                if lowest <= highest, highest * fundamental < 0.5 * sampleRateHz {
                    // At most (B3 / F0) + 1 harmonics, each searched over its own F0/5-wide bins.
                    for k in stride(from: lowest, through: highest, by: 1) {
                        a3 = max(a3, harmonic.harmonicLevelDb(levels, at: k * fundamental, f0: fundamental))
                    }
                }
            }
            result.h1MinusA3Db.append(a3.isFinite ? h1 - a3 : .nan)
        }
        return result
    }

    /// 10·lg(a/b), NaN unless both are positive.
    static func decibels(_ a: Double, _ b: Double) -> Double {
        a > 0 && b > 0 ? 10 * log10(a / b) : .nan
    }

    /// The symmetric three-frame moving average of `values`, each frame averaged with those of
    /// its two neighbours that are finite and in the same class (`keep`); NaN stays NaN.
    static func smoothed(_ values: [Double], keep: (Int, Int) -> Bool = { _, _ in true }) -> [Double] {
        values.indices.map { i in
            guard values[i].isFinite else { return .nan }
            var sum = values[i], count = 1.0
            for j in stride(from: i - 1, through: i + 1, by: 2) where j >= 0 && j < values.count && values[j].isFinite && keep(i, j) {
                sum += values[j]
                count += 1
            }
            return sum / count
        }
    }

    /// Peaks of `values` (Billauer's peak detection): maxima preceded and followed by a fall of
    /// more than `threshold` × (max − min).
    static func peakCount(_ values: [Double], threshold: Double) -> Int {
        let finite = values.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max(), high > low else { return 0 }
        let delta = threshold * (high - low)
        var count = 0, lookingForPeak = true
        var maximum = finite[0], minimum = finite[0]
        for value in finite {
            maximum = max(maximum, value)
            minimum = min(minimum, value)
            if lookingForPeak, value < maximum - delta, maximum - delta > minimum {
                count += 1
                lookingForPeak = false
                minimum = value
            } else if !lookingForPeak, value > minimum + delta {
                lookingForPeak = true
                maximum = value
            }
        }
        return count
    }
}

/// PLP's auditory spectrum and its sum (``EGeMAPSAnalysis``'s loudness).
struct AuditoryBands {
    /// Per band: its bins' weights from `first`, and its centre's equal-loudness weight.
    var first: [Int] = []
    var weights: [[Double]] = []
    var equalLoudness: [Double] = []

    static let count = 26

    init(spectrum: FramePowerSpectrum) {
        func mel(_ f: Double) -> Double { 2595 * log10(1 + f / 700) }
        func hertz(_ m: Double) -> Double { 700 * (pow(10, m / 2595) - 1) }
        let top = min(8000, 0.5 * spectrum.binHz * Double(2 * (spectrum.bins - 1)))
        guard top > 20 else { return }
        let edges = (0...Self.count + 1).map { hertz(mel(20) + Double($0) * (mel(top) - mel(20)) / Double(Self.count + 1)) }
        for band in 0..<Self.count {
            let (low, centre, high) = (edges[band], edges[band + 1], edges[band + 2])
            let range = spectrum.bins(low, below: high)
            first.append(range.lowerBound)
            weights.append(range.map { k in
                let f = Double(k) * spectrum.binHz
                return f <= centre ? (f - low) / (centre - low) : (high - f) / (high - centre)
            })
            let w2 = pow(2 * Double.pi * centre, 2)
            equalLoudness.append((w2 + 56.8e6) * w2 * w2 / (pow(w2 + 6.3e6, 2) * (w2 + 0.38e9)))
        }
    }

    func loudness(_ power: [Double]) -> Double {
        var total = 0.0
        for band in weights.indices {
            var sum = 0.0
            for (j, weight) in weights[band].enumerated() { sum += weight * power[first[band] + j] }
            total += pow(equalLoudness[band] * sum, 0.33)
        }
        return total
    }
}
