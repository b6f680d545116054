import Glibc

/// The octave-scale magnitude spectrum that openSMILE 2.6.0's eGeMAPSv02 pitch tracker reads
/// (cSpecScale with `scale = octave`, `minF = 25`, `interpMethod = spline`, `specEnhance = 1`,
/// `specSmooth = 1`, `auditoryWeighting = 1`), rebuilt from D. J. Hermes, "Measurement of pitch
/// by subharmonic summation", J. Acoust. Soc. Am. 83(1):257–264, 1988 and black-box comparison
/// with openSMILE's output (equal within single precision on 16, 22.05 and 44.1 kHz voices):
///
/// 1. Peak enhancement: every local maximum (m[k] > m[k−1] and m[k] ≥ m[k+1]; bin 0 when
///    m[0] > m[1], the last bin when it exceeds the one before) keeps the two bins on either
///    side; between two maxima the bins farther than two from both are set to 0; the bins before
///    the first and after the last maximum are kept.
/// 2. Smoothing: s[k] = ¼e[k−1] + ½e[k] + ¼e[k+1] (e[−1] = 0), the last bin unchanged.
/// 3. A natural cubic spline through (log₂ f_k, s[k]), f_0 = Δf/2 and f_k = k·Δf, read at N
///    points log₂ 25 + j·L/(N − 1), L = log₂(f_Nyquist/25), for the N bins of the spectrum;
///    negative values (the spline's undershoot next to a zeroed stretch) set to 0.
/// 4. Auditory weighting: × ½ + arctan(3·(log₂ 25 + (j + 2)·L/N − log₂ 32.5))/π (Hermes' arc
///    tangent of the log frequency; openSMILE evaluates it on a grid of L/N per point, two points
///    on, about 32.5 Hz where the paper has 65 Hz — the constants its output shows).
struct OpenSmileOctaveSpectrum: Sendable {
    /// Points of the spectrum in and out (the FFT's bins, DC to Nyquist).
    let count: Int
    /// Octaves from 25 Hz to the Nyquist frequency, L, and per output point, L/(N − 1).
    let octaves: Double, octavesPerPoint: Double
    /// The lowest output frequency, Hz.
    static let lowestHz = 25.0

    /// What depends on the knots (log₂ frequency of each bin) alone, computed once: 1/(x_{k+1} −
    /// x_k); the tridiagonal sweep's factors — the slope's scale 6/((x_{k+1} − x_{k−1})·pivot_k),
    /// the carry σ_k/pivot_k and the back substitution's super-diagonal factor; for each output
    /// point the knot interval it falls in and the spline's four weights there, times the
    /// auditory weight.
    private let inverseWidth: [Double], slopeScale: [Double], carry: [Double], upper: [Double]
    private let interval: [Int], weights: [SIMD4<Double>]

    /// For `count` bins (DC to Nyquist, at least 3) `binHz` apart; nil when the Nyquist
    /// frequency is not above 25 Hz or the bins are not finite.
    init?(count: Int, binHz: Double) {
        let nyquist = binHz * Double(count - 1)
        guard count >= 3, binHz.isFinite, binHz > 0, nyquist > Self.lowestHz, binHz / 2 < Self.lowestHz else { return nil }
        self.count = count
        octaves = log2(nyquist / Self.lowestHz)
        octavesPerPoint = octaves / Double(count - 1)
        var knots = [log2(binHz / 2)]
        for k in 1..<count { knots.append(log2(Double(k) * binHz)) }
        // Natural spline, second derivatives by the tridiagonal sweep: the diagonal after
        // elimination (pivot) and the super-diagonal factor (upper) depend on the knots alone.
        var upper = [Double](repeating: 0, count: count), slopeScale = upper, carry = upper
        for k in 1..<(count - 1) {
            let sig = (knots[k] - knots[k - 1]) / (knots[k + 1] - knots[k - 1])
            let pivot = sig * upper[k - 1] + 2
            upper[k] = (sig - 1) / pivot
            slopeScale[k] = 6 / ((knots[k + 1] - knots[k - 1]) * pivot)
            carry[k] = sig / pivot
        }
        var interval = [Int](), weights = [SIMD4<Double>]()
        var k = 0
        for j in 0..<count {
            let x = log2(Self.lowestHz) + Double(j) * octavesPerPoint
            while k < count - 2, knots[k + 1] < x { k += 1 }
            interval.append(k)
            let grid = log2(Self.lowestHz) + Double(j + 2) * octaves / Double(count) - log2(32.5)
            let h = knots[k + 1] - knots[k], a = (knots[k + 1] - x) / h, b = 1 - a
            // value = a·s_k + b·s_{k+1} + ((a³ − a)·y″_k + (b³ − b)·y″_{k+1})·h²/6
            weights.append(SIMD4(a, b, (a * a * a - a) * h * h / 6, (b * b * b - b) * h * h / 6) * (0.5 + atan(3 * grid) / Double.pi))
        }
        inverseWidth = (0..<(count - 1)).map { 1 / (knots[$0 + 1] - knots[$0]) }
        (self.slopeScale, self.carry, self.upper, self.interval, self.weights) = (slopeScale, carry, upper, interval, weights)
    }

