import InputGuards
import Glibc
import SignalProcessing

/// Glottal pulses and their perturbation, after Praat's "Sound & Pitch: To PointProcess (cc)"
/// and the voice-report measures (Praat manual "Voice 2. Jitter", "Voice 3. Shimmer";
/// docs/analyses.md §4.7).
public enum Perturbation {
    /// Pulse times: from the middle of each voiced stretch, the absolute extremum within ±½ period,
    /// then period by period to both sides the best cross-correlation of one period with the
    /// previous one (lags 0.8–1.25 periods), kept when r > 0.3 and the local peak exceeds 1 % of
    /// the global peak.
    static func pulses(_ sound: PraatSound, pitch: PraatPitchAnalysis.Contour) -> [Double] {
        var points: [Double] = []
        let globalPeak = sound.samples.withUnsafeBufferPointer { Statistics.peakDeviation($0) }
        var t = 0.0
        var addedRight = -1e300
        while let (left, right) = voicedInterval(after: t, pitch: pitch, sound: sound) {
            let middle = (left + right) / 2
            guard let f0Middle = pitch.value(at: middle) else { t = right; continue }
            var tmax = extremum(sound, middle - 0.5 / f0Middle, middle + 0.5 / f0Middle)
            points.append(tmax)
            let saved = tmax
            while let f0 = pitch.value(at: tmax) {
                var (correlation, time, peak) = bestCorrelation(sound, t1: tmax, window: 1 / f0, from: tmax - 1.25 / f0, to: tmax - 0.8 / f0)
                if correlation == -1 { time = tmax - 1 / f0 }
                tmax = time
                if tmax < left {
                    if correlation > 0.7, peak > 0.023333 * globalPeak, tmax - addedRight > 0.8 / f0 { points.append(tmax) }
                    break
                }
                if correlation > 0.3, peak == 0 || peak > 0.01 * globalPeak, tmax - addedRight > 0.8 / f0 { points.append(tmax) }
            }
            tmax = saved
            while let f0 = pitch.value(at: tmax) {
                var (correlation, time, peak) = bestCorrelation(sound, t1: tmax, window: 1 / f0, from: tmax + 0.8 / f0, to: tmax + 1.25 / f0)
                if correlation == -1 { time = tmax + 1 / f0 }
                tmax = time
                if tmax > right {
                    if correlation > 0.7, peak > 0.023333 * globalPeak {
                        points.append(tmax)
                        addedRight = tmax
                    }
                    break
                }
                if correlation > 0.3, peak == 0 || peak > 0.01 * globalPeak {
                    points.append(tmax)
                    addedRight = tmax
                }
            }
            t = right
        }
        return Array(Set(points)).sorted()
    }

    /// The next run of voiced frames starting at or after `after`, as times (whole frames).
    static func voicedInterval(after: Double, pitch: PraatPitchAnalysis.Contour, sound: PraatSound) -> (Double, Double)? {
        var left = max(0, PraatSound.highIndex(after, x1: pitch.x1, dx: pitch.dx))
        while left < pitch.frequency.count, !pitch.isVoiced(left) { left += 1 }
        guard left < pitch.frequency.count else { return nil }
        var right = left
        while right + 1 < pitch.frequency.count, pitch.isVoiced(right + 1) { right += 1 }
        let tLeft = max(0, pitch.time(left) - 0.5 * pitch.dx)
        let tRight = min(sound.duration, pitch.time(right) + 0.5 * pitch.dx)
        guard tLeft < sound.duration - 0.5 * pitch.dx else { return nil }
        return (tLeft, tRight)
    }

