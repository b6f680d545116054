import CKernels
import InputGuards
/// Descriptive statistics over contiguous Double data, with the definitions the peers use
/// (R 4.x and e1071 for the tapping features of docs/analyses.md §1.3). NaN in the input propagates
/// (as in R without `na.rm`); an empty input gives NaN.
public enum Statistics {
    /// Arithmetic mean.
    @inlinable
    public static func mean(_ x: UnsafeBufferPointer<Double>) -> Double {
        guard !x.isEmpty else { return .nan }
        var sum = 0.0
        for value in x { sum += value }
        return sum / Double(x.count)
    }

    /// Sample variance with n − 1 in the denominator (R `var`); NaN for n < 2.
    @inlinable
    public static func variance(_ x: UnsafeBufferPointer<Double>) -> Double {
        guard x.count >= 2 else { return .nan }
        let m = mean(x)
        var sum = 0.0
        for value in x { sum += (value - m) * (value - m) }
        return sum / Double(x.count - 1)
    }

    /// Sample standard deviation (R `sd`).
    @inlinable
    public static func standardDeviation(_ x: UnsafeBufferPointer<Double>) -> Double {
        variance(x).squareRoot()
    }

    /// Root mean square.
    @inlinable
    public static func rootMeanSquare(_ x: UnsafeBufferPointer<Double>) -> Double {
        guard !x.isEmpty else { return .nan }
        var sum = 0.0
        for value in x { sum += value * value }
        return (sum / Double(x.count)).squareRoot()
    }

    /// Writes x² of every value into `output` (at least as long as `x`) and returns their sum
    /// (sixteen partial sums; the C kernel `atk_square`).
    @inlinable
    public static func squares(of x: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>) -> Double {
        guard let input = x.baseAddress, !x.isEmpty else { return 0 }
        precondition(output.count >= x.count, "squares: output shorter than the input")
        return atk_square(input, output.baseAddress!, x.count)
    }

    /// ``squares(of:into:)`` of `a`, with ``sumOfSquares(_:)`` of `c` and `z` (each as long as
    /// `a`) in the same pass (the C kernel `atk_meter_squares`): the same bits as the three calls.
    /// `output` may be `a` itself or start before it in the same memory: each square is written
    /// after the values at and before its place were read.
    public static func squares(of a: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>,
                               summingSquaresOf c: UnsafeBufferPointer<Double>, _ z: UnsafeBufferPointer<Double>) -> (a: Double, c: Double, z: Double) {
        guard let input = a.baseAddress, !a.isEmpty else { return (0, 0, 0) }
        precondition(output.count >= a.count && c.count == a.count && z.count == a.count, "squares: buffers of unequal lengths")
        var sums = (0.0, 0.0, 0.0)
        withUnsafeMutableBytes(of: &sums) { atk_meter_squares(input, c.baseAddress!, z.baseAddress!, output.baseAddress!, a.count, $0.baseAddress!.assumingMemoryBound(to: Double.self)) }
        return (sums.0, sums.1, sums.2)
    }

    /// Copies channel `channel` of interleaved frames of `channels` into `output` (as long as
    /// the frames) and returns ``peakDeviation(_:from:)`` of what it copied, in one pass (the C
    /// kernel `atk_channel_peak`).
    public static func copyChannel(_ channel: Int, of interleaved: UnsafeBufferPointer<Double>, channels: Int,
                                   into output: UnsafeMutableBufferPointer<Double>) -> Double {
        precondition(channels >= 1 && (0..<channels).contains(channel) && interleaved.count == output.count * channels,
                     "copyChannel: the frames and the output disagree")
        guard let input = interleaved.baseAddress, !output.isEmpty else { return 0 }
        return atk_channel_peak(input, channels, channel, output.baseAddress!, output.count)
    }

    /// Σ x², in sixteen interleaved partial sums (the C kernel `atk_sum_of_squares`, in the order
    /// of ``squares(of:into:)``: the loop runs at the adder's throughput, not its latency; the
    /// result may differ from a left-to-right sum in the last bits). 0 for an empty input.
    public static func sumOfSquares(_ x: UnsafeBufferPointer<Double>) -> Double {
        guard let input = x.baseAddress, !x.isEmpty else { return 0 }
        return atk_sum_of_squares(input, x.count)
    }

