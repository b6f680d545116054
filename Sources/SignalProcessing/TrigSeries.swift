import CKernels
import Glibc

/// A real trigonometric series Σ_{k<K} a_k·cos kθ − b_k·sin kθ at fixed angles θ_i, summed by
/// Clenshaw's recurrence in cos θ_i (C. W. Clenshaw, Math. Tables Aids Comput. 9:118–120, 1955;
/// CKernels' atk_trig_series, vector lanes over the angles): no table of K·n sines and cosines
/// to read per series. Its rounding grows with K, most near θ = 0 and π: within about K²·ε of
/// Σ|a_k| + |b_k|.
public struct TrigSeries: Sendable {
    private let twoCosines: [Double], cosines: [Double], sines: [Double]
    /// The number of angles, and of values a sum gives.
    public var count: Int { cosines.count }

    public init(angles: [Double]) {
        let cosines = angles.map(cos)
        (self.cosines, sines, twoCosines) = (cosines, angles.map(sin), cosines.map { 2 * $0 })
    }

    /// The series of `terms` coefficient pairs (a_k, b_k) = (pairs[2k], pairs[2k + 1]) — a real
    /// transform's interleaved bins — at every angle into `out` (``count`` values).
    public func sum(_ pairs: UnsafeBufferPointer<Double>, terms: Int, into out: UnsafeMutableBufferPointer<Double>) {
        precondition(terms >= 0 && pairs.count >= 2 * terms && out.count == count,
                     "trigonometric series: \(terms) terms in \(pairs.count) values, \(out.count) of \(count) outputs")
        guard let output = out.baseAddress else { return }
        atk_trig_series(pairs.baseAddress, terms, twoCosines, cosines, sines, count, output)
    }
}
