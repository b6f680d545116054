import Glibc

/// The 26 mel bands of openSMILE 2.6.0's eGeMAPSv02 configuration (cMelspec, 20–8000 Hz, power
/// spectrum) and the two descriptors read from them: loudness (cPlp's auditory spectrum, summed)
/// and MFCC 1–4 (cMfcc, HTK-compatible), as openSMILE's output shows them (black-box comparison,
/// `Benchmarks/peers/opensmile_reference.py`).
///
/// The bands are HTK's (S. Young et al., "The HTK Book", §5.4): triangles on the mel scale
/// m(f) = 1127·ln(1 + f/700) with centres equally spaced from m(20 Hz) to m(min(8000 Hz, f_s/2)),
/// each bin weighted by its mel position; bins below ⌊20/Δf + 1.5⌋ are left out (HTK's lowest
/// channel).
struct OpenSmileMelBands: Sendable, Hashable {
    static let count = 26
    /// Per band: its first bin and the weights of its bins.
    let first: [Int]
    let weights: [[Double]]
    /// Each band's centre frequency, Hz.
    let centreHz: [Double]
    /// Each band's equal-loudness weight E(f_b) (``equalLoudness(_:)``).
    let loudnessWeight: [Double]
    /// cos(πn(b + ½)/26) for n = 1…4 (row n − 1), b = 0…25: the DCT-II of ``cepstrum(_:count:)``.
    static let cosines: [[Double]] = (1...4).map { (n: Int) -> [Double] in
        (0..<count).map { (b: Int) -> Double in cos(Double.pi * Double(n) * (Double(b) + 0.5) / Double(count)) }
    }

    init(binHz: Double, bins: Int, sampleRateHz: Double) {
        func mel(_ f: Double) -> Double { 1127 * log(1 + f / 700) }
        let low = mel(20), high = mel(min(8000, sampleRateHz / 2))
        let edges = (0...Self.count + 1).map { low + (high - low) * Double($0) / Double(Self.count + 1) }
        let lowest = Int(clamping: 20 / binHz + 1.5, rounding: .down, to: 0...bins)
        var first: [Int] = [], weights: [[Double]] = []
        for band in 0..<Self.count {
            let (left, centre, right) = (edges[band], edges[band + 1], edges[band + 2])
            var start = bins, row: [Double] = []
            for k in lowest..<bins {
                let m = mel(Double(k) * binHz)
                let w = min((m - left) / (centre - left), (right - m) / (right - centre))
                guard w > 0 else {
                    if m >= right { break }
                    continue
                }
                if row.isEmpty { start = k }
                row.append(w)
            }
            first.append(start)
            weights.append(row)
        }
        self.first = first
        self.weights = weights
        centreHz = edges[1...Self.count].map { 700 * (exp($0 / 1127) - 1) }
        loudnessWeight = centreHz.map(Self.equalLoudness)
    }

    /// Σ_k P[k]·w_b[k] of every band into `bands`.
    func bandPowers(_ power: UnsafeBufferPointer<Double>, into bands: inout [Double]) {
        for band in 0..<Self.count {
            var sum = 0.0
            for (j, w) in weights[band].enumerated() { sum += power[first[band] + j] * w }
            bands[band] = sum
        }
    }

    /// The equal-loudness weight openSMILE's cPlp applies at `hertz`: H. Hermansky's curve
    /// ("Perceptual linear predictive (PLP) analysis of speech", J. Acoust. Soc. Am. 87(4), 1990,
    /// eq. 4) E(ω) = (ω² + 56.8·10⁶)·ω⁴ / ((ω² + 6.3·10⁶)²·(ω² + 0.38·10⁹)), ω = 2πf, divided by
    /// 0.17 + 10⁻³²·ω⁷ — the high-frequency roll-off openSMILE's output shows (fitted to its
    /// auditory spectrum at 8–48 kHz within 4e-7 relative; the factor is not in Hermansky's paper).
    static func equalLoudness(_ hertz: Double) -> Double {
        let w = 2 * Double.pi * hertz, w2 = w * w
        let w7 = w2 * w2 * w2 * w
        return (w2 + 56.8e6) * w2 * w2 / ((w2 + 6.3e6) * (w2 + 6.3e6) * (w2 + 0.38e9) * (0.17 + 1e-32 * w7))
    }

    /// The band power below which cPlp floors its input (digital silence gives loudness from it).
    static let auditoryFloor = 9.3e-10

    /// Loudness: the mean over the bands of (max(P_b, 9.3·10⁻¹⁰)·E(f_b))^0.33 — Stevens'
    /// intensity–loudness power law as PLP takes it (Hermansky 1990) — of the band powers P_b
    /// (samples in full scale).
    func loudness(_ bands: [Double]) -> Double {
        var sum = 0.0
        for band in 0..<Self.count {
            sum += pow(max(bands[band], Self.auditoryFloor) * loudnessWeight[band], 0.33)
        }
        return sum / Double(Self.count)
    }

    /// HTK's sample scale: openSMILE's samples (16-bit values v/32767) times 32767, so band powers
    /// times 32767².
    static let htkScale = 32767.0 * 32767.0

    /// MFCC 1…`count` of the band powers, HTK's way: c_n = (1 + 11·sin(πn/22))·√(2/26)
    /// · Σ_b ln(max(32767²·P_b, 1))·cos(πn(b + ½)/26) (the DCT-II of the log band powers, with
    /// HTK's floor of 1 and its sinusoidal lifter L = 22).
    /// Appends MFCC 1…`coefficients.count` (at most 4) of `bands` to `coefficients[n − 1]`.
    func appendCepstrum(_ bands: [Double], to coefficients: inout [[Double]]) {
        precondition((1...Self.cosines.count).contains(coefficients.count), "OpenSmileMelBands: MFCC 1…4")
        withUnsafeTemporaryAllocation(of: Double.self, capacity: bands.count) { logs in
            for (b, value) in bands.enumerated() { logs[b] = log(max(value * Self.htkScale, 1)) }
            for n in 1...coefficients.count {
                var sum = 0.0
                for b in 0..<bands.count { sum += logs[b] * Self.cosines[n - 1][b] }
                coefficients[n - 1].append((1 + 11 * sin(Double.pi * Double(n) / 22)) * (2 / Double(Self.count)).squareRoot() * sum)
            }
        }
    }
}
