import Glibc

/// Sound-level-meter frequency weightings A, C and Z of IEC 61672-1:2013 (Annex E), as
/// analogue curves and as digital biquad cascades for any sample rate.
///
/// Poles from the standard's design values fr = 1 kHz, fL = 10^1.5 Hz, fH = 10^3.9 Hz,
/// D = √½, fA = 10^2.45 Hz, computed exactly (not the rounded 20.6/107.7/737.9/12194 Hz), and the
/// curves normalised by |H(1 kHz)| (docs/analyses.md §3.1).
public enum FrequencyWeighting: String, Sendable, CaseIterable, Hashable {
    case a = "A", c = "C", z = "Z"

    /// The pole frequencies f1…f4, Hz (IEC 61672-1:2013, E.2–E.3).
    public static let poleFrequenciesHz: (f1: Double, f2: Double, f3: Double, f4: Double) = {
        let fr = 1000.0, fL = pow(10, 1.5), fH = pow(10, 3.9), d = 0.5.squareRoot(), fA = pow(10, 2.45)
        let c = fL * fL * fH * fH
        let b = (fr * fr + fL * fL * fH * fH / (fr * fr) - d * (fL * fL + fH * fH)) / (1 - d)
        let root = (b * b - 4 * c).squareRoot()
        let f1 = ((-b - root) / 2).squareRoot()
        let f4 = ((-b + root) / 2).squareRoot()
        let f2 = fA * (3 - 5.0.squareRoot()) / 2
        let f3 = fA * (3 + 5.0.squareRoot()) / 2
        return (f1, f2, f3, f4)
    }()

    /// The analogue weighting at `frequencyHz`, dB, exactly 0 at 1 kHz.
    public func analogueDecibels(atFrequencyHz f: Double) -> Double {
        func gain(_ f: Double) -> Double {
            let (f1, f2, f3, f4) = Self.poleFrequenciesHz
            let f2sq = f * f
            switch self {
            case .z: return 1
            case .c: return f4 * f4 * f2sq / ((f2sq + f1 * f1) * (f2sq + f4 * f4))
            case .a:
                return f4 * f4 * f2sq * f2sq / ((f2sq + f1 * f1) * (f2sq + f2 * f2).squareRoot() * (f2sq + f3 * f3).squareRoot() * (f2sq + f4 * f4))
            }
        }
        return 20 * log10(gain(f) / gain(1000))
    }

    /// The digital filter for `sampleRateHz`, three (A) or two (C) biquads, scaled to exactly 0 dB
    /// at 1 kHz:
    /// - the low-frequency sections (f1 pair; for A also f2, f3) with their zeros at s = 0 → z = 1
    ///   and poles by the bilinear transform z = (2fs + s)/(2fs − s), which is exact enough there
    ///   (their poles lie below 740 Hz and their gain tends to 1 towards Nyquist, as the analogue);
    /// - the high-frequency section ω4²/(s + ω4)², where the bilinear transform fails (it forces a
    ///   double zero at Nyquist: −6.2 dB at 16 kHz, −15.8 dB at 20 kHz at 48 kHz, pink noise read
    ///   0.23 dB low), as a matched second-order section (M. Vicanek, "Matched Second Order Digital
    ///   Filters", 2016): poles by the matched z-transform z = e^(−ω4/fs), numerator chosen so the
    ///   squared magnitude equals the analogue one at 0 Hz, fs/4 and Nyquist.
    /// Against the analogue curve (IEC 61672-1 Annex E) at 44.1 / 48 kHz: within 0.09 dB up to
    /// 10 kHz, −0.11 / −0.03 dB at 12.5 kHz, −0.54 / −0.36 dB at 16 kHz (class 1 allows −17 dB there);
    /// pink noise integrated to Nyquist +0.01 dB, white noise −0.03 / −0.02 dB (docs/analyses.md §3.3;
    /// tested in `FrequencyWeightingTests`). Z is an empty cascade. Rates must exceed 2 kHz.
    public func filter(sampleRateHz fs: Double) -> BiquadCascade {
        guard self != .z else { return BiquadCascade(sections: []) }
        let (f1, f2, f3, f4) = Self.poleFrequenciesHz
        func z(_ f: Double) -> Double {
            let s = -2 * Double.pi * f
            return (2 * fs + s) / (2 * fs - s)
        }
        func section(zeros: Double, poles p1: Double, _ p2: Double) -> Biquad {
            Biquad(b0: 1, b1: -2 * zeros, b2: zeros * zeros, a1: -(p1 + p2), a2: p1 * p2)
        }
        var sections = [Self.matchedLowPass(poleHz: f4, sampleRateHz: fs)]
        if self == .a { sections.append(section(zeros: 1, poles: z(f2), z(f3))) }
        sections.append(section(zeros: 1, poles: z(f1), z(f1)))
        let gain = BiquadCascade(sections: sections).magnitude(atFrequencyHz: 1000, sampleRateHz: fs)
        sections[0].b0 /= gain
        sections[0].b1 /= gain
        sections[0].b2 /= gain
        return BiquadCascade(sections: sections)
    }

