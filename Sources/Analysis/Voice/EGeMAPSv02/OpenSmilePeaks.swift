/// openSMILE 2.6.0's peak functional "Peaks2" with eGeMAPSv02's settings (relative threshold 0.1
/// of the contour's range, slopes per second), as its output shows it: reconstructed by
/// black-box comparison (the positions its debug output lists, and its slope statistics) on
/// synthetic contours and on the loudness contours of the corpus
/// (`Benchmarks/peers/opensmile_reference.py`; agreement in docs/accuracy.md).
///
/// Extrema are the strict local maxima and minima x[i−1] < x[i] > x[i+1] (and the reverse) at
/// 2 ≤ i ≤ n − 3. They are kept in one pass, with θ = 0.1·(max − min):
/// - the first is kept when it lies at least θ from x[0], or θ beyond the opposite extreme of
///   the extrema before it (a maximum θ above the lowest value so far, a minimum θ below the
///   highest);
/// - a maximum after a kept minimum is kept when it rises θ above the previous extremum (a
///   minimum); otherwise, when it exceeds the maximum kept before that minimum by 5 %, it
///   replaces that maximum and the minimum is dropped; otherwise it is kept when it rises θ above
///   the reference minimum (below);
/// - a maximum after a kept maximum replaces it when 5 % higher, or when it rises θ above the
///   previous extremum or the reference minimum;
/// - a minimum after a kept maximum is kept when θ below it; after a kept minimum it replaces it
///   when lower. A kept first minimum θ below x[0], and any minimum θ below the extremum before
///   it, becomes the reference minimum (a kept or replaced maximum clears it);
/// - a first kept minimum less than θ below x[0] is dropped at the end.
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
        var kept: [(index: Int, isMaximum: Bool)] = []
        var lowest = x[0], highest = x[0]
        var previous: (value: Double, isMaximum: Bool)? = nil
        var reference: Double? = nil
        for i in 2..<(n - 2) {
            let isMaximum: Bool
            if x[i - 1] < x[i], x[i] > x[i + 1] { isMaximum = true } else if x[i - 1] > x[i], x[i] < x[i + 1] { isMaximum = false } else { continue }
            let v = x[i]
            defer { previous = (v, isMaximum) }
            guard let last = kept.last else {
                let beyond = isMaximum ? v - lowest : highest - v
                if abs(v - x[0]) >= theta || beyond >= theta {
                    kept.append((i, isMaximum))
                    reference = !isMaximum && x[0] - v >= theta ? v : nil
                }
                lowest = min(lowest, v); highest = max(highest, v)
                continue
            }
            let lastValue = x[last.index]
            if isMaximum {
                let risesFromPrevious = previous.map { !$0.isMaximum && v - $0.value >= theta } ?? false
                let risesFromReference = reference.map { v - $0 >= theta } ?? false
                if !last.isMaximum {
                    if risesFromPrevious {
                        kept.append((i, true)); reference = nil
                    } else if kept.count >= 2, v > 1.05 * x[kept[kept.count - 2].index] {
                        kept.removeLast(); kept[kept.count - 1] = (i, true); reference = nil
                    } else if risesFromReference {
                        kept.append((i, true)); reference = nil
                    }
                } else if v > 1.05 * lastValue || risesFromPrevious || risesFromReference {
                    kept[kept.count - 1] = (i, true); reference = nil
                }
            } else {
                let falls = previous.map { $0.isMaximum && $0.value - v >= theta } ?? false
                if last.isMaximum {
                    if lastValue - v >= theta { kept.append((i, false)) }
                    if falls { reference = v }
                } else {
                    if v < lastValue { kept[kept.count - 1] = (i, false) }
                    if falls { reference = v }
                }
            }
        }
        if let first = kept.first, !first.isMaximum, x[0] - x[first.index] < theta { kept.removeFirst() }
        return kept
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
        func statistics(_ slopes: [(Double, Bool)]) -> (Double, Double) {
            guard !slopes.isEmpty else { return (0, 0) }
            let mean = slopes.reduce(0) { $0 + $1.0 } / Double(slopes.count)
            let squares = slopes.reduce(0) { $1.1 ? $0 + ($1.0 - mean) * ($1.0 - mean) : $0 }
            return (mean, (squares / Double(slopes.count)).squareRoot())
        }
        (meanRisingSlope, stddevRisingSlope) = statistics(rising)
        (meanFallingSlope, stddevFallingSlope) = statistics(falling)
    }
}
