import CKernels
import Glibc
import InputGuards

/// Praat's windowed-sinc interpolation (NUM_interpolate_sinc) of an even sequence r[−B…B]
/// (r[−m] = r[m], B = r.count − 1, as Praat's pitch analysis extends its correlation), and the
/// maximum of that interpolant by Brent's method (Praat's NUMimproveMaximum). The sequence is held
/// mirrored, r[−B…B] contiguous, so each side of the interpolant reads memory in order, with
/// ``room`` values of room each side (the kernel's last step per side loads eight values and
/// clears those past the span).
public struct SincInterpolant: Sendable {
    /// r[−B…B] from mirror[room]: mirror[room + B + k] = r[|k|].
    private var mirror: [Double]
    public private(set) var bound: Int
    /// The values readable beyond ±B that CKernels' atk_sinc_value and atk_sinc_maxima need.
    static let room = 7

    /// Room for r[0…capacity] (it grows if a longer sequence is loaded).
    public init(capacity: Int) {
        mirror = [Double](repeating: 0, count: 2 * (max(capacity, 0) + Self.room) + 1)
        bound = 0
    }

    /// Holds r[0…B] (B = r.count − 1) as r[−B…B]; an empty r as r = (0).
    public mutating func load(_ r: UnsafeBufferPointer<Double>) {
        bound = max(r.count - 1, 0)
        if mirror.count < 2 * (bound + Self.room) + 1 { mirror = [Double](repeating: 0, count: 2 * (bound + Self.room) + 1) }
        let centre = Self.room + bound
        mirror[centre] = 0
        mirror.withUnsafeMutableBufferPointer { m in
            for k in 0..<r.count {
                m[centre + k] = r[k]
                m[centre - k] = r[k]
            }
        }
    }

    /// r[0] in the mirror (r[k] at centre ± k).
    private func centre(_ m: UnsafeBufferPointer<Double>) -> UnsafePointer<Double> { m.baseAddress! + Self.room + bound }

    /// The interpolant at real lag x: sinc(π·d) times a raised cosine reaching zero one sample
    /// beyond the span, the span `depth` samples each side clipped to the sequence; near its ends
    /// Praat's lower orders take over (nearest, linear, cubic); r[B] beyond ±B, NaN or ±∞
    /// (CKernels' atk_sinc_value: each side's window cosines by an eight-lane Chebyshev recurrence
    /// cos(θ + 8φ) = 2·cos 8φ·cos θ − cos(θ − 8φ), the rounding error growing by about one ulp per
    /// step, an eighth of the steps of one chain; eight partial sums).
    public func value(at x: Double, depth: Int) -> Double {
        mirror.withUnsafeBufferPointer { atk_sinc_value(centre($0), bound, x, depth) }
    }

    /// ``value(at:depth:)`` at every place of `x` into `values` (as many), the same bits, eight
    /// places' setups side by side (CKernels' atk_sinc_values).
    public func values(at x: UnsafeBufferPointer<Double>, depth: Int, into values: UnsafeMutableBufferPointer<Double>) {
        precondition(values.count == x.count, "sinc values: \(x.count) places, \(values.count) outputs")
        guard let places = x.baseAddress, let out = values.baseAddress else { return }
        mirror.withUnsafeBufferPointer { atk_sinc_values(centre($0), bound, places, depth, x.count, out) }
    }

    /// The interpolant's window polynomials on eight values: cos x in lanes 0–5 and 7, sin x in
    /// lane 6, for |x| ≤ π/2 (Taylor series to x²⁴/24! and x²⁵/25!, Abramowitz & Stegun
    /// 4.3.65–66; the first term left out is below 3·10⁻²² there).
    static func cosine(_ x: SIMD8<Double>) -> SIMD8<Double> {
        var result = SIMD8<Double>()
        withUnsafePointer(to: x) { x in
            withUnsafeMutablePointer(to: &result) { out in
                atk_sinc_cosines(UnsafeRawPointer(x).assumingMemoryBound(to: Double.self), UnsafeMutableRawPointer(out).assumingMemoryBound(to: Double.self))
            }
        }
        return result
    }

    /// Maximum of the interpolant on [i − 1, i + 1] by Brent's method (R. P. Brent,
    /// "Algorithms for Minimization without Derivatives", 1973, ch. 5: golden-section steps
    /// with parabolic interpolation) as Praat's NUMimproveMaximum runs its NUMminimize_brent
    /// (Keselyov's variant): in the places of Praat's vector r[−B…B] indexed from 1 (lag + B + 1),
    /// tolerance √(2⁻⁵³)·|place| + 1e-10/3, at most 60 steps after the first place (CKernels'
    /// atk_sinc_maxima). The same interpolant values give Praat's places bit for bit.
    public func maximum(around i: Int, depth: Int) -> (x: Double, y: Double) {
        var place = i, depth = depth, x = 0.0, y = 0.0
        mirror.withUnsafeBufferPointer { atk_sinc_maxima(centre($0), bound, &place, &depth, 1, &x, &y) }
        return (x, y)
    }

    /// The maxima around places[j] at depths[j], each as ``maximum(around:depth:)`` finds it,
    /// into x[j] and y[j]; eight searches at a time, their setups side by side, the next taking
    /// the place of one that ends (CKernels' atk_sinc_maxima). All four buffers hold as many.
    public func maxima(around places: UnsafeBufferPointer<Int>, depths: UnsafeBufferPointer<Int>, x: UnsafeMutableBufferPointer<Double>,
                       y: UnsafeMutableBufferPointer<Double>) {
        precondition(depths.count == places.count && x.count == places.count && y.count == places.count)
        guard let p = places.baseAddress, let d = depths.baseAddress, let xs = x.baseAddress, let ys = y.baseAddress else { return }
        mirror.withUnsafeBufferPointer { atk_sinc_maxima(centre($0), bound, p, d, places.count, xs, ys) }
    }
}
