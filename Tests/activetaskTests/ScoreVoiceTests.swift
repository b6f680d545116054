import Foundation
import Testing
import TestSupport

/// `score voice` against Praat 6.1.38 (praat-parselmouth 0.4.7) on the real recordings, with the
/// issue's tolerances: F0 median 1 %, jitter and shimmer 10 % relative, HNR 1 dB. The reference
/// values were computed by Praat with Benchmarks/peers/voice_parselmouth.py (default pitch
/// analysis; To PointProcess (cc); jitter/shimmer arguments 0, 0, 0.0001, 0.02, 1.3, 1.6;
/// To Harmonicity (cc) defaults, Get mean).
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct ScoreVoiceRealTests {
    static let praat: [(String, [String: Double])] = [
        ("voice/AH_064F_7AB034C9-72E4-438B-A9B3-AD7FDA1596C5.wav",
         ["f0MedianHz": 131.209, "jitterLocal": 0.00413828, "jitterRap": 0.00202779, "jitterPpq5": 0.00216324, "shimmerLocal": 0.0388102,
          "shimmerApq3": 0.021972, "shimmerApq11": 0.0330927, "hnrDb": 20.3022, "intensityDb": 83.3339]),
        ("voice/AH_114S_A89F3548-0B61-4770-B800-2E26AB3908B6.wav",
         ["f0MedianHz": 110.373, "jitterLocal": 0.00591076, "jitterRap": 0.00316431, "jitterPpq5": 0.00372203, "shimmerLocal": 0.0903192,
          "shimmerApq3": 0.0466644, "shimmerApq11": 0.0812736, "hnrDb": 15.3231, "intensityDb": 79.7618]),
        ("voice/AH_545616858-3A749CBC-3FEB-4D35-820E-E45C3E5B9B6A.wav",
         ["f0MedianHz": 125.222, "jitterLocal": 0.00665814, "jitterRap": 0.00377855, "jitterPpq5": 0.00342085, "shimmerLocal": 0.0648203,
          "shimmerApq3": 0.0342067, "shimmerApq11": 0.0573312, "hnrDb": 13.6451, "intensityDb": 81.4061]),
        ("voice/AH_545622717-461DFFFE-54AF-42AF-BA78-528BD505D624.wav",
         ["f0MedianHz": 106.835, "jitterLocal": 0.00527734, "jitterRap": 0.00276988, "jitterPpq5": 0.00334624, "shimmerLocal": 0.0924497,
          "shimmerApq3": 0.0484676, "shimmerApq11": 0.0814452, "hnrDb": 15.4803, "intensityDb": 81.7824]),
        ("mpower/pdscores_phonation.m4a",
         ["f0MedianHz": 150.278, "jitterLocal": 0.0437507, "jitterRap": 0.0224947, "jitterPpq5": 0.029077, "shimmerLocal": 0.177635,
          "shimmerApq3": 0.0633529, "shimmerApq11": 0.0616006, "hnrDb": 1.05487, "intensityDb": 67.4029]),
    ]

    @Test("F0, jitter, shimmer, HNR and intensity agree with Praat on every real recording")
    func praatAgreement() throws {
        for (file, reference) in Self.praat {
            let run = try Run(["score", "voice", "--json", SharedData.path(file)])
            #expect(run.status == 0, "\(file): \(run.stderr)")
            let atk = try #require((run.json?["features"] as? [String: Any])?["atk"] as? [String: Any], "\(file)")
            for (name, value) in reference {
                let mine = try #require(atk[name] as? Double, "\(file) \(name)")
                switch name {
                case "f0MedianHz": #expect(abs(mine / value - 1) <= 0.01, "\(file) \(name): \(mine)")
                case "hnrDb": #expect(abs(mine - value) <= 1, "\(file) \(name): \(mine)")
                case "intensityDb": #expect(abs(mine - value) <= 0.001, "\(file) \(name): \(mine)")
                default: #expect(abs(mine / value - 1) <= 0.10, "\(file) \(name): \(mine)")
                }
            }
        }
    }
}

