import Glibc
import SensorData

/// Two-finger tapping features (analysis.md §1): the peer sets `mhealthtools` (default),
/// `mpowerSdata` and `pdscores`, and ActiveTaskKit's `atk` extras. Pure functions of a
/// `TappingResult` (rows in recorded order).
public enum TappingAnalysis {
    /// Which peer convention supplies the main feature set.
    public enum Convention: String, Sendable, CaseIterable, Codable {
        /// Sage-Bionetworks/mhealthtools 0.2.1 `get_tapping_features` (default).
        case mhealthtools
        /// Sage-Bionetworks/mPower-sdata `featureExtraction/tappingHelpers.R` (Bot et al. 2016).
        case mpowerSdata = "mpower-sdata"
        /// Sage-Bionetworks/PDScores `features_bta.m` (Max Little; mPower's in-app scores).
        case little

        /// The feature-set name in output (analysis.md §0).
        public var setName: String {
            switch self {
            case .mhealthtools: "mhealthtools"
            case .mpowerSdata: "mpowerSdata"
            case .little: "pdscores"
            }
        }
    }

    /// Everything `score tapping` reports.
    public struct Result: Sendable {
        public var peer: FeatureSet
        public var atk: FeatureSet
        public var warnings: [ReadWarning]
        /// The peer's error text when the input is unusable (exit status 1), else nil.
        public var error: String?
    }

    /// Scores `result` with `convention` plus the `atk` extras.
    ///
    /// - Parameter depressThreshold: minimum |Δx| between kept taps, points (mhealthtools 20).
    public static func analyze(_ result: TappingResult, convention: Convention = .mhealthtools, depressThreshold: Double = 20) -> Result {
        let rows = Rows(result)
        let cleaned = MhealthtoolsCleaning(rows, depressThreshold: depressThreshold)
        let peer: FeatureSet
        switch convention {
        case .mhealthtools: peer = mhealthtools(cleaned)
        case .mpowerSdata: peer = mpowerSdata(rows, depressThreshold: depressThreshold)
        case .little: peer = pdscores(rows, depressThreshold: depressThreshold)
        }
        var warnings: [ReadWarning] = []
        if cleaned.noneDuplicatesRemoved > 0 { warnings.append(.duplicateNoneTaps(count: cleaned.noneDuplicatesRemoved)) }
        if result.decreasingTimestampPairs > 0 { warnings.append(.unsortedTimestamps(count: result.decreasingTimestampPairs)) }
        var error: String?
        if case .text(let text)? = peer["error"] { error = text }
        return Result(peer: peer, atk: atk(result, cleaned), warnings: warnings, error: error)
    }

    /// The taps the mhealthtools features are computed from (analysis.md §1.2 cleaning) as their
    /// times since the first kept tap, s, and the interval from the previous kept tap, s (the
    /// series `tapInter` statistics describe). Empty when fewer than 5 taps remain.
    public static func keptIntervals(_ result: TappingResult, depressThreshold: Double = 20) -> (timeSeconds: [Double], intervalSeconds: [Double]) {
        let cleaned = MhealthtoolsCleaning(Rows(result), depressThreshold: depressThreshold)
        guard cleaned.error == nil, let first = cleaned.kept.first else { return ([], []) }
        let times = cleaned.kept.dropFirst().map { result.timestamp[$0] - result.timestamp[first] }
        return (times, cleaned.intervals)
    }

    /// Tap rows in recorded order.
    struct Rows {
        var t: [Double], x: [Double], y: [Double]
        var button: [TapButton]
        var duration: [Double]

        init(_ result: TappingResult) {
            t = result.timestamp
            x = result.x
            y = result.y
            button = result.button
            duration = result.duration
        }

        var count: Int { t.count }
    }

    // MARK: - mhealthtools

    /// analysis.md §1.2: split Left/Right (A) and None (B) rows, drop None rows repeating an earlier
    /// None row's (x, y), concatenate A then B, stable-sort by t, keep the first row and each row
    /// whose |Δx| to the previous sorted row exceeds the threshold.
    struct MhealthtoolsCleaning {
        var error: String?
        /// Indices into the rows, sorted by time (after de-duplication).
        var sorted: [Int] = []
        /// Subset of `sorted` that is kept.
        var kept: [Int] = []
        var noneDuplicatesRemoved = 0
        let rows: Rows

