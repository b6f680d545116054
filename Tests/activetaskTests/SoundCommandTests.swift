import Foundation
import Testing
import TestSupport

@Suite struct SoundCommandTests {
    /// A 1 kHz sine of RMS 10^(−40/20) (−40 dBFS), 8 s at 48 kHz, written through libsndfile's
    /// float WAV path by the toolkit itself (generate-samples writes only the voice; use ffmpeg-free
    /// synthesis here).
    func tone(_ folder: TemporaryFolder, dbfs: Double, seconds: Double = 8) throws -> String {
        let rate = 48_000.0
        let amplitude = pow(10, dbfs / 20) * 2.0.squareRoot()
        var bytes: [UInt8] = []
        func le32(_ v: UInt32) { for k in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }
        func le16(_ v: UInt16) { for k in 0..<2 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }
        let n = Int(seconds * rate)
        bytes += Array("RIFF".utf8); le32(UInt32(36 + 4 * n)); bytes += Array("WAVEfmt ".utf8); le32(16)
        le16(3); le16(1); le32(48_000); le32(192_000); le16(4); le16(32)  // IEEE float, mono
        bytes += Array("data".utf8); le32(UInt32(4 * n))
        for i in 0..<n { le32(Float(amplitude * sin(2 * Double.pi * 1000 * Double(i) / rate)).bitPattern) }
        return try folder.write("tone\(Int(-dbfs)).wav", bytes)
    }