@Suite struct ScoreVoiceTests {
    @Test("SampleData's synthetic /a/: F0 140 Hz, BS.1770 loudness, JSON shape")
    func sample() throws {
        let run = try Run(["score", "voice", "--json", SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.json?["kind"] as? String == "voice")
        let atk = try #require((run.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
        #expect(abs((atk["f0MedianHz"] as? Double ?? 0) - 140) < 0.5)
        #expect(atk["loudnessLufs"] is Double)
        #expect(atk["channelMode"] as? String == "mono")
        #expect(atk["splDecibels"] is NSNull)
        let calibrated = try Run(["score", "voice", "--json", "--calibration-offset-decibels", "110", SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path])
        let features = try #require((calibrated.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
        #expect(abs((features["splDecibels"] as? Double ?? 0) - ((features["rmsDbfs"] as? Double ?? 0) + 110)) < 1e-9)
    }
}

/// The formant, cepstral, MFCC and eGeMAPS sets on signals that break naive analyses: every value a finite number or
/// null, every set complete, never a crash; where a set cannot be computed, a warning says why.
@Suite struct VoiceQualityHostileTests {
    static func signal(_ name: String, rate: Double) -> [Float] {
        let n = Int(rate)
        switch name {
        case "silence": return [Float](repeating: 0, count: n)
        case "one sample": return [0.5]
        case "DC": return [Float](repeating: 0.25, count: n)
        case "pure tone": return (0..<n).map { Float(0.5 * sin(2 * Double.pi * 220 * Double($0) / rate)) }
        case "clipped": return (0..<n).map { Float(max(-1, min(1, 3 * sin(2 * Double.pi * 150 * Double($0) / rate)))) }
        case "NaN stretch": return (0..<n).map { $0 % 4000 < 400 ? .nan : Float(0.3 * sin(2 * Double.pi * 150 * Double($0) / rate)) }
        default: return []
        }
    }