    /// Time of the absolute extremum in [tmin, tmax], parabolically refined.
    static func extremum(_ sound: PraatSound, _ tmin: Double, _ tmax: Double) -> Double {
        let s = sound.samples
        let lo = max(0, sound.lowIndex(tmin)), hi = min(s.count - 1, sound.highIndex(tmax))
        guard hi > lo + 1 else { return (tmin + tmax) / 2 }
        var minimum = s[lo], maximum = s[lo], iMin = lo, iMax = lo
        for i in lo...hi {
            if s[i] < minimum { minimum = s[i]; iMin = i }
            if s[i] > maximum { maximum = s[i]; iMax = i }
        }
        if minimum == maximum { return sound.time(Double(lo + hi) / 2) }
        let i = abs(minimum) > abs(maximum) ? iMin : iMax
        if i == lo || i == hi { return sound.time(Double(i)) }
        let offset = 0.5 * (s[i + 1] - s[i - 1]) / (2 * s[i] - s[i - 1] - s[i + 1])
        return sound.time(Double(i) + offset)
    }

    /// The best normalised correlation of the window of length `window` around t1 with windows
    /// whose centres lie in [from, to]; (r, time of the best centre, peak |x| there).
    static func bestCorrelation(_ sound: PraatSound, t1: Double, window: Double, from: Double, to: Double) -> (Double, Double, Double) {
        let s = sound.samples
        let half = 0.5 * window
        let left1 = sound.nearestIndex(t1 - half), right1 = sound.nearestIndex(t1 + half)
        let left2min = sound.lowIndex(from - half), left2max = sound.highIndex(to - half)
        var best = -1.0, r1 = 0.0, r2 = 0.0, r3 = 0.0, bestR1 = 0.0, bestR3 = 0.0, bestLag = 0.0, peak = 0.0
        guard left2min <= left2max else { return (-1, t1, 0) }
        // The first window's energy is the same for every lag (summed over the pairs whose both
        // samples exist, in the same order as before, so the values are unchanged).
        var norm1Cache: (lo: Int, hi: Int, value: Double)?
        for left2 in left2min...left2max {
            // Pairs (i1, i1 + shift) with both indices inside the sound.
            let shift = left2 - left1
            let lo = max(left1, 0, -shift), hi = min(right1, s.count - 1, s.count - 1 - shift)
            var norm1 = 0.0, norm2 = 0.0, product = 0.0, localPeak = 0.0
            if lo <= hi {
                if let cached = norm1Cache, cached.lo == lo, cached.hi == hi {
                    norm1 = cached.value
                } else {
                    for i1 in lo...hi { norm1 += s[i1] * s[i1] }
                    norm1Cache = (lo, hi, norm1)
                }
                (product, norm2, localPeak) = s.withUnsafeBufferPointer { s in
                    Autocorrelation.correlationTerms(UnsafeBufferPointer(rebasing: s[lo...hi]), UnsafeBufferPointer(rebasing: s[(lo + shift)...(hi + shift)]))
                }
            }
            r1 = r2
            r2 = r3
            r3 = product != 0 ? product / (norm1 * norm2).squareRoot() : 0
            if r2 > best, r2 >= r1, r2 >= r3 {
                (bestR1, best, bestR3) = (r1, r2, r3)
                bestLag = Double(left2 - 1)
                peak = localPeak
            }
        }
        guard best > -1 else { return (-1, t1, 0) }
        let d2r = 2 * best - bestR1 - bestR3
        if d2r != 0 {
            let dr = 0.5 * (bestR3 - bestR1)
            best += 0.5 * dr * dr / d2r
            bestLag += dr / d2r
        }
        return (best, t1 + (bestLag - Double(left1)) * sound.dx, peak)
    }

