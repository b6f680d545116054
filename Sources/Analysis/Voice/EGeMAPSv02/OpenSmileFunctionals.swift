import Glibc
import SignalProcessing

/// The contour smoothing and the functionals of openSMILE 2.6.0's eGeMAPSv02 configuration
/// (cContourSmoother, cFunctionals' Moments, Percentiles and Means), as its output shows them.
enum OpenSmileFunctionals {
    /// The symmetric three-frame moving average ("sma3", `noZeroSma = 0`), the first and last
    /// values repeated beyond the ends: y[i] = (x[i−1] + x[i] + x[i+1])/3.
    static func smoothed(_ x: [Double]) -> [Double] {
        guard let first = x.first, let last = x.last else { return [] }
        return x.indices.map { i in
            ((i > 0 ? x[i - 1] : first) + x[i] + (i + 1 < x.count ? x[i + 1] : last)) / 3
        }
    }

    /// The three-frame moving average of the non-zero values ("sma3nz", `noZeroSma = 1`): a zero
    /// stays 0; a non-zero value becomes the mean of the non-zero values among x[i−1], x[i],
    /// x[i+1], the first and last values repeated beyond the ends.
    static func smoothedNonZero(_ x: [Double]) -> [Double] {
        x.indices.map { i in
            guard x[i] != 0 else { return 0 }
            var sum = x[i], count = 1.0
            for v in [i > 0 ? x[i - 1] : x[i], i + 1 < x.count ? x[i + 1] : x[i]] where v != 0 { sum += v; count += 1 }
            return sum / count
        }
    }

    /// Arithmetic mean; nil for no values.
    static func mean(_ x: [Double]) -> Double? {
        x.isEmpty ? nil : x.withUnsafeBufferPointer(Statistics.mean)
    }

    /// "stddevNorm": the population standard deviation over the mean (a coefficient of
    /// variation that keeps the mean's sign); 0 for a constant contour (openSMILE's value, also
    /// when that constant is 0), nil for no values or a zero mean of values that vary.
    static func normalisedStandardDeviation(_ x: [Double]) -> Double? {
        guard let m = mean(x) else { return nil }
        let deviation = (x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count)).squareRoot()
        if deviation == 0 { return 0 }
        return m == 0 ? nil : deviation / m
    }

    /// The percentile p (0…1) with linear interpolation between the sorted values at rank
    /// p·(n − 1) (`interp = 1`: the type-7 quantile); nil for no values.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double? {
        sorted.isEmpty ? nil : Statistics.quantileOfSorted(sorted, p)
    }

    /// The equivalent sound level of frame energies (mean squares), dB re full scale:
    /// 10·lg(max(mean energy, 10⁻¹²)) (cFunctionals' amean, then cVectorOperation's dBp, which
    /// gives digital silence −120 dB); nil when there is no frame.
    static func equivalentLevel(_ energies: [Double]) -> Double? {
        guard let m = mean(energies) else { return nil }
        return 10 * log10(max(m, 1e-12))
    }
}

/// The ten functionals eGeMAPSv02 takes of the loudness and the F0 contours (cFunctionals'
/// Moments, Percentiles and Peaks2 as its configuration sets them): mean, stddevNorm, the 20th,
/// 50th and 80th percentiles, their range (pctlrange0-2, 80th − 20th), and Peaks2's mean and SD
/// of the rising and falling slopes per second (``OpenSmilePeaks``), with its peak rate.
struct OpenSmileContourFunctionals: Sendable, Hashable {
    var mean: Double?
    var stddevNorm: Double?
    var percentile20: Double?
    var percentile50: Double?
    var percentile80: Double?
    var percentileRange20To80: Double?
    var meanRisingSlope: Double?
    var stddevRisingSlope: Double?
    var meanFallingSlope: Double?
    var stddevFallingSlope: Double?
    var peaksPerSecond: Double?

    init() {}

    /// The functionals of `contour`, values every `periodSeconds`.
    init(_ contour: [Double], periodSeconds: Double) {
        typealias F = OpenSmileFunctionals
        let sorted = contour.sorted()
        mean = F.mean(contour)
        stddevNorm = F.normalisedStandardDeviation(contour)
        (percentile20, percentile50, percentile80) = (F.percentile(sorted, 0.2), F.percentile(sorted, 0.5), F.percentile(sorted, 0.8))
        if let high = percentile80, let low = percentile20 { percentileRange20To80 = high - low }
        if let peaks = OpenSmilePeaks(contour, periodSeconds: periodSeconds) {
            (meanRisingSlope, stddevRisingSlope) = (peaks.meanRisingSlope, peaks.stddevRisingSlope)
            (meanFallingSlope, stddevFallingSlope) = (peaks.meanFallingSlope, peaks.stddevFallingSlope)
            peaksPerSecond = peaks.peaksPerSecond
        }
    }
}
