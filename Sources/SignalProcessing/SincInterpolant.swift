import CKernels
import Glibc
import InputGuards

/// Praat's windowed-sinc interpolation (NUM_interpolate_sinc) of an even sequence r[−B…B]
/// (r[−m] = r[m], B = r.count − 1, as Praat's pitch analysis extends its correlation), and the
/// maximum of that interpolant by Brent's method (Praat's NUMimproveMaximum). The sequence is held
/// mirrored, r[−B…B] contiguous, so each side of the interpolant reads memory in order.
public struct SincInterpolant: Sendable {
    /// r[−B…B]: mirror[B + k] = r[|k|].
    private var mirror: [Double]
    public private(set) var bound: Int

    /// Room for r[0…capacity] (it grows if a longer sequence is loaded).
    public init(capacity: Int) {
        mirror = [Double](repeating: 0, count: 2 * max(capacity, 0) + 1)
        bound = 0
    }

    /// Holds r[0…B] (B = r.count − 1) as r[−B…B]; an empty r as r = (0).
    public mutating func load(_ r: UnsafeBufferPointer<Double>) {
        bound = max(r.count - 1, 0)
        if mirror.count < 2 * bound + 1 { mirror = [Double](repeating: 0, count: 2 * bound + 1) }
        mirror[bound] = 0
        mirror.withUnsafeMutableBufferPointer { m in
            for k in 0..<r.count {
                m[bound + k] = r[k]
                m[bound - k] = r[k]
            }
        }
    }

    private func value(_ k: Int) -> Double { abs(k) <= bound ? mirror[bound + k] : 0 }

    /// The interpolant at real lag x: sinc(π·d) times a raised cosine reaching zero one sample
    /// beyond the span, the span `depth` samples each side clipped to the sequence; near its ends
    /// Praat's lower orders take over (nearest, linear, cubic); constant beyond ±B.
    public func value(at x: Double, depth: Int) -> Double {
        let bound = bound
        guard x.isFinite, x >= -Double(bound), x <= Double(bound) else { return value(bound) }
        let midLeft = Int(clamping: x, rounding: .down, to: -bound - 1...bound + 1)
        if x == Double(midLeft) { return value(midLeft) }
        let midRight = midLeft + 1
        let span = min(depth, midRight + bound, bound - midLeft)
        let yl = value(midLeft), yr = value(midRight)
        switch span {
        case ...0: return value(Int(clamping: x + 0.5, rounding: .down, to: -bound - 1...bound + 1))
        case 1: return yl + (x - Double(midLeft)) * (yr - yl)
        case 2:
            let dyl = 0.5 * (yr - value(midLeft - 1)), dyr = 0.5 * (value(midRight + 1) - yl)
            let fil = x - Double(midLeft), fir = Double(midRight) - x
            return yl * fir + yr * fil - fil * fir * (0.5 * (dyr - dyl) + (fil - 0.5) * (dyl + dyr - 2 * (yr - yl)))
        default: break
        }
        let left = midRight - span, right = midLeft + span
        let fraction = x - Double(midLeft)
        // sin(π(1 − f)) = sin(πf): one sine for both sides.
        let halfSin = 0.5 * sin(Double.pi * fraction)
        let startLeft = Double.pi * fraction, startRight = Double.pi * (Double(midRight) - x)
        let scaleLeft = 1 / (x - Double(left) + 1), scaleRight = 1 / (Double(right) - x + 1)
        let stepLeft = Double.pi * scaleLeft, stepRight = Double.pi * scaleRight
        // The window's six starting cosines (each side: its first angle, the one before, the step),
        // all within ±π/3 since span ≥ 3.
        let cosines = Self.cosine(SIMD8(startLeft * scaleLeft, startLeft * scaleLeft - stepLeft, stepLeft,
                                        startRight * scaleRight, startRight * scaleRight - stepRight, stepRight, 0, 0))
        // Each side by CKernels' atk_sinc_side: the window's cosines by an eight-lane Chebyshev
        // recurrence cos(θ + 8φ) = 2·cos 8φ·cos θ − cos(θ − 8φ) (the rounding error grows by
        // about one ulp per step, an eighth of the steps of one chain), eight partial sums.
        return mirror.withUnsafeBufferPointer { m in
            let centre = m.baseAddress! + bound
            return atk_sinc_side(centre + midLeft, 1, midLeft - left + 1, startLeft, halfSin, cosines[0], cosines[1], cosines[2])
                + atk_sinc_side(centre + midRight, 0, right - midRight + 1, startRight, halfSin, cosines[3], cosines[4], cosines[5])
        }
    }

