import CKernels
import Glibc

/// Praat's NUM_interpolate_sinc, as its Sound_resample reads the old samples at each new
/// sample's time: at one place, or at eight at once (CKernels' atk_sinc_resample8, each lane
/// with the one-place operations in their order, so with the same values).
public enum PraatSincInterpolation {
    /// Praat's NUM_interpolate_sinc (melder/NUMinterpol.cpp) of y[1…n] at the 1-based real
    /// index x: constant beyond the ends, exact at integers, the depth clipped to the samples
    /// available each side (nearest, linear and cubic below depth 3), and otherwise
    /// Σ y[i]·sinc(π(x − i))·½(1 + cos(π(x − i)/(x − left + 1))) over `depth` samples each side,
    /// the window's cosines by Praat's angle-addition recurrence.
    public static func value(_ y: UnsafeBufferPointer<Double>, at x: Double, depth maxDepth: Int) -> Double {
        let n = y.count
        guard n >= 1, x.isFinite else { return .nan }
        if x < 1 { return y[0] }
        if x > Double(n) { return y[n - 1] }
        let midleft = Int(x.rounded(.down)), midright = midleft + 1
        if x == Double(midleft) { return y[midleft - 1] }
        let depth = min(maxDepth, midright - 1, n - midleft)
        if depth <= 0 { return y[Int((x + 0.5).rounded(.down)) - 1] }
        if depth == 1 { return y[midleft - 1] + (x - Double(midleft)) * (y[midright - 1] - y[midleft - 1]) }
        if depth == 2 {
            let yl = y[midleft - 1], yr = y[midright - 1]
            let dyl = 0.5 * (yr - y[midleft - 2]), dyr = 0.5 * (y[midright] - yl)
            let fil = x - Double(midleft), fir = Double(midright) - x
            return yl * fir + yr * fil - fil * fir * (0.5 * (dyr - dyl) + (fil - 0.5) * (dyl + dyr - 2 * (yr - yl)))
        }
        let left = midright - depth, right = midleft + depth
        var result = 0.0
        // One side of the window: the samples `indices` at distances d, d + 1, … from x, the
        // raised cosine spanning `span` samples (Praat's recurrence for its cosines).
        func add(_ indices: some Sequence<Int>, distance: Double, span: Double) {
            var a = Double.pi * distance
            var halfSinA = 0.5 * sin(a)
            let aa = a / span, daa = Double.pi / span
            var cosaa = cos(aa), sinaa = sin(aa)
            let cosdaa = cos(daa), sindaa = sin(daa)
            for ix in indices {
                result += y[ix - 1] * (halfSinA / a * (1 + cosaa))
                a += .pi
                let help = cosaa * cosdaa - sinaa * sindaa
                sinaa = cosaa * sindaa + sinaa * cosdaa
                cosaa = help
                halfSinA = -halfSinA
            }
        }
        add(stride(from: midleft, through: left, by: -1), distance: x - Double(midleft), span: x - Double(left) + 1)
        add(midright...right, distance: Double(midright) - x, span: Double(right) - x + 1)
        return result
    }

    /// ``value(_:at:depth:)`` at eight indices at once, each lane with that function's operations
    /// in its order (the same values; the eight windows' recurrences side by side in CKernels'
    /// atk_sinc_resample8); nil unless every index lies between samples with `depth` ≥ 3 samples
    /// each side.
    public static func values(_ y: UnsafeBufferPointer<Double>, at x: SIMD8<Double>, depth: Int) -> SIMD8<Double>? {
        guard let base = y.baseAddress else { return nil }
        var places = x, out = SIMD8<Double>()
        let done = withUnsafeBytes(of: &places) { places in
            withUnsafeMutableBytes(of: &out) { out in
                atk_sinc_resample8(base, y.count, places.baseAddress!.assumingMemoryBound(to: Double.self), depth,
                                   out.baseAddress!.assumingMemoryBound(to: Double.self))
            }
        }
        return done == 1 ? out : nil
    }
}
