import InputGuards
import Glibc
import SignalProcessing

/// The per-vector statistics of the tapping feature sets (docs/analyses.md §1.3), with R's results on
/// degenerate input: empty → NaN except min = +∞, max = range = −∞; one value → sd, cv, skew,
/// kur = NaN, iqr = range = mad = 0.
enum TapStatistics {
    /// Skewness and kurtosis conventions.
    enum Moments {
        /// e1071 type 3: m3/s³ and excess m4/s⁴ − 3 with the n − 1 SD (mhealthtools).
        case e1071Type3
        /// Population m3/m2^{3/2} and non-excess m4/m2² (mPower-sdata's own functions).
        case population
    }

    static func mean(_ v: [Double]) -> Double { v.statistic(Statistics.mean) }
    static func median(_ v: [Double]) -> Double { v.statistic(Statistics.median) }
    static func sd(_ v: [Double]) -> Double { v.statistic(Statistics.standardDeviation) }

    /// IQR with type 5 (h = np + 0.5, clamped to [1, n]): MATLAB's `iqr`, used by PDScores.
    static func iqrType5(_ v: [Double]) -> Double {
        guard !v.isEmpty else { return .nan }
        let sorted = v.sorted()
        func q(_ p: Double) -> Double {
            let h = Swift.min(Swift.max(Double(sorted.count) * p + 0.5, 1), Double(sorted.count))
            let lower = Int(clamping: h, rounding: .down, to: 1...sorted.count)
            let upper = Swift.min(lower + 1, sorted.count)
            return sorted[lower - 1] + (h - Double(lower)) * (sorted[upper - 1] - sorted[lower - 1])
        }
        return q(0.75) - q(0.25)
    }

    static func min(_ v: [Double]) -> Double { v.min() ?? .infinity }
    static func max(_ v: [Double]) -> Double { v.max() ?? -.infinity }

    static func skew(_ v: [Double], _ moments: Moments) -> Double {
        switch moments {
        case .e1071Type3: return v.statistic(Statistics.skewness)
        case .population:
            let (m2, m3, _) = centralMoments(v)
            return m3 / (m2 * m2.squareRoot())
        }
    }

    static func kurtosis(_ v: [Double], _ moments: Moments) -> Double {
        switch moments {
        case .e1071Type3: return v.statistic(Statistics.kurtosis)
        case .population:
            let (m2, _, m4) = centralMoments(v)
            return m4 / (m2 * m2)
        }
    }

    /// Population central moments m2, m3, m4 (divisor n).
    static func centralMoments(_ v: [Double]) -> (Double, Double, Double) {
        guard !v.isEmpty else { return (.nan, .nan, .nan) }
        let m = mean(v)
        var m2 = 0.0, m3 = 0.0, m4 = 0.0
        for x in v {
            let d = x - m
            m2 += d * d
            m3 += d * d * d
            m4 += d * d * d * d
        }
        let n = Double(v.count)
        return (m2 / n, m3 / n, m4 / n)
    }

    /// Median, IQR with R's type 7 (`IQR(type = 7)`) and MAD (R `mad`: 1.4826 · median |v − median v|)
    /// by selection: the values of `Statistics.median`, `quantile` and `medianAbsoluteDeviation`;
    /// NaN for an empty input or one holding NaN, as those.
    static func medianIQRAndMAD(_ v: [Double]) -> (median: Double, iqr: Double, mad: Double) {
        let q = Selection.quantiles(of: v, [0.25, 0.5, 0.75])
        guard !q[1].isNaN else { return (.nan, .nan, .nan) }
        var deviations = v.map { Swift.abs($0 - q[1]) }
        return (q[1], q[2] - q[0], 1.4826 * Selection.quantiles(reordering: &deviations, [0.5])[0])
    }

    /// Coefficient of variation, percent: 100 · sd / mean.
    static func cv(_ v: [Double]) -> Double { 100 * sd(v) / mean(v) }

    static func range(_ v: [Double]) -> Double { max(v) - min(v) }

    /// Mean Teager–Kaiser energy: mean over i = 2…n−1 of v_i² − v_{i−1}·v_{i+1}
    /// (J. F. Kaiser, "On a simple algorithm to calculate the 'energy' of a signal", ICASSP 1990).
    static func tkeo(_ v: [Double]) -> Double {
        guard v.count >= 3 else { return .nan }
        var sum = 0.0
        for i in 1..<(v.count - 1) { sum += v[i] * v[i] - v[i - 1] * v[i + 1] }
        return sum / Double(v.count - 2)
    }

    /// Sample autocorrelation at `lag` (R `acf`): Σ(v_i − v̄)(v_{i+k} − v̄) / Σ(v_i − v̄)².
    static func autocorrelation(_ v: [Double], lag: Int) -> Double {
        guard v.count > lag else { return .nan }
        let m = mean(v)
        var numerator = 0.0, denominator = 0.0
        for i in v.indices {
            denominator += (v[i] - m) * (v[i] - m)
            if i + lag < v.count { numerator += (v[i] - m) * (v[i + lag] - m) }
        }
        return numerator / denominator
    }

