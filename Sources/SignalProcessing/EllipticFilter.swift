import Glibc

/// Elliptic (Cauer) band-pass filters as R's signal package 1.8-1 designs them (`ellipord`,
/// `ellip`: Paulo Neis' Octave code, after A. V. Oppenheim & R. W. Schafer, "Discrete-Time Signal
/// Processing", 1999, and the Jacobi theta series of the elliptic nome), with R's arithmetic
/// where the result depends on it — mhealthtools' camera heart rate filters with it
/// (docs/analyses.md §7.5):
/// - ``order(passband:stopband:passRippleDecibels:stopAttenuationDecibels:)``: the nome series'
///   minimum order for a band-pass;
/// - ``bandPass(order:passRippleDecibels:stopAttenuationDecibels:band:)``: the analogue prototype
///   of `ncauer` (its stop-band edge found by R's `optimize`, Brent's golden-section search with
///   R's replacement of a non-finite objective by the largest double), the low-pass → band-pass
///   transform of `sftrans`, the bilinear transform of `bilinear` and the polynomials of `poly`.
///
/// Frequencies are fractions of the Nyquist frequency, in (0, 1).
public enum EllipticFilter {
    /// Transfer-function coefficients, b (numerator) and a (denominator, a₀ = 1).
    public struct Coefficients: Sendable, Hashable {
        public var b: [Double]
        public var a: [Double]
    }

    /// `ellipord(Wp, Ws, Rp, Rs)` of a band-pass (`Ws` outside `Wp`): the least order meeting a
    /// pass-band ripple of `rp` dB and a stop-band attenuation of `rs` dB; nil when the edges are
    /// not nested in (0, 1) or the order is not a number from 1 to 64.
    public static func order(passband: (Double, Double), stopband: (Double, Double), passRippleDecibels rp: Double, stopAttenuationDecibels rs: Double) -> Int? {
        guard [passband.0, passband.1, stopband.0, stopband.1].allSatisfy({ $0 > 0 && $0 < 1 }),
            stopband.0 < passband.0, passband.0 < passband.1, passband.1 < stopband.1, rp > 0, rs > 0
        else { return nil }
        let t = 2.0
        let wp1 = tan(Double.pi * passband.0 / t), wp2 = tan(Double.pi * passband.1 / t)
        let ws1 = tan(Double.pi * stopband.0 / t), ws2 = tan(Double.pi * stopband.1 / t)
        let w02 = wp1 * wp2, w3 = w02 / ws2, w4 = w02 / ws1
        let ws: Double = if w3 > ws1 { (ws2 - w3) / (wp2 - wp1) } else if w4 < ws2 { (w4 - ws1) / (wp2 - wp1) } else { (ws2 - ws1) / (wp2 - wp1) }
        let q = nome(modulus: 1 / ws)
        let d = (rPow(10, 0.1 * rs) - 1) / (rPow(10, 0.1 * rp) - 1)
        let n = (log10(16 * d) / log10(1 / q)).rounded(.up)
        guard n.isFinite, n >= 1, n <= 64 else { return nil }
        return Int(n)
    }

    /// `ellip(n, Rp, Rs, W, "pass")`: the band-pass of prototype order `n` (its transfer function
    /// has order 2n; 2 for n = 1, whose prototype R builds with an extra pole pair, see below).
    public static func bandPass(order n: Int, passRippleDecibels rp: Double, stopAttenuationDecibels rs: Double, band: (Double, Double)) -> Coefficients {
        precondition((1...64).contains(n) && rp > 0 && rs > 0 && band.0 > 0 && band.0 < band.1 && band.1 < 1, "elliptic band-pass outside its domain")
        let t = 2.0
        let low = 2 / t * tan(Double.pi * band.0 / t), high = 2 / t * tan(Double.pi * band.1 / t)
        var (zeros, poles, gain) = prototype(rp: rp, rs: rs, n: n)
        // sftrans, band-pass: s → (s² + Fl·Fh)/(s·(Fh − Fl)).
        let width = high - low, edgeProduct = high * low
        gain *= rPow(1 / width, Double(zeros.count - poles.count))
        func split(_ roots: [RComplex]) -> [RComplex] {
            let b = roots.map { $0 * RComplex(width, 0) / RComplex(2, 0) }
            let root = b.map { (RComplex(0, 0) + $0 * $0 - RComplex(edgeProduct, 0)).squareRoot() }
            return zip(b, root).map { $0 + $1 } + zip(b, root).map { $0 - $1 }
        }
        let poleCount = poles.count
        let sPoles = split(poles)
        var sZeros = split(zeros)
        if poleCount > zeros.count { sZeros += Array(repeating: RComplex(0, 0), count: poleCount - zeros.count) }
        // bilinear, T = 2.
        let two = RComplex(2, 0), period = RComplex(t, 0)
        let zGain = (RComplex(gain, 0) * product(sZeros.map { (two - $0 * period) / period }) / product(sPoles.map { (two - $0 * period) / period })).re
        let zPoles = sPoles.map { (two + $0 * period) / (two - $0 * period) }
        let zZeros = sZeros.map { (two + $0 * period) / (two - $0 * period) } + Array(repeating: RComplex(-1, 0), count: sPoles.count - sZeros.count)
        return Coefficients(b: polynomial(zZeros).map { (RComplex(zGain, 0) * $0).re }, a: polynomial(zPoles).map(\.re))
    }

