/// Empirical mode decomposition (Huang et al., "The empirical mode decomposition and the Hilbert
/// spectrum for nonlinear and non-stationary time series analysis", Proc. R. Soc. Lond. A 454,
/// 1998) as the R package EMD 1.5.9 computes it with the defaults mhealthtools uses
/// (`emd(x, t, max.imf = k)`: periodic boundary, FMM-spline envelopes, stop rule "type1" — every
/// |mean envelope| below tol = sd(x)·0.1² — or 20 sifts). The first sift of each IMF extends the
/// extrema by four mirrored wave periods at either end; later sifts extend the signal
/// periodically (docs/analyses.md §7.3).
enum EmpiricalModeDecomposition {
    /// Local extrema of `y`: plateaus as (first, last) index, minima and maxima in order, and
    /// their count (EMD's `extrema`; sign changes of the non-zero differences).
    struct Extrema {
        var minima: [Int] = []
        var maxima: [Int] = []
        var count = 0
    }

    static func extrema(_ y: ArraySlice<Double>) -> Extrema {
        y.withContiguousStorageIfAvailable { y in
            guard y.count >= 2 else { return Extrema() }
            return turns(y) ?? scannedExtrema(y)
        } ?? Extrema()
    }

    /// ``extrema(_:)`` in one pass, nil when a difference is NaN. Without NaN a plateau ends
    /// where the first difference of the new sign starts: the values after it move away from the
    /// plateau's up to the next turn, so none equals it (``scannedExtrema(_:)`` looks for one).
    /// The turns alternate between maxima and minima, the first of the kind of the first
    /// non-zero difference. Every step writes the candidate turn and counts it only when it is
    /// one, in integer arithmetic without a branch (noise makes the turns unpredictable: a
    /// branch on them was most of the time of `score gait` on a 13-minute walk).
    private static func turns(_ y: UnsafeBufferPointer<Double>) -> Extrema? {
        let n = y.count
        // Not zeroed: the turns counted are written before they are read.
        var firsts = [Int](unsafeUninitializedCapacity: n) { $1 = n }, lasts = [Int](unsafeUninitializedCapacity: n) { $1 = n }
        var count = 0, firstSign = 0, unordered = 0
        firsts.withUnsafeMutableBufferPointer { firsts in
            lasts.withUnsafeMutableBufferPointer { lasts in
                // The sign of the last non-zero difference (0: none yet) and the sample after it.
                var previousSign = 0, previousEnd = 0
                for k in 0..<(n - 1) {
                    // The difference's sign from its bits (comparisons of doubles became branches).
                    let bits = (y[k + 1] - y[k]).bitPattern
                    let magnitude = bits & 0x7FFF_FFFF_FFFF_FFFF
                    unordered |= magnitude > 0x7FF0_0000_0000_0000 ? 1 : 0
                    let nonZero = magnitude != 0 ? 1 : 0, negative = Int(truncatingIfNeeded: bits >> 63)
                    let sign = nonZero &- 2 &* (nonZero & negative)
                    let changed = sign != previousSign ? 1 : 0, seen = previousSign != 0 ? 1 : 0
                    firsts[count] = previousEnd
                    lasts[count] = k
                    count &+= nonZero & seen & changed
                    // All ones where the difference is zero: the previous sign and end are kept.
                    let keep = nonZero &- 1
                    firstSign |= sign & (seen &- 1)
                    previousSign = sign | (previousSign & keep)
                    previousEnd = ((k + 1) & ~keep) | (previousEnd & keep)
                }
            }
        }
        guard unordered == 0 else { return nil }
        // Each kind has at most ⌈count / 2⌉ turns of two samples: count + 1 places.
        var minima: [Int] = []
        let maxima = [Int](unsafeUninitializedCapacity: count + 1) { maxima, maximaCount in
            minima = [Int](unsafeUninitializedCapacity: count + 1) { minima, minimaCount in
                for j in 0..<count {
                    let first = firsts[j], last = lasts[j]
                    // R's unique(c(t(pairs))): a one-sample extremum appears once.
                    if (j % 2 == 0) == (firstSign > 0) {
                        maxima[maximaCount] = first
                        maximaCount += last != first ? 2 : 1
                        maxima[maximaCount - 1] = last
                    } else {
                        minima[minimaCount] = first
                        minimaCount += last != first ? 2 : 1
                        minima[minimaCount - 1] = last
                    }
                }
            }
        }
        return Extrema(minima: minima, maxima: maxima, count: count)
    }