        init(_ rows: Rows, depressThreshold: Double) {
            self.rows = rows
            guard rows.count >= 5 else {
                error = "tapping data has less than 5 rows"
                return
            }
            let buttons = rows.button.indices.filter { rows.button[$0] != .none }
            var nones: [Int] = []
            for i in rows.button.indices where rows.button[i] == .none {
                if nones.contains(where: { rows.x[$0] == rows.x[i] && rows.y[$0] == rows.y[i] }) {
                    noneDuplicatesRemoved += 1
                } else {
                    nones.append(i)
                }
            }
            let order = buttons + nones
            sorted = order.sorted { rows.t[$0] < rows.t[$1] }  // Swift's sort is stable: ties keep their order
            guard sorted.count >= 5 else {
                error = "sensor data has less than 5 unique rows"
                return
            }
            kept = [sorted[0]]
            for k in 1..<sorted.count where abs(rows.x[sorted[k]] - rows.x[sorted[k - 1]]) > depressThreshold {
                kept.append(sorted[k])
            }
            guard kept.count >= 5 else {
                error = "post cleaning less than 5 tap points remain"
                return
            }
        }

        /// Successive differences of the kept taps' times, s.
        var intervals: [Double] {
            guard error == nil else { return [] }
            return (1..<kept.count).map { rows.t[kept[$0]] - rows.t[kept[$0 - 1]] }
        }
    }

    /// The 42 mhealthtools features in R column order, then `error` (its message; null where
    /// mhealthtools writes "None").
    static func mhealthtools(_ cleaned: MhealthtoolsCleaning) -> FeatureSet {
        var set = FeatureSet(name: Convention.mhealthtools.setName, capacity: 43)
        if let error = cleaned.error {
            set.append("error", .text(error))
            return set
        }
        appendFeatures(&set, rows: cleaned.rows, kept: cleaned.kept, intervals: cleaned.intervals, moments: .e1071Type3, shortNA: false)
        set.append("error", .missing)  // mhealthtools writes "None"; no error is null here
        return set
    }

    /// The eleven statistics of each series, in R column order.
    private static let statisticNames = ["mean", "median", "iqr", "min", "max", "skew", "kur", "sd", "mad", "cv", "range"]
    /// Feature names of the interval, left-drift and right-drift series, built once.
    private static let intervalNames = (statisticNames + ["tkeo", "ar1", "ar2", "fatigue10", "fatigue25", "fatigue50"]).map { $0 + "TapInter" }
    private static let driftNames = [statisticNames.map { $0 + "DriftLeft" }, statisticNames.map { $0 + "DriftRight" }]

    /// Interval, drift and count features shared by the mhealthtools and mPower-sdata sets.
    static func appendFeatures(
        _ set: inout FeatureSet, rows: Rows, kept: [Int], intervals d: [Double], moments: TapStatistics.Moments, shortNA: Bool
    ) {
        typealias S = TapStatistics
        /// Appends the eleven statistics of `v` under `names`.
        func eleven(_ v: [Double], _ names: [String]) {
            let tooShort = shortNA && v.count < 3
            let (median, iqr, mad) = S.medianIQRAndMAD(v)
            let values = [
                S.mean(v), median, iqr, S.min(v), S.max(v), tooShort ? .nan : S.skew(v, moments), tooShort ? .nan : S.kurtosis(v, moments),
                S.sd(v), mad, tooShort ? .nan : S.cv(v), S.range(v),
            ]
            for (name, value) in zip(names, values) { set.append(name, value) }
        }
        let short = shortNA && d.count < 3
        eleven(d, intervalNames)
        let (k10, k25, k50) = S.fatigueCounts(d.count)
        let intervalExtras = short ? [Double](repeating: .nan, count: 6) : [
            S.tkeo(d), S.autocorrelation(d, lag: 1), S.autocorrelation(d, lag: 2), S.fatigue(d, k: k10), S.fatigue(d, k: k25), S.fatigue(d, k: k50),
        ]
        for (name, value) in zip(intervalNames[statisticNames.count...], intervalExtras) { set.append(name, value) }
        // Drift: sides by position relative to the mean x of the kept taps, not by label.
        let xs = kept.map { rows.x[$0] }
        let meanX = S.mean(xs)
        for (left, names) in zip([true, false], driftNames) {
            let side = kept.filter { (rows.x[$0] < meanX) == left }
            let drift = side.indices.dropFirst().map { j in
                hypot(rows.x[side[j]] - rows.x[side[j - 1]], rows.y[side[j]] - rows.y[side[j - 1]])
            }
            eleven(drift, names)
        }
        set.append("numberTaps", Double(kept.count))
        set.append("buttonNoneFreq", Double(kept.filter { rows.button[$0] == .none }.count) / Double(kept.count))
        set.append("corXY", S.correlation(xs, kept.map { rows.y[$0] }))
    }