    /// `ncauer(Rp, Rs, n)`: the analogue low-pass prototype's zeros, poles and gain.
    ///
    /// For n = 1 the half order r is 0 and R's `for (ii in 1:r)` runs over 1 and 0: the value
    /// for ii = 1 is kept (an assignment to index 0 does nothing), so the prototype has a zero
    /// pair and a pole pair besides the real pole. With Rp = Rs the stop-band search's objective
    /// is infinite everywhere; R's `optimize` replaces it by the largest double and its
    /// golden-section steps decide the edge. Both reproduced as R runs them.
    static func prototype(rp: Double, rs: Double, n: Int) -> (zeros: [RComplex], poles: [RComplex], gain: Double) {
        let nn = Double(n)
        let ws = stopEdge(n: nn, rp: rp, rs: rs)
        let k = 1 / ws
        let q = nome(modulus: k)
        let l = (1 / (2 * nn)) * log((rPow(10, 0.05 * rp) + 1) / (rPow(10, 0.05 * rp) - 1))
        var sig01 = 0.0, sig02 = 0.0
        for m in 0...30 { sig01 = sig01 + rPow(-1, Double(m)) * rPow(q, Double(m * (m + 1))) * sinh(Double(2 * m + 1) * l) }
        for m in 1...30 { sig02 = sig02 + rPow(-1, Double(m)) * rPow(q, Double(m * m)) * cosh(Double(2 * m) * l) }
        let sig0 = abs((2 * rPow(q, 1.0 / 4) * sig01) / (1 + 2 * sig02))
        let w = ((1 + k * rPow(sig0, 2)) * (1 + rPow(sig0, 2) / k)).squareRoot()
        let odd = n % 2
        let r = (n - odd) / 2
        let indices = r == 0 ? [1] : Array(1...r)
        let wi: [Double] = indices.map { ii in
            let mu = Double(ii) - Double(1 - odd) / 2
            var soma1 = 0.0, soma2 = 0.0
            for m in 0...30 {
                soma1 = soma1 + 2 * rPow(q, 1.0 / 4) * (rPow(-1, Double(m)) * rPow(q, Double(m * (m + 1))) * sin((Double(2 * m + 1) * Double.pi * mu) / nn))
            }
            for m in 1...30 {
                soma2 = soma2 + 2 * (rPow(-1, Double(m)) * rPow(q, Double(m * m)) * cos((Double(2 * m) * Double.pi * mu) / nn))
            }
            return soma1 / (1 + soma2)
        }
        let vi = wi.map { ((1 - (k * rPow($0, 2))) * (1 - rPow($0, 2) / k)).squareRoot() }
        let a0i = wi.map { 1 / rPow($0, 2) }
        let sqrA0i = wi.map { 1 / $0 }
        let b0i = zip(vi, wi).map { v, x in (rPow(sig0 * v, 2) + rPow(w * x, 2)) / rPow(1 + rPow(sig0, 2) * rPow(x, 2), 2) }
        var ratio: Float80 = 1  // R's prod accumulates in long double
        for (b, a) in zip(b0i, a0i) { ratio *= Float80(b / a) }
        let gain = odd == 1 ? sig0 * Double(ratio) * ws.squareRoot() : rPow(10, -0.05 * rp) * Double(ratio)
        let i = RComplex(0, 1), minusI = RComplex(-0.0, -1)
        let zeros = sqrA0i.map { i * RComplex($0, 0) } + sqrA0i.map { minusI * RComplex($0, 0) }
        func pole(_ sign: Double, _ v: Double, _ x: Double) -> RComplex {
            let imaginary = RComplex(2, 0) * i * RComplex(x, 0) * RComplex(w, 0)
            let numerator = RComplex(-2 * sig0 * v, 0) + (sign > 0 ? imaginary : RComplex(0, 0) - imaginary)
            return numerator / RComplex(2 * (1 + rPow(sig0, 2) * rPow(x, 2)), 0)
        }
        var poles = zip(vi, wi).map { pole(1, $0, $1) } + zip(vi, wi).map { pole(-1, $0, $1) }
        if odd == 1 { poles.append(RComplex(-sig0, 0)) }
        let scale = RComplex(ws.squareRoot(), 0)
        return (zeros.map { scale * $0 }, poles.map { scale * $0 }, gain)
    }

