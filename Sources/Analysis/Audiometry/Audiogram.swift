import Glibc
import SensorData

/// Thresholds per ear and frequency, and their summaries (docs/audiometry.md §11).
public struct Audiogram: Sendable {
    public enum Ear: Int, Sendable, CaseIterable {
        case left = 0, right = 1
        public var name: String { self == .left ? "left" : "right" }
    }

    /// dB HL per frequency (Hz); nil = no response / no threshold.
    public var thresholds: [Ear: [Double: Double?]] = [.left: [:], .right: [:]]
    /// For no-response entries: the highest level presented, dB HL, when known (plotted there).
    public var noResponseLevels: [Ear: [Double: Double]] = [:]
    /// The second 1 kHz threshold per ear, dB HL, when measured twice.
    public var retests: [Ear: Double] = [:]
    /// Frequencies (Hz) whose test began and did not finish (a stopped `hearing-test`): no
    /// threshold, and not "no response" either. They are not in ``thresholds``.
    public var notFinished: [Ear: Set<Double>] = [:]

    /// |test − retest| at 1 kHz per ear, dB, when both have a threshold.
    public var retestDifference: [Ear: Double] {
        var differences: [Ear: Double] = [:]
        for (ear, retest) in retests {
            if let first = thresholds[ear]?[1000] ?? nil { differences[ear] = abs(first - retest) }
        }
        return differences
    }

    public init() {}

    /// From a dB HL result: the first measurement of each frequency is used; a second 1 kHz
    /// measurement is kept as the retest.
    public init(_ result: DBHLToneAudiometryResult) {
        self.init()
        let unfinished = result.unfinishedEntries
        for sample in result.samples {
            guard let ear = Ear(rawValue: sample.channel) else { continue }
            if sample.calculatedThresholdDecibelsHL == nil, unfinished.contains(.init(sample)) {
                if thresholds[ear]?[sample.frequencyHz] == nil { notFinished[ear, default: []].insert(sample.frequencyHz) }
                continue
            }
            if thresholds[ear]?[sample.frequencyHz] != nil {
                // A repeated entry: the 1 kHz retest is kept; any other repeat is ignored (first wins).
                if sample.frequencyHz == 1000, let retest = sample.calculatedThresholdDecibelsHL { retests[ear] = retest }
                continue
            }
            thresholds[ear]?[sample.frequencyHz] = .some(sample.calculatedThresholdDecibelsHL)
            if sample.calculatedThresholdDecibelsHL == nil, let highest = sample.units.map(\.dBHLValue).max() {
                noResponseLevels[ear, default: [:]][sample.frequencyHz] = highest
            }
        }
    }

    /// From one row of `AUXU…` columns (NHANES AUX files; docs/audiometry.md §6): the ear from the
    /// name's last letter (R/L), `AUXU1K1` the first 1 kHz test and `AUXU1K2` its retest. NHANES
    /// codes 666 (no response) as a tested frequency without threshold; NaN and 888 (could not
    /// obtain) as not tested. Columns without an ear letter are ignored.
    public init(columns: [String], values: [Double]) {
        self.init()
        for (name, value) in zip(columns, values) {
            guard let f = AudiogramTable.frequencyHz(ofColumn: name), let letter = name.last else { continue }
            let ear: Ear
            switch letter {
            case "R": ear = .right
            case "L": ear = .left
            default: continue
            }
            guard value.isFinite, value != 888 else { continue }
            let threshold: Double? = value == 666 ? nil : value
            if name.contains("1K2") {
                if let threshold { retests[ear] = threshold }
            } else {
                thresholds[ear]?[f] = .some(threshold)
            }
        }
    }

    /// The same audiogram with `offset` dB added to every threshold (volume correction, §7.5).
    public func shifted(by offset: Double) -> Audiogram {
        var copy = self
        for ear in Ear.allCases {
            copy.thresholds[ear] = thresholds[ear]?.mapValues { $0.map { $0 + offset } }
        }
        copy.retests = retests.mapValues { $0 + offset }
        copy.noResponseLevels = noResponseLevels.mapValues { $0.mapValues { $0 + offset } }
        return copy
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