    /// The frequency, Hz, of output point `position` (fractional positions interpolate).
    func frequency(atPoint position: Double) -> Double {
        Self.lowestHz * exp2(position * octavesPerPoint)
    }

    /// The octave-scale spectrum of `magnitude` (`count` values) into `output` (`count` values);
    /// `scratch` holds 2·`count` values of working space.
    func transform(_ magnitude: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>,
                   scratch: UnsafeMutableBufferPointer<Double>) {
        precondition(magnitude.count >= count && output.count >= count && scratch.count >= 2 * count, "OpenSmileOctaveSpectrum: buffers")
        let n = count
        let enhanced = UnsafeMutableBufferPointer(rebasing: scratch[0..<n]), second = UnsafeMutableBufferPointer(rebasing: scratch[n..<(2 * n)])
        Self.enhancePeaks(magnitude, into: enhanced)
        // Smoothing in place, right to left so each value reads its unsmoothed neighbours.
        var right = enhanced[n - 1], left = 0.0
        for k in 0..<(n - 1) {
            let here = enhanced[k]
            enhanced[k] = 0.25 * left + 0.5 * here + 0.25 * enhanced[k + 1]
            left = here
        }
        enhanced[n - 1] = right
        // Natural spline: forward sweep into `second` (a multiplication and a subtraction in
        // its chain: the divisions depend on the knots alone), then back substitution.
        second[0] = 0
        for k in 1..<(n - 1) {
            let slope = (enhanced[k + 1] - enhanced[k]) * inverseWidth[k] - (enhanced[k] - enhanced[k - 1]) * inverseWidth[k - 1]
            second[k] = slope * slopeScale[k] - carry[k] * second[k - 1]
        }
        right = 0
        second[n - 1] = 0
        for k in stride(from: n - 2, through: 0, by: -1) {
            right = upper[k] * right + second[k]
            second[k] = right
        }
        // The spline at each output point times the auditory weight (the weight is positive, so
        // the clamp at 0 commutes with it).
        for j in 0..<n {
            let k = interval[j]
            output[j] = max(0, (weights[j] * SIMD4(enhanced[k], enhanced[k + 1], second[k], second[k + 1])).sum())
        }
    }

    /// Step 1: the bins within two of a local maximum, or outside the first and last maximum;
    /// zero elsewhere.
    static func enhancePeaks(_ m: UnsafeBufferPointer<Double>, into e: UnsafeMutableBufferPointer<Double>) {
        let n = e.count
        for k in 0..<n { e[k] = m[k] }
        var previousMaximum: Int? = m[0] > m[1] ? 0 : nil
        for k in 1..<n {
            let isMaximum = k == n - 1 ? m[k] > m[k - 1] : m[k] > m[k - 1] && m[k] >= m[k + 1]
            guard isMaximum else { continue }
            if let p = previousMaximum, p + 3 < k - 2 {
                for i in (p + 3)..<(k - 2) { e[i] = 0 }
            }
            previousMaximum = k
        }
    }
}