    /// `ellip_ws`: the prototype's stop-band edge, 1/√kl with kl minimising
    /// |K(kl)/K(1 − kl) − n·K(kl₀)/K(1 − kl₀)| over (ε, 1 − ε) by R's `optimize`.
    static func stopEdge(n: Double, rp: Double, rs: Double) -> Double {
        let kl0 = (rPow(10, 0.1 * rp) - 1) / (rPow(10, 0.1 * rs) - 1)
        let k0 = completeEllipticIntegral([kl0, 1 - kl0])
        let x = n * k0[0] / k0[1]
        let eps = Double.ulpOfOne
        let kl = brentMinimum(in: eps, 1 - eps, tolerance: rPow(eps, 0.25)) { kl in
            let k = completeEllipticIntegral([kl, 1 - kl])
            return abs((k[0] / k[1]) - x)
        }
        return (1 / kl).squareRoot()
    }

    /// The nome's series q of a modulus k (its first four terms, as `ellipord` and `ncauer` sum them).
    static func nome(modulus k: Double) -> Double {
        let k1 = (1 - rPow(k, 2)).squareRoot()
        let q0 = (1.0 / 2) * ((1 - k1.squareRoot()) / (1 + k1.squareRoot()))
        return q0 + 2 * rPow(q0, 5) + 15 * rPow(q0, 9) + 150 * rPow(q0, 13)
    }

    /// `ellipke(m)$k`: K(m) for each parameter m ≤ 1 by the arithmetic-geometric mean (Abramowitz &
    /// Stegun §17.6), the values iterated together until every one has converged (at most 16
    /// steps), ∞ at m = 1.
    static func completeEllipticIntegral(_ m: [Double]) -> [Double] {
        let active = m.indices.filter { m[$0] != 1 }
        var result = m.map { $0 == 1 ? Double.infinity : 0 }
        guard !active.isEmpty else { return result }
        var a = active.map { _ in 1.0 }
        var b = active.map { (1.0 - m[$0]).squareRoot() }
        var c = active.map { m[$0].squareRoot() }
        for _ in 2...16 {
            for j in a.indices {
                let t = (a[j] + b[j]) / 2
                c[j] = (a[j] - b[j]) / 2
                b[j] = (a[j] * b[j]).squareRoot()
                a[j] = t
            }
            if a.indices.allSatisfy({ c[$0] / a[$0] < Double.ulpOfOne }) { break }
        }
        for (j, index) in active.enumerated() { result[index] = 0.5 * Double.pi / a[j] }
        return result
    }

