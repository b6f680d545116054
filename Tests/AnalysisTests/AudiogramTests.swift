import Foundation
import Testing
import TestSupport
@testable import Analysis
@testable import SensorData

/// docs/audiometry.md §11–§12: audiograms from results and AUXU rows, averages, grades, plots.
@Suite struct AudiogramTests {
    static func audiogram(right: [Double: Double?], left: [Double: Double?]) -> Audiogram {
        var audiogram = Audiogram()
        audiogram.thresholds = [.right: right, .left: left]
        return audiogram
    }

    @Test("PTAs, better ear, WHO 2021 / 1991, Clark and asymmetry by hand")
    func grades() throws {
        let audiogram = Self.audiogram(right: [500: 10, 1000: 20, 2000: 30, 4000: 40], left: [500: 40, 1000: 50, 2000: 60, 4000: 70])
        let (f, warnings) = audiogram.features
        #expect(warnings.isEmpty)
        #expect(f.right.pta3DbHL == 20)  // (10 + 20 + 30) / 3
        #expect(f.right.pta4DbHL == 25)  // (10 + 20 + 30 + 40) / 4
        #expect(f.left.pta4DbHL == 55)
        #expect(f.betterEar == .right)
        #expect(f.right.who2021Grade == "mild")  // 20 ≤ 25 < 35
        #expect(f.left.who2021Grade == "moderately severe")  // 50 ≤ 55 < 65
        #expect(f.who2021Category == "mild")  // better ear 25 is not < 20: not unilateral
        #expect(f.who1991Grade == 0)  // 25 ≤ 25
        #expect(f.clarkDegree == "slight")  // better-ear PTA3 20: 15 < 20 ≤ 25
        #expect(f.asymmetric == true)
        #expect(f.asymmetricFrequenciesHz == [500, 1000, 2000, 4000])  // 30 dB apart everywhere
        // The rows: per ear its frequencies ascending (threshold, status), its averages and grade.
        let set = FeatureSet(name: "atk", features: f)
        #expect(Array(set.names.prefix(11)) == [
            "right500HzDbHL", "right500HzStatus", "right1000HzDbHL", "right1000HzStatus", "right2000HzDbHL", "right2000HzStatus",
            "right4000HzDbHL", "right4000HzStatus", "rightPTA3DbHL", "rightPTA4DbHL", "rightWHO2021Grade",
        ])
        #expect(set["betterEar"] == .text("right") && set["right500HzDbHL"] == .number(10) && set["who1991Grade"] == .number(0))

        let unilateral = Self.audiogram(right: [500: 10, 1000: 10, 2000: 10, 4000: 10], left: [500: 40, 1000: 40, 2000: 40, 4000: 40])
        #expect(unilateral.features.features.who2021Category == "unilateral")
        // One frequency 15 dB apart is not asymmetry; two adjacent ones are.
        let single = Self.audiogram(right: [1000: 0, 2000: 0, 4000: 0], left: [1000: 0, 2000: 15, 4000: 0])
        #expect(!single.isAsymmetric && single.asymmetricFrequencies == [2000] && single.features.features.asymmetric == false)
        // Nothing to compare (one ear only, or no frequency with a threshold in both): unknown, null.
        let oneEar = Self.audiogram(right: [1000: 10, 2000: 20], left: [:])
        #expect(oneEar.features.features.asymmetric == nil && FeatureSet(name: "atk", features: oneEar.features.features)["asymmetric"] == .missing)
        let disjoint = Self.audiogram(right: [1000: 10, 2000: nil], left: [2000: 40, 4000: 0])
        #expect(disjoint.features.features.asymmetric == nil)
    }

    @Test("NHANES AUXU row: 666 no response, 888 and empty not tested, AUXU1K2 retest; undefined PTAs say why")
    func auxuRow() throws {
        let columns = ["SEQN", "AUXU1K1R", "AUXU500R", "AUXU1K2R", "AUXU2KR", "AUXU4KR", "AUXU1K1L", "AUXU500L", "AUXU2KL", "AUXU4KL"]
        let audiogram = Audiogram(columns: columns, values: [62_161, 20, 10, 30, 30, 666, 5, 888, 10, .nan])
        #expect(audiogram.thresholds[.right] == [1000: 20, 500: 10, 2000: 30, 4000: Double?.none] as [Double: Double?])
        #expect(audiogram.thresholds[.left] == [1000: 5, 2000: 10] as [Double: Double?])
        #expect(audiogram.retestDifference == [.right: 10])
        let (f, warnings) = audiogram.features
        #expect(f.right.pta3DbHL == 20)
        #expect(f.right.pta4DbHL == nil)
        #expect(f.right.thresholds.last == AudiogramFeatures.Threshold(frequencyHz: 4000, decibelsHL: nil))
        let set = FeatureSet(name: "atk", features: f)
        #expect(set["right4000HzDbHL"] == .missing && set["right4000HzStatus"] == .text("noResponse") && set["right2000HzStatus"] == .text("measured"))
        #expect(f.betterEar == nil && set["betterEar"] == .missing)
        #expect(f.rightRetest1000HzDifferenceDb == 10)
        #expect(warnings.contains("right PTA4 undefined: 4000 Hz no response"))
        #expect(warnings.contains("left PTA3 undefined: 500 Hz missing"))
        #expect(warnings.contains { $0.hasPrefix("right ear: 1 kHz test and retest differ by 10 dB") })
    }

    /// Found by Fuzz/run.sh (fuzz-csv): a column AUXU862546856055495400046KR trapped converting
    /// its frequency to Int for the feature name.
    @Test("AUXU columns name audiometric frequencies (125 Hz–20 kHz, plain decimals) or nothing; no value traps a feature name")
    func hostileColumns() throws {
        let accepted = ["AUXU500R": 500.0, "AUXU1K1L": 1000, "AUXU1K2R": 1000, "AUXU1.5KL": 1500, "AUXU8KR": 8000, "AUXU16KL": 16_000]
        for (name, hertz) in accepted { #expect(AudiogramTable.frequencyHz(ofColumn: name) == hertz, "\(name)") }
        for name in ["AUXU862546856055495400046KR", "AUXUinfKR", "AUXUnanL", "AUXU1e9L", "AUXU0x1p3KR", "AUXU100L", "AUXU25KR", "AUXU1..5KL", "AUXUKR"] {
            #expect(AudiogramTable.frequencyHz(ofColumn: name) == nil, "\(name)")
        }
        // Levels beyond ±2^63 (a test and retest 1e300 dB apart) are reported, not converted.
        let audiogram = Audiogram(columns: ["AUXU1K1R", "AUXU1K2R", "AUXU500R"], values: [1e300, -1e300, 10])
        let (f, warnings) = audiogram.features
        #expect(f.right.thresholds.first { $0.frequencyHz == 1000 }?.decibelsHL == 1e300)
        #expect(warnings.contains { $0.hasPrefix("right ear: 1 kHz test and retest differ by 2e+300 dB") }, "\(warnings)")
    }

    @Test("volume correction shifts thresholds, retests and no-response levels")
    func shifted() {
        var audiogram = Self.audiogram(right: [1000: 30, 2000: nil], left: [:])
        audiogram.retests = [.right: 40]
        audiogram.noResponseLevels = [.right: [2000: 75]]
        let corrected = audiogram.shifted(by: -29)
        #expect(corrected.thresholds[.right] == [1000: 1, 2000: Double?.none] as [Double: Double?])
        #expect(corrected.retests[.right] == 11)
        #expect(corrected.noResponseLevels[.right]?[2000] == 46)
    }

    @Test("SVG geometry: 80 px per octave from 125 Hz at x = 70, 40 px per 10 dB from −10 at y = 60")
    func svg() {
        var audiogram = Self.audiogram(right: [1000: 20, 4000: nil], left: [500: 40, 1000: 45])
        audiogram.noResponseLevels = [.right: [4000: 90]]
        audiogram.retests = [.left: 60]
        let svg = audiogram.svg(title: "a & b")
        // Right 1 kHz, 20 dB HL: x = 70 + 80·log2(1000/125) = 310, y = 60 + 40·(20 + 10)/10 = 180.
        #expect(svg.contains(#"<circle cx="310.0" cy="180.0" r="7.0""#))
        // Right 4 kHz no response at its highest level 90: x = 470, y = 460, arrow down-left.
        #expect(svg.contains(#"<circle cx="470.0" cy="460.0""#))
        #expect(svg.contains(#"<line x1="464.0" y1="466.0" x2="452.0" y2="478.0""#))
        // Left 500 Hz, 40 dB HL: an X centred at (230, 260), joined to 1 kHz, 45 dB HL (310, 280).
        #expect(svg.contains(#"M223.0,253.0 L237.0,267.0"#))
        #expect(svg.contains(#"points="230.0,260.0 310.0,280.0""#))
        // The right ear's line does not reach its no-response point: one point, no right polyline.
        #expect(!svg.contains("310.0,180.0 470.0"))
        // The left retest (60, 15 dB from 45) is marked at y = 340.
        #expect(svg.contains(#"M306.0,336.0 L314.0,344.0"#) && svg.contains(">retest<"))
        #expect(svg.contains("a &amp; b"))
    }

    @Test("a simulated test is a ResearchKit dB HL result that round-trips through the reader")
    func simulatedRoundTrip() throws {
        // A step-like listener (slope 10⁻⁶ dB, no false alarms or lapses) with true thresholds
        // 2.5 dB below the 5-dB grid hears exactly the levels ≥ T + 2.5, so the ResearchKit
        // procedure must find T + 2.5 (the deterministic listener of docs/audiometry.md §4).
        let truth = Self.audiogram(right: [500: 12.5, 1000: 22.5, 2000: 37.5], left: [1000: 2.5, 4000: 57.5])
        let listener = VirtualListener(slopeDecibels: 1e-6, falseAlarmRate: 0, lapseRate: 0)
        let test = AudiometrySimulation.test(truth: truth, procedure: .researchkit, listener: listener, seed: 3,
                                             headphone: "AIRPODSV1", outputVolume: 1)
        #expect(test.samples.map(\.frequencyHz) == [1000, 2000, 1000, 500, 1000, 4000, 1000])
        #expect(test.samples.map(\.channel) == [1, 1, 1, 1, 0, 0, 0])
        #expect(test.samples.map(\.calculatedThresholdDecibelsHL) == [25, 40, 25, 15, 5, 60, 5])
        var previous = -1.0
        for unit in test.samples.flatMap(\.units) {
            #expect(unit.startOfUnitTimeStamp > previous)
            previous = unit.startOfUnitTimeStamp
            let onset = unit.startOfUnitTimeStamp + unit.preStimulusDelay
            #expect((unit.userTapTimeStamp > onset) != (unit.timeoutTimeStamp > onset))
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("result.json", JSONWriter().string(test.researchKitJSON))
        let read = try #require(try JSONContents.read(path).dBHLResults.first)
        #expect(read == test)
        let audiogram = Audiogram(read)
        #expect(audiogram.thresholds[.right]?[1000] == 25 && audiogram.retestDifference[.right] == 0)
    }

    /// A test stopped in the middle of an entry (the listener had heard down to 10 dB HL at
    /// 2 kHz): `hearing-test` names the entry in userInfo as not finished; it is drawn with a "?"
    /// and left out of the thresholds, never an arrow at the last level ("no response").
    @Test("an entry named not finished is not a no-response: no threshold, no arrow, a ? in the chart, not in the features")
    func unfinishedEntry() {
        let unit = { (level: Double) in DBHLToneAudiometryResult.Unit(dBHLValue: level, startOfUnitTimeStamp: 0, preStimulusDelay: 1, userTapTimeStamp: 2, timeoutTimeStamp: 0) }
        let result = DBHLToneAudiometryResult(samples: [
            .init(frequencyHz: 1000, channel: 1, calculatedThresholdDecibelsHL: 20, units: [unit(30), unit(20)]),
            .init(frequencyHz: 2000, channel: 1, calculatedThresholdDecibelsHL: nil, units: [unit(30), unit(20), unit(10)]),
        ])
        let stopped = result.markingUnfinished(from: 1)
        #expect(stopped.unfinishedEntries == [.init(channel: 1, frequencyHz: 2000)])
        #expect(result.markingUnfinished(from: 2).userInfo[DBHLToneAudiometryResult.unfinishedKey] == nil)
        let plain = Audiogram(result), marked = Audiogram(stopped)
        // Unmarked, the missing threshold is ResearchKit's "no response" (an arrow at the highest level presented, 30 dB HL).
        #expect(plain.thresholds[.right]?[2000] == .some(nil) && plain.noResponseLevels[.right]?[2000] == 30)
        #expect(marked.thresholds[.right]?[2000] == nil && marked.notFinished[.right] == [2000] && marked.thresholds[.right]?[1000] == 20)
        let arrows = { (svg: String) in svg.components(separatedBy: "<polyline").count - 1 }
        #expect(arrows(plain.svg(title: "t")) == 1 && arrows(marked.svg(title: "t")) == 0)
        #expect(marked.svg(title: "t").contains(">?</text>") && marked.svg(title: "t").contains("? = not finished"))
        #expect(plain.features.warnings.joined().contains("2000 Hz no response"), "\(plain.features.warnings)")
        #expect(!marked.features.warnings.joined().contains("no response"), "\(marked.features.warnings)")
    }
}