    /// ``extrema(_:)`` as EMD's `extrema` finds them, for any values: the turning points, then
    /// each plateau as the samples from a turn to the next equal to the turn's value.
    private static func scannedExtrema(_ y: UnsafeBufferPointer<Double>) -> Extrema {
        var found = Extrema()
        let n = y.count
        // Turning points: where the sign of the non-zero differences changes, at the sample
        // after the last difference of the old sign; the plateau runs from there while the
        // value stays, up to the next turn (or the last difference).
        var previousSign = 0.0, previousPosition = -1
        var turns: [(start: Int, sign: Double)] = []
        for k in 0..<(n - 1) {
            let d = y[k + 1] - y[k]
            let sign: Double = d > 0 ? 1 : (d < 0 ? -1 : 0)
            guard sign != 0 else { continue }
            if previousPosition >= 0, sign != previousSign { turns.append((previousPosition + 1, previousSign)) }
            previousSign = sign
            previousPosition = k
        }
        found.count = turns.count
        for (i, turn) in turns.enumerated() {
            let end = i + 1 < turns.count ? turns[i + 1].start - 1 : n - 2
            let level = y[turn.start]
            var first = -1, last = -1
            if turn.start <= end {
                for k in turn.start...end where y[k] == level {
                    if first < 0 { first = k }
                    last = k
                }
            }
            guard first >= 0 else { continue }
            // R's unique(c(t(pairs))): a one-sample extremum appears once.
            if turn.sign > 0 {
                found.maxima.append(first)
                if last != first { found.maxima.append(last) }
            } else {
                found.minima.append(first)
                if last != first { found.minima.append(last) }
            }
        }
        return found
    }

    /// The intrinsic mode functions of `x` sampled at `t` (at most `maximum`; fewer when a
    /// residue has two extrema or fewer), each as long as `x`.
    static func decompose(_ x: [Double], at t: [Double], maximum: Int) -> [[Double]] {
        precondition(x.count == t.count, "EMD: values and times of unequal lengths")
        let tolerance = RArithmetic.standardDeviation(x) * (0.1 * 0.1)
        var residue = x
        var modes: [[Double]] = []
        let times = extendedTimes(t)
        while modes.count < maximum, let mode = extract(residue, at: t, extendedTimes: times, tolerance: tolerance) {
            for i in residue.indices { residue[i] -= mode[i] }
            modes.append(mode)
        }
        return modes
    }

    static let maximumSifts = 20

    /// One IMF of `residue` (EMD's `extractimf`), nil when a sift meets two extrema or fewer;
    /// `extendedTimes` are ``extendedTimes(_:)`` of `t`.
    static func extract(_ residue: [Double], at t: [Double], extendedTimes: [Double], tolerance: Double) -> [Double]? {
        let n = residue.count
        var input = residue
        for sift in 1...maximumSifts {
            let found = extrema(input[...])
            guard found.count > 2, !found.minima.isEmpty, !found.maxima.isEmpty else { return nil }
            let lower: [Double], upper: [Double]
            if sift == 1 {
                lower = firstEnvelope(input, at: t, extrema: found.minima, other: found.maxima, minimum: true)
                upper = firstEnvelope(input, at: t, extrema: found.maxima, other: found.minima, minimum: false)
            } else {
                (lower, upper) = periodicEnvelopes(input, at: t, extendedTimes: extendedTimes)
            }
            var converged = true
            for i in 0..<n {
                let mean = (lower[i] + upper[i]) / 2
                if !(abs(mean) < tolerance) { converged = false }
                input[i] -= mean
            }
            if converged || sift == maximumSifts { return input }
        }
        return nil
    }

