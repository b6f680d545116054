/// openSMILE 2.6.0's peak functional "Peaks2" with eGeMAPSv02's settings (relative threshold 0.1
/// of the contour's range, slopes per second), rules as its published source has them
/// (cFunctionalPeaks2; agreement with its output in docs/accuracy.md). With θ = 0.1·(max − min)
/// and "small" meaning a difference below θ:
///
/// 1. the extrema: strict local maxima and minima x[i−1] < x[i] > x[i+1] (and the reverse) at
///    2 ≤ i ≤ n − 3, in order;
/// 2. in one pass, each compared with the extremum before it in the full list of step 1 (x[0]
///    for the first): a maximum a small step from it is dropped when also small above the last
///    minimum kept so far (x[0] at first); otherwise, if more than 5 % above the last kept
///    maximum (x[0] at first), that maximum is dropped and this one kept; otherwise kept only when
///    a minimum came since the last maximum not dropped by the first rule; a maximum a large step
///    from it is kept. A minimum a large step from it becomes the last minimum (none is dropped
///    here);
/// 3. a minimum less than θ below the maximum kept before it (x[0] at first) is dropped;
/// 4. of consecutive maxima the highest stays (the earlier at equal height), of consecutive
///    minima the lowest.
///
/// Rising slopes run from x[0] (or a kept minimum) to the next kept maximum, falling slopes from
/// a kept maximum (or x[0]) to the next kept minimum, as (later − earlier)/Δt for rises and
/// (earlier − later)/Δt for falls, Δt in seconds; the last extremum's segment to the end of the
/// contour is (x[n−1] − x[last])/Δt on either side, and it counts in the mean but not in the sum
/// of squares of the standard deviation (which divides by the number of slopes). A contour with
/// no kept extremum has one slope (x[n−1] − x[0])/n — per frame — rising if positive, falling if
/// negative.
struct OpenSmilePeaks: Sendable, Hashable {
    /// Kept peaks per second.
    var peaksPerSecond: Double
    var meanRisingSlope: Double
    var stddevRisingSlope: Double
    var meanFallingSlope: Double
    var stddevFallingSlope: Double

    /// Kept extrema: index and whether a maximum.
    static func extrema(_ x: [Double], relativeThreshold: Double = 0.1) -> [(index: Int, isMaximum: Bool)] {
        let n = x.count
        guard n >= 5, let top = x.max(), let bottom = x.min() else { return [] }
        let theta = relativeThreshold * (top - bottom)
        var list: [(index: Int, isMaximum: Bool)] = []
        for i in 2..<(n - 2) {
            if x[i] > x[i - 1], x[i] > x[i + 1] { list.append((i, true)) } else if x[i] < x[i - 1], x[i] < x[i + 1] { list.append((i, false)) }
        }
        var kept = [Bool](repeating: true, count: list.count)
        // Step 2: small steps.
        var previous = x[0], lastMinimum = x[0], lastMaximum = x[0], lastMaximumAt: Int? = nil, minimumSince = false
        for (k, extremum) in list.enumerated() {
            let v = x[extremum.index]
            defer { previous = v }
            if extremum.isMaximum {
                if abs(v - previous) >= theta {
                    (lastMaximum, lastMaximumAt) = (v, k)
                } else if v - lastMinimum < theta {
                    kept[k] = false
                    continue  // the flags stay
                } else if v > lastMaximum * 1.05 {
                    if let at = lastMaximumAt { kept[at] = false }
                    (lastMaximum, lastMaximumAt) = (v, k)
                } else if minimumSince {
                    (lastMaximum, lastMaximumAt) = (v, k)
                } else {
                    kept[k] = false
                }
                minimumSince = false
            } else if abs(v - previous) >= theta {
                lastMinimum = v
                minimumSince = true
            }
        }
        // Step 3: shallow minima.
        var maximum = x[0]
        for (k, extremum) in list.enumerated() where kept[k] {
            if extremum.isMaximum { maximum = x[extremum.index] } else if maximum - x[extremum.index] < theta { kept[k] = false }
        }
        // Step 4: alternation.
        var result: [(index: Int, isMaximum: Bool)] = []
        for (k, extremum) in list.enumerated() where kept[k] {
            guard let last = result.last, last.isMaximum == extremum.isMaximum else {
                result.append(extremum)
                continue
            }
            let v = x[extremum.index], w = x[last.index]
            if extremum.isMaximum ? v > w : v < w { result[result.count - 1] = extremum }
        }
        return result
    }

    /// The functional of a contour sampled every `periodSeconds`; nil for an empty contour.
    init?(_ x: [Double], periodSeconds: Double, relativeThreshold: Double = 0.1) {
        guard let lastValue = x.last, let firstValue = x.first else { return nil }
        let n = x.count, kept = Self.extrema(x, relativeThreshold: relativeThreshold)
        peaksPerSecond = Double(kept.filter(\.isMaximum).count) / (Double(n) * periodSeconds)
        guard let first = kept.first, let last = kept.last else {
            let slope = (lastValue - firstValue) / Double(n)
            (meanRisingSlope, stddevRisingSlope) = (max(slope, 0), 0)
            (meanFallingSlope, stddevFallingSlope) = (min(slope, 0), 0)
            return
        }
        // (slope, counted in the sum of squares)
        var rising: [(Double, Bool)] = [], falling: [(Double, Bool)] = []
        func seconds(_ from: Int, _ to: Int) -> Double { Double(to - from) * periodSeconds }
        if first.isMaximum {
            rising.append(((x[first.index] - firstValue) / seconds(0, first.index), true))
        } else {
            falling.append(((firstValue - x[first.index]) / seconds(0, first.index), true))
        }
        for (a, b) in zip(kept, kept.dropFirst()) {
            if a.isMaximum {
                falling.append(((x[a.index] - x[b.index]) / seconds(a.index, b.index), true))
            } else {
                rising.append(((x[b.index] - x[a.index]) / seconds(a.index, b.index), true))
            }
        }
        let end = ((lastValue - x[last.index]) / seconds(last.index, n - 1), false)
        if last.isMaximum { falling.append(end) } else { rising.append(end) }
        // Neither list is empty: the first extremum's slope and the end's lie on opposite sides
        // when both extrema are of one kind, and a pair between them adds the other side when not.
        func statistics(_ slopes: [(Double, Bool)]) -> (Double, Double) {
            let mean = slopes.reduce(0) { $0 + $1.0 } / Double(slopes.count)
            let squares = slopes.reduce(0) { $1.1 ? $0 + ($1.0 - mean) * ($1.0 - mean) : $0 }
            return (mean, (squares / Double(slopes.count)).squareRoot())
        }
        (meanRisingSlope, stddevRisingSlope) = statistics(rising)
        (meanFallingSlope, stddevFallingSlope) = statistics(falling)
    }
}
