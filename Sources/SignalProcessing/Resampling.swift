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
    ///   - parallel: the grid's two halves on two threads (``Parallel``), the same values.
    /// - Returns: the grid's start time and the resampled columns.
    public static func linear(time: [Double], columns: [[Double]], rateHz: Double,
                              maximumCount: Int = 1 << 27, parallel: Bool = false) -> (start: Double, columns: [[Double]]) {
        guard let first = time.first, let last = time.last, time.count >= 2, rateHz > 0,
              let span = Int(checking: (last - first) * rateHz, rounding: .down, in: 0...(maximumCount - 1))
        else {
            return (time.first ?? 0, columns.map { _ in [] })
        }
        let count = span + 1, m = columns.count
        precondition(columns.allSatisfy { $0.count == time.count }, "resampling: a column's length differs from the times'")
        // One pass over the grid: each output time's left neighbour and weight, found once and
        // applied to every column at once (no arrays of neighbours and weights), over unchecked
        // buffers (j + 1 < time.count). The columns are opened and the outputs made
        // uninitialised one level of nesting each, so that the one loop can read and write all.
        return withUnsafeTemporaryAllocation(of: UnsafePointer<Double>.self, capacity: m) { inputs in
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Double>.self, capacity: m) { outputs in
                // The walk starts at the first source time; a later part of the grid starts from
                // its first time's left neighbour, the last source time before it (times
                // increase), as the walk from the start finds it.
                nonisolated(unsafe) let (inputs, outputs) = (inputs, outputs)
                @Sendable func fill(_ part: Range<Int>) {
                    time.withUnsafeBufferPointer { time in
                        let lastLeft = time.count - 2
                        var j = 0
                        if part.lowerBound > 0 {
                            let t0 = first + Double(part.lowerBound) / rateHz
                            var (low, high) = (1, time.count)  // the first i ≥ 1 with time[i] ≥ t0, or count
                            while low < high {
                                let middle = low + (high - low) / 2
                                if time[middle] < t0 { low = middle + 1 } else { high = middle }
                            }
                            j = min(lastLeft, low - 1)
                        }
                        for k in part {
                            let t = first + Double(k) / rateHz
                            // The walk's first two steps from two loads that do not wait on each
                            // other, without branches (a jittered source at about the grid's rate
                            // steps 0, 1 or 2 at random, which no branch predicts), then the loop
                            // for the rest: the same j as the loop alone.
                            let one = (time[j + 1] < t ? 1 : 0) & (j < lastLeft ? 1 : 0)
                            j += one + (one & (time[min(j + 2, lastLeft + 1)] < t ? 1 : 0) & (j + 1 < lastLeft ? 1 : 0))
                            while j < lastLeft, time[j + 1] < t { j += 1 }
                            let span = time[j + 1] - time[j]
                            let weight = span > 0 ? min(max((t - time[j]) / span, 0), 1) : 0
                            for c in 0..<m {
                                let x = inputs[c]
                                outputs[c][k] = x[j] + weight * (x[j + 1] - x[j])
                            }
                        }
                    }
                }
                func build(_ index: Int) -> [[Double]] {
                    guard index < m else {
                        let half = count / 2
                        if parallel && half > 0 {
                            _ = Parallel.map(2, parallel: true) { fill($0 == 0 ? 0..<half : half..<count) }
                        } else {
                            fill(0..<count)
                        }
                        return []
                    }
                    var rest: [[Double]] = []
                    let column = columns[index].withUnsafeBufferPointer { input in
                        [Double](unsafeUninitializedCapacity: count) { values, initialized in
                            inputs[index] = input.baseAddress!
                            outputs[index] = values.baseAddress!
                            rest = build(index + 1)
                            initialized = count
                        }
                    }
                    return [column] + rest
                }
                return (first, build(0))
            }
        }
    }
}
