import Glibc
import SensorData

/// Thresholds per ear and frequency, and their summaries (audiometry.md §11).
public struct Audiogram: Sendable {
    public enum Ear: Int, Sendable, CaseIterable {
        case left = 0, right = 1
        public var name: String { self == .left ? "left" : "right" }
    }

    /// dB HL per frequency (Hz); nil = no response / no threshold.
    public var thresholds: [Ear: [Double: Double?]] = [.left: [:], .right: [:]]
    /// |test − retest| at 1 kHz per ear, dB, when measured twice.
    public var retestDifference: [Ear: Double] = [:]

    public init() {}

    /// From a dB HL result: the first 1 kHz measurement is used; the retest difference is kept.
    public init(_ result: DBHLToneAudiometryResult) {
        self.init()
        for sample in result.samples {
            guard let ear = Ear(rawValue: sample.channel) else { continue }
            if let existing = thresholds[ear]?[sample.frequencyHz] {
                if let first = existing, let retest = sample.calculatedThresholdDecibelsHL {
                    retestDifference[ear] = abs(first - retest)
                }
                continue
            }
            thresholds[ear]?[sample.frequencyHz] = .some(sample.calculatedThresholdDecibelsHL)
        }
    }

    /// Pure-tone average over `frequencies` for one ear, nil if any is missing or no response.
    public func pureToneAverage(_ ear: Ear, frequencies: [Double]) -> Double? {
        var sum = 0.0
        for f in frequencies {
            guard let value = thresholds[ear]?[f], let threshold = value else { return nil }
            sum += threshold
        }
        return sum / Double(frequencies.count)
    }

    public static let pta3Frequencies: [Double] = [500, 1000, 2000]
    public static let pta4Frequencies: [Double] = [500, 1000, 2000, 4000]

    /// WHO 2021 grade of a PTA4 (World Report on Hearing, Table 1.3).
    public static func who2021Grade(_ pta4: Double) -> String {
        switch pta4 {
        case ..<20: "normal"
        case ..<35: "mild"
        case ..<50: "moderate"
        case ..<65: "moderately severe"
        case ..<80: "severe"
        case ..<95: "profound"
        default: "complete"
        }
    }

    /// WHO 2021 category from both ears: unilateral when the better ear is < 20 and the worse ≥ 35.
    public static func who2021Category(better: Double, worse: Double) -> String {
        better < 20 && worse >= 35 ? "unilateral" : who2021Grade(better)
    }

    /// WHO 1991/1997 grade 0–4 of the better-ear PTA4 (≤ 25, ≤ 40, ≤ 60, ≤ 80, above).
    public static func who1991Grade(_ pta4: Double) -> Int {
        switch pta4 {
        case ...25: 0
        case ...40: 1
        case ...60: 2
        case ...80: 3
        default: 4
        }
    }

    /// Clark (1981) / ASHA degree of a PTA3.
    public static func clarkDegree(_ pta3: Double) -> String {
        switch pta3 {
        case ...15: "normal"
        case ...25: "slight"
        case ...40: "mild"
        case ...55: "moderate"
        case ...70: "moderately severe"
        case ...90: "severe"
        default: "profound"
        }
    }

    /// Frequencies tested in both ears whose thresholds differ by at least 15 dB; the toolkit flags
    /// asymmetry when two adjacent tested frequencies do (a common screening convention, stated
    /// here rather than attributed to one guideline).
    public var asymmetricFrequencies: [Double] {
        let both = Set(thresholds[.left]?.keys.map { $0 } ?? []).intersection(thresholds[.right]?.keys.map { $0 } ?? []).sorted()
        return both.filter { f in
            guard let l = thresholds[.left]?[f] ?? nil, let r = thresholds[.right]?[f] ?? nil else { return false }
            return abs(l - r) >= 15
        }
    }

    public var isAsymmetric: Bool {
        let frequencies = Set(thresholds[.left]?.keys.map { $0 } ?? []).union(thresholds[.right]?.keys.map { $0 } ?? []).sorted()
        let flagged = Set(asymmetricFrequencies)
        return zip(frequencies, frequencies.dropFirst()).contains { flagged.contains($0) && flagged.contains($1) }
    }
}
