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
        guard count >= 3, binHz.isFinite, binHz > 0 else { return nil }
        let nyquist = binHz * Double(count - 1)
        guard nyquist > Self.lowestHz, binHz / 2 < Self.lowestHz else { return nil }
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
        inverseWidth = (0..<(count - 1)).map { (k: Int) -> Double in 1 / (knots[k + 1] - knots[k]) }
        (self.slopeScale, self.carry, self.upper, self.interval, self.weights) = (slopeScale, carry, upper, interval, weights)
    }

    /// The frequency, Hz, of output point `position` (fractional positions interpolate).
    func frequency(atPoint position: Double) -> Double {
        Self.lowestHz * exp2(position * octavesPerPoint)
    }

    /// The octave-scale spectra of four magnitude spectra at once, side by side in the lanes of
    /// vectors (the spline's two sweeps are chains of dependent operations: four spectra take
    /// about the time of one): `magnitude[4·k + l]` is bin k of spectrum l (4·`count` values),
    /// spectrum l goes to `output[l·count..<(l + 1)·count]`. Each lane has one spectrum's
    /// operations in their order, so a spectrum's values do not depend on its lane or on the
    /// others. `scratch` holds 2·`count` vectors of working space.
    func transform(lanes magnitude: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>,
                   scratch: UnsafeMutableBufferPointer<SIMD4<Double>>) {
        let n = count
        precondition(magnitude.count >= 4 * n && output.count >= 4 * n && scratch.count >= 2 * n, "OpenSmileOctaveSpectrum: buffers")
        let enhanced = UnsafeMutableBufferPointer(rebasing: scratch[0..<n]), second = UnsafeMutableBufferPointer(rebasing: scratch[n..<(2 * n)])
        magnitude.withMemoryRebound(to: SIMD4<Double>.self) { Self.enhancePeaks(lanes: UnsafeBufferPointer(rebasing: $0[0..<n]), into: enhanced) }
        // Smoothing in place, left to right, each value reading its unsmoothed neighbours.
        var right = enhanced[n - 1], left = SIMD4<Double>.zero
        for k in 0..<(n - 1) {
            let here = enhanced[k]
            enhanced[k] = 0.25 * left + 0.5 * here + 0.25 * enhanced[k + 1]
            left = here
        }
        enhanced[n - 1] = right
        // Natural spline: forward sweep into `second` (a multiplication and a subtraction in
        // its chain: the divisions depend on the knots alone), then back substitution.
        second[0] = .zero
        for k in 1..<(n - 1) {
            let rising: SIMD4<Double> = (enhanced[k + 1] - enhanced[k]) * inverseWidth[k], falling: SIMD4<Double> = (enhanced[k] - enhanced[k - 1]) * inverseWidth[k - 1]
            let slope = rising - falling
            second[k] = slope * slopeScale[k] - carry[k] * second[k - 1]
        }
        right = .zero
        second[n - 1] = .zero
        for k in stride(from: n - 2, through: 0, by: -1) {
            right = upper[k] * right + second[k]
            second[k] = right
        }
        // The spline at each output point times the auditory weight (the weight is positive, so
        // the clamp at 0, which takes NaN to 0 as max(0, x) does, commutes with it).
        for j in 0..<n {
            let k = interval[j], w = weights[j]
            var value: SIMD4<Double> = w[0] * enhanced[k]
            value += w[1] * enhanced[k + 1]
            value += w[2] * second[k]
            value += w[3] * second[k + 1]
            let clamped = value.replacing(with: 0, where: .!(value .>= 0))
            for lane in 0..<4 { output[lane * n + j] = clamped[lane] }
        }
    }

    /// Step 1 on four spectra side by side (bin k of spectrum l in lane l of `m[k]`, at least two
    /// bins): a bin is zeroed when no local maximum lies within two bins of it and there are
    /// maxima before and after it (bins before the first and after the last maximum are kept),
    /// found without branches — a pass for each lane's first and last maximum, a pass with the
    /// maxima of the five bins around each.
    static func enhancePeaks(lanes m: UnsafeBufferPointer<SIMD4<Double>>, into e: UnsafeMutableBufferPointer<SIMD4<Double>>) {
        let n = m.count
        precondition(n >= 2 && e.count >= n, "enhancePeaks: \(n) bins, \(e.count) out")
        func isMaximum(_ k: Int) -> SIMDMask<SIMD4<Int64>> {
            guard k >= 0, k < n else { return SIMDMask(repeating: false) }
            if k == 0 { return m[0] .> m[1] }
            if k == n - 1 { return m[k] .> m[k - 1] }
            return (m[k] .> m[k - 1]) .& (m[k] .>= m[k + 1])
        }
        var first = SIMD4<Int64>(repeating: Int64(n)), last = SIMD4<Int64>(repeating: -1)
        for k in 0..<n {
            let maximum = isMaximum(k), index = SIMD4<Int64>(repeating: Int64(k))
            first.replace(with: index, where: maximum .& (first .== Int64(n)))
            last.replace(with: index, where: maximum)
        }
        // The maxima at k − 2 … k + 2, shifted along.
        var near = (isMaximum(-2), isMaximum(-1), isMaximum(0), isMaximum(1), isMaximum(2))
        for k in 0..<n {
            let around = near.0 .| near.1 .| near.2 .| near.3 .| near.4
            let zeroed = .!around .& (first .< Int64(k - 2)) .& (last .> Int64(k + 2))
            e[k] = m[k].replacing(with: 0, where: zeroed)
            near = (near.1, near.2, near.3, near.4, isMaximum(k + 3))
        }
    }
}