    /// ω²/(s + ω)² with ω = 2π·`poleHz` as a matched biquad (Vicanek 2016): with φ1 = sin²(Ω/2),
    /// φ0 = 1 − φ1, φ2 = 4φ0φ1, a polynomial's squared magnitude on the unit circle is
    /// P0·φ0 + P1·φ1 + P2·φ2 (P0 = (p0 + p1 + p2)², P1 = (p0 − p1 + p2)², P2 = −4·p0·p2); the
    /// numerator's B0, B1, B2 solve |H|² = |H_analogue|² at Ω = 0, π/2 and π.
    static func matchedLowPass(poleHz: Double, sampleRateHz fs: Double) -> Biquad {
        let pole = exp(-2 * Double.pi * poleHz / fs)
        let a1 = -2 * pole, a2 = pole * pole
        let squaredA = ((1 + a1 + a2) * (1 + a1 + a2), (1 - a1 + a2) * (1 - a1 + a2), -4 * a2)
        func analogue(_ f: Double) -> Double {  // |ω²/(jω' + ω)²|² at frequency f
            let r = poleHz * poleHz / (f * f + poleHz * poleHz)
            return r * r
        }
        // At Ω = 0: φ = (1, 0, 0); at π: (0, 1, 0); at π/2: (½, ½, 1).
        let b0Squared = analogue(0) * squaredA.0
        let b1Squared = analogue(fs / 2) * squaredA.1
        let quarter = analogue(fs / 4) * (0.5 * squaredA.0 + 0.5 * squaredA.1 + squaredA.2)
        let b2Term = quarter - 0.5 * b0Squared - 0.5 * b1Squared
        let w = 0.5 * (b0Squared.squareRoot() + b1Squared.squareRoot())
        let b0 = 0.5 * (w + (w * w + b2Term).squareRoot())
        let b1 = 0.5 * (b0Squared.squareRoot() - b1Squared.squareRoot())
        let b2 = -b2Term / (4 * b0)
        return Biquad(b0: b0, b1: b1, b2: b2, a1: a1, a2: a2)
    }
}

/// K-weighting of ITU-R BS.1770-4: a high-frequency shelf followed by the RLB high-pass, for any
/// rate with B. De Man's parameterisation (jiixyj/libebur128 `ebur128.c`; it reproduces the
/// standard's 48 kHz table to 1e-15, docs/analyses.md §4.3).
public enum KWeighting {
    /// The high shelf's frequency, Hz (BS.1770-4's 48-kHz coefficients, as an analogue design).
    public static let shelfHz = 1681.974450955533

    /// Why `fs` cannot carry K-weighting — the high shelf must lie below the Nyquist frequency, or
    /// its bilinear design wraps (at 100 Hz a tone read 1,922 LUFS) — or nil when it can.
    public static func rateProblem(_ fs: Double) -> String? {
        fs > 2 * shelfHz ? nil
            : "K-weighting's high shelf at \(Int(shelfHz.rounded())) Hz needs a sample rate above \(Int((2 * shelfHz).rounded())) Hz (twice it); this recording's is \(fs) Hz"
    }

    public static func filter(sampleRateHz fs: Double) -> BiquadCascade {
        var k = tan(.pi * shelfHz / fs)
        let vh = pow(10, 3.999843853973347 / 20)
        let vb = pow(vh, 0.4996667741545416)
        var q = 0.7071752369554196
        var a0 = 1 + k / q + k * k
        let shelf = Biquad(b0: (vh + vb * k / q + k * k) / a0, b1: 2 * (k * k - vh) / a0, b2: (vh - vb * k / q + k * k) / a0,
                           a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
        k = tan(.pi * 38.13547087602444 / fs)
        q = 0.5003270373238773
        a0 = 1 + k / q + k * k
        let highPass = Biquad(b0: 1, b1: -2, b2: 1, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
        return BiquadCascade(sections: [shelf, highPass])
    }
}