    /// Jitter and shimmer measures; nil where too few valid periods.
    /// Jitter and shimmer as Praat's "Get jitter/shimmer" (periods 0.0001–0.02 s, period factor
    /// 1.3, amplitude factor 1.6; Praat manual, "Voice 2. Jitter", "Voice 3. Shimmer"); relative
    /// measures are fractions (Praat shows them in %), null when too few valid periods. Encoded as
    /// features without the mean period and period count.
    public struct Measures: Sendable, Hashable, Encodable {
        /// Mean |T_i − T_{i−1}| / mean period (Praat "local").
        public var jitterLocal: Double?
        /// Mean |T_i − T_{i−1}|, s (Praat "local, absolute").
        public var jitterLocalAbsoluteSeconds: Double?
        /// Relative average perturbation over 3 periods / mean period.
        public var jitterRap: Double?
        /// Five-point period perturbation quotient / mean period.
        public var jitterPpq5: Double?
        /// Mean |difference of differences| of periods / mean period (= 3 × RAP).
        public var jitterDdp: Double?
        /// Mean |A_i − A_{i−1}| / mean amplitude.
        public var shimmerLocal: Double?
        /// Mean |20·lg(A_i / A_{i−1})|, dB.
        public var shimmerLocalDb: Double?
        /// Three-point amplitude perturbation quotient.
        public var shimmerApq3: Double?
        /// Five-point amplitude perturbation quotient.
        public var shimmerApq5: Double?
        /// Eleven-point amplitude perturbation quotient.
        public var shimmerApq11: Double?
        /// 3 × APQ3 (Praat "dda").
        public var shimmerDda: Double?
        /// Mean of the valid periods (Praat's isPeriod), s: the divisor of the relative jitters.
        public var meanPeriodSeconds: Double?
        /// Valid periods, count.
        public var periodCount: Int

        private enum CodingKeys: String, CodingKey {
            case jitterLocal, jitterLocalAbsoluteSeconds, jitterRap, jitterPpq5, jitterDdp
            case shimmerLocal, shimmerLocalDb, shimmerApq3, shimmerApq5, shimmerApq11, shimmerDda
        }
    }