    /// The first sift's envelope through the minima (or maxima) `indices`, the end sample added
    /// when it lies beyond the nearest extrema, and four knots past either end spaced by the
    /// estimated wave period, at the end values.
    private static func firstEnvelope(_ input: [Double], at t: [Double], extrema indices: [Int], other: [Int], minimum: Bool) -> [Double] {
        let n = input.count
        let mins = minimum ? indices : other, maxs = minimum ? other : indices
        let head = [t[0], t[mins[0]], t[maxs[0]]].sorted()
        let headGaps = (head[1] - head[0], head[2] - head[1])
        let tail = [t[mins.last!], t[maxs.last!], t[n - 1]].sorted()
        let tailGaps = (tail[1] - tail[0], tail[2] - tail[1])
        var knots = indices
        let first = input[0], minFirst = input[mins[0]], maxFirst = input[maxs[0]]
        let headPeriod: Double
        if first <= minFirst && first <= maxFirst {
            if minimum { knots.insert(0, at: 0) }
            headPeriod = 2 * headGaps.0
        } else if first >= minFirst && first >= maxFirst {
            if !minimum { knots.insert(0, at: 0) }
            headPeriod = 2 * headGaps.0
        } else if first >= (minFirst + maxFirst) / 2 {
            headPeriod = headGaps.1 + max(headGaps.1, 2 * headGaps.0)
        } else {
            headPeriod = headGaps.1 + max(headGaps.1, RArithmetic.round(1.5 * headGaps.0))
        }
        let last = input[n - 1], minLast = input[mins.last!], maxLast = input[maxs.last!]
        let tailPeriod: Double
        if last <= minLast && last <= maxLast {
            if minimum { knots.append(n - 1) }
            tailPeriod = 2 * tailGaps.1
        } else if last >= minLast && last >= maxLast {
            if !minimum { knots.append(n - 1) }
            tailPeriod = 2 * tailGaps.1
        } else if last >= (minLast + maxLast) / 2 {
            tailPeriod = tailGaps.0 + max(tailGaps.0, 2 * tailGaps.1)
        } else {
            tailPeriod = tailGaps.0 + max(tailGaps.0, RArithmetic.round(1.5 * tailGaps.1))
        }
        let t0 = t[knots[0]], t1 = t[knots.last!]
        var x: [Double] = [], y: [Double] = []
        for k in stride(from: 4, through: 1, by: -1) { x.append(t0 - Double(k) * headPeriod); y.append(input[knots[0]]) }
        for k in knots { x.append(t[k]); y.append(input[k]) }
        for k in 1...4 { x.append(t1 + Double(k) * tailPeriod); y.append(input[knots.last!]) }
        return FMMSpline(x: x, y: y)!.evaluate(t)
    }

    /// The times of the periodically extended signal: `t` with n − 1 times before and after it,
    /// extended by the cumulated intervals (in R's extended-precision `cumsum`).
    static func extendedTimes(_ t: [Double]) -> [Double] {
        let n = t.count
        guard n >= 2 else { return t }
        let gaps = (1..<n).map { t[$0] - t[$0 - 1] }
        let before = RArithmetic.cumulativeSum(gaps.reversed()).map { t[0] - $0 }.reversed()
        let after = RArithmetic.cumulativeSum(gaps).map { t[n - 1] + $0 }
        return Array(before) + t + after
    }

    /// The later sifts' envelopes: the signal extended periodically by n − 1 samples at either
    /// end (at `times`, ``extendedTimes(_:)``), splines through all the extended extrema,
    /// evaluated at `t`.
    private static func periodicEnvelopes(_ input: [Double], at t: [Double], extendedTimes times: [Double]) -> (lower: [Double], upper: [Double]) {
        let n = input.count
        let extended = Array(input[..<(n - 1)]) + input + Array(input[1...])
        let found = extrema(extended[...])
        func envelope(_ indices: [Int]) -> [Double] {
            FMMSpline(x: indices.map { times[$0] }, y: indices.map { extended[$0] })!.evaluate(t)
        }
        return (envelope(found.minima), envelope(found.maxima))
    }
}
