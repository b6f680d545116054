import Glibc
import InputGuards
import SignalProcessing

/// The numerics of the cepstral peak (Praat 6.1.38 LPC/PowerCepstrum.cpp): the averaging taps
/// laid out for vector lanes, ln q, decibels, the trend's bins and Theil's robust fit, the median,
/// the interpolated maximum.
extension PraatCepstralAnalysis {
    /// Per bin the weights of a window on consecutive values (``InterpolatedMean/taps``), laid
    /// out flat: bin j's sum is Σ_k weights[k]·y[first + k], k ascending from 0 (NaN for a window
    /// with no taps). Four bins whose windows have as many taps and start at consecutive values
    /// (every bin but the edges) run side by side in the lanes of a vector, their weights
    /// interleaved once here: each lane's sum in its own order, the same bits as one bin at a time.
    struct TapTable: Sendable {
        /// 0-based index of each bin's first value; -1 for a bin whose mean is NaN.
        let first: [Int]
        let count: [Int]
        /// Where each bin's weights start in `weights`.
        let offset: [Int]
        let weights: [Double]
        /// Per group of four bins from 4·g: where its interleaved weights start in `lanes`, or -1
        /// when its bins are not side by side as above.
        let group: [Int]
        let lanes: [SIMD4<Double>]

        init(_ taps: [InterpolatedMean.Taps?]) {
            first = taps.map { $0.map { $0.first - 1 } ?? -1 }
            count = taps.map { $0?.weights.count ?? 0 }
            var start = 0
            offset = count.map { c in defer { start += c }; return start }
            weights = taps.flatMap { $0?.weights ?? [] }
            var lanes: [SIMD4<Double>] = []
            group = stride(from: 0, to: taps.count / 4 * 4, by: 4).map { j in
                guard let base = taps[j], !base.weights.isEmpty,
                      (1..<4).allSatisfy({ l in taps[j + l].map { $0.first == base.first + l && $0.weights.count == base.weights.count } ?? false })
                else { return -1 }
                defer { lanes += base.weights.indices.map { k in SIMD4((0..<4).map { taps[j + $0]!.weights[k] }) } }
                return lanes.count
            }
            self.lanes = lanes
        }

