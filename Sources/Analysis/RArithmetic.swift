import Foundation

/// R 4.x's arithmetic where the R peers' sets depend on it (mhealthtools' kinematic features and
/// camera heart rate, docs/analyses.md §7.3 and §7.5; the tapping sets' kept taps and drift
/// sides, §1.2–1.5): `sum`, `mean`, `cumsum` and `prod` accumulate in the x87 extended format
/// (R's `LDOUBLE`), `mean` adds a second pass of the residuals, and `var` is the cov.c two-pass
/// with n − 1. Kept separate from ``SignalProcessing/Statistics`` (plain double sums): these
/// follow R's rounding so that the peer sets agree to 1e-9 relative, and decide as R decides.
enum RArithmetic {
    /// `sum(x)`.
    static func sum(_ x: some Collection<Double>) -> Double {
        contiguous(x) { x in
            var s: Float80 = 0
            for v in x { s += Float80(v) }
            return Double(s)
        }
    }

    /// `sum(x^2)`.
    static func sumOfSquares(_ x: some Collection<Double>) -> Double {
        contiguous(x) { x in
            var s: Float80 = 0
            for v in x { s += Float80(v * v) }
            return Double(s)
        }
    }

    /// `mean(x)`: the extended sum over n, corrected by the mean of the residuals (summary.c).
    static func mean(_ x: some Collection<Double>) -> Double {
        contiguous(x) { x in
            guard !x.isEmpty else { return .nan }
            let n = Float80(x.count)
            var s: Float80 = 0
            for v in x { s += Float80(v) }
            s /= n
            guard Double(s).isFinite else { return Double(s) }
            var t: Float80 = 0
            for v in x { t += Float80(v) - s }
            return Double(s + t / n)
        }
    }

    /// `var(x)`: cov.c's mean (extended, with the residual pass), then Σ (x − m)² in extended
    /// over n − 1; NaN below two values.
    static func variance(_ x: some Collection<Double>) -> Double {
        contiguous(x) { x in
            guard x.count >= 2 else { return .nan }
            let n = Float80(x.count)
            var s: Float80 = 0
            for v in x { s += Float80(v) }
            var m = s / n
            if Double(m).isFinite {
                var t: Float80 = 0
                for v in x { t += Float80(v) - m }
                m += t / n
            }
            let mean = Double(m)
            var sum: Float80 = 0
            for v in x { sum += Float80((v - mean) * (v - mean)) }
            return Double(sum / (n - 1))
        }
    }

    /// `sd(x)`.
    static func standardDeviation(_ x: some Collection<Double>) -> Double { variance(x).squareRoot() }

    /// `cumsum(x)` (extended accumulation, each partial sum rounded to double).
    static func cumulativeSum(_ x: some Collection<Double>) -> [Double] {
        contiguous(x) { x in
            var s: Float80 = 0
            return x.map { s += Float80($0); return Double(s) }
        }
    }

    /// `body` on `x`'s values as one buffer, so that the loops above are compiled for `Double`
    /// in this file: a loop over `some Collection` called from another file runs unspecialised,
    /// element by element through the protocol, where a file is optimised alone (the debug
    /// build's `-O` modules, Package.swift).
    private static func contiguous<R>(_ x: some Collection<Double>, _ body: (UnsafeBufferPointer<Double>) -> R) -> R {
        x.withContiguousStorageIfAvailable(body) ?? Array(x).withUnsafeBufferPointer(body)
    }

    /// `quantile(x, p, type = 7)` of sorted values.
    static func quantile7(sorted x: [Double], _ p: Double) -> Double {
        guard !x.isEmpty else { return .nan }
        let index = Double(x.count - 1) * p
        let lo = Int(index.rounded(.down)), hi = Int(index.rounded(.up))
        let h = index - Double(lo)
        return x[hi] == x[lo] || h == 0 ? x[lo] : (1 - h) * x[lo] + h * x[hi]
    }

    /// pracma's `Mode(x)`: the most frequent value of `table(x)`, whose levels are the values as
    /// `as.character` writes them (15 significant digits), in increasing order; the first of the
    /// most frequent, read back from its 15 digits.
    static func mode(sorted x: [Double]) -> Double {
        guard !x.isEmpty else { return .nan }
        func text(_ v: Double) -> String { String(format: "%.15g", v == 0 ? 0 : v) }
        // Neighbours further apart than 1e-13 relative never share 15 digits: only near ones
        // are written out and compared.
        func same(_ a: Double, _ b: Double) -> Bool {
            a == b || (abs(b - a) <= 1e-13 * max(abs(a), abs(b)) && text(a) == text(b))
        }
        var best = 0, bestCount = 0
        var i = 0
        while i < x.count {
            var j = i + 1
            while j < x.count, same(x[i], x[j]) { j += 1 }
            if j - i > bestCount { best = i; bestCount = j - i }
            i = j
        }
        return Double(text(x[best])) ?? .nan
    }

    /// R's `round(x)`: to the nearest integer, halves to even (IEC 60559).
    static func round(_ x: Double) -> Double { x.rounded(.toNearestOrEven) }

    /// `x ^ y` (arithmetic.c `R_POW`): x·x for y = 2, 1 for x = 1 or y = 0, else `pow`.
    static func power(_ x: Double, _ y: Double) -> Double {
        if y == 2 { return x * x }
        if x == 1 || y == 0 { return 1 }
        return pow(x, y)
    }
}
