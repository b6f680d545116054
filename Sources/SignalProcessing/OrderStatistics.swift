import CKernels

/// Adjacent order statistics of unsorted values (CKernels' atk_order_pair).
public enum OrderStatistics {
    /// The k-th and (k + 1)-th smallest of `a` (0-based), overwriting `a`: three-way partitions,
    /// eight values at a time with AVX-512. The values must not be NaN (the result is then
    /// unspecified, never outside `a`'s values or +∞); of two equal zeros either sign comes back.
    /// `scratch` holds at least `a.count` values.
    public static func adjacent(_ a: UnsafeMutableBufferPointer<Double>, _ k: Int, scratch: UnsafeMutableBufferPointer<Double>) -> (Double, Double) {
        precondition(k >= 0 && k + 1 < a.count && scratch.count >= a.count, "adjacent: \(k) and \(k + 1) of \(a.count), \(scratch.count) of scratch")
        var kth = 0.0, next = 0.0
        atk_order_pair(a.baseAddress!, a.count, k, scratch.baseAddress!, &kth, &next)
        return (kth, next)
    }
}
