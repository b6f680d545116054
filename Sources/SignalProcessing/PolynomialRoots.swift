import CKernels
import Glibc

/// The complex roots of a real polynomial: found by the Aberth–Ehrlich simultaneous iteration
/// (O. Aberth, "Iteration methods for finding all zeros of a polynomial simultaneously", Math.
/// Comp. 27:339–344, 1973), then each polished by Newton–Raphson with the polynomial and its
/// derivative evaluated in extended precision, stopping when |p(z)| no longer decreases — the
/// polishing Praat gives the eigenvalues of its companion matrix (Roots_Polynomial_polish,
/// Praat 6.1.38 dwsys/Roots.cpp), so a simple root ends where Praat's does, to rounding.
public enum PolynomialRoots {
    /// A complex number (real, imaginary).
    public struct Root: Sendable, Hashable {
        public var re: Double
        public var im: Double
        public init(re: Double, im: Double) { self.re = re; self.im = im }
        /// |z|².
        public var squaredMagnitude: Double { re * re + im * im }
    }

    /// The roots of c[0] + c[1]·z + … + c[n]·zⁿ (c[n] ≠ 0, n ≥ 1, every coefficient finite), in no
    /// particular order; nil if the coefficients are not usable or an iterate stops being finite.
    /// Each root stops when p there is at its rounding error or it moves by less than 10⁻¹⁵ of
    /// its size, and every root after 200 sweeps (the polishing finishes what a cluster leaves).
    ///
    /// `near`: the roots of a similar polynomial (the previous frame's LPC), n of them, from which
    /// the sweeps start, each turned by 0.01 rad about the origin (so that no start is real or the
    /// conjugate of another, which the sweeps could not leave); when they are not n values, or
    /// the sweeps from them fail (two equal starts, a start not finite), the sweeps start from
    /// the circle instead.
    /// Either way each root is then polished to where |p| stops decreasing (Praat's step), unless
    /// `polished` is false: the sweeps' roots as they stop (at the rounding error of evaluating p
    /// in Double, where a caller needs no more, as eGeMAPSv02's single-precision formants).
    public static func roots(_ c: [Double], near: [Root]? = nil, polished: Bool = true) -> [Root]? {
        guard let n = c.indices.last, n >= 1, c[n] != 0, c.allSatisfy(\.isFinite) else { return nil }
        // The monic coefficients, the iterates' real and imaginary parts and Aberth's working
        // space in one temporary allocation (no heap per call but the roots returned).
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: (n + 1) + 2 * n + 11 * n + 44) { buffer -> [Root]? in
            let base = buffer.baseAddress!
            let monic = base, re = base + (n + 1), im = re + n, scratch = im + n
            for k in 0...n { monic[k] = c[k] / c[n] }
            // Aberth's sweeps (CKernels' atk_aberth): a root stops moving once |p(z)| is within the
            // rounding error of evaluating p there, 4ε·Σ|cₖ|·|z|ᵏ (a multiple root converges only
            // linearly; this ends it at the noise), or once its step is below 10⁻¹⁵ of its size.
            if let near, near.count == n {
                let (turnSin, turnCos) = (sin(0.01), cos(0.01))
                for k in 0..<n {
                    re[k] = near[k].re * turnCos - near[k].im * turnSin
                    im[k] = near[k].re * turnSin + near[k].im * turnCos
                }
                if atk_aberth(monic, n, re, im, 200, scratch) == 1 { return finished(c, re, im, n, polished) }
            }
            // Start on a circle of the Cauchy-type radius 1 + max |cₖ/cₙ|^(1/(n−k)) / 2, at angles
            // offset so that no start is real or a conjugate of another.
            var radius = 0.0
            for k in 0..<n where monic[k] != 0 { radius = max(radius, pow(abs(monic[k]), 1 / Double(n - k))) }
            radius = max(radius, 1e-3)
            for k in 0..<n {
                let angle = 2 * Double.pi * Double(k) / Double(n) + 0.4
                re[k] = radius * cos(angle)
                im[k] = radius * sin(angle)
            }
            guard atk_aberth(monic, n, re, im, 200, scratch) == 1 else { return nil }
            return finished(c, re, im, n, polished)
        }
    }

    /// The n roots the sweeps left in `re` and `im`, polished or as they are.
    private static func finished(_ c: [Double], _ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>, _ n: Int, _ polished: Bool) -> [Root] {
        (0..<n).map { polished ? polish(c, (re[$0], im[$0])) : Root(re: re[$0], im: im[$0]) }
    }

    /// Newton–Raphson from `start` on p with p and p′ in extended precision, at most 80 steps,
    /// returning the best point seen once |p| stops decreasing by more than ε (Praat's
    /// Polynomial_polish_complexroot_nr).
    static func polish(_ c: [Double], _ start: (Double, Double)) -> Root {
        var z = start, best = start
        var smallest = 1e308
        for _ in 0..<80 {
            let (p, dp) = evaluateExtended(c, at: z)
            let size = (p.0 * p.0 + p.1 * p.1).squareRoot()
            if size > smallest || abs(size - smallest) < Double.ulpOfOne { return Root(re: best.0, im: best.1) }
            smallest = size
            best = z
            if dp.0 == 0 && dp.1 == 0 { break }
            let step = divide(p, dp)
            z.0 -= step.0
            z.1 -= step.1
        }
        return Root(re: z.0, im: z.1)
    }

    /// p(z) and p′(z) by Horner's scheme in 80-bit extended precision, rounded to Double, as
    /// Praat's Polynomial_evaluateWithDerivative_z (longdouble) computes them.
    private static func evaluateExtended(_ c: [Double], at z: (Double, Double)) -> ((Double, Double), (Double, Double)) {
        let x = Float80(z.0), y = Float80(z.1)
        var pr = Float80(c[c.count - 1]), pi: Float80 = 0, dpr: Float80 = 0, dpi: Float80 = 0
        for k in stride(from: c.count - 2, through: 0, by: -1) {
            var t = dpr
            dpr = dpr * x - dpi * y + pr
            dpi = t * y + dpi * x + pi
            t = pr
            pr = pr * x - pi * y + Float80(c[k])
            pi = t * y + pi * x
        }
        return ((Double(pr), Double(pi)), (Double(dpr), Double(dpi)))
    }

    /// a / b, scaled against overflow (Smith's algorithm).
    private static func divide(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double) {
        if abs(b.0) >= abs(b.1) {
            let r = b.1 / b.0, d = b.0 + b.1 * r
            return ((a.0 + a.1 * r) / d, (a.1 - a.0 * r) / d)
        }
        let r = b.0 / b.1, d = b.0 * r + b.1
        return ((a.0 * r + a.1) / d, (a.1 * r - a.0) / d)
    }
}
