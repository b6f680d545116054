import Glibc

extension Audiogram {
    /// `x` rounded to an integer for names and messages (`1000`), or as it is when it has no
    /// Int (non-finite, beyond ±2^63: a hostile file's frequency or level must not trap).
    static func integerText(_ x: Double) -> String {
        Int(exactly: x.rounded()).map(String.init) ?? "\(x)"
    }

    /// Thresholds, pure-tone averages and grades as a feature set (audiometry.md §11): per ear
    /// `right1000HzDbHL` … (null for no response) with `right1000HzStatus` (`measured` or
    /// `noResponse`), `rightPTA3DbHL`, `rightPTA4DbHL`,
    /// `rightWHO2021Grade`; the better ear (lower PTA4), its WHO 2021 category, WHO 1991 grade
    /// and Clark degree (of its PTA3); asymmetry; |test − retest| at 1 kHz. Undefined averages
    /// are `missing` and explained in `warnings` (never silently substituted).
    public func features(name: String = "atk") -> (set: FeatureSet, warnings: [String]) {
        var set = FeatureSet(name: name)
        var warnings: [String] = []
        var pta4: [Ear: Double] = [:]
        var pta3: [Ear: Double] = [:]
        for ear in [Ear.right, .left] {
            let values = thresholds[ear] ?? [:]
            for f in values.keys.sorted() {
                let key = "\(ear.name)\(Self.integerText(f))HzDbHL"
                let threshold = values[f] ?? nil
                set.append(key, threshold)
                set.append("\(ear.name)\(Self.integerText(f))HzStatus", .text(threshold == nil ? "noResponse" : "measured"))
            }
            for (label, frequencies) in [("PTA3", Self.pta3Frequencies), ("PTA4", Self.pta4Frequencies)] {
                let average = pureToneAverage(ear, frequencies: frequencies)
                set.append("\(ear.name)\(label)DbHL", average)
                if let average {
                    if label == "PTA3" { pta3[ear] = average } else { pta4[ear] = average }
                } else if !values.isEmpty {
                    let missing = frequencies.filter { values[$0] == nil }.map { "\(Self.integerText($0)) Hz missing" }
                    let noResponse = frequencies.filter { values[$0] != nil && values[$0]! == nil }.map { "\(Self.integerText($0)) Hz no response" }
                    warnings.append("\(ear.name) \(label) undefined: " + (missing + noResponse).joined(separator: ", "))
                }
            }
            set.append("\(ear.name)WHO2021Grade", pta4[ear].map { .text(Self.who2021Grade($0)) } ?? .missing)
        }
        if let right = pta4[.right], let left = pta4[.left] {
            let better: Ear = right <= left ? .right : .left
            let (b, w) = better == .right ? (right, left) : (left, right)
            set.append("betterEar", .text(better.name))
            set.append("betterEarPTA4DbHL", b)
            set.append("betterEarPTA3DbHL", pta3[better])
            set.append("who2021Category", .text(Self.who2021Category(better: b, worse: w)))
            set.append("who1991Grade", Double(Self.who1991Grade(b)))
            set.append("clarkDegree", pta3[better].map { .text(Self.clarkDegree($0)) } ?? .missing)
        } else {
            for key in ["betterEar", "betterEarPTA4DbHL", "betterEarPTA3DbHL", "who2021Category", "who1991Grade", "clarkDegree"] {
                set.append(key, .missing)
            }
        }
        set.append("asymmetric", isAsymmetric)
        set.append("asymmetricFrequenciesHz", .numbers(asymmetricFrequencies))
        for ear in [Ear.right, .left] {
            let difference = retestDifference[ear]
            set.append("\(ear.name)Retest1000HzDifferenceDb", difference)
            if let difference, difference > 5 {
                warnings.append("\(ear.name) ear: 1 kHz test and retest differ by \(Self.integerText(difference)) dB (> 5 dB); the first is used")
            }
        }
        return (set, warnings)
    }
}
