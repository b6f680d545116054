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

    /// The series of coefficients a and b (as many) at every angle into `out` (``count`` values).
    public func sum(_ a: UnsafeBufferPointer<Double>, _ b: UnsafeBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>) {
        precondition(a.count == b.count && out.count == count, "trigonometric series: \(a.count) and \(b.count) coefficients, \(out.count) of \(count) outputs")
        guard let output = out.baseAddress else { return }
        atk_trig_series(a.baseAddress, b.baseAddress, a.count, twoCosines, cosines, sines, count, output)
    }
}
