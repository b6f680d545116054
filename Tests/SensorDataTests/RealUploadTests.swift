import Foundation
import Testing
import TestSupport
@testable import SensorData

/// The readers on real uploads of `../shared/data`, checked against an independent reading:
/// each `"key": literal` of the file text converted by the standard library's correctly rounded
/// `Double(String)`. (Foundation's `JSONSerialization` on Linux is not a usable reference: it
/// reads `0.1417154166701948` as `0.14171541667019477`, one ulp off.)
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct RealUploadTests {
    /// Every number literal that follows `"key"` (then optional spaces, a colon, spaces) in the
    /// text, in file order, through `Double(String)`.
    func literals(_ key: String, in path: String) throws -> [Double] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var values: [Double] = []
        var rest = text[...]
        while let range = rest.range(of: "\"\(key)\"") {
            rest = rest[range.upperBound...].drop { $0 == " " }
            guard rest.first == ":" else { continue }
            let literal = rest.dropFirst().drop { $0 == " " }.prefix { "0123456789+-.eE".contains($0) }
            rest = rest[literal.endIndex...]
            if literal.isEmpty { continue }  // a string value, e.g. a manifest's "timestamp"
            values.append(try #require(Double(String(literal))))
        }
        return values
    }

    @Test("bare accelerometer arrays: every value equals the independent reading", arguments: ["mpower/pdkit_mpower_gait.json", "mpower/pdkit_mpower_tremor.json"])
    func accelerometerArrays(file: String) throws {
        let path = SharedData.path(file)
        let contents = try JSONContents.read(path)
        let series = try #require(contents.series.first?.series)
        #expect(series.kind == .accelerometer)
        #expect(contents.series.first?.warnings == [])
        for name in ["timestamp", "x", "y", "z"] {
            #expect(series[name] == (try literals(name, in: path)), "\(name)")
        }
    }

    @Test("the gait walk: 2,023 items at ~101 Hz, first item as written in the file")
    func gaitFacts() throws {
        let series = try #require(try JSONContents.read(SharedData.path("mpower/pdkit_mpower_gait.json")).series.first?.series)
        #expect(series.count == 2023)
        #expect(series["timestamp"]?.first == 8844.375467791668)
        #expect(series["x"]?.first == 0.0338897705078125)
        #expect(series["y"]?[3] == 8.087158203125E-4)
        #expect(series["z"]?.first == -1.013534545898438)
        let rate = try #require(series.medianSamplingRateHz)
        #expect(rate > 100 && rate < 103)
    }

    @Test("device motion: 990 items, every column equals Foundation's, placeholders unavailable")
    func deviceMotion() throws {
        let path = SharedData.path("mpower/mhealthtools_device_motion.json")
        let contents = try JSONContents.read(path)
        let named = try #require(contents.series.first)
        #expect(named.series.kind == .deviceMotion)
        #expect(named.series.count == 990)
        #expect(named.series["timestamp"] == (try literals("timestamp", in: path)))
        // Keys x, y, z occur in four groups per item; "w" only in the attitude.
        #expect(named.series["attitude.w"] == (try literals("w", in: path)))
        let x = try literals("x", in: path)
        #expect(x.count == 5 * 990)
        let groups = ["attitude", "rotationRate", "userAcceleration", "gravity"]
        for group in groups {
            let column = try #require(named.series[group + ".x"])
            #expect(column.allSatisfy { value in x.contains { $0.bitPattern == value.bitPattern } }, "\(group)")
        }
        #expect(named.series["magneticField.x"]?.allSatisfy(\.isNaN) == true)
        #expect(named.warnings == [.magneticFieldUnavailable(count: 990)])
    }

    @Test("the flattened PDScores archive: manifest, 210-tap AppCore result, 2,006-item accelerometer log")
    func flattenedArchive() throws {
        let path = SharedData.path("mpower/pdscores_tapping.json")
        let contents = try JSONContents.read(path)
        #expect(contents.layout == .flattenedArchive)
        #expect(contents.archiveEntries == ["info.json", "NoName.json", "accel_tapping-20150204152021"])
        #expect(contents.manifest?.taskRun == "C37355CA-14B3-49E7-9D10-BCFC269993B8")
        #expect(contents.manifest?.files.first?.timestamp?.secondsSince1970 == 1_423_092_021)
        let tapping = try #require(contents.tappingResults.first)
        #expect(tapping.dialect == .appCore)
        #expect(tapping.count == 210)
        #expect(tapping.stepViewSize == Size(width: 320, height: 504))
        #expect(tapping.buttonRectLeft == Rect(origin: Point(x: 44, y: 364), size: Size(width: 104, height: 104)))
        #expect(tapping.buttonRectRight?.origin.x == 172)
        #expect(tapping.x[0] == 225 && tapping.y[0] == 411.5 && tapping.button[0] == .right)
        #expect(tapping.button.filter { $0 == .none }.count == 7)
        let accel = try #require(contents.series.first)
        #expect(accel.file.hasSuffix(" › accel_tapping-20150204152021"))
        #expect(accel.series.count == 2006)
        #expect(accel.series["x"] == (try literals("x", in: path)))
        #expect(accel.series["timestamp"] == (try literals("timestamp", in: path)))
        #expect(tapping.timestamp == (try literals("TapTimeStamp", in: path)))
    }

    @Test("bare TappingSamples array: 166 taps, coordinates from CG strings")
    func bareTapping() throws {
        let contents = try JSONContents.read(SharedData.path("mpower/pdkit_mpower_finger_tapping.json"))
        #expect(contents.layout == .bareTappingSamples(.appCore))
        let tapping = try #require(contents.tappingResults.first)
        #expect(tapping.count == 166)
        #expect(tapping.x[0] == 89.5 && tapping.y[0] == 454 && tapping.button[0] == .left)
        #expect(tapping.timestamp[1] == 0.05325162500230363)
        #expect(tapping.duration.allSatisfy { $0.isNaN })
    }

    @Test("ResearchKit fixtures: results decode with their defaults, other classes are listed")
    func fixtures() throws {
        let tapping = try JSONContents.read(SharedData.path("researchkit/fixtures/ORKTappingIntervalResult.json"))
        #expect(tapping.tappingResults.first?.count == 0)
        #expect(tapping.tappingResults.first?.stepViewSize == Size(width: 0, height: 0))
        let sample = try JSONContents.read(SharedData.path("researchkit/fixtures/ORKdBHLToneAudiometryFrequencySample.json"))
        #expect(sample.otherClasses == ["ORKdBHLToneAudiometryFrequencySample"])
        let spl = try JSONContents.read(SharedData.path("researchkit/fixtures/ORKEnvironmentSPLMeterResult.json"))
        #expect(spl.splMeterResults.first?.sensitivityOffsetDecibels == 0)
        let dbhl = try JSONContents.read(SharedData.path("researchkit/fixtures/ORKdBHLToneAudiometryResult.json"))
        #expect(dbhl.dBHLResults.first?.headphoneType == "")
        let tone = try JSONContents.read(SharedData.path("researchkit/fixtures/ORKToneAudiometryResult.json"))
        #expect(tone.toneAudiometryResults.first?.outputVolume == 123)
        for file in SharedData.files(in: "researchkit/fixtures") {
            let contents = try JSONContents.read(file)
            guard case .researchKitResult(let root) = contents.layout else {
                Issue.record("\(file): \(contents.layout)")
                continue
            }
            #expect(file.hasSuffix("/\(root).json"))
        }
    }

    @Test("ResearchKit's golden audiometry set: 3,561 audiograms of 8 columns")
    func goldenSet() throws {
        let contents = try JSONContents.read(SharedData.path("researchkit/ORKAudiometryTestData.json"))
        let table = try #require(contents.audiograms)
        #expect(table.rows.count == 3561)
        #expect(Set(table.columns) == ["AUXU500", "AUXU1K1", "AUXU1K2", "AUXU2K", "AUXU3K", "AUXU4K", "AUXU6K", "AUXU8K"])
        #expect(table.rows.allSatisfy { $0.allSatisfy { $0 >= -10 && $0 <= 110 } })
    }
}
