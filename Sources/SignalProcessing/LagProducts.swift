import Glibc

/// The lag products p_m = Σ_{j<W} x_j·x_{m+j}, m = 1…M, of one window against the stretch after
/// it, through the FFT where that is as good as summing them: the window and the stretch
/// zero-padded to N ≥ W + M, a product of 2s, 3s and 5s (nothing wraps into lags 0…M), p =
/// IDFT(conj(DFT(window))·DFT(stretch))/N. The transform's rounding is bounded by
/// 15·log₂N·ε·‖window‖·‖stretch‖ (three transforms of about 5ε per stage: N. J. Higham, "Accuracy
/// and Stability of Numerical Algorithms", 2nd ed., 2002, §24.1); a lag whose bound exceeds
/// `tolerance` of √(Σ_{j<W} x_j²·Σ_{j<W} x_{m+j}²) — its normalised correlation would move by
/// more — is summed directly (``Autocorrelation/lagProducts(_:window:lags:into:)``) instead. So
/// every p_m is within `tolerance` of that normalisation of the direct sum: a window whose lagged
/// stretches are much quieter than the whole stretch keeps the direct sums where it needs them.
public struct LagProducts: Sendable {
    /// Below this many products (W·M) the direct sums are faster than three transforms.
    public static let directBelow = 1 << 16
    public static let tolerance = 1e-13
    let fft: FFT
    private var padded: [Double], stretch: [Double], windowSpectrum: [Double], stretchSpectrum: [Double], products: [Double]

    /// The largest transform: five buffers of it, 40 MB (longer windows sum directly).
    public static let largestSize = 1 << 20

    /// For windows of `window` values against lags 1…`lags`; nil when the direct sums are the
    /// better choice, the transform would exceed ``largestSize`` or cannot be made.
    public init?(window: Int, lags: Int) {
        guard window >= 1, lags >= 1, window < Self.largestSize, lags < Self.largestSize, window * lags >= Self.directBelow else { return nil }
        guard let size = Self.transformSize(atLeast: window + lags) else { return nil }
        guard let fft = try? FFT(size: size) else { return nil }
        self.fft = fft
        padded = [Double](repeating: 0, count: size)
        stretch = padded
        products = padded
        windowSpectrum = [Double](repeating: 0, count: 2 * fft.realBins)
        stretchSpectrum = windowSpectrum
    }

    /// The least 2^a·3^b·5^c ≥ n (FFTW's fast sizes) up to ``largestSize``.
    static func transformSize(atLeast n: Int) -> Int? {
        guard n >= 1, n <= largestSize else { return nil }
        var best = 1
        while best < n { best <<= 1 }
        var five = 1
        while five < 2 * n {
            var three = five
            while three < 2 * n {
                var size = three
                while size < n { size <<= 1 }
                best = min(best, size)
                three *= 3
            }
            five *= 5
        }
        return best
    }

    /// p_m for m in `lags` (1 ≤ lags.lowerBound; x holds lags.upperBound + w values, at most the
    /// size this was made for) into out[m − lags.lowerBound]; `norms[m − lags.lowerBound]` =
    /// Σ_{j<w} x_j²·Σ_{j<w} x_{m+j}², which decides where the transform's products are kept.
    public mutating func callAsFunction(_ x: UnsafeBufferPointer<Double>, window w: Int, lags: ClosedRange<Int>,
                                        norms: UnsafeBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>) {
        let count = lags.upperBound + w, size = fft.size
        precondition(w >= 1 && lags.lowerBound >= 1 && count <= x.count && count <= size && norms.count >= lags.count && out.count >= lags.count,
                     "lag products: lags \(lags) of a \(w)-value window in \(x.count) values, \(size)-point transform")
        var windowEnergy = 0.0, stretchEnergy = 0.0
        padded.withUnsafeMutableBufferPointer { a in
            stretch.withUnsafeMutableBufferPointer { s in
                for j in 0..<count {
                    let v = x[j]
                    s[j] = v
                    stretchEnergy += v * v
                }
                for j in count..<size { s[j] = 0 }
                for j in 0..<w {
                    a[j] = x[j]
                    windowEnergy += x[j] * x[j]
                }
                for j in w..<size { a[j] = 0 }
            }
        }
        padded.withUnsafeBufferPointer { a in windowSpectrum.withUnsafeMutableBufferPointer { fft.forward(a, into: $0) } }
        stretch.withUnsafeBufferPointer { s in stretchSpectrum.withUnsafeMutableBufferPointer { fft.forward(s, into: $0) } }
        // conj(A)·S into S.
        windowSpectrum.withUnsafeBufferPointer { a in
            stretchSpectrum.withUnsafeMutableBufferPointer { s in
                for k in 0..<fft.realBins {
                    let ar = a[2 * k], ai = a[2 * k + 1], sr = s[2 * k], si = s[2 * k + 1]
                    s[2 * k] = ar * sr + ai * si
                    s[2 * k + 1] = ar * si - ai * sr
                }
            }
        }
        stretchSpectrum.withUnsafeBufferPointer { s in products.withUnsafeMutableBufferPointer { fft.inverse(s, into: $0) } }
        let bound = 15 * log2(Double(size)).rounded(.up) * Double.ulpOfOne * (windowEnergy * stretchEnergy).squareRoot()
        let limit = bound / Self.tolerance, scale = 1 / Double(size)
        var direct: Int?
        func flush(upTo end: Int) {
            guard let first = direct else { return }
            Autocorrelation.lagProducts(x, window: w, lags: (lags.lowerBound + first)...(lags.lowerBound + end - 1),
                                        into: UnsafeMutableBufferPointer(rebasing: out[first..<end]))
            direct = nil
        }
        products.withUnsafeBufferPointer { p in
            for i in 0..<lags.count {
                // Kept where bound ≤ tolerance·√norm (a NaN or non-positive norm sums directly).
                if norms[i] > 0, limit * limit <= norms[i] {
                    flush(upTo: i)
                    out[i] = p[lags.lowerBound + i] * scale
                } else if direct == nil {
                    direct = i
                }
            }
        }
        flush(upTo: lags.count)
    }
}