    /// The standard arguments: periods 0.0001–0.02 s, period factor 1.3, amplitude factor 1.6.
    static func measures(_ t: [Double], sound: PraatSound, shortestPeriod: Double = 0.0001, longestPeriod: Double = 0.02,
                         periodFactor: Double = 1.3, amplitudeFactor: Double = 1.6) -> Measures {
        func inRange(_ p: Double) -> Bool { p >= shortestPeriod && p <= longestPeriod }
        func ratio(_ a: Double, _ b: Double) -> Double { a > b ? a / b : b / a }
        let n = t.count
        let periods = n >= 2 ? (1..<n).map { t[$0] - t[$0 - 1] } : []
        // Praat's PointProcess_isPeriod: an interval counts if it is in range and not more than
        // `periodFactor` away from both of its neighbouring intervals (whatever their size); an
        // interval with one neighbour, or none, needs only the range. Praat's mean period — the
        // divisor of every relative jitter — averages exactly these.
        func isPeriod(_ k: Int) -> Bool {
            let interval = periods[k]
            guard interval > 0, inRange(interval) else { return false }
            func factor(_ neighbour: Int) -> Double? {
                guard periods.indices.contains(neighbour), periods[neighbour] > 0 else { return nil }
                return ratio(interval, periods[neighbour])
            }
            guard let previous = factor(k - 1), let next = factor(k + 1) else { return true }
            return !(previous > periodFactor && next > periodFactor)
        }
        let valid = periods.indices.filter(isPeriod).map { periods[$0] }
        let meanPeriod = valid.isEmpty ? nil : valid.reduce(0, +) / Double(valid.count)
        var m = Measures(periodCount: valid.count)
        m.meanPeriodSeconds = meanPeriod
        guard let meanPeriod, periods.count >= 2 else { return m }

        // Jitter: sums over windows of consecutive periods, each window valid as a whole.
        func jitter(_ width: Int, _ term: (UnsafeBufferPointer<Double>) -> Double) -> Double? {
            var count = periods.count, sum = 0.0
            guard periods.count >= width else { return nil }
            periods.withUnsafeBufferPointer { periods in
                for start in 0...(periods.count - width) {
                    let window = UnsafeBufferPointer(rebasing: periods[start..<(start + width)])
                    if window.allSatisfy(inRange), (1..<width).allSatisfy({ ratio(window[$0 - 1], window[$0]) <= periodFactor }) {
                        sum += term(window)
                    } else {
                        count -= 1
                    }
                }
            }
            let windows = count - (width - 1)
            return windows >= 1 ? sum / Double(windows) : nil
        }
        let localAbsolute = jitter(2) { abs($0[0] - $0[1]) }
        m.jitterLocalAbsoluteSeconds = localAbsolute
        m.jitterLocal = localAbsolute.map { $0 / meanPeriod }
        m.jitterRap = jitter(3) { abs($0[1] - ($0[0] + $0[1] + $0[2]) / 3) }.map { $0 / meanPeriod }
        m.jitterPpq5 = jitter(5) { abs($0[2] - $0.reduce(0, +) / 5) }.map { $0 / meanPeriod }
        m.jitterDdp = jitter(3) { abs(($0[2] - $0[1]) - ($0[1] - $0[0])) }.map { $0 / meanPeriod }

        // Shimmer: amplitude at each pulse with both adjacent periods valid, Hann-windowed RMS
        // over 0.2 period to each side.
        var times: [Double] = [], amplitudes: [Double] = []
        if n >= 3 {
            for i in 1..<(n - 1) {
                let p1 = t[i] - t[i - 1], p2 = t[i + 1] - t[i]
                guard inRange(p1), inRange(p2), ratio(p1, p2) <= periodFactor,
                    let a = hannRMS(sound, t[i], 0.2 * p1, 0.2 * p2), a > 0
                else { continue }
                times.append(t[i])
                amplitudes.append(a)
            }
        }
        func shimmer(_ width: Int, _ term: (UnsafeBufferPointer<Double>) -> Double) -> Double? {
            guard amplitudes.count >= width else { return nil }
            var sum = 0.0, count = 0
            amplitudes.withUnsafeBufferPointer { amplitudes in
                for start in 0...(amplitudes.count - width) {
                    let values = UnsafeBufferPointer(rebasing: amplitudes[start..<(start + width)])
                    if (start + 1..<start + width).allSatisfy({ inRange(times[$0] - times[$0 - 1]) }),
                        (1..<width).allSatisfy({ ratio(values[$0 - 1], values[$0]) <= amplitudeFactor })
                    {
                        sum += term(values)
                        count += 1
                    }
                }
            }
            return count > 0 ? sum / Double(count) : nil
        }
        let meanAmplitude = amplitudes.count >= 2 ? amplitudes.dropLast().reduce(0, +) / Double(amplitudes.count - 1) : 0
        if meanAmplitude > 0 {
            m.shimmerLocal = shimmer(2) { abs($0[0] - $0[1]) }.map { $0 / meanAmplitude }
            m.shimmerLocalDb = shimmer(2) { abs(20 * log10($0[0] / $0[1])) }
            m.shimmerApq3 = shimmer(3) { abs($0[1] - $0.reduce(0, +) / 3) }.map { $0 / meanAmplitude }
            m.shimmerApq5 = shimmer(5) { abs($0[2] - $0.reduce(0, +) / 5) }.map { $0 / meanAmplitude }
            m.shimmerApq11 = shimmer(11) { abs($0[5] - $0.reduce(0, +) / 11) }.map { $0 / meanAmplitude }
            m.shimmerDda = m.shimmerApq3.map { 3 * $0 }
        }
        return m
    }

    /// RMS under a Hann window reaching `left` before and `right` after `mid`.
    static func hannRMS(_ sound: PraatSound, _ mid: Double, _ left: Double, _ right: Double) -> Double? {
        let lo = max(0, sound.highIndex(mid - left)), hi = min(sound.count - 1, sound.lowIndex(mid + right))
        guard hi - lo + 1 >= 3 else { return nil }
        var sum = 0.0, windowSum = 0.0
        for i in lo...hi {
            let time = sound.time(Double(i))
            let width = time < mid ? left : right
            let w = 0.5 + 0.5 * cos(Double.pi * (time - mid) / width)
            let value = sound.samples[i] * w
            sum += value * value
            windowSum += w * w
        }
        return (sum / windowSum).squareRoot()
    }
}