    /// R's `optimize` (`Brent_fmin` of R's stats package: Brent, "Algorithms for Minimization
    /// without Derivatives", 1973, ch. 5): golden-section steps and parabolic interpolation; a
    /// non-finite value of `f` counts as the largest double, as R's wrapper replaces it.
    static func brentMinimum(in lower: Double, _ upper: Double, tolerance: Double, _ f: (Double) -> Double) -> Double {
        func value(_ x: Double) -> Double { let v = f(x); return v.isFinite ? v : Double.greatestFiniteMagnitude }
        let c = (3 - 5.0.squareRoot()) * 0.5
        let eps = Double.ulpOfOne.squareRoot()
        var a = lower, b = upper
        var v = a + c * (b - a), w = v, x = v
        var d = 0.0, e = 0.0
        var fx = value(x), fv = fx, fw = fx
        let tol3 = tolerance / 3
        // Each step shrinks [a, b] by at least tol1 or a golden factor: bounded by the interval's bits.
        for _ in 0..<10_000 {
            let xm = (a + b) * 0.5
            let tol1 = eps * abs(x) + tol3
            let t2 = tol1 * 2
            if abs(x - xm) <= t2 - (b - a) * 0.5 { break }
            var p = 0.0, q = 0.0, r = 0.0
            if abs(e) > tol1 {
                r = (x - w) * (fx - fv)
                q = (x - v) * (fx - fw)
                p = (x - v) * q - (x - w) * r
                q = (q - r) * 2
                if q > 0 { p = -p } else { q = -q }
                r = e
                e = d
            }
            if abs(p) >= abs(q * 0.5 * r) || p <= q * (a - x) || p >= q * (b - x) {
                e = x < xm ? b - x : a - x
                d = c * e
            } else {
                d = p / q
                let u = x + d
                if u - a < t2 || b - u < t2 { d = x >= xm ? -tol1 : tol1 }
            }
            let u = abs(d) >= tol1 ? x + d : (d > 0 ? x + tol1 : x - tol1)
            let fu = value(u)
            if fu <= fx {
                if u < x { b = x } else { a = x }
                (v, w, x) = (w, x, u)
                (fv, fw, fx) = (fw, fx, fu)
            } else {
                if u < x { a = u } else { b = u }
                if fu <= fw || w == x {
                    (v, fv, w, fw) = (w, fw, u, fu)
                } else if fu <= fv || v == x || v == w {
                    (v, fv) = (u, fu)
                }
            }
        }
        return x
    }

    /// `poly(roots)`: the monic polynomial's coefficients, highest power first.
    static func polynomial(_ roots: [RComplex]) -> [RComplex] {
        var y = [RComplex](repeating: RComplex(0, 0), count: roots.count + 1)
        y[0] = RComplex(1, 0)
        for (j, root) in roots.enumerated() {
            let previous = y
            for k in stride(from: j + 1, through: 1, by: -1) { y[k] = previous[k] - root * previous[k - 1] }
        }
        return y
    }

    /// R's `prod` of complex numbers (long double accumulation).
    static func product(_ values: [RComplex]) -> RComplex {
        var re: Float80 = 1, im: Float80 = 0
        for z in values {
            (re, im) = (re * Float80(z.re) - im * Float80(z.im), re * Float80(z.im) + im * Float80(z.re))
        }
        return RComplex(Double(re), Double(im))
    }

    /// R's `x ^ y` for doubles (arithmetic.c `R_POW`): x·x for y = 2, 1 for x = 1 or y = 0, else `pow`.
    static func rPow(_ x: Double, _ y: Double) -> Double {
        if y == 2 { return x * x }
        if x == 1 || y == 0 { return 1 }
        return pow(x, y)
    }
}

/// A complex number with C99's arithmetic as R's complex vectors use it: products as written,
/// quotients by Smith's method (libgcc's `__divdc3`), square roots as glibc's `csqrt`.
struct RComplex: Sendable, Hashable {
    var re, im: Double
    init(_ re: Double, _ im: Double) { (self.re, self.im) = (re, im) }
    static func + (a: RComplex, b: RComplex) -> RComplex { RComplex(a.re + b.re, a.im + b.im) }
    static func - (a: RComplex, b: RComplex) -> RComplex { RComplex(a.re - b.re, a.im - b.im) }
    static func * (a: RComplex, b: RComplex) -> RComplex { RComplex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re) }
    static func / (a: RComplex, b: RComplex) -> RComplex {
        if abs(b.re) < abs(b.im) {
            let ratio = b.re / b.im, denominator = b.re * ratio + b.im
            return RComplex((a.re * ratio + a.im) / denominator, (a.im * ratio - a.re) / denominator)
        }
        let ratio = b.im / b.re, denominator = b.im * ratio + b.re
        return RComplex((a.im * ratio + a.re) / denominator, (a.im - a.re * ratio) / denominator)
    }
    /// The principal square root (glibc's `csqrt` for finite values away from the range's ends).
    func squareRoot() -> RComplex {
        if im == 0 {
            return re < 0 ? RComplex(0, (-re).squareRoot().sign(as: im)) : RComplex(re.squareRoot(), im)
        }
        let d = hypot(re, im)
        if re > 0 {
            let r = (0.5 * (d + re)).squareRoot()
            return RComplex(r, 0.5 * (im / r))
        }
        let s = (0.5 * (d - re)).squareRoot()
        return RComplex(abs(0.5 * (im / s)), s.sign(as: im))
    }
}

private extension Double {
    /// |self| with the sign of `other` (C's copysign).
    func sign(as other: Double) -> Double { Double(signOf: other, magnitudeOf: self) }
}
