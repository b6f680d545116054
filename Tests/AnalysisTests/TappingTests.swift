import Foundation
import Testing
import TestSupport
@testable import Analysis
@testable import SensorData

/// docs/analyses.md §5 T: mhealthtools 0.2.1 and mPower-sdata run in R 4.2.2 with e1071 1.7-13.
@Suite struct TappingTests {
    /// Fixture T1 (recorded order; row 7 repeats row 6, row 9 is out of order).
    static let t1: TappingResult = {
        let rows: [(Double, Double, Double, TapButton)] = [
            (0.00, 95, 415, .left), (0.20, 225, 418, .right), (0.35, 97, 412, .left), (0.36, 104, 414, .left),
            (0.57, 220, 420, .right), (0.73, 160, 300, .none), (0.73, 160, 300, .none), (0.98, 100, 417, .left),
            (1.30, 93, 419, .left), (1.12, 228, 413, .right), (1.32, 108, 421, .left), (1.34, 120, 422, .left),
            (1.60, 222, 416, .right), (1.77, 98, 414, .left), (1.98, 226, 411, .right),
        ]
        var result = TappingResult(dialect: .appCore)
        for (t, x, y, button) in rows { result.append(timestamp: t, x: x, y: y, button: button) }
        result.buttonRectLeft = Rect(origin: Point(x: 44, y: 364), size: Size(width: 104, height: 104))
        result.buttonRectRight = Rect(origin: Point(x: 172, y: 364), size: Size(width: 104, height: 104))
        return result
    }()

    static let mhealthtoolsT1: [(String, Double)] = [
        ("meanTapInter", 0.198), ("medianTapInter", 0.19), ("iqrTapInter", 0.055), ("minTapInter", 0.14), ("maxTapInter", 0.3),
        ("skewTapInter", 0.685190250528), ("kurTapInter", -0.728441279226), ("sdTapInter", 0.0493963561409),
        ("madTapInter", 0.044478), ("cvTapInter", 24.9476546166), ("rangeTapInter", 0.16), ("tkeoTapInter", 0.0004875),
        ("ar1TapInter", -0.49927140255), ("ar2TapInter", 0.00418943533698), ("fatigue10TapInter", 0.01),
        ("fatigue25TapInter", -0.0516666666667), ("fatigue50TapInter", -0.0123333333333),
        ("meanDriftLeft", 55.5894578473), ("medianDriftLeft", 7.28010988928), ("iqrDriftLeft", 121.431850443),
        ("minDriftLeft", 3.60555127546), ("maxDriftLeft", 131.487642005), ("skewDriftLeft", 0.291630231705),
        ("kurDriftLeft", -2.25179448924), ("sdDriftLeft", 67.9467822661), ("madDriftLeft", 5.44790060084),
        ("cvDriftLeft", 122.229618524), ("rangeDriftLeft", 127.882090729),
        ("meanDriftRight", 7.28165969745), ("medianDriftRight", 6.55566408497), ("iqrDriftRight", 1.5400550227),
        ("minDriftRight", 5.38516480713), ("maxDriftRight", 10.6301458127), ("skewDriftRight", 0.611179826793),
        ("kurDriftRight", -1.76124345672), ("sdDriftRight", 2.30287705578), ("madDriftRight", 0.980768903633),
        ("cvDriftRight", 31.6257165463), ("rangeDriftRight", 5.2449810056),
        ("numberTaps", 11), ("buttonNoneFreq", 0.0909090909091), ("corXY", 0.0026890498558),
    ]

    /// The table prints 12 significant digits; 1e-9 relative is the requirement on the values
    /// themselves, so compare to the printed precision.
    static func close(_ a: Double, _ b: Double, relative: Double = 1e-10) -> Bool {
        abs(a - b) <= relative * max(abs(b), 1e-300) + 5e-13
    }

    @Test("T1, mhealthtools: the 42 features in R's order and value, then error = None")
    func mhealthtoolsT1() throws {
        let result = TappingAnalysis.analyze(Self.t1)
        // The rows derived from the typed features carry R's names in R's order.
        let rows = FeatureSet(name: "mhealthtools", features: result.peer)
        #expect(rows.names == Self.mhealthtoolsT1.map(\.0) + ["error"])
        for (name, expected) in Self.mhealthtoolsT1 {
            let value = try #require(rows[name]?.number, "\(name)")
            #expect(Self.close(value, expected), "\(name): \(value) vs \(expected)")
        }
        #expect(rows["error"] == .missing)
        guard case .mhealthtools(let features) = result.peer else { Issue.record("not the mhealthtools set: \(result.peer)"); return }
        #expect(features.intervals.tapInter.mean == rows["meanTapInter"]?.number && features.intervals.numberTaps == 11 && features.error == nil)
        #expect(result.error == nil)
        #expect(result.warnings.contains(.duplicateNoneTaps(count: 1)))
        #expect(result.warnings.contains(.unsortedTimestamps(count: 1)))
    }