    /// mhealthtools `fatigue`: mean of the first k minus mean of the last k + 1 values (the
    /// inherited off-by-one, kept), k = round-half-even(fraction · n); k = 0 compares d_1 with
    /// d_n (R's `1:0` indexing).
    static func fatigue(_ d: [Double], k: Int) -> Double {
        guard !d.isEmpty else { return .nan }
        let head = k == 0 ? [d[0]] : Array(d[0..<Swift.min(k, d.count)])
        let tail = Array(d[Swift.max(0, d.count - 1 - k)...])
        return mean(head) - mean(tail)
    }

    /// k10 = round(0.1·n), k25 = round(0.25·n) with round half to even (R's `round`); k50 = ⌊n/2⌋.
    static func fatigueCounts(_ n: Int) -> (k10: Int, k25: Int, k50: Int) {
        (Int(clamping: 0.1 * Double(n), rounding: .toNearestOrEven), Int(clamping: 0.25 * Double(n), rounding: .toNearestOrEven), n / 2)
    }

    /// Pearson correlation; NaN when either vector is constant.
    static func correlation(_ x: [Double], _ y: [Double]) -> Double {
        guard x.count == y.count, x.count >= 2 else { return .nan }
        let mx = mean(x), my = mean(y)
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for i in x.indices {
            sxy += (x[i] - mx) * (y[i] - my)
            sxx += (x[i] - mx) * (x[i] - mx)
            syy += (y[i] - my) * (y[i] - my)
        }
        return sxy / (sxx * syy).squareRoot()
    }

    /// Detrended fluctuation analysis as CRAN `fractal::DFA(method = "poly1", sum.order = 1)`
    /// (C.-K. Peng et al., "Mosaic organization of DNA nucleotides", Phys. Rev. E 49, 1994;
    /// docs/analyses.md §1.5): profile y = cumsum(d); scales 4, 8, … (J = ⌈log2(⌊N/2⌋/4)⌉);
    /// ⌊N/s⌋ boxes from the start, a line per box, F(s) = √(Σ residual² / (boxes·s)); α = slope
    /// of ln F on ln s, least squares weighted 1/j. NaN if J < 2.
    static func dfa(_ d: [Double]) -> Double {
        let n = d.count
        guard n >= 8 else { return .nan }
        let scalesCount = Int(clamping: log2(Double(n / 2) / 4), rounding: .up, to: 0...64)
        guard scalesCount >= 2 else { return .nan }
        var profile = [Double](repeating: 0, count: n)
        var sum = 0.0
        for i in 0..<n {
            sum += d[i]
            profile[i] = sum
        }
        var logScale: [Double] = []
        var logF: [Double] = []
        var weights: [Double] = []
        for j in 1...scalesCount {
            let s = 4 << (j - 1)
            let boxes = n / s
            guard boxes >= 1 else { break }
            var residuals = 0.0
            let xMean = Double(s - 1) / 2
            var sxx = 0.0
            for k in 0..<s { sxx += (Double(k) - xMean) * (Double(k) - xMean) }
            profile.withUnsafeBufferPointer { profile in
                for box in 0..<boxes {
                    // One pass for the mean and Σ(k − x̄)·y (= Σ(k − x̄)(y − ȳ), as Σ(k − x̄) = 0),
                    // one for the residuals of the least-squares line.
                    let y = UnsafeBufferPointer(rebasing: profile[(box * s)..<(box * s + s)])
                    var ySum = 0.0, sxy = 0.0, u = -xMean
                    for value in y {
                        ySum += value
                        sxy += u * value
                        u += 1
                    }
                    let yMean = ySum / Double(s)
                    let slope = sxy / sxx
                    u = -xMean
                    for value in y {
                        let residual = value - (yMean + slope * u)
                        residuals += residual * residual
                        u += 1
                    }
                }
            }
            logScale.append(log(Double(s)))
            logF.append(0.5 * log(residuals / Double(boxes * s)))
            weights.append(1 / Double(j))
        }
        guard logScale.count >= 2 else { return .nan }
        var totalWeight = 0.0
        var xBar = 0.0
        var yBar = 0.0
        for i in weights.indices {
            totalWeight += weights[i]
            xBar += weights[i] * logScale[i]
            yBar += weights[i] * logF[i]
        }
        xBar /= totalWeight
        yBar /= totalWeight
        var numerator = 0.0
        var denominator = 0.0
        for i in logScale.indices {
            numerator += weights[i] * (logScale[i] - xBar) * (logF[i] - yBar)
            denominator += weights[i] * (logScale[i] - xBar) * (logScale[i] - xBar)
        }
        return numerator / denominator
    }
}
