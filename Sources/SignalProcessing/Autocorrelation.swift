/// Autocorrelation through the FFT (Wiener–Khinchin), O(N log N).
public enum Autocorrelation {
    /// The unbiased autocorrelation normalised to R(0) = 1 of Moe-Nilssen & Helbostad (2004,
    /// J Biomech 37:121–126): R(m) = [Σ_{i<N−m} x_i x_{i+m} / (N − m)] / [Σ x_i² / N], for
    /// m = 0…maxLag. `x` should already be demeaned. Empty or all-zero input gives NaN.
    public static func unbiased(_ x: [Double], maxLag: Int) -> [Double] {
        let n = x.count
        let lags = min(maxLag, n - 1)
        guard n >= 2, lags >= 0 else { return [] }
        var size = 1
        while size < 2 * n { size <<= 1 }
        guard let fft = try? FFT(size: size) else { return [] }
        var padded = x + [Double](repeating: 0, count: size - n)
        var spectrum = fft.forward(padded)
        for k in 0..<fft.realBins {
            spectrum[2 * k] = spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]
            spectrum[2 * k + 1] = 0
        }
        padded = fft.inverse(spectrum)
        // padded[m] = size · Σ x_i x_{i+m}
        let energy = padded[0] / Double(size) / Double(n)
        return (0...lags).map { m in (padded[m] / Double(size) / Double(n - m)) / energy }
    }
}
