import Foundation
import Testing
import TestSupport

/// `activetask tone`, `audiometry verify|simulate` and `score audiometry` (issue 5).
@Suite struct AudiometryCommandTests {
    func features(_ run: Run, _ set: String = "atk") -> [String: Any]? {
        (run.json?["features"] as? [String: Any])?[set] as? [String: Any]
    }

    @Test("tone → verify: 1 kHz at −20 dBFS reads −20.00 ± 0.01 dBFS and 1000.00 ± 0.01 Hz, ramps 29 ms")
    func toneAndVerify() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path("tone.wav")
        let tone = try Run(["tone", "--frequency", "1000", "--level-dbfs", "-20", "--duration", "1", "--out", out])
        #expect(tone.status == 0, "\(tone.stderr)")
        let verify = try Run(["audiometry", "verify", "--json", out])
        #expect(verify.status == 0, "\(verify.stderr)")
        let json = try #require(verify.json)
        #expect(abs((json["levelDbfs"] as? Double ?? 0) - -20) <= 0.01)
        #expect(abs((json["frequencyHz"] as? Double ?? 0) - 1000) <= 0.01)
        #expect((json["thdDecibels"] as? Double ?? 0) < -100)  // float32 samples: harmonics at the rounding floor
        #expect(abs((json["riseTimeMilliseconds"] as? Double ?? 0) - 29.06) <= 0.2)  // raised cosine, 50 ms: docs/audiometry.md F30
        #expect(json["rampsWithin20To50Milliseconds"] as? Bool == true)
    }

    /// A recording of zeros gave a tone of 1.25 Hz with 0-ms ramps and a THD of nan.
    @Test("verify on a silent stereo recording (1 s of zeros) is unusable, status 1, saying so; the same file with one channel a tone is measured on that channel")
    func verifySilence() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let header = { (frames: Int) -> [UInt8] in
            let bytes = UInt32(frames * 8)
            let le32 = { (v: UInt32) in withUnsafeBytes(of: v.littleEndian) { Array($0) } }, le16 = { (v: UInt16) in withUnsafeBytes(of: v.littleEndian) { Array($0) } }
            return Array("RIFF".utf8) + le32(36 + bytes) + Array("WAVEfmt ".utf8) + le32(16) + le16(3) + le16(2) + le32(48_000) + le32(384_000) + le16(8) + le16(32)
                + Array("data".utf8) + le32(bytes)
        }
        let silent = try folder.write("silent.wav", header(48_000) + [UInt8](repeating: 0, count: 48_000 * 8))
        let run = try Run(["audiometry", "verify", silent])
        #expect(run.status == 1 && run.stderr.contains("silent.wav: silent: every sample is 0") && run.stdout.isEmpty, "\(run.stderr)")
        let frames = (0..<48_000).flatMap { i -> [Float] in [0, 0.25 * Float(sin(2 * Double.pi * 1000 * Double(i) / 48_000))] }
        let right = try folder.write("right.wav", header(48_000) + frames.withUnsafeBytes { Array($0) })
        let measured = try #require(try Run(["audiometry", "verify", "--json", right]).json)
        #expect(measured["channel"] as? Int == 1 && abs((measured["frequencyHz"] as? Double ?? 0) - 1000) < 0.01, "\(measured)")
    }

    @Test("tone in dB HL: AirPods, 1 kHz, 30 dB HL at volume 0.5 plays at −47.89 dBFS (docs/audiometry.md §7.5); clipping and short ramps refused")
    func toneHearingLevel() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path("hl.wav")
        let tone = try Run(["tone", "--frequency", "1000", "--level-hl", "30", "--headphone", "AIRPODSV1", "--volume", "0.5", "--ear", "right", "--out", out])
        #expect(tone.status == 0, "\(tone.stderr)")
        let verify = try #require(try Run(["audiometry", "verify", "--json", out]).json)
        #expect(abs((verify["levelDbfs"] as? Double ?? 0) - 20 * log10(4.031809e-3)) <= 0.01)
        #expect(verify["channel"] as? Int == 1)  // right
        let clip = try Run(["tone", "--frequency", "1000", "--level-hl", "110", "--headphone", "AIRPODSV1", "--out", out])
        #expect(clip.status == 1 && clip.stderr.contains("would clip"))  // clipping from 105.89 dB HL (D20)
        let ramp = try Run(["tone", "--frequency", "1000", "--level-dbfs", "-20", "--ramp-ms", "10", "--out", out])
        #expect(ramp.status == 2, "\(ramp.stderr)")
    }

    @Test("score audiometry on SampleData: right PTA4 (10 + 15 + 20 + 35)/4 = 20; volume 0.8125 corrects by −10 dB; SVG written")
    func scoreSample() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let svg = folder.path("audiogram.svg")
        let run = try Run(["score", "audiometry", "--json", "--svg", svg,
                           SharedData.packageRoot.appendingPathComponent("SampleData/dbhl_tone_audiometry_result.json").path])
        #expect(run.status == 0, "\(run.stderr)")
        let atk = try #require(features(run))
        #expect(atk["rightPTA4DbHL"] as? Double == 20)
        #expect(atk["rightPTA3DbHL"] as? Double == 15)
        #expect(atk["rightWHO2021Grade"] as? String == "mild")
        #expect(atk["right8000HzDbHL"] is NSNull)
        #expect(atk["right8000HzStatus"] as? String == "noResponse")
        // AirPods volume curve, key 0.8125 = 13/16: V = −10 dB (docs/audiometry.md §7.4).
        let corrected = try #require(features(run, "volumeCorrected"))
        #expect(corrected["rightPTA4DbHL"] as? Double == 10)
        #expect(corrected["rightWHO2021Grade"] as? String == "normal")
        #expect((run.json?["warnings"] as? [String])?.contains { $0.contains("volume that did not change") } == true)
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.hasPrefix("<svg") && picture.contains("<circle"))
    }

    @Test("score audiometry: a file without a dB HL result is refused with its name; a CSV row out of range too")
    func badInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let empty = try folder.write("empty.json", #"{"_class":"ORKTaskResult","results":[]}"#)
        let run = try Run(["score", "audiometry", empty])
        #expect(run.status == 3 && run.stderr.contains("empty.json"))
        let csv = try folder.write("a.csv", "SEQN,AUXU1K1R,AUXU500R\n1,10,20\n")
        #expect(try Run(["score", "audiometry", "--row", "2", csv]).status == 2)
        let one = try Run(["score", "audiometry", "--json", csv])
        #expect(features(one)?["right1000HzDbHL"] as? Double == 10)
    }
}