    @Test("score spl: LAeq = dBFS + 117.3 by default; --calibration-offset; the ResearchKit decision")
    func spl() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let quiet = try tone(folder, dbfs: -90)  // 27.3 dB(A) on an iPhone: passes at the 5th reading
        let run = try Run(["score", "spl", "--json", quiet])
        #expect(run.status == 0, "\(run.stderr)")
        let atk = try #require((run.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
        #expect(abs((atk["laeqDecibels"] as? Double ?? 0) - 27.3) < 0.01)
        #expect(atk["researchKitDecision"] as? String == "pass")
        #expect(atk["researchKitPassIntervalIndex"] as? Int == 4)
        #expect(atk["calibrationOffsetDecibels"] as? Double == 117.3)
        let loud = try Run(["score", "spl", "--json", "--calibration-offset-decibels", "100", try tone(folder, dbfs: -40)])
        let loudFeatures = try #require((loud.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
        #expect(abs((loudFeatures["laeqDecibels"] as? Double ?? 0) - 60) < 0.01)
        #expect(loudFeatures["researchKitDecision"] as? String == "fail")
        let ipad = try #require(try Run(["score", "spl", "--json", "--device", "ipad", quiet]).json)
        #expect(((ipad["features"] as? [String: Any])?["atk"] as? [String: Any])?["calibrationOffsetDecibels"] as? Double == 123.3)
    }

    @Test("--researchkit-json writes an ORKEnvironmentSPLMeterResult that info and score read back")
    func researchKitJSON() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Run(["score", "spl", "--researchkit-json", try tone(folder, dbfs: -90)])
        #expect(run.status == 0)
        let object = try #require(run.json)
        #expect(object["_class"] as? String == "ORKEnvironmentSPLMeterResult")
        #expect(abs((object["sensitivityOffset"] as? Double ?? 0) - -23.3) < 1e-9)
        #expect((object["recordedSPLMeterSamples"] as? [Double])?.count == 5)
        let path = try folder.write("result.json", run.stdout)
        let again = try Run(["score", "spl", "--json", path])
        let features = try #require((again.json?["features"] as? [String: Any])?["researchKit"] as? [String: Any])
        #expect(features["researchKitPassIntervalIndex"] as? Int == 4)
    }

    /// Digital silence was written as the reading "-Infinity" (a string), which `score spl` itself
    /// then refused to read.
    @Test("--researchkit-json over 6 s whose first second is exact zeros (a microphone's start): unusable, status 1, naming reading 1 and writing nothing")
    func researchKitJSONOfSilence() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try tone(folder, dbfs: -60, seconds: 6))))
        for i in 44..<(44 + 4 * 48_000) { bytes[i] = 0 }
        let path = try folder.write("gap.wav", bytes)
        let run = try Run(["score", "spl", "--researchkit-json", path])
        #expect(run.status == 1 && run.stdout.isEmpty && run.stderr.contains("reading 1 of 6 is -inf dB (digital silence)"), "\(run.stderr)")
    }

    /// A recording of exact zeros, or a stereo one whose channel 0 is silent, gave every level null
    /// with status 0 and no word.
    @Test("score spl on no power (6 s of zeros; 2⁻⁶⁰⁰ full scale, whose squares underflow; channel 0 of a stereo file silent): unusable, status 1, saying why; the other channel chosen is measured")
    func splOfSilence() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let said = "silent: channel 0 has no power (no samples, or every sample 0 or below 1e-154 full scale); every level is −∞ dB"
        var zeros = Array(try Data(contentsOf: URL(fileURLWithPath: try tone(folder, dbfs: -60, seconds: 6))))
        for i in 44..<zeros.count { zeros[i] = 0 }
        // 64-bit float, 2 channels: channel 0 zeros or 2⁻⁶⁰⁰ (mono), channel 1 a −20 dBFS square wave.
        func stereo(_ name: String, channels: UInt16, _ sample: (Int, Int) -> Double) throws -> String {
            var bytes: [UInt8] = []
            func le(_ v: UInt64, _ count: Int) { for k in 0..<count { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }
            let n = 48_000 * 3, size = n * Int(channels) * 8
            bytes += Array("RIFF".utf8); le(UInt64(36 + size), 4); bytes += Array("WAVEfmt ".utf8); le(16, 4)
            le(3, 2); le(UInt64(channels), 2); le(48_000, 4); le(UInt64(48_000 * 8 * Int(channels)), 4); le(UInt64(8 * channels), 2); le(64, 2)
            bytes += Array("data".utf8); le(UInt64(size), 4)
            for i in 0..<n { for c in 0..<Int(channels) { le(sample(i, c).bitPattern, 8) } }
            return try folder.write(name, bytes)
        }
        let tiny = try stereo("tiny.wav", channels: 1) { _, _ in 0x1p-600 }
        let right = try stereo("right.wav", channels: 2) { i, c in c == 0 ? 0 : (i / 24 % 2 == 0 ? 0.1 : -0.1) }
        for (path, message) in [(try folder.write("zeros.wav", zeros), said), (tiny, said),
                                (right, said + " (the recording has 2 channels: the parameter channel chooses another) [options: --channel]")] {
            let run = try Run(["score", "spl", "--json", path])
            #expect(run.status == 1 && run.stderr == "activetask: \(path): \(message)\n", "\(path): \(run.status) \(run.stderr)")
        }
        let other = try Run(["score", "spl", "--json", "--channel", "1", right])
        let z = ((other.json?["features"] as? [String: Any])?["atk"] as? [String: Any])?["lzeqDecibels"] as? Double
        #expect(other.status == 0 && abs((z ?? 0) - (-20 + 117.3)) < 0.01, "\(other.stdout.prefix(400))")
    }

    /// A 50-ms recording gave L10, L50, L90 and the interval levels null, and ResearchKit's
    /// decision "fail", without a word.
    @Test("score spl shorter than its statistics' samples: 0.05 s (no LAF sample every 0.1 s, no 1-s interval) and 0.5 s (no interval) say which are null and why; 8 s neither")
    func splTooShort() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let laf = "L10, L50 and L90 are null: they are taken of LAF every 0.1 s, and the recording's 0.05 s hold no such sample"
        func interval(_ seconds: String) -> String {
            "the interval levels and their L10, L50 and L90 are null, and ResearchKit's decision fails: the recording's \(seconds) s hold no whole 1-s interval"
        }
        for (seconds, said) in [(0.05, [laf, interval("0.05")]), (0.5, [interval("0.5")]), (8, [])] {
            let run = try Run(["score", "spl", "--json", try tone(folder, dbfs: -20, seconds: seconds)])
            let atk = (run.json?["features"] as? [String: Any])?["atk"] as? [String: Any]
            #expect(run.status == 0 && (run.json?["warnings"] as? [String]) == said, "\(seconds) s: \(run.status) \(run.stderr) \(run.json?["warnings"] ?? "")")
            #expect((atk?["l10Decibels"] is NSNull) == (seconds < 0.1) && (atk?["l10IntervalLaeqDecibels"] is NSNull) == (seconds < 1), "\(seconds) s")
        }
    }

    @Test("SampleData's SPL-meter result: ResearchKit's rule on its readings")
    func sampleResult() throws {
        let run = try Run(["score", "spl", "--json", SharedData.sampleData.appendingPathComponent("spl_meter_result.json").path])
        #expect(run.status == 0)
        let features = try #require((run.json?["features"] as? [String: Any])?["researchKit"] as? [String: Any])
        let readings = try #require(features["readingsDecibels"] as? [Double])
        // Independent reading of the rule: the first index where the last five readings are < 35.
        let expected = readings.indices.first { $0 >= 4 && readings[($0 - 4)...$0].allSatisfy { $0 < 35 } }
        #expect(features["researchKitPassIntervalIndex"] as? Int == expected)
    }

    /// A tone at −763 dBFS gave an offset of 857 dB with exit 0, in a JSON object `score spl`
    /// refuses (±400 dB).
    @Test("calibrate on no calibrator's tone (−763 dBFS; 0.5 s): exit 1 naming why, nothing printed")
    func calibrateNoTone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (file, said) in [(try tone(folder, dbfs: -763, seconds: 3), "gives an offset of 857 dB, outside ±400 dB"),
                             (try tone(folder, dbfs: -20, seconds: 0.5), "0.5 s measured; a calibrator's tone needs at least 1 s")] {
            let run = try Run(["calibrate", "--json", file])
            #expect(run.status == 1 && run.stdout.isEmpty && run.stderr.contains("\(file): ") && run.stderr.contains(said), "\(run.stderr)")
        }
    }
}

@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct CalibratorTests {
    @Test("calibrate the 94 dB calibrator, then the same file reads 94.0 ± 0.05 dB")
    func calibrator() throws {
        let file = SharedData.path("spl/calibrator_94dB_1kHz.wav")
        let calibration = try Run(["calibrate", "--json", "--reference", "94", file])
        #expect(calibration.status == 0)
        let offset = try #require(calibration.json?["calibrationOffsetDecibels"] as? Double)
        let run = try Run(["score", "spl", "--json", "--calibration-offset-decibels", "\(offset)", file])
        let atk = try #require((run.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
        for name in ["laeqDecibels", "lceqDecibels", "lzeqDecibels"] {
            #expect(abs((atk[name] as? Double ?? 0) - 94) <= 0.05, "\(name)")
        }
    }
}
