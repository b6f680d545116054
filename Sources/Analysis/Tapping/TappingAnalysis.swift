import InputGuards
import Glibc
import SensorData

/// Two-finger tapping features (docs/analyses.md §1): the peer sets `mhealthtools` (default),
/// `mpowerSdata` and `pdscores`, and ActiveTaskKit's `atk` extras. Pure functions of a
/// `TappingResult` (rows in recorded order).
public enum TappingAnalysis {
    /// Which peer convention supplies the main feature set.
    public enum Convention: String, Sendable, CaseIterable, Codable, NamedChoice {
        /// Sage-Bionetworks/mhealthtools 0.2.1 `get_tapping_features` (default).
        case mhealthtools
        /// Sage-Bionetworks/mPower-sdata `featureExtraction/tappingHelpers.R` (Bot et al. 2016).
        case mpowerSdata = "mpower-sdata"
        /// Sage-Bionetworks/PDScores `features_bta.m` (Max Little; mPower's in-app scores).
        case little

        /// The feature-set name in output (docs/analyses.md §0).
        public var setName: String {
            switch self {
            case .mhealthtools: "mhealthtools"
            case .mpowerSdata: "mpowerSdata"
            case .little: "pdscores"
            }
        }
    }

    /// mhealthtools' `depressThr`: the minimum |Δx| between kept taps, points.
    public static let mhealthtoolsDepressThreshold = 20.0

    /// Everything `score tapping` reports.
    public struct Result: Sendable {
        /// The peer set of the chosen convention, under the peer's names (docs/analyses.md §1.4–1.5).
        public var peer: TappingPeerFeatures
        /// The toolkit's own measures (docs/analyses.md §1.6).
        public var atk: TappingExtraFeatures
        /// What the reader noticed (unsorted timestamps, duplicates, …).
        public var warnings: [ReadWarning]
        /// The peer's error text when the input is unusable (exit status 1), else nil.
        public var error: String? { peer.error }
    }

    /// Scores `result` with `convention` plus the `atk` extras.
    ///
    /// - Parameter depressThreshold: minimum |Δx| between kept taps, points (mhealthtools 20).
    public static func analyze(_ result: TappingResult, convention: Convention = .mhealthtools, depressThreshold: Double = mhealthtoolsDepressThreshold) -> Result {
        let rows = Rows(result)
        let cleaned = MhealthtoolsCleaning(rows, depressThreshold: depressThreshold)
        let peer: TappingPeerFeatures
        switch convention {
        case .mhealthtools: peer = mhealthtools(cleaned)
        case .mpowerSdata: peer = mpowerSdata(rows, depressThreshold: depressThreshold)
        case .little: peer = pdscores(rows, depressThreshold: depressThreshold)
        }
        var warnings: [ReadWarning] = []
        if cleaned.noneDuplicatesRemoved > 0 { warnings.append(.duplicateNoneTaps(count: cleaned.noneDuplicatesRemoved)) }
        if result.decreasingTimestampPairs > 0 { warnings.append(.unsortedTimestamps(count: result.decreasingTimestampPairs)) }
        return Result(peer: peer, atk: atk(result, cleaned), warnings: warnings)
    }