        func apply(_ y: UnsafeBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>) {
            let bins = first.count
            precondition(out.count >= bins, "tap table: output shorter than the bins")
            first.withUnsafeBufferPointer { first in
                count.withUnsafeBufferPointer { count in
                    offset.withUnsafeBufferPointer { offset in
                        weights.withUnsafeBufferPointer { weights in
                            lanes.withUnsafeBufferPointer { lanes in
                                var j = 0
                                while j < bins {
                                    if j + 4 <= bins, group[j / 4] >= 0 {
                                        let f = first[j], o = group[j / 4]
                                        precondition(f >= 0 && f + count[j] + 3 <= y.count, "tap table: window outside the values")
                                        var sum = SIMD4<Double>.zero
                                        for k in 0..<count[j] {
                                            sum += lanes[o + k] * UnsafeRawPointer(y.baseAddress! + f + k).loadUnaligned(as: SIMD4<Double>.self)
                                        }
                                        for l in 0..<4 { out[j + l] = sum[l] }
                                        j += 4
                                        continue
                                    }
                                    if first[j] < 0 {
                                        out[j] = .nan
                                    } else {
                                        var sum = 0.0
                                        for k in 0..<count[j] { sum += weights[offset[j] + k] * y[first[j] + k] }
                                        out[j] = sum
                                    }
                                    j += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// ln(k·dq), from a table for the usual quefrency step (the same value log gives).
    static func logQuefrency(_ k: Int, _ dq: Double) -> Double {
        dq == LogTable.step && k < LogTable.values.count ? LogTable.values[k] : log(Double(k) * dq)
    }

    /// ln(k·dq) for the cepstrogram of the default settings (1024-point frames at 10 kHz).
    enum LogTable {
        static let step = (0.5 * 1024 / 10_000.0) / 512
        static let values = (0..<513).map { log(Double($0) * step) }
    }

    /// 10·lg(power + 10⁻³⁰) of every value of `power` into `levels` (``VectorMath/log10(_:)``).
    static func decibels(_ power: UnsafeBufferPointer<Double>, into levels: UnsafeMutableBufferPointer<Double>) {
        precondition(levels.count >= power.count, "decibels: output shorter than the values")
        for j in power.indices { levels[j] = power[j] + 1e-30 }
        VectorMath.log10(UnsafeMutableBufferPointer(rebasing: levels[..<power.count]))
        for j in power.indices { levels[j] *= 10 }
    }

    /// The bins (0-based) PowerCepstrum_fitTrendLine fits of a cepstrum of `count` bins: those
    /// with q in [from, to], bin 0 left out (ln 0); nil when fewer than two.
    static func trendBins(count: Int, dq: Double, from: Double, to: Double) -> ClosedRange<Int>? {
        var first = 1 + Int(clamping: (from / dq).rounded(.up), to: -1...Int.max - 2)
        var last = 1 + Int(clamping: (to / dq).rounded(.down), to: -1...Int.max - 2)
        first = max(first, 1)
        last = min(last, count)
        guard first <= last else { return nil }
        if first == 1 { first = 2 }
        guard last - first + 1 > 1 else { return nil }
        return (first - 1)...(last - 1)
    }

    /// NUMlineFit_theil, incomplete: the median of the slopes between point i and point i + ⌈n/2⌉,
    /// then the median of y − slope·x (Praat's NUMquantile at ½ of the sorted values, its two
    /// order statistics found by selection, not a sort: the same values); `scratch` holds at
    /// least 2n values.
    static func theil(_ x: UnsafeBufferPointer<Double>, _ y: UnsafeBufferPointer<Double>, scratch: UnsafeMutableBufferPointer<Double>) -> (Double, Double) {
        let n = x.count
        precondition(y.count == n && scratch.count >= 2 * n, "theil: \(n) points, \(y.count) values, \(scratch.count) of scratch")
        if n == 1 { return (0, y[0]) }
        if n == 2 {
            let m = (y[1] - y[0]) / (x[1] - x[0])
            return (m, y[0] - m * x[0])
        }
        let pairs = n / 2, offset = n % 2 == 1 ? pairs + 1 : pairs
        for i in 0..<pairs { scratch[i] = (y[offset + i] - y[i]) / (x[offset + i] - x[i]) }
        let m = median(UnsafeMutableBufferPointer(rebasing: scratch[..<pairs]), scratch: UnsafeMutableBufferPointer(rebasing: scratch[n...]))
        for i in 0..<n { scratch[i] = y[i] - m * x[i] }
        return (m, median(UnsafeMutableBufferPointer(rebasing: scratch[..<n]), scratch: UnsafeMutableBufferPointer(rebasing: scratch[n...])))
    }

    /// Praat's NUMquantile(a, ½) of `a` sorted ascending: place = n/2 + ½, linear between the
    /// order statistics at ⌊place⌋ and ⌊place⌋ + 1 (1-based) — found by selection
    /// (``OrderStatistics/adjacent(_:_:scratch:)``), overwriting `a`; `scratch` holds at least n
    /// values. NaN when `a` holds a NaN (Praat's sort leaves such an order unspecified too).
    static func median(_ b: UnsafeMutableBufferPointer<Double>, scratch: UnsafeMutableBufferPointer<Double>) -> Double {
        let n = b.count
        guard n > 1 else { return b.first ?? 0 }
        guard !Selection.containsNaN(UnsafeBufferPointer(b)) else { return .nan }
        let place = 0.5 * Double(n) + 0.5
        // ⌊place⌋ = ⌊(n + 1)/2⌋, in 1…n − 1 for n ≥ 2: no conversion from Double needed.
        let left = (n + 1) / 2
        let (low, high) = OrderStatistics.adjacent(b, left - 1, scratch: scratch)
        if high == low { return low }
        return low + (place - Double(left)) * (high - low)
    }

    /// Vector_getMaximumAndX with parabolic interpolation over the samples whose x = (i − 1)·dx
    /// lies in [from, to]: the larger end value or the highest interpolated local maximum, and
    /// its x clipped to the range.
    static func maximum(_ y: UnsafeBufferPointer<Double>, dx: Double, from: Double, to: Double) -> (Double, Double)? {
        let n = y.count
        var low = 1 + Int(clamping: (from / dx).rounded(.up), to: -1...Int.max - 2)
        var high = 1 + Int(clamping: (to / dx).rounded(.down), to: -1...Int.max - 2)
        low = max(low, 1)
        high = min(high, n)
        guard low <= high else { return nil }
        var best = y[low - 1], place = Double(low)
        if y[high - 1] > best { best = y[high - 1]; place = Double(high) }
        if low == 1 { low += 1 }
        if high == n { high -= 1 }
        if low <= high {
            for i in low...high where y[i - 1] > y[i - 2] && y[i - 1] >= y[i] {
                let dy = 0.5 * (y[i] - y[i - 2])
                let d2y = 2 * y[i - 1] - y[i - 2] - y[i]
                let value = y[i - 1] + 0.5 * dy * dy / d2y
                if value > best {
                    best = value
                    place = Double(i) + dy / d2y
                }
            }
        }
        return (best, min(max((place - 1) * dx, from), to))
    }
}
