import CKernels

/// ln, lg and eˣ of whole arrays in place, through glibc's vector math library (``atk_log_array``
/// and its kin in CKernels: at most 4 ulp from the correctly rounded value, several values per
/// instruction). A value gives the same result wherever it sits in an array; a result may differ
/// by a few ulp from the scalar `log`, `log10`, `exp` and between instruction sets.
public enum VectorMath {
    public static func log(_ x: inout [Double]) { x.withUnsafeMutableBufferPointer { log($0) } }
    public static func log(_ x: UnsafeMutableBufferPointer<Double>) { atk_log_array(x.baseAddress, x.count) }
    public static func log10(_ x: inout [Double]) { x.withUnsafeMutableBufferPointer { log10($0) } }
    public static func log10(_ x: UnsafeMutableBufferPointer<Double>) { atk_log10_array(x.baseAddress, x.count) }
    public static func exp(_ x: inout [Double]) { x.withUnsafeMutableBufferPointer { exp($0) } }
    public static func exp(_ x: UnsafeMutableBufferPointer<Double>) { atk_exp_array(x.baseAddress, x.count) }
    /// √x in place, several values per instruction: correctly rounded, so the scalar
    /// `squareRoot()` bit for bit (``atk_sqrt_array``).
    public static func squareRoot(_ x: inout [Double]) { x.withUnsafeMutableBufferPointer { atk_sqrt_array($0.baseAddress, $0.count) } }

    /// out[j] = Σ_k weights[k]·rows[k][j], k ascending from 0, for j < out.count, several j per
    /// instruction with the scalar sum's operations in its order (``atk_weighted_rows``: the same
    /// bits on every instruction set). Each row holds at least out.count values.
    public static func weightedRows(_ rows: UnsafeBufferPointer<UnsafePointer<Double>>, weights: UnsafeBufferPointer<Double>,
                                    into out: UnsafeMutableBufferPointer<Double>) {
        precondition(rows.count == weights.count, "weighted rows: \(rows.count) rows, \(weights.count) weights")
        guard let output = out.baseAddress else { return }
        // No rows (an empty buffer may have no address): every sum is 0, the kernel reads nothing.
        let first = UnsafeRawPointer(rows.baseAddress)?.assumingMemoryBound(to: UnsafePointer<Double>?.self)
        atk_weighted_rows(first, weights.baseAddress, rows.count, out.count, output)
    }
}