    @Test("silence, one sample, DC, a pure tone, clipping and a NaN stretch at 8 and 44.1 kHz: formants, cepstral, mfcc and egemaps sets complete, numbers finite or null, the eGeMAPSv02 descriptor table finite", arguments: ["silence", "one sample", "DC", "pure tone", "clipped", "NaN stretch"])
    func hostile(_ name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for rate in [8_000.0, 44_100] {
            let wav = try folder.write("x.wav", CommandAttackTests.floatWAV(Self.signal(name, rate: rate), rate: UInt32(rate)))
            let lld = folder.path("lld.csv")
            let run = try Run(["score", "voice", "--json", "--sets", "atk,formants,cepstral,mfcc,egemaps,egemapsv02", "--egemaps-lld", lld, wav])
            // The descriptor table: every cell a finite number (a recording shorter than a 60-ms frame has none).
            let table = try String(contentsOfFile: lld, encoding: .utf8).split(separator: "\n")
            #expect(table.first?.split(separator: ",").count == 27 && table.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { Double($0)?.isFinite == true } },
                    "\(name) \(rate): \(table.prefix(3))")
            // A header, then a row per 60-ms pitch frame and one more, as openSMILE's table.
            #expect(name != "one sample" ? table.count == 1 + (Int(rate) - Int(0.06 * rate)) / Int(0.01 * rate) + 1 + 1 : table.count == 1, "\(name) \(rate): \(table.count) lines")
            // 0, or 1 with the JSON and "no voiced signal found" (silence, DC, a single sample).
            #expect(run.status == 0 || (run.status == 1 && run.stderr.contains("no voiced signal found")), "\(name) \(rate): \(run.status) \(run.stderr)")
            let features = try #require(run.json?["features"] as? [String: Any], "\(name)")
            let formants = try #require(features["formants"] as? [String: Any], "\(name)")
            let mfcc = try #require(features["mfcc"] as? [String: Any], "\(name)")
            let cepstral = try #require(features["cepstral"] as? [String: Any], "\(name)")
            let egemaps = try #require(features["egemaps"] as? [String: Any], "\(name)")
            #expect(formants.count == 27 && mfcc.count == 121 && cepstral.count == 5 && egemaps.count == 30,
                    "\(name) \(rate): \(formants.count) formant, \(mfcc.count) MFCC, \(cepstral.count) cepstral, \(egemaps.count) eGeMAPS features")
            for (key, value) in [formants, mfcc, cepstral, egemaps].reduce(into: [String: Any](), { $0.merge($1) { a, _ in a } }) {
                #expect(value is NSNull || (value as? Double)?.isFinite == true, "\(name) \(rate) \(key): \(value)")
            }
            if name == "one sample" {
                #expect((run.json?["warnings"] as? [String])?.contains("mfcc: Δ and ΔΔ need 9 frames (4096 samples); this recording has 1") == true, "\(run.json?["warnings"] ?? "")")
            }
        }
    }

    @Test("a maximum formant beyond twice the recording's rate is not analysed (a warning), not a memory bomb")
    func absurdMaximumFormant() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let wav = try folder.write("x.wav", CommandAttackTests.floatWAV(CommandAttackTests.vowel(seconds: 1, rate: 8_000), rate: 8_000))
        let run = try Run(["score", "voice", "--json", "--maximum-formant-hz", "90000", wav])
        #expect(run.status == 0, "\(run.stderr)")
        #expect((run.json?["warnings"] as? [String])?.contains { $0.contains("a maximum formant of 90000.0 Hz needs a rate over 4 times") } == true, "\(run.json?["warnings"] ?? "")")
        let formants = try #require((run.json?["features"] as? [String: Any])?["formants"] as? [String: Any])
        #expect(formants["voicedFrameCount"] as? Double == 0 && formants["f1MeanHz"] is NSNull)
        let fine = try Run(["score", "voice", "--json", "--maximum-formant-hz", "5000", wav])
        #expect(((fine.json?["features"] as? [String: Any])?["formants"] as? [String: Any])?["f1MeanHz"] is Double)
    }

    @Test("MFCC, formant and eGeMAPS settings outside their bounds (hop below 256, more coefficients than mel bands, frames every 0 s) are refused with the setting named")
    func mfccBounds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let wav = try folder.write("x.wav", CommandAttackTests.floatWAV(CommandAttackTests.vowel(seconds: 1, rate: 8_000), rate: 8_000))
        let refused = [
            (["--mfcc-hop", "1"], "MFCC settings"), (["--mfcc-count", "40", "--mel-bands", "20"], "MFCC settings"),
            (["--mfcc-fft-size", "1000000"], "MFCC settings"), (["--maximum-formant-count", "40"], "maximum formant count"),
            (["--spectral-frame-step-seconds", "0"], "spectral frames"), (["--spectral-frame-length-seconds", "nan"], "spectralFrameLengthSeconds"),
            (["--spectral-frame-length-seconds", "1e308"], "spectral frames"),
            (["--loudness-peak-threshold", "1"], "loudness peak threshold"), (["--loudness-peak-threshold=-0"], "loudness peak threshold"),
        ]
        for (options, named) in refused {
            let run = try Run(["score", "voice", wav] + options)
            #expect(run.status == 2 && run.stderr.contains(named), "\(options): \(run.status) \(run.stderr)")
        }
    }

    @Test("the HTML page draws the formant tracks of the voiced frames over a spectrogram of at most 100 × 40 cells, and the median-CPP frame's cepstrum with its trend line and peak")
    func formantChart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let wav = try folder.write("x.wav", CommandAttackTests.floatWAV(CommandAttackTests.vowel(seconds: 2, rate: 16_000), rate: 16_000))
        let run = try Run(["score", "voice", wav, "--html", folder.path("x.html")])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOfFile: folder.path("x.html"), encoding: .utf8)
        #expect(html.contains("Formants F1–F4 of the voiced frames over the spectrogram"))
        let cells = html.components(separatedBy: "<rect x=").count - 1
        #expect(cells > 100 && cells <= 100 * 40 + 20, "\(cells) rectangles")
        #expect(html.contains(">F1</text>") && html.contains(">F4</text>"))
        // The cepstrogram slice of the median-CPP frame, its trend line and the CPP peak.
        #expect(html.contains("Cepstrum of the median-CPP frame") && html.contains(">trend (Theil fit, exponential decay)</text>") && html.contains(">CPP</text>"))
    }
}

@Suite struct ScoreVoiceSetsTests {
    static let sample = SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path

    static func features(_ run: Run) throws -> [String: [String: Any]] {
        try #require(run.json?["features"] as? [String: [String: Any]], "\(run.stderr)")
    }

