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
        var i = 1
        while i < x.count - 1 {
            if x[i] > x[i - 1] {
                var j = i
                while j + 1 < x.count, x[j + 1] == x[i] { j += 1 }
                if j + 1 < x.count, x[j + 1] < x[i] { candidates.append(i) }
                i = j + 1
            } else {
                i += 1
            }
        }
        candidates = candidates.filter { prominence(x, $0) >= minimumProminence }
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

    /// Topographic prominence of the sample at `peak`.
    public static func prominence(_ x: [Double], _ peak: Int) -> Double {
        var leftMin = x[peak]
        var i = peak - 1
        while i >= 0, x[i] <= x[peak] {
            leftMin = min(leftMin, x[i])
            i -= 1
        }
        var rightMin = x[peak]
        i = peak + 1
        while i < x.count, x[i] <= x[peak] {
            rightMin = min(rightMin, x[i])
            i += 1
        }
        return x[peak] - max(leftMin, rightMin)
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
