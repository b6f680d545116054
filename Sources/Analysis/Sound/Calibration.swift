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
/// block: memory is one 0.5-s ring of squares, whatever the length.
public struct CalibratorLevel: Sendable {
    /// Samples skipped at each end (0.5 s).
    public let trim: Int
    private var total = 0.0, head = 0.0, count = 0
    private var ring: [Double], ringSum = 0.0

    public init(sampleRateHz: Double) {
        trim = max(0, Int(clamping: 0.5 * sampleRateHz))
        ring = [Double](repeating: 0, count: max(1, trim))
    }

    /// Adds the next samples of the channel.
    public mutating func process(_ block: [Double]) {
        for value in block {
            let square = value * value
            total += square
            if count < trim { head += square }
            let slot = count % ring.count
            ringSum += square - ring[slot]
            ring[slot] = square
            count += 1
        }
    }

    /// The RMS level of what was measured, dBFS; nil for a silent or empty channel.
    public var levelDbfs: Double? {
        var sum = total, n = count
        if Double(count) >= 4 * Double(trim) {  // ≥ 2 s: without 0.5 s at both ends
            sum -= head + ringSum
            n -= 2 * trim
        }
        guard n > 0, sum > 0 else { return nil }
        return 10 * log10(sum / Double(n))
    }

    /// The offset, dB SPL at RMS 1.0, for a calibrator of `referenceDecibels` dB SPL.
    public func offsetDecibels(reference referenceDecibels: Double) -> Double? {
        levelDbfs.map { referenceDecibels - $0 }
    }
}
