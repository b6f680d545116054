import Foundation
import Glibc
import InputGuards

/// Level conversions of digital full scale (IEC 61672-1 §3, dB as 20·lg of an amplitude ratio).
public enum Decibels {
    /// The peak amplitude (full scale 1) of a level in dBFS: 10^(L/20).
    public static func amplitude(dbfs level: Double) -> Double { pow(10, level / 20) }
}

/// The calibration offset of a recording chain (docs/analyses.md §3.5) from a recording of an
/// acoustic calibrator (IEC 60942; 94 dB SPL = 1 Pa at 1 kHz): offset = reference − L, L the
/// channel's RMS level in dBFS, 10·lg of the mean square. A recording of at least 2 s is
/// measured without 0.5 s at either end (the calibrator being fitted and removed). Fed block by
/// block: memory is two 0.5-s rings (squares and values), whatever the length.
public struct CalibratorLevel: Sendable {
    /// Samples skipped at each end (0.5 s).
    public let trim: Int
    /// The bound every calibration offset has, dB (``CalibrationFile``, `score spl`).
    public static let plausibleOffsetDecibels: ClosedRange<Double> = -400...400
    /// The shortest tone measured, s: a calibrator settles within a second of being fitted.
    public static let shortestSeconds = 1.0
    /// The largest share of the mean square a constant (DC) may hold: a sound card's offset is
    /// thousands of times below a calibrator's tone.
    public static let largestDCShare = 0.1
    private let sampleRateHz: Double
    private var squares: Sums, values: Sums
    private var count = 0

    /// Running sums of one quantity: all, the first `trim`, and the last `trim` (a ring).
    private struct Sums {
        var total = 0.0, head = 0.0, ringSum = 0.0
        var ring: [Double]
        mutating func add(_ value: Double, at count: Int, trim: Int) {
            total += value
            if count < trim { head += value }
            let slot = count % ring.count
            ringSum += value - ring[slot]
            ring[slot] = value
        }
        /// The sum measured: without both ends when `trimmed`.
        func measured(trimmed: Bool) -> Double { trimmed ? total - (head + ringSum) : total }
    }

    public init(sampleRateHz: Double) {
        self.sampleRateHz = sampleRateHz
        trim = max(0, Int(clamping: 0.5 * sampleRateHz))
        squares = Sums(ring: [Double](repeating: 0, count: max(1, trim)))
        values = squares
    }

    /// Adds the next samples of the channel.
    public mutating func process(_ block: [Double]) {
        for value in block {
            squares.add(value * value, at: count, trim: trim)
            values.add(value, at: count, trim: trim)
            count += 1
        }
    }

    /// ≥ 2 s: measured without 0.5 s at both ends.
    private var trimmed: Bool { Double(count) >= 4 * Double(trim) }
    private var measuredCount: Int { trimmed ? count - 2 * trim : count }

    /// The RMS level of what was measured, dBFS; nil for a silent or empty channel.
    public var levelDbfs: Double? {
        let sum = squares.measured(trimmed: trimmed), n = measuredCount
        guard n > 0, sum > 0 else { return nil }
        return 10 * log10(sum / Double(n))
    }

    /// The offset, dB SPL at RMS 1.0, for a calibrator of `referenceDecibels` dB SPL.
    public func offsetDecibels(reference referenceDecibels: Double) -> Double? {
        levelDbfs.map { referenceDecibels - $0 }
    }

    /// Why what was measured is no calibrator tone of `referenceDecibels` (nil: it is one, or
    /// silent — ``levelDbfs`` nil): a rate too low for its tone, under ``shortestSeconds`` measured, a constant holding more
    /// than ``largestDCShare`` of the mean square, or an offset outside ``plausibleOffsetDecibels``
    /// (a file `score spl` would refuse to read).
    public func problem(reference referenceDecibels: Double) -> String? {
        guard let level = levelDbfs, let offset = offsetDecibels(reference: referenceDecibels) else { return nil }
        if !(sampleRateHz > SoundLevelMeter.lowestRateHz) {
            return String(format: "a sample rate of %.6g Hz cannot hold a calibrator's 1-kHz tone (score spl, which reads the offset, meters above %.0f Hz)",
                          sampleRateHz, SoundLevelMeter.lowestRateHz)
        }
        let seconds = Double(measuredCount) / sampleRateHz
        if !(seconds >= Self.shortestSeconds) {
            return String(format: "%.4g s measured; a calibrator's tone needs at least %.0f s", seconds, Self.shortestSeconds)
        }
        let n = Double(measuredCount), mean = values.measured(trimmed: trimmed) / n
        let share = mean * mean / (squares.measured(trimmed: trimmed) / n)
        if share > Self.largestDCShare {
            return String(format: "a constant (DC) of %.4g holds %.0f %% of the power: no calibrator's tone", mean, 100 * min(share, 1))
        }
        if !Self.plausibleOffsetDecibels.contains(offset) {
            return String(format: "a level of %.4g dBFS gives an offset of %.4g dB, outside ±%.0f dB: no calibrator's tone of %.4g dB SPL",
                          level, offset, Self.plausibleOffsetDecibels.upperBound, referenceDecibels)
        }
        return nil
    }
}