    /// Σ x[i] (or Σ x[i]² when `squared`) over each frame [k·hop, k·hop + length) that fits in
    /// `x`, k = 0, 1, …. Each frame's sum is one chain in increasing i; eight frames run side by
    /// side in the lanes of a vector (independent chains: the same bits as one frame at a time,
    /// at the adder's throughput rather than its latency). Empty when length or hop is below 1.
    public static func frameSums(_ x: UnsafeBufferPointer<Double>, length: Int, hop: Int, squared: Bool = false) -> [Double] {
        guard length >= 1, hop >= 1, x.count >= length else { return [] }
        let count = (x.count - length) / hop + 1
        return frameSums(x, starts: (0..<count).map { $0 * hop }, length: length, squared: squared)
    }

    /// ``frameSums(_:length:hop:squared:)`` over the frames [s, s + length) of `starts` (each
    /// inside `x`), or with `centers` the sums of squared deviations Σ (x[i] − c)·(x[i] − c) of
    /// each frame from its center c (``variance(_:)``'s numerator when c is the frame's mean).
    public static func frameSums(_ x: UnsafeBufferPointer<Double>, starts: [Int], length: Int, squared: Bool = false,
                                 centers: [Double]? = nil) -> [Double] {
        precondition(starts.allSatisfy { $0 >= 0 && $0 <= x.count - length } && length >= 0, "frame sums: a frame outside the signal")
        precondition(centers.map { $0.count == starts.count } ?? true, "frame sums: one center per frame")
        let count = starts.count
        var sums = [Double](repeating: 0, count: count)
        guard length > 0, let base = x.baseAddress else { return sums }
        var f = 0
        while f < count {
            let lanes = min(8, count - f)
            // Lanes past the last frame repeat it and are not stored.
            func frame(_ lane: Int) -> UnsafePointer<Double> { base + starts[min(f + lane, f + lanes - 1)] }
            func center(_ lane: Int) -> Double { centers?[min(f + lane, f + lanes - 1)] ?? 0 }
            let (x0, x1, x2, x3, x4, x5, x6, x7) = (frame(0), frame(1), frame(2), frame(3), frame(4), frame(5), frame(6), frame(7))
            func values(_ i: Int) -> SIMD8<Double> { SIMD8(x0[i], x1[i], x2[i], x3[i], x4[i], x5[i], x6[i], x7[i]) }
            var sum = SIMD8<Double>.zero
            if centers != nil {
                let c = SIMD8(center(0), center(1), center(2), center(3), center(4), center(5), center(6), center(7))
                for i in 0..<length {
                    let d = values(i) - c
                    sum += d * d
                }
            } else if squared {
                for i in 0..<length {
                    let v = values(i)
                    sum += v * v
                }
            } else {
                for i in 0..<length { sum += values(i) }
            }
            for lane in 0..<lanes { sums[f + lane] = sum[lane] }
            f += lanes
        }
        return sums
    }

    /// Whether every value of `x` is finite: x·0 is ±0 for a finite x and NaN for ±∞ and NaN, so
    /// the sum of the products is 0 exactly when every value is finite (eight lanes at a time).
    public static func allFinite(_ x: UnsafeBufferPointer<Double>) -> Bool {
        var lanes = SIMD8<Double>.zero
        var i = 0
        if let base = x.baseAddress {
            while i + 8 <= x.count {
                lanes += UnsafeRawPointer(base + i).loadUnaligned(as: SIMD8<Double>.self) * 0
                i += 8
            }
        }
        var sum = lanes.sum()
        while i < x.count {
            sum += x[i] * 0
            i += 1
        }
        return sum == 0
    }

