/// Σ_s |X_s(k)|² over segments x_s of at most `maximumLength` values, each zero-padded to `size`
/// points (X_s its `size`-point DFT), at the bins k in `bins`: a summed periodogram on a grid
/// finer than the segments (a Welch density before its scaling).
///
/// When 2·maximumLength − 1 fits a transform of half `size` or less, through the segments'
/// summed autocorrelation (Wiener–Khinchin): |X_s(k)|² is the `size`-point DFT of x_s's linear
/// autocorrelation r_s(m), m = −(L − 1)…(L − 1), so Σ_s |X_s(k)|² is the DFT of Σ_s r_s, and
/// Σ_s r_s comes from transforms of the shortest power of two M ≥ 2L − 1 (no circular overlap):
/// one M-point transform per segment, then one inverse and one `size`-point transform in all,
/// instead of one `size`-point transform per segment. The two routes agree to rounding
/// (`PaddedPeriodogramTests`: 1e−12 of the largest bin). Otherwise each segment is transformed
/// at `size` points, as the definition reads.
public struct PaddedPeriodogram {
    public let size: Int, maximumLength: Int
    public let bins: ClosedRange<Int>
    private let segmentFFT: FFT, paddedFFT: FFT
    private let viaAutocorrelation: Bool
    private var frame: [Double], spectrum: [Double]
    /// How many of the frame's first values the last segment wrote (the rest are zeros).
    private var written = 0
    /// Σ_s |X_s|² on the segment transform's bins (autocorrelation route) or on `bins` (direct).
    private var accumulated: [Double]
    public private(set) var segments = 0

    /// - Parameters:
    ///   - viaAutocorrelation: false forces the direct route (for comparing the two).
    public init(size: Int, maximumLength: Int, bins: ClosedRange<Int>, viaAutocorrelation: Bool = true) throws(FFTError) {
        precondition(maximumLength >= 1 && maximumLength <= size && bins.lowerBound >= 0 && bins.upperBound <= size / 2,
                     "padded periodogram: segments of \(maximumLength) values, bins \(bins), \(size) points")
        paddedFFT = try FFT(size: size)  // size ≤ Int32.max from here on: 2·maximumLength cannot overflow
        var short = 1
        while short < 2 * maximumLength - 1 { short <<= 1 }
        self.viaAutocorrelation = viaAutocorrelation && 2 * short <= size
        self.size = size
        self.maximumLength = maximumLength
        self.bins = bins
        segmentFFT = self.viaAutocorrelation ? try FFT(size: short) : paddedFFT
        frame = [Double](repeating: 0, count: segmentFFT.size)
        spectrum = [Double](repeating: 0, count: 2 * segmentFFT.realBins)
        accumulated = [Double](repeating: 0, count: self.viaAutocorrelation ? segmentFFT.realBins : bins.count)
    }

    /// Adds one segment: `count` ≤ maximumLength values, value i being `value(i)` (the caller's
    /// windowing, without a copy of its own).
    public mutating func add(count: Int, _ value: (Int) -> Double) {
        precondition(count >= 0 && count <= maximumLength, "padded periodogram: a segment of \(count) values, at most \(maximumLength)")
        frame.withUnsafeMutableBufferPointer { frame in for i in 0..<count { frame[i] = value(i) } }
        transformAndAdd(count: count)
    }

    /// ``add(count:_:)`` of values[i]·window[i] for i < window.count (one loop over the two
    /// buffers, which vectorises, where a closure is called per value).
    public mutating func add(_ values: UnsafePointer<Double>, window: UnsafeBufferPointer<Double>) {
        let count = window.count
        precondition(count <= maximumLength, "padded periodogram: a segment of \(count) values, at most \(maximumLength)")
        frame.withUnsafeMutableBufferPointer { frame in for i in 0..<count { frame[i] = values[i] * window[i] } }
        transformAndAdd(count: count)
    }

    /// Adds the segment in the frame's first `count` values.
    private mutating func transformAndAdd(count: Int) {
        let fft = segmentFFT, low = bins.lowerBound
        let limit = viaAutocorrelation ? 0...(fft.realBins - 1) : bins
        frame.withUnsafeMutableBufferPointer { frame in
            // Past `count` the frame holds zeros: those a longer segment before wrote are cleared.
            for i in count..<max(count, written) { frame[i] = 0 }
            spectrum.withUnsafeMutableBufferPointer { spectrum in
                fft.forward(UnsafeBufferPointer(frame), into: spectrum)
                accumulated.withUnsafeMutableBufferPointer { sums in
                    let offset = viaAutocorrelation ? 0 : low
                    for k in limit { sums[k - offset] += spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1] }
                }
            }
        }
        written = count
        segments += 1
    }

    /// Σ_s |X_s(k)|² for k in `bins`.
    public func sums() -> [Double] {
        guard viaAutocorrelation else { return accumulated }
        // Σ_s r_s(m) = IDFT_M(Σ_s |X_s^M|²)(m) / M, then laid out circularly on `size` points
        // (lags 0…L−1 at the start, −(L−1)…−1 at the end: 2L − 1 ≤ M ≤ size/2, so no overlap;
        // the lags past L − 1, zero but for rounding, are left out).
        let short = segmentFFT.size
        var complex = [Double](repeating: 0, count: 2 * segmentFFT.realBins)
        for k in accumulated.indices { complex[2 * k] = accumulated[k] }
        var lags = [Double](repeating: 0, count: short)
        complex.withUnsafeBufferPointer { c in lags.withUnsafeMutableBufferPointer { segmentFFT.inverse(c, into: $0) } }
        var folded = [Double](repeating: 0, count: size)
        for m in 0..<maximumLength {
            folded[m] = lags[m] / Double(short)
            if m > 0 { folded[size - m] = lags[short - m] / Double(short) }
        }
        let spectrum = paddedFFT.forward(folded)
        return bins.map { spectrum[2 * $0] }
    }
}
