import InputGuards
/// Resampling of irregularly sampled series onto a uniform grid.
public enum Resampling {
    /// Linear interpolation of (time, value) onto t_k = t_0 + k/rate for t_k ≤ t_last.
    ///
    /// - Parameters:
    ///   - time: strictly increasing times, s.
    ///   - columns: value columns of the same length as `time`.
    ///   - maximumCount: the most grid points made; a span that would need more (timestamps far
    ///     apart, an absurd rate) gives empty columns instead of an allocation the data cannot justify.
    /// - Returns: the grid's start time and the resampled columns.
    public static func linear(time: [Double], columns: [[Double]], rateHz: Double,
                              maximumCount: Int = 1 << 27) -> (start: Double, columns: [[Double]]) {
        guard let first = time.first, let last = time.last, time.count >= 2, rateHz > 0,
              let span = Int(checking: (last - first) * rateHz, rounding: .down, in: 0...(maximumCount - 1))
        else {
            return (time.first ?? 0, columns.map { _ in [] })
        }
        let count = span + 1
        // Where each output time falls (left neighbour and weight), found once for all columns;
        // over unchecked buffers (j + 1 < time.count, left[k] + 1 < every column's count).
        precondition(columns.allSatisfy { $0.count == time.count }, "resampling: a column's length differs from the times'")
        let lastLeft = time.count - 2
        var weight: [Double] = []
        let left = [Int](unsafeUninitializedCapacity: count) { left, initialized in
            weight = [Double](unsafeUninitializedCapacity: count) { weight, weighed in
                time.withUnsafeBufferPointer { time in
                    var j = 0
                    for k in 0..<count {
                        let t = first + Double(k) / rateHz
                        while j < lastLeft, time[j + 1] < t { j += 1 }
                        let span = time[j + 1] - time[j]
                        left[k] = j
                        weight[k] = span > 0 ? min(max((t - time[j]) / span, 0), 1) : 0
                    }
                }
                weighed = count
            }
            initialized = count
        }
        let output = columns.map { column in
            [Double](unsafeUninitializedCapacity: count) { values, initialized in
                column.withUnsafeBufferPointer { column in left.withUnsafeBufferPointer { left in weight.withUnsafeBufferPointer { weight in
                    for k in 0..<count {
                        let j = left[k]
                        values[k] = column[j] + weight[k] * (column[j + 1] - column[j])
                    }
                } } }
                initialized = count
            }
        }
        return (first, output)
    }
}