    /// cos x for |x| ≤ π/2 by its Taylor series to x²⁴/24! (Abramowitz & Stegun 4.3.66; the
    /// first term left out is below 3·10⁻²² there), by Horner's rule in x², eight at a time.
    @inline(__always)
    static func cosine(_ x: SIMD8<Double>) -> SIMD8<Double> {
        // (−1)ⁿ/(2n)!, n = 12 down to 0, written out (no array, no loop): Horner's rule in x².
        let x2 = x * x
        var sum = SIMD8<Double>(repeating: 1 / 620448401733239439360000.0)
        sum = sum * x2 + SIMD8(repeating: -1 / 1124000727777607680000.0)
        sum = sum * x2 + SIMD8(repeating: 1 / 2432902008176640000.0)
        sum = sum * x2 + SIMD8(repeating: -1 / 6402373705728000.0)
        sum = sum * x2 + SIMD8(repeating: 1 / 20922789888000.0)
        sum = sum * x2 + SIMD8(repeating: -1 / 87178291200.0)
        sum = sum * x2 + SIMD8(repeating: 1 / 479001600.0)
        sum = sum * x2 + SIMD8(repeating: -1 / 3628800.0)
        sum = sum * x2 + SIMD8(repeating: 1 / 40320.0)
        sum = sum * x2 + SIMD8(repeating: -1 / 720.0)
        sum = sum * x2 + SIMD8(repeating: 1 / 24.0)
        sum = sum * x2 + SIMD8(repeating: -1 / 2.0)
        return sum * x2 + SIMD8(repeating: 1 / 1.0)
    }

    /// Maximum of the interpolant on [i − 1, i + 1] by Brent's method (R. P. Brent,
    /// "Algorithms for Minimization without Derivatives", 1973, ch. 5: golden-section steps
    /// with parabolic interpolation), with the tolerance Praat's NUMimproveMaximum gives its
    /// NUMminimize_brent (1e-10, plus √ε·|x|). Parabolic steps converge superlinearly on the
    /// smooth peak: about a third of the interpolant evaluations of pure golden section.
    public func maximum(around i: Int, depth: Int) -> (x: Double, y: Double) {
        let golden = 0.381_966_011_250_105_1 // (3 − √5) / 2
        let sqrtEpsilon = Double.ulpOfOne.squareRoot(), tolerance = 1e-10
        var a = Double(i) - 1, b = Double(i) + 1
        var x = a + golden * (b - a), w = x, v = x
        // Minimise −f.
        var fx = -value(at: x, depth: depth), fw = fx, fv = fx
        var d = 0.0, e = 0.0
        for _ in 0..<100 {
            let middle = 0.5 * (a + b)
            let tol1 = sqrtEpsilon * abs(x) + tolerance / 3, tol2 = 2 * tol1
            if abs(x - middle) <= tol2 - 0.5 * (b - a) { break }
            var parabolic = false
            if abs(e) > tol1 {
                // The parabola through (x, fx), (w, fw), (v, fv).
                var t = (x - w) * (fx - fv)
                var q = (x - v) * (fx - fw)
                var p = (x - v) * q - (x - w) * t
                q = 2 * (q - t)
                if q > 0 { p = -p } else { q = -q }
                t = e
                e = d
                if abs(p) < abs(0.5 * q * t), p > q * (a - x), p < q * (b - x) {
                    d = p / q
                    let u = x + d
                    if u - a < tol2 || b - u < tol2 { d = x < middle ? tol1 : -tol1 }
                    parabolic = true
                }
            }
            if !parabolic {
                e = (x < middle ? b : a) - x
                d = golden * e
            }
            let u = abs(d) >= tol1 ? x + d : x + (d > 0 ? tol1 : -tol1)
            let fu = -value(at: u, depth: depth)
            if fu <= fx {
                if u < x { b = x } else { a = x }
                (v, fv, w, fw, x, fx) = (w, fw, x, fx, u, fu)
            } else {
                if u < x { a = u } else { b = u }
                if fu <= fw || w == x {
                    (v, fv, w, fw) = (w, fw, u, fu)
                } else if fu <= fv || v == x || v == w {
                    (v, fv) = (u, fu)
                }
            }
        }
        return (x, -fx)
    }
}
