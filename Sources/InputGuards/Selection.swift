/// Order statistics by selection instead of a full sort: Hoare's FIND (C. A. R. Hoare,
/// "Algorithm 65: FIND", Communications of the ACM 4(7), 1961) with median-of-three pivots and
/// Lomuto's partition written without a branch on the data (as in S. Edelkamp, A. Weiß,
/// "BlockQuicksort: avoiding branch mispredictions in quicksort", ESA 2016), and
/// after 2·log₂ n + 4 partition rounds a sort of what is left (D. R. Musser, "Introspective
/// sorting and selection algorithms", Software: Practice and Experience 27(8), 1997). Expected
/// O(n), worst case O(n log n) whatever the data's order.
///
/// A quantile from here is the value SignalProcessing's `Statistics.quantileOfSorted` gives for the sorted
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
            // The median of the first, middle and last value as the pivot, moved to the end.
            let mid = lo + (hi - lo) / 2
            if a[mid] < a[lo] { a.swapAt(mid, lo) }
            if a[hi] < a[lo] { a.swapAt(hi, lo) }
            if a[mid] < a[hi] { a.swapAt(hi, mid) }
            let pivot = a[hi]
            // Lomuto's partition without a branch on the data: a[lo..<store] < pivot ≤ a[store..<i].
            let p = a.baseAddress!
            var store = lo
            for i in lo..<hi {
                let value = p[i]
                p[i] = p[store]
                p[store] = value
                store &+= bit(value < pivot)
            }
            a.swapAt(store, hi)
            if store == lo {
                // The pivot is the smallest value: the values equal to it gathered after it, so
                // that many equal values cost one pass.
                var equal = lo + 1
                for i in lo + 1...hi {
                    let value = p[i]
                    p[i] = p[equal]
                    p[equal] = value
                    equal &+= bit(value == pivot)
                }
                if k < equal { return }
                lo = equal
            } else if k < store {
                hi = store - 1
            } else if k > store {
                lo = store + 1
            } else {
                return
            }
        }
    }

    /// Whether `a` holds a NaN: every value compared with itself, without a branch, so several at
    /// once in vector lanes (`contains(where: \.isNaN)` tests the bits of one value per step).
    public static func containsNaN(_ a: UnsafeBufferPointer<Double>) -> Bool {
        var count = 0
        for value in a { count &+= bit(value != value) }
        return count > 0
    }

    /// Type-7 quantiles (R's default; Hyndman & Fan 1996) of `a` at `probabilities`, reordering
    /// `a`. Ascending probabilities reuse the previous partitions; any order is correct. NaN for
    /// a probability outside [0, 1]; all NaN when `a` is empty or holds a NaN.
    public static func quantiles(_ a: UnsafeMutableBufferPointer<Double>, _ probabilities: [Double]) -> [Double] {
        let n = a.count
        guard n > 0, !containsNaN(UnsafeBufferPointer(a)) else { return probabilities.map { _ in .nan } }
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

    /// The value at index `k` of `values` sorted ascending (NaN-free values; of two equal zeros
    /// either sign), possibly reordering `values`.
    ///
    /// From 4,096 values on, by sampling first (R. W. Floyd and R. L. Rivest, "Expected time
    /// bounds for selection", Communications of the ACM 18(3), 1975): the order statistics of a
    /// seeded random sample of n^(3/4)/2 values bracket the wanted one, one branch-free pass
    /// counts the values below and at the bracket's ends and gathers those inside it, and
    /// ``select(_:_:in:)`` finishes on the few gathered. When the bracket misses (a chance its
    /// margin of three standard deviations makes small, or a NaN) or gathers too many, the whole
    /// array is selected as before: the same value either way, in the usual case one pass of
    /// four comparisons per value instead of Hoare's partitions and their mispredicted branches.
    public static func sortedElement(_ k: Int, of values: inout [Double]) -> Double {
        values.withUnsafeMutableBufferPointer { buffer in
            precondition(buffer.indices.contains(k), "sortedElement: \(k) outside 0..<\(buffer.count)")
            if buffer.count >= 4096, let value = sampledElement(k, of: UnsafeBufferPointer(buffer)) { return value }
            select(buffer, k, in: 0..<buffer.count)
            return buffer[k]
        }
    }

    /// The sampling path of ``sortedElement(_:of:)``; nil when its bracket misses or overflows.
    static func sampledElement(_ k: Int, of a: UnsafeBufferPointer<Double>) -> Double? {
        let n = a.count
        let sampleSize = Int(Double(n).squareRoot() * Double(n).squareRoot().squareRoot() / 2)  // n^(3/4) / 2: 256 at n = 4,096
        var random = SplitMix64(seed: 0x5E1E_C710)
        var sample = (0..<sampleSize).map { _ in a[Int(random.next() % UInt64(n))] }
        // The wanted rank within the sample, ± about 3 standard deviations of it.
        let rank = Int(Double(k) / Double(n) * Double(sampleSize))
        let margin = 3 * Int(Double(sampleSize).squareRoot()) + 2
        let (low, high) = sample.withUnsafeMutableBufferPointer { s -> (Double, Double) in
            let lower = max(0, rank - margin), upper = min(s.count - 1, rank + margin)
            select(s, lower, in: 0..<s.count)
            select(s, upper, in: lower..<s.count)
            return (s[lower], s[upper])
        }
        // Counted: the values below `low`, at most `low` and at most `high`; gathered: those
        // strictly between (ties with the bracket's ends, however many, are only counted). The
        // capacity is about 8 margins' share of n, 4 times what the bracket holds on average;
        // the extra slot takes each value before the test decides.
        let capacity = min(n, 8 * margin * (n / sampleSize) + 64)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: capacity + 1) { gathered -> Double? in
            var below = 0, atMostLow = 0, atMostHigh = 0, count = 0, start = 0
            while start < n {
                let end = min(n, start + capacity - count)  // the gathered cannot overflow within a block
                for i in start..<end {
                    let x = a[i]
                    below &+= bit(x < low)
                    atMostLow &+= bit(x <= low)
                    atMostHigh &+= bit(x <= high)
                    gathered[count] = x
                    count &+= bit(low < x) & bit(x < high)
                }
                start = end
                if count == capacity, start < n { return nil }
            }
            // One comparison at a time: with a NaN drawn, the counts need not be in order.
            if k < below { return nil }
            if k < atMostLow { return low }
            if k < atMostLow + count {
                let inside = UnsafeMutableBufferPointer(rebasing: gathered[0..<count])
                select(inside, k - atMostLow, in: 0..<count)
                return inside[k - atMostLow]
            }
            return k < atMostHigh ? high : nil  // beyond the bracket, or NaN among the values
        }
    }

    /// 1 for true, 0 for false, without a branch (a Bool is stored as 0 or 1).
    @inline(__always) static func bit(_ condition: Bool) -> Int { Int(unsafeBitCast(condition, to: UInt8.self)) }

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
