import Glibc

extension Audiogram {
    /// `x` rounded to an integer for names and messages (`1000`), or as it is when it has no
    /// Int (non-finite, beyond ±2^63: a hostile file's frequency or level must not trap).
    static func integerText(_ x: Double) -> String {
        Int(exactly: x.rounded()).map(String.init) ?? "\(x)"
    }

    /// Thresholds, pure-tone averages and grades (docs/audiometry.md §11), with the warnings that
    /// explain undefined averages (never silently substituted) and retests that disagree.
    public var features: (features: AudiogramFeatures, warnings: [String]) {
        var warnings: [String] = []
        var pta4: [Ear: Double] = [:]
        var pta3: [Ear: Double] = [:]
        var ears: [Ear: AudiogramFeatures.EarFeatures] = [:]
        for ear in [Ear.right, .left] {
            let values = thresholds[ear] ?? [:]
            for (label, frequencies) in [("PTA3", Self.pta3Frequencies), ("PTA4", Self.pta4Frequencies)] {
                if let average = pureToneAverage(ear, frequencies: frequencies) {
                    if label == "PTA3" { pta3[ear] = average } else { pta4[ear] = average }
                } else if !values.isEmpty {
                    let missing = frequencies.filter { values[$0] == nil }.map { "\(Self.integerText($0)) Hz missing" }
                    let noResponse = frequencies.filter { values[$0] != nil && values[$0]! == nil }.map { "\(Self.integerText($0)) Hz no response" }
                    warnings.append("\(ear.name) \(label) undefined: " + (missing + noResponse).joined(separator: ", "))
                }
            }
            ears[ear] = AudiogramFeatures.EarFeatures(
                ear: ear, thresholds: values.keys.sorted().map { AudiogramFeatures.Threshold(frequencyHz: $0, decibelsHL: values[$0] ?? nil) },
                pta3DbHL: pta3[ear], pta4DbHL: pta4[ear], who2021Grade: pta4[ear].map(Self.who2021Grade))
        }
        // Asymmetry is a comparison: unknown (null) without a frequency both ears have a threshold at.
        let comparable = [Ear.right, .left].map { ear in Set((thresholds[ear] ?? [:]).compactMap { $0.value == nil ? nil : $0.key }) }
        let compared = !comparable[0].isDisjoint(with: comparable[1])
        var features = AudiogramFeatures(right: ears[.right]!, left: ears[.left]!, asymmetric: compared ? isAsymmetric : nil,
                                         asymmetricFrequenciesHz: asymmetricFrequencies,
                                         rightRetest1000HzDifferenceDb: retestDifference[.right], leftRetest1000HzDifferenceDb: retestDifference[.left])
        if let right = pta4[.right], let left = pta4[.left] {
            let better: Ear = right <= left ? .right : .left
            let (b, w) = better == .right ? (right, left) : (left, right)
            features.betterEar = better
            features.betterEarPTA4DbHL = b
            features.betterEarPTA3DbHL = pta3[better]
            features.who2021Category = Self.who2021Category(better: b, worse: w)
            features.who1991Grade = Self.who1991Grade(b)
            features.clarkDegree = pta3[better].map(Self.clarkDegree)
        }
        for ear in [Ear.right, .left] {
            if let difference = retestDifference[ear], difference > 5 {
                warnings.append("\(ear.name) ear: 1 kHz test and retest differ by \(Self.integerText(difference)) dB (> 5 dB); the first is used")
            }
        }
        return (features, warnings)
    }
}

extension Audiogram.Ear: Encodable {
    /// As its name: `right`, `left`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// The features of an audiogram (docs/audiometry.md §11), right ear first. Averages are of dB HL
/// thresholds (ISO 389-1 RETSPL reference); grades follow WHO 2021 (World report on hearing),
/// WHO 1991 and Clark (1981).
public struct AudiogramFeatures: Sendable, Hashable, Encodable {
    /// One tested frequency's threshold.
    public struct Threshold: Sendable, Hashable {
        /// The tested frequency, Hz.
        public var frequencyHz: Double
        /// dB HL; nil for no response.
        public var decibelsHL: Double?
    }

    /// One ear's thresholds and averages, named with the ear first (`right1000HzDbHL`,
    /// `right1000HzStatus`, `rightPTA3DbHL`, `rightPTA4DbHL`, `rightWHO2021Grade`): per tested
    /// frequency, ascending, its threshold (null for no response) and status (`measured` or
    /// `noResponse`); PTA3 = mean at 0.5, 1, 2 kHz and PTA4 = mean at 0.5, 1, 2, 4 kHz, dB HL
    /// (null when one is missing or no response); the WHO 2021 grade of the PTA4.
    public struct EarFeatures: Sendable, Hashable, Encodable {
        /// The ear, the first word of each name.
        public var ear: Audiogram.Ear
        /// Per tested frequency, ascending: `…HzDbHL` (null: no response) and `…HzStatus`.
        public var thresholds: [Threshold]
        /// `…PTA3DbHL`: mean threshold at 0.5, 1, 2 kHz, dB HL (null when one is missing or no response).
        public var pta3DbHL: Double?
        /// `…PTA4DbHL`: mean threshold at 0.5, 1, 2, 4 kHz, dB HL.
        public var pta4DbHL: Double?
        /// `…WHO2021Grade`: the WHO 2021 grade of the PTA4 (World report on hearing, 2021).
        public var who2021Grade: String?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: FeatureName.self)
            for threshold in thresholds {
                let frequency = "\(ear.name)\(Audiogram.integerText(threshold.frequencyHz))Hz"
                try container.encodeIfPresent(threshold.decibelsHL, forKey: FeatureName(frequency + "DbHL"))
                try container.encode(threshold.decibelsHL == nil ? "noResponse" : "measured", forKey: FeatureName(frequency + "Status"))
            }
            try container.encodeIfPresent(pta3DbHL, forKey: FeatureName(ear.name + "PTA3DbHL"))
            try container.encodeIfPresent(pta4DbHL, forKey: FeatureName(ear.name + "PTA4DbHL"))
            try container.encodeIfPresent(who2021Grade, forKey: FeatureName(ear.name + "WHO2021Grade"))
        }
    }

    /// The right ear's thresholds and averages (in place, `right…`).
    public var right: EarFeatures
    /// The left ear's (`left…`).
    public var left: EarFeatures
    /// The ear with the lower PTA4 (right on a tie); null unless both ears have a PTA4.
    public var betterEar: Audiogram.Ear?
    /// The better ear's PTA4, dB HL.
    public var betterEarPTA4DbHL: Double?
    /// The better ear's PTA3, dB HL.
    public var betterEarPTA3DbHL: Double?
    /// WHO 2021 category from both ears' PTA4 (including `unilateral`).
    public var who2021Category: String?
    /// WHO 1991 grade (0–4) of the better ear's PTA4.
    public var who1991Grade: Int?
    /// Clark (1981) degree of the better ear's PTA3.
    public var clarkDegree: String?
    /// Whether the ears differ by ≥ 15 dB at some frequency tested in both (``Audiogram/isAsymmetric``);
    /// null when no frequency has a threshold in both ears.
    public var asymmetric: Bool?
    /// The frequencies where they do, Hz.
    public var asymmetricFrequenciesHz: [Double]
    /// |test − retest| at 1 kHz, right ear, dB (null without a retest).
    public var rightRetest1000HzDifferenceDb: Double?
    /// The same, left ear, dB.
    public var leftRetest1000HzDifferenceDb: Double?
}