    @Test("T1, mPower-sdata: kept taps before jumps, population moments, fatigue25")
    func mpowerSdataT1() throws {
        let set = FeatureSet(name: "mpowerSdata", features: TappingAnalysis.analyze(Self.t1, convention: .mpowerSdata).peer)
        let expected: [(String, Double)] = [
            ("meanTapInter", 0.196666666667), ("medianTapInter", 0.2), ("iqrTapInter", 0.06), ("sdTapInter", 0.04213074887),
            ("skewTapInter", 0.2151140947), ("kurTapInter", 1.738048006), ("cvTapInter", 21.42241468),
            ("fatigue25TapInter", -0.0366666666667), ("numberTaps", 10),
        ]
        for (name, value) in expected {
            let actual = try #require(set[name]?.number, "\(name)")
            #expect(Self.close(actual, value, relative: 1e-9), "\(name): \(actual) vs \(value)")
        }
        #expect(set["dfaTapInter"]?.number?.isNaN == true)  // 9 intervals < 18
    }

    @Test("T1, PDScores (little): raw order, tapdt = 0.2, tapiqr = 0.07 with type-5 quantiles")
    func pdscoresT1() throws {
        guard case .pdscores(let set) = TappingAnalysis.analyze(Self.t1, convention: .little).peer else { Issue.record("not the PDScores set"); return }
        #expect(Self.close(set.tapdt, 0.2))
        #expect(Self.close(set.tapiqr, 0.07))
    }

    @Test("T1, atk extras by hand")
    func atkT1() throws {
        let atk = TappingAnalysis.analyze(Self.t1).atk
        let set = FeatureSet(name: "atk", features: atk)
        let expected: [(String, Double)] = [
            ("buttonTapCount", 13), ("noneTapCount", 1), ("noneDuplicatesRemoved", 1), ("alternationErrorCount", 3),
            ("alternationErrorRate", 0.25), ("keptTapRatePerSecond", 10 / 1.98), ("buttonTapRatePerSecond", 12 / 1.98),
            ("targetDistanceMeanPointsLeft", 7.8395422), ("targetDistanceMeanPointsRight", 4.0556174), ("targetDistanceMeanPointsAll", 6.3841865),
            ("targetDistanceMedianPointsLeft", 4.1828732), ("targetDistanceMedianPointsRight", 5.0), ("targetDistanceMedianPointsAll", 4.2426407),
            ("targetDistanceSdPointsLeft", 7.7398101), ("targetDistanceSdPointsRight", 1.7860457),
            ("outsideRectCount", 1), ("labelGeometryMismatchCount", 0), ("buttonHitRate", 1), ("outsideDistanceMeanPoints", 4240.0.squareRoot()),
            ("fatigue10SymTapInter", -0.01), ("fatigue25SymTapInter", -0.015), ("fatigue50SymTapInter", -0.004),
        ]
        for (name, value) in expected {
            let actual = try #require(set[name]?.number, "\(name)")
            #expect(abs(actual - value) <= 1e-7 * max(1, abs(value)), "\(name): \(actual) vs \(value)")
        }
        #expect(atk.dfaTapInter?.isNaN == true)
        #expect(atk.dwellMeanSeconds == nil)  // AppCore dialect has no durations
        #expect(atk.buttonTapCount == 13 && atk.left.targetDistanceMedianPoints == set["targetDistanceMedianPointsLeft"]?.number)
    }

    @Test("T2: the three errors of docs/analyses.md §1.2, in order")
    func errors() {
        func result(_ rows: [(Double, Double, TapButton)]) -> TappingResult {
            var result = TappingResult(dialect: .appCore)
            for (t, x, button) in rows { result.append(timestamp: t, x: x, y: 400, button: button) }
            return result
        }
        let four = result([(0, 95, .left), (0.2, 225, .right), (0.4, 95, .left), (0.6, 225, .right)])
        #expect(TappingAnalysis.analyze(four).error == "tapping data has less than 5 rows")
        let nones = result((0..<5).map { _ in (0.1, 160, .none) })
        #expect(TappingAnalysis.analyze(nones).error == "sensor data has less than 5 unique rows")
        let still = result((0..<5).map { (Double($0) * 0.2, 100 + Double($0), .left) })
        #expect(TappingAnalysis.analyze(still).error == "post cleaning less than 5 tap points remain")
        #expect(TappingAnalysis.analyze(still).peer == .unusable(error: "post cleaning less than 5 tap points remain"))
        #expect(FeatureSet(name: "mhealthtools", features: TappingAnalysis.analyze(still).peer).names == ["error"])
    }

