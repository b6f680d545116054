import Foundation

/// The autoregressive spectrum estimate of R's `spec.ar(x, n.freq = 500)` (mhealthtools'
/// `get_spectrum`): a Yule-Walker fit (`ar.yw`, the order up to min(n − 1, ⌊10 log₁₀ n⌋) chosen
/// by AIC, Levinson-Durbin recursion as R's `eureka`) and its spectral density
/// σ² / |1 − Σ aⱼ e^{−2πifj}|² at 500 frequencies from 0 to ½ cycle per sample
/// (Brockwell & Davis, "Time Series: Theory and Methods", 1991, §8.2 and §10.6).
enum AutoregressiveSpectrum {
    static let frequencyCount = 500

    /// R's `seq.int(0, 0.5, length.out = 500)`: i·(0.5/499), the last exactly ½.
    static let frequencies = frequencies(count: frequencyCount)

    /// R's `seq.int(0, 0.5, length.out = count)`: i·(0.5/(count − 1)), the last exactly ½ (count ≥ 2).
    static func frequencies(count: Int) -> [Double] {
        let step = 0.5 / Double(count - 1)
        var f = (0..<count).map { Double($0) * step }
        f[count - 1] = 0.5
        return f
    }

    /// cos and sin of (2π·f)·j for the grid's f and j = 1…orderLimit, as R's `outer` forms them.
    private static let orderLimit = 64
    private static let table: (cos: [Double], sin: [Double]) = {
        var c = [Double](repeating: 0, count: frequencyCount * orderLimit), s = c
        for (k, f) in frequencies.enumerated() {
            for j in 1...orderLimit {
                let angle = 2 * Double.pi * f * Double(j)
                c[k * orderLimit + j - 1] = cos(angle)
                s[k * orderLimit + j - 1] = sin(angle)
            }
        }
        return (c, s)
    }()

    enum Failure: Error, Equatable {
        /// Fewer than two values (R: "'order.max' must be >= 1").
        case tooShort
        /// Every value equal (R: "zero-variance series").
        case zeroVariance
        /// A value is not finite.
        case notFinite
    }

    /// The density at ``frequencies`` (per cycle per sample; scale by the rate as the caller needs),
    /// or at `frequencies(count: frequencyCount)` for another count (`spec.ar`'s `n.freq`, ≥ 2).
    static func density(_ x: [Double], frequencyCount count: Int = frequencyCount) throws(Failure) -> [Double] {
        precondition(count >= 2, "spec.ar needs n.freq ≥ 2")
        let n = x.count
        guard n >= 2 else { throw .tooShort }
        guard x.allSatisfy(\.isFinite) else { throw .notFinite }
        let maxOrder = min(n - 1, Int((10 * log10(Double(n))).rounded(.down)))
        guard maxOrder >= 1 else { throw .tooShort }
        // ar.yw demeans (colMeans), then acf demeans again; autocovariances over n.
        var centred = x
        for _ in 0..<2 {
            var s: Float80 = 0
            for v in centred { s += Float80(v) }
            let m = Double(s / Float80(n))
            for i in centred.indices { centred[i] -= m }
        }
        var r = [Double](repeating: 0, count: maxOrder + 1)
        for lag in 0...maxOrder {
            var sum = 0.0
            for i in 0..<(n - lag) { sum += centred[i + lag] * centred[i] }
            r[lag] = sum / Double(n)
        }
        guard r[0] != 0 else { throw .zeroVariance }
        let (coefficients, variances) = levinson(r, order: maxOrder)
        // AIC over orders 0…max: n log σ²ₘ + 2m (+ 2 for the mean, a constant); the first minimum.
        var order = 0, best = Double.infinity
        for m in 0...maxOrder {
            let aic = Double(n) * log(m == 0 ? r[0] : variances[m - 1]) + 2 * Double(m) + 2
            if aic < best { best = aic; order = m }
        }
        let variance = (order == 0 ? r[0] : variances[order - 1]) * Double(n) / Double(n - (order + 1))
        guard order > 0 else { return Array(repeating: variance, count: count) }
        let a = coefficients[((order - 1) * maxOrder)..<((order - 1) * maxOrder + order)]
        let base = a.startIndex
        let tabulated = count == frequencyCount && order <= orderLimit
        let grid = count == frequencyCount ? frequencies : frequencies(count: count)
        return (0..<count).map { k in
            var cs = 0.0, sn = 0.0
            for j in 0..<order {
                let (c, s) = tabulated
                    ? (table.cos[k * orderLimit + j], table.sin[k * orderLimit + j])
                    : (cos(2 * Double.pi * grid[k] * Double(j + 1)), sin(2 * Double.pi * grid[k] * Double(j + 1)))
                cs += c * a[base + j]
                sn += s * a[base + j]
            }
            return variance / ((1 - cs) * (1 - cs) + sn * sn)
        }
    }

    /// Levinson's recursion on the autocovariances r₀…r_p as R's `eureka`: the coefficients of
    /// every order 1…p (order l's l coefficients at [(l − 1)·p, (l − 1)·p + l)) and each order's
    /// innovations variance.
    static func levinson(_ r: [Double], order p: Int) -> (coefficients: [Double], variances: [Double]) {
        var f = [Double](repeating: 0, count: p * p)
        var variances = [Double](repeating: 0, count: p)
        var a = [Double](repeating: 0, count: p + 1)
        var v = r[0], d = r[1]
        a[1] = 1
        f[0] = r[1] / v
        var q = f[0] * r[1]
        variances[0] = (1 - f[0] * f[0]) * r[0]
        guard p > 1 else { return (f, variances) }
        for l in 2...p {
            a[l] = -d / v
            if l > 2 {
                let l1 = (l - 2) / 2, l2 = l1 + 1
                if l2 >= 2 {
                    for j in 2...l2 {
                        let hold = a[j], k = l - j + 1
                        a[j] += a[l] * a[k]
                        a[k] += a[l] * hold
                    }
                }
                if 2 * l1 != l - 2 { a[l2 + 1] *= 1 + a[l] }
            }
            v += a[l] * d
            let row = (l - 1) * p, previous = (l - 2) * p
            f[row + l - 1] = (r[l] - q) / v
            for j in 1...(l - 1) { f[row + j - 1] = f[previous + j - 1] + f[row + l - 1] * a[l - j + 1] }
            variances[l - 1] = variances[l - 2] * (1 - f[row + l - 1] * f[row + l - 1])
            if l == p { break }
            d = 0
            q = 0
            for i in 1...l {
                let k = l - i + 2
                d += a[i] * r[k - 1]
                q += f[row + i - 1] * r[k - 1]
            }
        }
        return (f, variances)
    }
}