    // MARK: - mPower-sdata and PDScores

    /// mPower-sdata: a None row is dropped if its (x, y) equals any earlier row's in the order
    /// Left rows, Right rows, None rows; rows sorted by time; kept = the tap before each jump
    /// (|x_{i+1} − x_i| > threshold), so the last tap is never kept; population moments; skew,
    /// kur, cv, tkeo, fatigue, ar are NA with fewer than 3 intervals; plus `dfaTapInter`.
    static func mpowerSdata(_ rows: Rows, depressThreshold: Double) -> FeatureSet {
        var set = FeatureSet(name: Convention.mpowerSdata.setName)
        let ordered = rows.button.indices.filter { rows.button[$0] == .left } + rows.button.indices.filter { rows.button[$0] == .right }
            + rows.button.indices.filter { rows.button[$0] == .none }
        var unique: [Int] = []
        for i in ordered {
            if rows.button[i] == .none, unique.contains(where: { rows.x[$0] == rows.x[i] && rows.y[$0] == rows.y[i] }) { continue }
            unique.append(i)
        }
        let sorted = unique.enumerated().sorted { a, b in
            rows.t[a.element] < rows.t[b.element] || (rows.t[a.element] == rows.t[b.element] && a.offset < b.offset)
        }.map(\.element)
        let kept = tapsBeforeJumps(sorted, rows: rows, threshold: depressThreshold)
        guard !kept.isEmpty else {
            set.append("error", .text("no taps remain after cleaning"))
            return set
        }
        let d = kept.indices.dropFirst().map { rows.t[kept[$0]] - rows.t[kept[$0 - 1]] }
        appendFeatures(&set, rows: rows, kept: kept, intervals: d, moments: .population, shortNA: true)
        set.append("dfaTapInter", TapStatistics.dfa(d))
        return set
    }

    /// PDScores `features_bta`: recorded order, no de-duplication, kept taps as mPower-sdata;
    /// `tapdt` = median interval (s), `tapiqr` = interval IQR with type-5 quantiles (MATLAB).
    static func pdscores(_ rows: Rows, depressThreshold: Double) -> FeatureSet {
        var set = FeatureSet(name: Convention.little.setName)
        let kept = tapsBeforeJumps(Array(0..<rows.count), rows: rows, threshold: depressThreshold)
        let d = kept.indices.dropFirst().map { rows.t[kept[$0]] - rows.t[kept[$0 - 1]] }
        set.append("tapdt", TapStatistics.median(d))
        set.append("tapiqr", TapStatistics.iqrType5(d))
        return set
    }

    /// Indices i of `order` with |x(order[i+1]) − x(order[i])| > threshold.
    static func tapsBeforeJumps(_ order: [Int], rows: Rows, threshold: Double) -> [Int] {
        guard order.count >= 2 else { return [] }
        return (0..<(order.count - 1)).filter { abs(rows.x[order[$0 + 1]] - rows.x[order[$0]]) > threshold }.map { order[$0] }
    }
}