    @Test("--sets computes and reports only the sets named, each equal to its values in a run with every set; the sets are part of the result key")
    func chosenSets() throws {
        // The default: every set but egemaps (the paper's definitions), which egemapsv02 replaces.
        let defaults = try Run(["score", "voice", "--json", Self.sample])
        #expect(defaults.status == 0, "\(defaults.stderr)")
        #expect(Set(try Self.features(defaults).keys) == ["atk", "formants", "cepstral", "mfcc", "egemapsv02"])
        let all = try Run(["score", "voice", "--json", "--sets", "atk,formants,cepstral,mfcc,egemaps,egemapsv02", Self.sample])
        #expect(all.status == 0, "\(all.stderr)")
        let every = try Self.features(all)
        #expect(Set(every.keys) == ["atk", "formants", "cepstral", "mfcc", "egemaps", "egemapsv02"])
        let keys = [defaults, all].map { ($0.json?["key"] as? [String: Any])?["parameters"] as? String }
        #expect(keys[0] != nil && keys[0] != keys[1], "the result key's parameters \(keys)")
        for chosen in [["mfcc", "egemaps"], ["atk"], ["cepstral", "formants"], ["egemapsv02"]] {
            let run = try Run(["score", "voice", "--json", "--sets", chosen.joined(separator: ","), Self.sample])
            #expect(run.status == 0, "\(run.stderr)")
            let some = try Self.features(run)
            #expect(Set(some.keys) == Set(chosen))
            for set in chosen {
                // Same JSON text: eGeMAPS alone still reads the third formant (H1–A3), atk alone
                // still has HNR.
                let a = try JSONSerialization.data(withJSONObject: try #require(some[set]), options: .sortedKeys)
                let b = try JSONSerialization.data(withJSONObject: try #require(every[set]), options: .sortedKeys)
                #expect(a == b, "\(chosen) \(set)")
            }
            let keys = [all, run].map { ($0.json?["key"] as? [String: Any])?["parameters"] as? String }
            #expect(keys[0] != nil && keys[0] != keys[1], "\(chosen): the result key's parameters \(keys)")
        }
        #expect(try #require(try Self.features(try Run(["score", "voice", "--json", "--sets", "atk", Self.sample]))["atk"]?["hnrDb"]) is Double)
    }

    @Test("--egemaps-lld writes a row per 10-ms frame that has a 60-ms pitch frame, and one more as openSMILE's table, under openSMILE's 25 names; it is refused without the set egemapsv02 or onto the input")
    func egemapsLowLevelDescriptors() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let csv = folder.path("lld.csv")
        let run = try Run(["score", "voice", "--sets", "egemapsv02", "--egemaps-lld", csv, Self.sample])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        let header = "startSeconds,endSeconds,Loudness_sma3,alphaRatio_sma3,hammarbergIndex_sma3,slope0-500_sma3,slope500-1500_sma3,spectralFlux_sma3,mfcc1_sma3,mfcc2_sma3,mfcc3_sma3,mfcc4_sma3,F0semitoneFrom27.5Hz_sma3nz,jitterLocal_sma3nz,shimmerLocaldB_sma3nz,HNRdBACF_sma3nz,logRelF0-H1-H2_sma3nz,logRelF0-H1-A3_sma3nz,F1frequency_sma3nz,F1bandwidth_sma3nz,F1amplitudeLogRelF0_sma3nz,F2frequency_sma3nz,F2bandwidth_sma3nz,F2amplitudeLogRelF0_sma3nz,F3frequency_sma3nz,F3bandwidth_sma3nz,F3amplitudeLogRelF0_sma3nz"
        #expect(lines.first.map(String.init) == header)
        // 3 s at 44.1 kHz: (132,300 − 2,646)/441 + 1 = 295 pitch frames of 60 ms every 441 samples,
        // and one row more, as openSMILE's table has.
        #expect(lines.count == 1 + 295 + 1)
        let rows = lines.dropFirst().map { $0.split(separator: ",").compactMap { Double($0) } }
        #expect(rows.allSatisfy { $0.count == 27 })
        #expect(rows.enumerated().allSatisfy { abs($1[0] - Double($0) * 0.01) < 1e-12 && abs($1[1] - $1[0] - 0.02) < 1e-12 })
        // The synthetic /a/ at 140 Hz: 12·log₂(140/27.5) = 28.17 semitones in its voiced frames.
        let f0 = rows.map { $0[12] }.filter { $0 > 0 }
        #expect(f0.count > 250 && f0.allSatisfy { abs($0 - 12 * log2(140 / 27.5)) < 0.2 }, "\(f0.prefix(5))")

        let without = try Run(["score", "voice", "--sets", "atk", "--egemaps-lld", folder.path("none.csv"), Self.sample])
        #expect(without.status == 2 && without.stderr.contains("--egemaps-lld: the descriptors are the set egemapsv02's; --sets leaves it out"), "\(without.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("none.csv")))
        let copy = folder.path("voice.wav")
        try FileManager.default.copyItem(atPath: Self.sample, toPath: copy)
        let onto = try Run(["score", "voice", "--egemaps-lld", copy, copy])
        #expect(onto.status == 2 && onto.stderr.contains("refusing to write over it"), "\(onto.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data(contentsOf: URL(fileURLWithPath: Self.sample)))
    }

    @Test("a set named that does not exist, twice, or none at all is refused with the sets listed, on the command line and in a configuration alike")
    func badSets() throws {
        for (argument, said) in [("mfcc,bogus", "\"bogus\" is not a voice set; the sets are atk, formants, cepstral, mfcc, egemaps"), ("mfcc,mfcc", "[voice] sets names mfcc twice")] {
            let run = try Run(["score", "voice", "--sets", argument, Self.sample])
            #expect(run.status == 2 && run.stderr.contains(said), "\(argument): \(run.stderr)")
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.path("c.toml")
        // Each configuration refused (status 2) with its message; a set named twice is one result
        // key's sets twice, refused as on the command line; every parameter that takes one of a
        // set of names lists them (NamedChoice).
        for (text, said) in [("[voice]\nsets = []", "[voice] sets is empty: name at least one of atk, formants, cepstral, mfcc, egemaps"),
                             ("[voice]\nsets = [\"atk\", \"nope\"]", "[voice] sets = [\"atk\",\"nope\"] is not a value of this parameter's type: \"nope\" is not one of atk, formants, cepstral, mfcc, egemaps, egemapsv02"),
                             ("[voice]\nsets = [\"atk\", \"mfcc\", \"atk\"]", "[voice] sets names atk twice"),
                             ("[tapping]\nconvention = \"nope\"", "[tapping] convention = \"nope\" is not a value of this parameter's type: \"nope\" is not one of mhealthtools, mpower-sdata, little")] {
            try (text + "\n").write(toFile: config, atomically: true, encoding: .utf8)
            let run = try Run(["score", "voice", "--config", config, Self.sample])
            #expect(run.status == 2 && run.stderr.contains(said), "\(text): \(run.stderr)")
        }
    }
}

/// The C kernels of the voice analysis (windowed sinc, Burg sums, Aberth sweeps, spectra) at
/// every instruction-set level. The cepstral and MFCC sets are left out: their logarithms and
/// exponentials go through libmvec at the level's vector width, whose results differ in the last
/// bit between widths (docs/accuracy.md).
@Suite struct VoiceKernelLevelTests {
    @Test("the voice kernels give the same bits at every instruction-set level (ATK_KERNEL_LEVEL 1: SSE2, 2: AVX2, 3: AVX-512, capped at what the processor has): score voice of SampleData's /a/ with the formant and eGeMAPSv02 sets")
    func sameBitsAtEveryKernelLevel() throws {
        let outputs = try ["1", "2", "3"].map { level in
            var environment = ProcessInfo.processInfo.environment
            environment["ATK_KERNEL_LEVEL"] = level
            let run = try Run(["score", "voice", "--json", "--sets", "formants,egemapsv02", SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path], environment: environment)
            #expect(run.status == 0, "level \(level): \(run.stderr)")
            return run.stdout
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2], "the levels differ")
    }

    @Test("one thread gives the bits of two: score voice of SampleData's /a/ with every set under `taskset -c 0` and on every processor (the formant and cepstral frames in chunks, each chunk's roots started afresh)")
    func oneThreadEqualsTwo() throws {
        let arguments = ["score", "voice", "--json", SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path]
        let one = try Run(arguments, launcher: ["/usr/bin/taskset", "-c", "0"]), every = try Run(arguments)
        #expect(one.status == 0 && every.status == 0, "\(one.stderr) \(every.stderr)")
        #expect(one.stdout == every.stdout, "one processor and all differ")
    }
}

