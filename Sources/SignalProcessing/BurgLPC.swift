import CKernels

/// Burg's method for the coefficients of a linear predictor (J. P. Burg, "Maximum entropy
/// spectral analysis", 1967; the recursion of Praat's VECburg, Praat 6.1.38 dwsys/NUM2.cpp). Praat
/// sums in 80-bit extended precision; here each step's two sums are accumulated in twice double
/// precision (CKernels' atk_burg_sums) and rounded once, on the frame scaled by a power of two to a
/// largest magnitude in [½, 1) (exact, and the coefficients do not depend on it), so that no
/// product of a quiet frame underflows: the same coefficients to rounding (docs/accuracy.md).
public struct BurgLPC: Sendable {
    public let order: Int
    public init(order: Int) { self.order = order }

    /// a[1…order] for `x`, or nil when x has no energy or a value that is not finite; the
    /// coefficients found so far when a step's denominator is 0 (Praat leaves them).
    public func coefficients(_ x: UnsafeBufferPointer<Double>) -> [Double]? {
        let n = x.count, m = order
        guard n >= 2 else { return nil }
        var a = [Double](repeating: 0, count: m + 1), aa = [Double](repeating: 0, count: m + 1)
        var largest = 0.0, finite = true
        for v in x {
            largest = max(largest, abs(v))
            finite = finite && v.isFinite
        }
        guard largest > 0, finite else { return nil }
        // 2^−(e + 1) for largest = s·2^e, s in [1, 2); the exponent within ±1000 (a finite scale).
        let scale = Double(sign: .plus, exponent: min(1000, max(-1000, -largest.exponent - 1)), significand: 1)
        var b1 = [Double](repeating: 0, count: n + 1), b2 = [Double](repeating: 0, count: n + 1)
        b1[1] = x[0] * scale
        b2[n - 1] = x[n - 1] * scale
        if n >= 3 { for j in 2...n - 1 { b1[j] = x[j - 1] * scale; b2[j - 1] = x[j - 1] * scale } }
        for i in 1...m {
            var numerator = 0.0, denominator = 0.0
            if n - i >= 1 {
                b1.withUnsafeBufferPointer { b1 in
                    b2.withUnsafeBufferPointer { b2 in atk_burg_sums(b1.baseAddress! + 1, b2.baseAddress! + 1, n - i, &numerator, &denominator) }
                }
            }
            guard denominator > 0 else { return Array(a[1...]) }
            a[i] = 2 * numerator / denominator
            if i > 1 { for j in 1..<i { a[j] = aa[j] - a[i] * aa[i - j] } }
            if i < m {
                for j in 1...i { aa[j] = a[j] }
                let c = aa[i], last = n - i - 1
                // b1[j] −= c·b2[j] and b2[j] = b2[j + 1] − c·b1[j + 1], both from the values before
                // this step (j ascending reads b1[j + 1] and b2[j + 1] before writing them): four
                // j at a time, all loads before the stores.
                b1.withUnsafeMutableBufferPointer { b1 in
                    b2.withUnsafeMutableBufferPointer { b2 in
                        let p1 = UnsafeMutableRawPointer(b1.baseAddress!), p2 = UnsafeMutableRawPointer(b2.baseAddress!)
                        var j = 1
                        while j + 3 <= last {
                            let x1 = p1.loadUnaligned(fromByteOffset: 8 * j, as: SIMD4<Double>.self)
                            let x2 = p2.loadUnaligned(fromByteOffset: 8 * j, as: SIMD4<Double>.self)
                            let next1 = p1.loadUnaligned(fromByteOffset: 8 * (j + 1), as: SIMD4<Double>.self)
                            let next2 = p2.loadUnaligned(fromByteOffset: 8 * (j + 1), as: SIMD4<Double>.self)
                            p1.storeBytes(of: x1 - c * x2, toByteOffset: 8 * j, as: SIMD4<Double>.self)
                            p2.storeBytes(of: next2 - c * next1, toByteOffset: 8 * j, as: SIMD4<Double>.self)
                            j += 4
                        }
                        while j <= last {
                            b1[j] -= c * b2[j]
                            b2[j] = b2[j + 1] - c * b1[j + 1]
                            j += 1
                        }
                    }
                }
            }
        }
        return Array(a[1...])
    }
}