    @Test("fatigue k: round half to even, the k + 1 tail, k = 0 compares the ends")
    func fatigueCounts() {
        let k10 = [4: 0, 5: 0, 6: 1, 14: 1, 15: 2, 25: 2, 26: 3, 34: 3, 35: 4, 45: 4, 46: 5, 54: 5, 55: 6]
        for (n, k) in k10 { #expect(TapStatistics.fatigueCounts(n).k10 == k, "n=\(n)") }
        for (n, k) in [6: 2, 10: 2, 14: 4, 18: 4] { #expect(TapStatistics.fatigueCounts(n).k25 == k, "n=\(n)") }
        #expect(TapStatistics.fatigue([1, 2, 3, 4], k: 0) == 1 - 4)
        #expect(TapStatistics.fatigue([1, 2, 3, 4, 5, 6], k: 1) == 1 - 5.5)
    }

    static let centredStepXs = [207.2, 253.6, 40.8, 60.8, 236.6, 205.8, 250.7]
    static let sideAtMeanXs = [206.8, 166.6, 219.8, 138.1, 226.7, 282.80000000000007]

    /// Taps at these x (y 416 unless given, 0.2 s apart, the button by side), for the two rounding cases below.
    static func taps(_ xs: [Double], ys: [Double]? = nil, middle: Double) -> TappingResult {
        var result = TappingResult(dialect: .appCore)
        for (i, x) in xs.enumerated() { result.append(timestamp: 0.2 * Double(i), x: x, y: ys?[i] ?? 416, button: x < middle ? .left : .right) }
        return result
    }

    @Test("the depress threshold on steps of x − mean(x), as mhealthtools: a step of exactly 20 points far from the mean rounds to 20.000000000000014 and is kept")
    func thresholdOnCentredSteps() throws {
        // R's mean of these x is 179.35714285714286; 40.8 − mean and 60.8 − mean round so that
        // their difference is 20 + 2^-46 > 20, so mhealthtools keeps all 7 taps (its
        // get_tapping_features gives numberTaps 7); 60.8 − 40.8 is 20 exactly, which would drop one.
        let xs = Self.centredStepXs
        #expect(60.8 - 40.8 == 20 && abs((60.8 - 179.35714285714286) - (40.8 - 179.35714285714286)) == 20 + 0x1p-46)
        let result = TappingAnalysis.analyze(Self.taps(xs, middle: 150))
        guard case .mhealthtools(let features) = result.peer else { Issue.record("\(result.peer)"); return }
        #expect(features.intervals.numberTaps == 7)
    }

    @Test("mPower-sdata and PDScores centre x too: on the same taps every step is a jump, the six taps before them kept and PDScores' five intervals all 0.2 s")
    func otherConventionsOnCentredSteps() throws {
        // tappingHelpers.R and features_bta.m subtract the mean before differencing, as
        // mhealthtools does; keeping the tap before each of the six jumps leaves six taps, and
        // their five intervals of 0.2 s have an IQR of 0 (without the centring the 20-point step
        // would be no jump: five taps, intervals 0.2, 0.4, 0.2, 0.2, IQR 0.1 with type-5 quantiles).
        let sdata = TappingAnalysis.analyze(Self.taps(Self.centredStepXs, middle: 150), convention: .mpowerSdata).peer
        guard case .mpowerSdata(let features) = sdata else { Issue.record("\(sdata)"); return }
        #expect(features.intervals.numberTaps == 6)
        let little = TappingAnalysis.analyze(Self.taps(Self.centredStepXs, middle: 150), convention: .little).peer
        guard case .pdscores(let scores) = little else { Issue.record("\(little)"); return }
        #expect(abs(scores.tapdt - 0.2) < 1e-9 && abs(scores.tapiqr) < 1e-9, "\(scores)")
    }

    @Test("the drift sides split at R's mean of the kept x: a tap at the mean is on the right, as mhealthtools puts it")
    func sidesAtRsMean() throws {
        // These x sum to 6 × 206.8 exactly, so R's (extended, corrected) mean is 206.8 and the
        // first tap, at 206.8, is on the right (x ≥ mean); a double sum in this order gives
        // 206.80000000000004, which would put it on the left. Left: 166.6 and 138.1, one drift of
        // √(28.5² + 5²) points (mhealthtools: meanDriftLeft 28.935272592460574).
        let xs = Self.sideAtMeanXs, ys = [410.0, 420, 405, 415, 425, 412]
        #expect(xs.reduce(0, +) / 6 == 206.80000000000004)
        let result = TappingAnalysis.analyze(Self.taps(xs, ys: ys, middle: 200))
        guard case .mhealthtools(let features) = result.peer else { Issue.record("\(result.peer)"); return }
        #expect(features.intervals.driftLeft.min == features.intervals.driftLeft.max)
        #expect(abs(features.intervals.driftLeft.mean - (28.5 * 28.5 + 5 * 5).squareRoot()) <= 1e-12)
        #expect(abs(features.intervals.driftLeft.mean - 28.935272592460574) <= 1e-9 * 28.9)
    }

    @Test("degenerate vectors give R's values")
    func degenerate() {
        typealias S = TapStatistics
        #expect(S.min([]) == .infinity && S.max([]) == -.infinity && S.range([]) == -.infinity)
        let empty = S.medianIQRAndMAD([]), single = S.medianIQRAndMAD([3])
        #expect(S.mean([]).isNaN && empty.median.isNaN && empty.iqr.isNaN && empty.mad.isNaN)
        #expect(single == (3, 0, 0) && S.range([3]) == 0 && S.sd([3]).isNaN)
        // R: median(c(1, 2, 4, 7, 11)) = 4, IQR(…) = 7 − 2 = 5, mad(…) = 1.4826 · median(3, 2, 0, 3, 7) = 4.4478
        let r = S.medianIQRAndMAD([11, 2, 7, 1, 4])
        #expect(r.median == 4 && r.iqr == 5 && abs(r.mad - 4.4478) < 1e-12)
        #expect(S.medianIQRAndMAD([1, .nan, 3]).mad.isNaN)
        #expect(S.skew([1, 2], .e1071Type3) == 0)
        #expect(S.kurtosis([1, 2], .e1071Type3) == -2.75)
        #expect(S.skew([2, 2, 2], .e1071Type3).isNaN)
        #expect(S.correlation([1, 1, 1], [1, 2, 3]).isNaN)
    }

    /// Property: intervals and all interval features are invariant under a time shift, and
    /// drift features under a common translation of the taps.
    @Test("features are invariant under time shifts and translations")
    func invariance() throws {
        var shifted = Self.t1
        shifted.timestamp = shifted.timestamp.map { $0 + 1234.5 }
        shifted.x = shifted.x.map { $0 + 7 }
        shifted.y = shifted.y.map { $0 - 11 }
        let a = FeatureSet(name: "mhealthtools", features: TappingAnalysis.analyze(Self.t1).peer)
        let b = FeatureSet(name: "mhealthtools", features: TappingAnalysis.analyze(shifted).peer)
        for name in a.names where name.hasSuffix("TapInter") || name.contains("Drift") || name == "numberTaps" {
            let x = try #require(a[name]?.number), y = try #require(b[name]?.number)
            #expect(abs(x - y) <= 1e-9 * max(1, abs(x)), "\(name)")
        }
    }

    /// DFA of white noise is ≈ 0.5 and of a random walk's increments integrated (Brownian
    /// profile of a random walk) ≈ 1.5 (Peng et al. 1994).
    @Test("DFA exponent: white noise ≈ 0.5, random walk ≈ 1.5")
    func dfa() {
        var random = SeededRandom(seed: 42)
        let noise = (0..<4096).map { _ in random.unit() - 0.5 }
        #expect(abs(TapStatistics.dfa(noise) - 0.5) < 0.1)
        var walk: [Double] = []
        var sum = 0.0
        for value in noise { sum += value; walk.append(sum) }
        #expect(abs(TapStatistics.dfa(walk) - 1.5) < 0.1)
    }
}

@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct RealTappingTests {
    @Test("every real tapping file scores without error", arguments: ["mpower/pdscores_tapping.json", "mpower/pdkit_mpower_finger_tapping.json"])
    func realFiles(file: String) throws {
        let contents = try JSONContents.read(SharedData.path(file))
        let tapping = try #require(contents.tappingResults.first)
        for convention in TappingAnalysis.Convention.allCases {
            let result = TappingAnalysis.analyze(tapping, convention: convention)
            #expect(result.error == nil, "\(convention)")
        }
        guard case .mhealthtools(let features) = TappingAnalysis.analyze(tapping).peer else { Issue.record("no mhealthtools features"); return }
        #expect(FeatureSet(name: "mhealthtools", features: features).names.count == 43)
        #expect(features.intervals.numberTaps > 100 && features.intervals.numberTaps <= tapping.count)
        #expect(features.intervals.tapInter.mean > 0.05 && features.intervals.tapInter.mean < 0.5)
    }
}
