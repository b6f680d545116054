import CKernels

/// Acceleration split against a gravity estimate, per sample (docs/analyses.md §2.3, step 4): with
/// u = g/|g| ((0, 0, 1) where |g| is 0) and d = a − g, the vertical component v = d·u, the
/// horizontal remainder h = d − v·u and |d|. CKernels' `atk_gravity_decompose`, four or eight
/// samples per vector step; each value rounds as the scalar expression written left to right
/// (no fused multiply-add; division and square root correctly rounded), so every instruction set
/// gives the same bits. `gravityMagnitudeSum` is Σ|g| and `horizontalSums` (Σhx, Σhy, Σhz), each
/// summed in sample order.
public enum GravityDecomposition {
    public static func split(x: [Double], y: [Double], z: [Double], gx: [Double], gy: [Double], gz: [Double])
        -> (vertical: [Double], hx: [Double], hy: [Double], hz: [Double], dynamicMagnitude: [Double], gravityMagnitudeSum: Double,
            horizontalSums: (Double, Double, Double))
    {
        let n = x.count
        precondition([y, z, gx, gy, gz].allSatisfy { $0.count == n }, "gravity decomposition: columns of unequal length")
        var hx: [Double] = [], hy: [Double] = [], hz: [Double] = [], magnitude: [Double] = [], sums = [0.0, 0, 0, 0]
        let vertical = [Double](unsafeUninitializedCapacity: n) { v, initialized in
            hx = [Double](unsafeUninitializedCapacity: n) { hx, hxCount in
                hy = [Double](unsafeUninitializedCapacity: n) { hy, hyCount in
                    hz = [Double](unsafeUninitializedCapacity: n) { hz, hzCount in
                        magnitude = [Double](unsafeUninitializedCapacity: n) { magnitude, magnitudeCount in
                            if n > 0 {
                                atk_gravity_decompose(x, y, z, gx, gy, gz, n, v.baseAddress!, hx.baseAddress!, hy.baseAddress!, hz.baseAddress!,
                                                      magnitude.baseAddress!, &sums)
                            }
                            magnitudeCount = n
                        }
                        hzCount = n
                    }
                    hyCount = n
                }
                hxCount = n
            }
            initialized = n
        }
        return (vertical, hx, hy, hz, magnitude, sums[0], (sums[1], sums[2], sums[3]))
    }
}
