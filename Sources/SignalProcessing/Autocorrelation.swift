import CKernels

/// Autocorrelation through the FFT (Wiener–Khinchin), O(N log N), and lag products summed
/// directly where a method defines them so (Praat's cross-correlation pitch).
public enum Autocorrelation {
    /// Lag products Σ_{j<window} x[j]·x[m + j] for m in `lags` into products[m − lags.lowerBound]
    /// (CKernels' `atk_lag_products`: sixteen partial sums in a fixed order, no fused
    /// multiply-add, so the same bits on every instruction set; they differ from one running sum
    /// by rounding only). `x` must hold lags.upperBound + window values.
    public static func lagProducts(_ x: UnsafeBufferPointer<Double>, window: Int, lags: ClosedRange<Int>,
                                   into products: UnsafeMutableBufferPointer<Double>) {
        precondition(window >= 0 && lags.lowerBound >= 0 && lags.upperBound <= x.count - window && products.count >= lags.count,
                     "lag products: lags \(lags) of a \(window)-sample window outside \(x.count) values or \(products.count) outputs")
        guard let input = x.baseAddress, let output = products.baseAddress else { return }
        atk_lag_products(input, window, lags.lowerBound, lags.upperBound, output)
    }

    /// One lag product Σ_{j<window} x[j]·x[lag + j] as Praat's cross-correlation pitch sums it:
    /// each product rounded to a Double, added in order to one 80-bit running sum, the sum
    /// rounded to a Double (Praat 6.1.38 fon/Sound_to_Pitch.cpp, `longdouble product`). Slow (one
    /// chain of x87 additions): for the lags where ``lagProducts(_:window:lags:into:)``'s rounding
    /// could decide which lag is a maximum. `x` must hold lag + window values.
    public static func extendedLagProduct(_ x: UnsafeBufferPointer<Double>, window: Int, lag: Int) -> Double {
        precondition(window >= 0 && lag >= 0 && lag <= x.count - window, "lag product: lag \(lag) of a \(window)-sample window outside \(x.count) values")
        var sum: Float80 = 0
        for j in 0..<window { sum += Float80(x[j] * x[lag + j]) }
        return Double(sum)
    }

    /// The terms of one window correlation (Praat's pulse search): Σ a[j]·b[j] and Σ b[j]² in
    /// ``lagProducts(_:window:lags:into:)``'s order, and max |b[j]|, over `count` values of each
    /// (CKernels' `atk_correlation_terms`).
    public static func correlationTerms(_ a: UnsafeBufferPointer<Double>, _ b: UnsafeBufferPointer<Double>)
        -> (product: Double, energy: Double, peak: Double)
    {
        precondition(a.count == b.count, "correlation terms: windows of \(a.count) and \(b.count) values")
        guard let x = a.baseAddress, let y = b.baseAddress else { return (0, 0, 0) }
        var product = 0.0, energy = 0.0, peak = 0.0
        atk_correlation_terms(x, y, a.count, &product, &energy, &peak)
        return (product, energy, peak)
    }

    /// Σ(a − ā)(b − b̄), Σ(a − ā)² and Σ(b − b̄)² over `count` values from `a` and `b` with the
    /// means given (CKernels' `atk_centred_products`: eight partial sums, then the last values).
    public static func centredProducts(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count: Int, meanA: Double, meanB: Double)
        -> (cross: Double, energyA: Double, energyB: Double)
    {
        precondition(count >= 0, "centred products of \(count) values")
        var out = (0.0, 0.0, 0.0)
        withUnsafeMutableBytes(of: &out) { atk_centred_products(a, b, count, meanA, meanB, $0.baseAddress!.assumingMemoryBound(to: Double.self)) }
        return out
    }

    /// The circular autocorrelation of `frame` (fft.size values; zero-pad it for the linear one)
    /// through its power spectrum (Wiener–Khinchin), unnormalised (size × Σ x_i·x_{i+m}), into
    /// `output`, which may be `frame`'s own storage; `spectrum` (2·realBins values) is scratch.
    public static func circular(_ frame: UnsafeBufferPointer<Double>, spectrum: UnsafeMutableBufferPointer<Double>,
                                into output: UnsafeMutableBufferPointer<Double>, fft: FFT) {
        fft.forward(frame, into: spectrum)
        for k in 0..<fft.realBins {
            spectrum[2 * k] = spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]
            spectrum[2 * k + 1] = 0
        }
        fft.inverse(UnsafeBufferPointer(spectrum), into: output)
    }

    /// The unbiased autocorrelation normalised to R(0) = 1 of Moe-Nilssen & Helbostad (2004,
    /// J Biomech 37:121–126): R(m) = [Σ_{i<N−m} x_i x_{i+m} / (N − m)] / [Σ x_i² / N], for
    /// m = 0…maxLag. `x` should already be demeaned. Empty or all-zero input gives NaN.
    public static func unbiased(_ x: [Double], maxLag: Int) -> [Double] {
        let n = x.count
        let lags = min(maxLag, n - 1)
        guard n >= 2, lags >= 0 else { return [] }
        // Zero padding to n + lags points at least: a circular correlation of that length wraps
        // nothing into lags 0…lags (the products that wrap are those of lags above it).
        var size = 1
        while size < n + lags { size <<= 1 }
        guard let fft = try? FFT(size: size) else { return [] }
        // The zero-padded signal, its power spectrum and the inverse into the signal's array.
        var padded = [Double](unsafeUninitializedCapacity: size) { p, initialized in
            x.withUnsafeBufferPointer { x in
                for i in 0..<n { p[i] = x[i] }
                for i in n..<size { p[i] = 0 }
            }
            initialized = size
        }
        var spectrum = [Double](repeating: 0, count: 2 * fft.realBins)
        spectrum.withUnsafeMutableBufferPointer { spectrum in
            padded.withUnsafeMutableBufferPointer { circular(UnsafeBufferPointer($0), spectrum: spectrum, into: $0, fft: fft) }
        }
        // padded[m] = size · Σ x_i x_{i+m}
        let energy = padded[0] / Double(size) / Double(n)
        return (0...lags).map { m in (padded[m] / Double(size) / Double(n - m)) / energy }
    }
}
