/// Local maxima with the criteria of SciPy's `signal.find_peaks` (prominence as defined by
/// topography: the peak's height above the higher of the two lowest points between it and the
/// nearest higher samples on either side).
public enum Peaks {
    /// Indices of strict local maxima (plateaus report their first sample) whose prominence is
    /// at least `minimumProminence`, thinned so that kept peaks are at least `minimumDistance`
    /// samples apart (higher peaks win, as `find_peaks(distance:)`).
    public static func find(_ x: [Double], minimumProminence: Double = 0, minimumDistance: Int = 1) -> [Int] {
        guard x.count >= 3 else { return [] }
        var candidates: [Int] = []
        x.withUnsafeBufferPointer { x in
            let lowest = lowestBeforeHigher(x)
            // Over unchecked buffers: every index read below is in 0..<x.count.
            var i = 1
            while i < x.count - 1 {
                if x[i] > x[i - 1] {
                    var j = i
                    while j + 1 < x.count, x[j + 1] == x[i] { j += 1 }
                    // The plateau's right base is its last sample's (the same minimum; the backward
                    // pass keeps only the samples where it rises).
                    if j + 1 < x.count, x[j + 1] < x[i], x[i] - max(lowest.left[i], lowest.right[j]) >= minimumProminence { candidates.append(i) }
                    i = j + 1
                } else {
                    i += 1
                }
            }
        }
        guard minimumDistance > 1, candidates.count > 1 else { return candidates }
        var keep = [Bool](repeating: true, count: candidates.count)
        for k in candidates.indices.sorted(by: { x[candidates[$0]] > x[candidates[$1]] }) where keep[k] {
            var left = k - 1
            while left >= 0, candidates[k] - candidates[left] < minimumDistance {
                keep[left] = false
                left -= 1
            }
            var right = k + 1
            while right < candidates.count, candidates[right] - candidates[k] < minimumDistance {
                keep[right] = false
                right += 1
            }
        }
        return candidates.indices.filter { keep[$0] }.map { candidates[$0] }
    }

    /// For every sample i where x rises, the lowest value from i back to (not including) the
    /// nearest earlier sample higher than x[i] (`left`; the start if none), and likewise forward
    /// where x rises going backwards (`right`): the two bases of i's prominence, which
    /// ``prominence(_:_:)`` finds by walking out from one peak. NaN where x does not rise (a
    /// sample no higher than the one before it in the pass's direction, both numbers): a peak
    /// rises on its left, and a plateau's right base is its last sample's. Here for all rising
    /// samples in two passes with a stack of the rising samples not yet passed by a higher one,
    /// each holding the lowest value between it and the one below it: O(n) in all where walking
    /// out from every peak is O(n) per peak (a long bout of similar steps walks to its ends for
    /// each of its highest peaks). A sample that does not rise is no higher than every sample
    /// back to the last one that did (the run between falls or stays), so a higher sample is
    /// never one of them: they only join the lowest value between (one comparison each, no
    /// stack traffic). A NaN rises and is never passed, as the walk stops at it.
    static func lowestBeforeHigher(_ x: UnsafeBufferPointer<Double>) -> (left: [Double], right: [Double]) {
        let n = x.count
        var right: [Double] = []
        let left = [Double](unsafeUninitializedCapacity: n) { left, initialized in
            right = [Double](unsafeUninitializedCapacity: n) { right, done in
                // The stack: at most n entries, in two preallocated buffers.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { indices in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: n) { lowestBetween in
                        pass(x, from: 0, step: 1, into: left, indices, lowestBetween)
                        pass(x, from: n - 1, step: -1, into: right, indices, lowestBetween)
                    }
                }
                done = n
            }
            initialized = n
        }
        return (left, right)
    }

    /// One direction of ``lowestBeforeHigher(_:)``: samples from, from + step, … (n of them).
    private static func pass(_ x: UnsafeBufferPointer<Double>, from start: Int, step: Int, into lowest: UnsafeMutableBufferPointer<Double>,
                             _ indices: UnsafeMutableBufferPointer<Int>, _ lowestBetween: UnsafeMutableBufferPointer<Double>) {
        var top = 0  // entries in the stack
        var run = Double.infinity  // the lowest value since the last rising sample (not rising themselves)
        var previous = Double.nan  // the first sample rises
        var i = start
        for _ in 0..<x.count {
            let value = x[i]
            if value <= previous {
                run = min(run, value)
                lowest[i] = .nan
            } else {
                var between = run  // the lowest value strictly between the nearest higher sample and i
                while top > 0, x[indices[top - 1]] <= value {
                    top -= 1
                    between = min(between, min(lowestBetween[top], x[indices[top]]))
                }
                lowest[i] = min(value, between)
                indices[top] = i
                lowestBetween[top] = between
                top += 1
                run = .infinity
            }
            previous = value
            i += step
        }
    }

    /// Topographic prominence of the sample at `peak`.
    public static func prominence(_ x: [Double], _ peak: Int) -> Double {
        precondition(x.indices.contains(peak), "prominence: \(peak) outside 0..<\(x.count)")
        let height = x[peak]
        var leftMin = height
        var i = peak - 1
        while i >= 0, x[i] <= height {
            leftMin = min(leftMin, x[i])
            i -= 1
        }
        var rightMin = height
        i = peak + 1
        while i < x.count, x[i] <= height {
            rightMin = min(rightMin, x[i])
            i += 1
        }
        return height - max(leftMin, rightMin)
    }

    /// Offset in (−0.5, 0.5) of the vertex of the parabola through (−1, a), (0, b), (1, c), and its
    /// value: sub-sample refinement of a peak at b.
    public static func parabolicVertex(_ a: Double, _ b: Double, _ c: Double) -> (offset: Double, value: Double) {
        let denominator = a - 2 * b + c
        guard denominator < 0 else { return (0, b) }
        let offset = min(max(0.5 * (a - c) / denominator, -0.5), 0.5)
        return (offset, b - 0.25 * (a - c) * offset)
    }
}