/// The golden set, NHANES audiograms and the real calibrator recording through the command line.
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct AudiometrySharedDataCommandTests {
    @Test("simulate --golden --json: 49,854 of 49,854 thresholds exact")
    func golden() throws {
        let run = try Run(["audiometry", "simulate", "--json", "--golden", SharedData.path("researchkit/ORKAudiometryTestData.json")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.json?["thresholdsTotal"] as? Int == 49_854)
        #expect(run.json?["thresholdsExact"] as? Int == 49_854)
    }

    @Test("simulate --out writes a result that score audiometry reads; NHANES row 1 is mild in both ears with a step-like listener")
    func simulatedResult() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path("simulated.json")
        let nhanes = SharedData.path("audiometry/nhanes_2011_2012_audiograms.csv")
        let simulate = try Run(["audiometry", "simulate", "--nhanes", nhanes, "--row", "1", "--slope", "0.000001", "--false-alarm", "0",
                                "--lapse", "0", "--out", out])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let score = try Run(["score", "audiometry", "--json", out])
        let atk = try #require((score.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
        // Row 1 (SEQN 62161): right 500/1000/2000/4000 = 30/35/30/30, left 30/25/30/10. A step listener at
        // a threshold on the 5-dB grid hears it with probability ½ at T itself, so each estimate is T or T + 5.
        let right = try #require(atk["rightPTA4DbHL"] as? Double), left = try #require(atk["leftPTA4DbHL"] as? Double)
        #expect(right >= 31.25 && right <= 36.25)
        #expect(left >= 23.75 && left <= 28.75)
        #expect(atk["betterEar"] as? String == "left")
    }

    /// With one run per frequency the SD has nothing to be made of: it was "NaN" (a string) in
    /// the JSON and nan in the table.
    @Test("simulate --nhanes with one threshold per frequency: the SD is null in JSON and – in the table; bias and MAE are the one run's error")
    func simulationWithOneRun() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let nhanes = folder.path("one.csv")
        try Data("SEQN,AUXU1K1R,AUXU500R\n1,35,30\n".utf8).write(to: URL(fileURLWithPath: nhanes))
        let json = try Run(["audiometry", "simulate", "--nhanes", nhanes, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 4 && rows.allSatisfy { $0["runs"] as? Int == 1 && $0["sdDecibels"] is NSNull }, "\(rows)")
        for row in rows where row["determined"] as? Int == 1 {
            #expect(abs(row["biasDecibels"] as? Double ?? .nan) == row["meanAbsoluteErrorDecibels"] as? Double)
        }
        let table = try Run(["audiometry", "simulate", "--nhanes", nhanes])
        let lines = table.stdout.split(separator: "\n").filter { $0.hasPrefix("researchkit") || $0.hasPrefix("asha") }
        #expect(lines.count == 4 && lines.allSatisfy { $0.split(separator: " ")[5] == "–" } && !table.stdout.contains("nan"), "\(table.stdout)")
    }

    @Test("verify on the real 94 dB calibrator recording equals the scipy peer (Benchmarks/peers/tone_scipy.py, scipy 1.13.1)")
    func calibrator() throws {
        let run = try Run(["audiometry", "verify", "--json", SharedData.path("spl/calibrator_94dB_1kHz.wav")])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(run.json)
        // Peer values on the same steady segment: curve_fit frequency, flat-top level, residual THD+N.
        #expect(abs((json["frequencyHz"] as? Double ?? 0) - 999.9678667586614) < 1e-6)
        #expect(abs((json["hannFrequencyHz"] as? Double ?? 0) - 999.9672595861264) < 1e-9)
        #expect(abs((json["levelDbfs"] as? Double ?? 0) - -14.276977860292781) < 1e-9)
        #expect(abs((json["thdPlusNoiseDecibels"] as? Double ?? 0) - -40.3429743062582) < 1e-6)
        #expect(json["rampsWithin20To50Milliseconds"] as? Bool == false)  // a calibrator recording has no ramps
    }
}
