/// Order statistics by selection instead of a full sort: Hoare's FIND (C. A. R. Hoare,
/// "Algorithm 65: FIND", Communications of the ACM 4(7), 1961) with median-of-three pivots, and
/// after 2·log₂ n + 4 partition rounds a sort of what is left (D. R. Musser, "Introspective
/// sorting and selection algorithms", Software: Practice and Experience 27(8), 1997). Expected
/// O(n), worst case O(n log n) whatever the data's order.
///
/// A quantile from here is the value ``Statistics/quantileOfSorted(_:_:)`` gives for the sorted
/// data, bit for bit: the same two order statistics and the same interpolation.
public enum Selection {
    /// Reorders `a[range]` so that `a[k]` holds the value a sort of `a[range]` would put there,
    /// with no larger value before it and no smaller one after it (within `range`). The values
    /// must not be NaN (the order is then unspecified, but every index stays in `range`).
    public static func select(_ a: UnsafeMutableBufferPointer<Double>, _ k: Int, in range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= a.count && range.contains(k), "select: \(k) outside \(range)")
        var lo = range.lowerBound
        var hi = range.upperBound - 1
        var rounds = 2 * (Int.bitWidth - range.count.leadingZeroBitCount) + 4
        while hi > lo {
            if hi - lo < 16 || rounds == 0 {
                var rest = UnsafeMutableBufferPointer(rebasing: a[lo...hi])
                rest.sort()
                return
            }
            rounds -= 1
            let mid = lo + (hi - lo) / 2
            if a[mid] < a[lo] { a.swapAt(mid, lo) }
            if a[hi] < a[lo] { a.swapAt(hi, lo) }
            if a[hi] < a[mid] { a.swapAt(hi, mid) }
            let pivot = a[mid]
            var i = lo
            var j = hi
            while true {
                while i < hi, a[i] < pivot { i += 1 }
                while j > lo, a[j] > pivot { j -= 1 }
                if i >= j { break }
                a.swapAt(i, j)
                i += 1
                j -= 1
            }
            if i == j {  // a[i] equals the pivot: its final place
                i += 1
                j -= 1
            }
            // a[lo...j] ≤ pivot, a[j+1..<i] = pivot, a[i...hi] ≥ pivot.
            if k <= j {
                hi = j
            } else if k >= i {
                lo = i
            } else {
                return
            }
        }
    }

    /// Type-7 quantiles (R's default; Hyndman & Fan 1996) of `a` at `probabilities`, reordering
    /// `a`. Ascending probabilities reuse the previous partitions; any order is correct. NaN for
    /// a probability outside [0, 1]; all NaN when `a` is empty or holds a NaN.
    public static func quantiles(_ a: UnsafeMutableBufferPointer<Double>, _ probabilities: [Double]) -> [Double] {
        let n = a.count
        guard n > 0, !a.contains(where: \.isNaN) else { return probabilities.map { _ in .nan } }
        var start = 0  // a[..<start] holds no value above a[start]
        return probabilities.map { p in
            guard p >= 0, p <= 1 else { return .nan }
            let h = Double(n - 1) * p
            let lower = Int(clamping: h, rounding: .down, to: 0...(n - 1))
            if lower < start { start = 0 }
            select(a, lower, in: start..<n)
            start = lower
            var upper = a[lower]
            if lower + 1 < n {
                upper = a[lower + 1]
                for index in (lower + 2)..<n where a[index] < upper { upper = a[index] }
            }
            return a[lower] + (h - Double(lower)) * (upper - a[lower])
        }
    }

    /// The value at index `k` of `values` sorted ascending (NaN-free values), reordering `values`.
    public static func sortedElement(_ k: Int, of values: inout [Double]) -> Double {
        values.withUnsafeMutableBufferPointer { buffer in
            select(buffer, k, in: 0..<buffer.count)
            return buffer[k]
        }
    }

    /// Type-7 quantiles of `values`, which are left as they are (a copy is reordered).
    public static func quantiles(of values: [Double], _ probabilities: [Double]) -> [Double] {
        var scratch = values
        return quantiles(reordering: &scratch, probabilities)
    }

    /// Type-7 quantiles of `values`, reordering them.
    public static func quantiles(reordering values: inout [Double], _ probabilities: [Double]) -> [Double] {
        values.withUnsafeMutableBufferPointer { quantiles($0, probabilities) }
    }
}