    /// The taps the mhealthtools features are computed from (docs/analyses.md §1.2 cleaning) as their
    /// times since the first kept tap, s, and the interval from the previous kept tap, s (the
    /// series `tapInter` statistics describe). Empty when fewer than 5 taps remain.
    public static func keptIntervals(_ result: TappingResult, depressThreshold: Double = mhealthtoolsDepressThreshold) -> (timeSeconds: [Double], intervalSeconds: [Double]) {
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

    /// docs/analyses.md §1.2: split Left/Right (A) and None (B) rows, drop None rows repeating an earlier
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
            // mhealthtools compares the steps of x − mean(x) (R's mean), not of x.
            let mean = RArithmetic.mean(sorted.map { rows.x[$0] })
            kept = [sorted[0]]
            for k in 1..<sorted.count where isJump(from: rows.x[sorted[k - 1]], to: rows.x[sorted[k]], mean: mean, threshold: depressThreshold) {
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
    static func mhealthtools(_ cleaned: MhealthtoolsCleaning) -> TappingPeerFeatures {
        if let error = cleaned.error { return .unusable(error: error) }
        let intervals = intervalFeatures(rows: cleaned.rows, kept: cleaned.kept, intervals: cleaned.intervals, moments: .e1071Type3, shortNA: false)
        return .mhealthtools(MhealthtoolsTappingFeatures(intervals: intervals))
    }

    /// Interval, drift and count features shared by the mhealthtools and mPower-sdata sets.
    static func intervalFeatures(rows: Rows, kept: [Int], intervals d: [Double], moments: TapStatistics.Moments, shortNA: Bool) -> TapIntervalFeatures {
        typealias S = TapStatistics
        /// The eleven statistics of `v` (skew, kur and cv NaN below 3 values under `shortNA`).
        func eleven(_ v: [Double]) -> TapSeriesStatistics {
            let tooShort = shortNA && v.count < 3
            let (median, iqr, mad) = S.medianIQRAndMAD(v)
            return TapSeriesStatistics(
                mean: S.mean(v), median: median, iqr: iqr, min: S.min(v), max: S.max(v), skew: tooShort ? .nan : S.skew(v, moments),
                kur: tooShort ? .nan : S.kurtosis(v, moments), sd: S.sd(v), mad: mad, cv: tooShort ? .nan : S.cv(v), range: S.range(v))
        }
        let short = shortNA && d.count < 3
        let (k10, k25, k50) = S.fatigueCounts(d.count)
        // Drift: sides by position relative to the mean x of the kept taps (R's mean, whose
        // rounding decides a tap at the mean), not by label.
        let xs = kept.map { rows.x[$0] }
        let meanX = RArithmetic.mean(xs)
        let drift = [true, false].map { left in
            let side = kept.filter { (rows.x[$0] < meanX) == left }
            return eleven(side.indices.dropFirst().map { j in hypot(rows.x[side[j]] - rows.x[side[j - 1]], rows.y[side[j]] - rows.y[side[j - 1]]) })
        }
        return TapIntervalFeatures(
            tapInter: eleven(d),
            tkeoTapInter: short ? .nan : S.tkeo(d), ar1TapInter: short ? .nan : S.autocorrelation(d, lag: 1),
            ar2TapInter: short ? .nan : S.autocorrelation(d, lag: 2), fatigue10TapInter: short ? .nan : S.fatigue(d, k: k10),
            fatigue25TapInter: short ? .nan : S.fatigue(d, k: k25), fatigue50TapInter: short ? .nan : S.fatigue(d, k: k50),
            driftLeft: drift[0], driftRight: drift[1],
            numberTaps: kept.count, buttonNoneFreq: Double(kept.filter { rows.button[$0] == .none }.count) / Double(kept.count),
            corXY: S.correlation(xs, kept.map { rows.y[$0] }))
    }

    // MARK: - mPower-sdata and PDScores

    /// mPower-sdata: a None row is dropped if its (x, y) equals any earlier row's in the order
    /// Left rows, Right rows, None rows; rows sorted by time; kept = the tap before each jump
    /// (|x_{i+1} − x_i| > threshold), so the last tap is never kept; population moments; skew,
    /// kur, cv, tkeo, fatigue, ar are NA with fewer than 3 intervals; plus `dfaTapInter`.
    static func mpowerSdata(_ rows: Rows, depressThreshold: Double) -> TappingPeerFeatures {
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
        let kept = tapsBeforeJumps(sorted, rows: rows, threshold: depressThreshold, mean: RArithmetic.mean(sorted.map { rows.x[$0] }))
        guard !kept.isEmpty else { return .unusable(error: "no taps remain after cleaning") }
        let d = kept.indices.dropFirst().map { rows.t[kept[$0]] - rows.t[kept[$0 - 1]] }
        let intervals = intervalFeatures(rows: rows, kept: kept, intervals: d, moments: .population, shortNA: true)
        return .mpowerSdata(MpowerSdataTappingFeatures(intervals: intervals, dfaTapInter: TapStatistics.dfa(d)))
    }

    /// PDScores `features_bta`: recorded order, no de-duplication, kept taps as mPower-sdata;
    /// `tapdt` = median interval (s), `tapiqr` = interval IQR with type-5 quantiles (MATLAB).
    static func pdscores(_ rows: Rows, depressThreshold: Double) -> TappingPeerFeatures {
        let kept = tapsBeforeJumps(Array(0..<rows.count), rows: rows, threshold: depressThreshold, mean: TapStatistics.mean(rows.x))
        let d = kept.indices.dropFirst().map { rows.t[kept[$0]] - rows.t[kept[$0 - 1]] }
        return .pdscores(PDScoresTappingFeatures(tapdt: TapStatistics.median(d), tapiqr: TapStatistics.iqrType5(d)))
    }

    /// Indices i of `order` whose step to the next is a jump (``isJump(from:to:mean:threshold:)``,
    /// `mean` the peer's mean of x: R's for mPower-sdata, MATLAB's double sum over n for PDScores).
    static func tapsBeforeJumps(_ order: [Int], rows: Rows, threshold: Double, mean: Double) -> [Int] {
        guard order.count >= 2 else { return [] }
        return (0..<(order.count - 1)).filter { isJump(from: rows.x[order[$0]], to: rows.x[order[$0 + 1]], mean: mean, threshold: threshold) }.map { order[$0] }
    }

    /// Whether the step from x `a` to `b` is a depress event: |(b − mean) − (a − mean)| above the
    /// threshold, the step of the centred x as every peer takes it (far from the mean a step of
    /// exactly the threshold rounds an ulp either way once centred).
    static func isJump(from a: Double, to b: Double, mean: Double, threshold: Double) -> Bool {
        abs((b - mean) - (a - mean)) > threshold
    }
}