    /// max |x − center| over finite values (0 for an empty input), in four lanes: a maximum does
    /// not depend on the order, so this is exactly the one-at-a-time maximum, at the comparator's
    /// throughput rather than its latency. From 0, the largest |x| as ``copyChannel(_:of:channels:into:)``
    /// finds it, without the copy (the C kernel `atk_channel_peak`, at the processor's vector width).
    public static func peakDeviation(_ x: UnsafeBufferPointer<Double>, from center: Double = 0) -> Double {
        if center == 0, let input = x.baseAddress { return atk_channel_peak(input, 1, 0, nil, x.count) }
        var lanes = SIMD4<Double>.zero
        let centers = SIMD4(repeating: center)
        var i = 0
        while i + 4 <= x.count {
            let values = SIMD4(x[i], x[i + 1], x[i + 2], x[i + 3]) - centers
            let magnitudes = values.replacing(with: -values, where: values .< 0)
            lanes.replace(with: magnitudes, where: magnitudes .> lanes)
            i += 4
        }
        var peak = lanes.max()
        while i < x.count {
            peak = max(peak, abs(x[i] - center))
            i += 1
        }
        return peak
    }

    /// Quantile of type 7 (R's default; Hyndman & Fan, "Sample quantiles in statistical
    /// packages", Am. Stat. 50(4), 1996): h = (n − 1)p, linear between the order statistics.
    /// Found by selection (``Selection``), not a sort.
    public static func quantile(_ x: UnsafeBufferPointer<Double>, _ p: Double) -> Double {
        var scratch = Array(x)
        return Selection.quantiles(reordering: &scratch, [p])[0]
    }

    /// Type-7 quantile of already sorted data.
    public static func quantileOfSorted(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty, p >= 0, p <= 1 else { return .nan }
        let h = Double(sorted.count - 1) * p
        let lower = Int(clamping: h, rounding: .down, to: 0...(sorted.count - 1))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (h - Double(lower)) * (sorted[upper] - sorted[lower])
    }

    /// Median (type-7 quantile at 0.5).
    public static func median(_ x: UnsafeBufferPointer<Double>) -> Double {
        quantile(x, 0.5)
    }

    /// Median absolute deviation scaled by 1.4826 (R `mad`, consistent for the normal SD).
    public static func medianAbsoluteDeviation(_ x: UnsafeBufferPointer<Double>, scale: Double = 1.4826) -> Double {
        let center = median(x)
        let deviations = x.map { abs($0 - center) }
        return scale * deviations.withUnsafeBufferPointer { median($0) }
    }

    /// Skewness of type 3 (e1071 default; Joanes & Gill, "Comparing measures of sample skewness
    /// and kurtosis", The Statistician 47(1), 1998): b1 = m3 / s³ with s the n − 1 SD, i.e.
    /// g1·((n − 1)/n)^(3/2).
    public static func skewness(_ x: UnsafeBufferPointer<Double>) -> Double {
        let n = Double(x.count)
        guard x.count >= 2 else { return .nan }
        let m = mean(x)
        var m2 = 0.0, m3 = 0.0
        for value in x {
            let d = value - m
            m2 += d * d
            m3 += d * d * d
        }
        m2 /= n
        m3 /= n
        let g1 = m3 / (m2 * m2.squareRoot())
        let factor = (n - 1) / n
        return g1 * factor * factor.squareRoot()
    }

    /// Excess kurtosis of type 3 (e1071 default; Joanes & Gill 1998): b2 = m4 / s⁴ − 3 with s the
    /// n − 1 SD, i.e. (g2 + 3)·((n − 1)/n)² − 3.
    public static func kurtosis(_ x: UnsafeBufferPointer<Double>) -> Double {
        let n = Double(x.count)
        guard x.count >= 2 else { return .nan }
        let m = mean(x)
        var m2 = 0.0, m4 = 0.0
        for value in x {
            let d2 = (value - m) * (value - m)
            m2 += d2
            m4 += d2 * d2
        }
        m2 /= n
        m4 /= n
        let factor = (n - 1) / n
        return m4 / (m2 * m2) * factor * factor - 3
    }
}

extension Array where Element == Double {
    /// Runs a `Statistics` function over the array's storage.
    @inlinable
    public func statistic(_ body: (UnsafeBufferPointer<Double>) -> Double) -> Double {
        withUnsafeBufferPointer(body)
    }
}
