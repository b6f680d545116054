import Glibc

extension Butterworth {
    /// A Butterworth band-pass designed as one filter, as SciPy's
    /// `butter(order, [low, high], btype="bandpass", output="sos")` designs it (Oppenheim & Schafer
    /// §7.1; A. Antoniou, "Digital Signal Processing", 2006, §10.4):
    /// - the analogue low-pass prototype's poles p_k = e^{iπ(2k + n − 1)/(2n)}, k = 1…n;
    /// - the edges pre-warped, ω = 2·fs·tan(πf/fs);
    /// - the low-pass → band-pass transform s → (s² + ω₀²)/(s·B), ω₀² = ω₁ω₂, B = ω₂ − ω₁: each
    ///   pole p gives p·B/2 ± √((p·B/2)² − ω₀²), n zeros at s = 0, gain Bⁿ;
    /// - the bilinear transform z = (2fs + s)/(2fs − s): the zeros go to z = 1, n more come at
    ///   z = −1, and the gain is multiplied by (2fs)ⁿ/Π(2fs − pole).
    ///
    /// Each prototype pole of the upper half-plane (and the real one of an odd order) gives one
    /// section (1 − z⁻²)/(1 + a1 z⁻¹ + a2 z⁻²), the first carrying the gain. The response is 1
    /// (0 dB) at the pre-warped centre and 1/√2 (−3.01 dB) at `lowHz` and `highHz`.
    /// Needs order ≥ 1 and 0 < lowHz < highHz < sampleRateHz/2.
    public static func bandPassDesigned(order: Int, lowHz: Double, highHz: Double, sampleRateHz fs: Double) -> BiquadCascade {
        precondition(order >= 1 && lowHz > 0 && lowHz < highHz && highHz < fs / 2, "band-pass edges outside (0, fs/2) or order < 1")
        let w1 = 2 * fs * tan(.pi * lowHz / fs), w2 = 2 * fs * tan(.pi * highHz / fs)
        let bandwidth = w2 - w1, centreSquared = Complex(w1 * w2, 0)
        let twoFs = Complex(2 * fs, 0)
        var gain = 1.0
        var sections: [Biquad] = []
        for k in 1...(order + 1) / 2 {
            let angle = Double.pi * Double(2 * k + order - 1) / Double(2 * order)
            let real = 2 * k - 1 == order  // the real pole −1 of an odd order
            let q = Complex(cos(angle), real ? 0 : sin(angle)).scaled(bandwidth / 2)
            let root = (q * q - centreSquared).squareRoot()
            // A complex prototype pole gives two band-pass poles, each with its conjugate: two
            // sections. The real one gives q ± root: a conjugate pair, or two real poles.
            let pairs: [[Complex]] = real ? [[q + root, q - root]] : [[q + root, (q + root).conjugate], [q - root, (q - root).conjugate]]
            for pair in pairs {
                let z = pair.map { (twoFs + $0) / (twoFs - $0) }
                gain *= bandwidth * 2 * fs / (pair.reduce(Complex(1, 0)) { $0 * (twoFs - $1) }).re
                sections.append(Biquad(b0: 1, b1: 0, b2: -1, a1: -(z[0] + z[1]).re, a2: (z[0] * z[1]).re))
            }
        }
        sections[0].b0 *= gain
        sections[0].b2 *= gain
        return BiquadCascade(sections: sections)
    }
}

/// The complex arithmetic of the band-pass design.
private struct Complex {
    var re, im: Double
    init(_ re: Double, _ im: Double) { (self.re, self.im) = (re, im) }
    var conjugate: Complex { Complex(re, -im) }
    func scaled(_ s: Double) -> Complex { Complex(re * s, im * s) }
    static func + (a: Complex, b: Complex) -> Complex { Complex(a.re + b.re, a.im + b.im) }
    static func - (a: Complex, b: Complex) -> Complex { Complex(a.re - b.re, a.im - b.im) }
    static func * (a: Complex, b: Complex) -> Complex { Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re) }
    static func / (a: Complex, b: Complex) -> Complex {
        let d = b.re * b.re + b.im * b.im
        return Complex((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d)
    }
    /// The principal square root.
    func squareRoot() -> Complex {
        let modulus = (re * re + im * im).squareRoot()
        let r = ((modulus + re) / 2).squareRoot(), i = ((modulus - re) / 2).squareRoot()
        return Complex(r, im < 0 ? -i : i)
    }
}
