import Foundation
import Testing
import TestSupport

@Suite struct ScoreGaitTests {
    /// SampleData's walk: 10 s at 108 steps/min (1.8 Hz), in JSON (g) and in the Oxford CSV
    /// layout (ns, m/s²) — the two must agree.
    @Test("the sample walk at 108 steps/min, JSON and CSV alike")
    func sampleWalk() throws {
        let json = try FileManager.default.contentsOfDirectory(atPath: SharedData.sampleData.path).first { $0.hasPrefix("accel_") }!
        var cadences: [Double] = []
        for file in [json, "walk_accelerometer.csv"] {
            let run = try Run(["score", "gait", "--json", SharedData.sampleData.appendingPathComponent(file).path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.json?["kind"] as? String == "gait")
            let atk = try #require((run.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
            let cadence = try #require(atk["cadenceStepsPerMinute"] as? Double)
            #expect(abs(cadence - 108) < 1, "\(file): \(cadence)")
            cadences.append(cadence)
            let steps = try #require(atk["stepCount"] as? Int)
            #expect(abs(steps - 18) <= 2, "\(file): \(steps)")
        }
        #expect(abs(cadences[0] - cadences[1]) < 0.01)
    }

    @Test("the filters' kernels give the same bits at every instruction-set level (ATK_KERNEL_LEVEL 1: SSE2, 2: AVX2, 3: AVX-512 with its 8×8 blocks, capped at what the processor has): score gait, balance and tremor of the sample walk, device motion and tremor recording")
    func sameBitsAtEveryKernelLevel() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: SharedData.sampleData.path)
        let walk = try #require(names.first { $0.hasPrefix("accel_") }), motion = try #require(names.first { $0.hasPrefix("deviceMotion_") })
        let path = { SharedData.sampleData.appendingPathComponent($0).path }
        for arguments in [["gait", path(walk)], ["balance", path(motion)], ["tremor", path("ac1_motion_right.json")]] {
            let outputs = try ["1", "2", "3"].map { level in
                var environment = ProcessInfo.processInfo.environment
                environment["ATK_KERNEL_LEVEL"] = level
                let run = try Run(["score"] + arguments + ["--json"], environment: environment)
                #expect(run.status == 0, "\(arguments) at level \(level): \(run.stderr)")
                return run.stdout
            }
            #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2], "\(arguments[0]): the levels differ")
        }
    }

    @Test("a 9-s pedometer file is too short for cadence (exit 1, totals reported); a tapping result is not a gait input (exit 3)")
    func inputs() throws {
        let pedometer = try FileManager.default.contentsOfDirectory(atPath: SharedData.sampleData.path).first { $0.hasPrefix("pedometer_") }!
        let run = try Run(["score", "gait", "--json", SharedData.sampleData.appendingPathComponent(pedometer).path])
        #expect(run.status == 1, "\(run.stderr)")
        let atk = try #require((run.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
        // 18 steps over 9 s of updates: under the 10-s minimum, so no cadence; the step total is there.
        #expect(atk["pedometerStepCount"] as? Int == 18)
        let tapping = try Run(["score", "gait", SharedData.sampleData.appendingPathComponent("tapping_results.json").path])
        #expect(tapping.status == 3)
        #expect(tapping.stderr.contains("no accelerometer, device-motion or pedometer recording"))
    }
}

@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct ScoreRealMPowerTests {
    /// Every real file of ../shared/data/mpower scores with the analyzer it is for.
    @Test("every real mPower file scores without error")
    func everyFile() throws {
        let commands: [(String, String)] = [
            ("mpower/pdkit_mpower_gait.json", "gait"), ("mpower/pdkit_mpower_tremor.json", "gait"),
            ("mpower/mhealthtools_device_motion.json", "gait"), ("mpower/pdscores_tapping.json", "gait"),
            ("mpower/pdscores_tapping.json", "tapping"), ("mpower/pdkit_mpower_finger_tapping.json", "tapping"),
        ]
        for (file, kind) in commands {
            let run = try Run(["score", kind, "--json", SharedData.path(file)])
            #expect(run.status == 0, "\(file) \(kind): \(run.stderr)")
            #expect(run.json?["features"] != nil, "\(file)")
        }
        // The pdkit "gait" recording is a phone lying still (z ≈ −1.01 g, SD 0.01 g): no steps.
        let still = try Run(["score", "gait", "--json", SharedData.path("mpower/pdkit_mpower_gait.json")])
        let atk = try #require((still.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
        #expect(atk["stepCount"] as? Int == 0)
        // Device motion carries rotation rate: the gyroscope tremor features exist.
        let motion = try Run(["score", "gait", "--json", SharedData.path("mpower/mhealthtools_device_motion.json")])
        let motionFeatures = try #require((motion.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
        #expect(motionFeatures["tremorDominantFrequencyHzGyro"] is Double)
    }
}

@Suite struct ScoreWalkingTaskTests {
    /// An unpacked walking upload: outbound walk, rest device motion, outbound pedometer, with
    /// mPower's translated names (docs/formats.md §8.3).
    @Test("a walking-task folder: gait per walking step with the pedometer of its own step; the rest step is scored by balance (sway, tremor), not gait")
    func folder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = try FileManager.default.contentsOfDirectory(atPath: SharedData.sampleData.path)
        for (prefix, name) in [("accel_", "accel_walking_outbound.json"), ("deviceMotion_", "deviceMotion_walking.rest"), ("pedometer_", "pedometer_walking_outbound.json")] {
            let source = SharedData.sampleData.appendingPathComponent(samples.first { $0.hasPrefix(prefix) }!)
            try FileManager.default.copyItem(atPath: source.path, toPath: folder.path(name))
        }
        let run = try Run(["score", "gait", "--json", folder.url.path])
        #expect(run.status == 0, "\(run.stderr)")
        let features = try #require(run.json?["features"] as? [String: [String: Any]])
        #expect(Set(features.keys) == ["atk", "mhealthtools"])  // the outbound walk alone
        #expect(features["atk"]?["stepCount"] as? Int == 18)
        #expect(features["atk"]?["pedometerStepCount"] as? Int == 18)

        let balance = try Run(["score", "balance", "--json", folder.url.path])
        #expect(balance.status == 0, "\(balance.stderr)")
        let rest = try #require((balance.json?["features"] as? [String: [String: Any]])?["atk"])
        #expect(rest["swayRmsMetersPerSecondSquaredH"] is Double && rest["tremorDominantFrequencyHzAccel"] is Double)
        #expect(rest["stepCount"] == nil && rest["cadenceStepsPerMinute"] == nil)
        // The same sway as the rest file's own analysis (GaitAnalysis on its signal), by hand:
        let alone = try Run(["score", "balance", "--json", folder.path("deviceMotion_walking.rest")])
        #expect((alone.json?["features"] as? [String: [String: Any]])?["atk"]?["swayRmsMetersPerSecondSquaredH"] as? Double
            == rest["swayRmsMetersPerSecondSquaredH"] as? Double)
        // A rest recording is not a walk: score gait refuses it (exit 2) naming the balance analyzer.
        let refused = try Run(["score", "gait", folder.path("deviceMotion_walking.rest")])
        #expect(refused.status == 2 && refused.stderr.contains("balance analyzer"), "\(refused.stderr)")
    }
}

/// `evaluate oxford` on a dataset folder with a walk of the Oxford Step Counter set and a walk
/// whose ground truth is not in its layout.
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct EvaluateOxfordCommandTests {
    /// A walk that cannot be read was said on stderr only and the status was 0; with no walk to
    /// summarise the JSON held "NaN" strings and the table "nan"; the tables' names were not
    /// padded (`%-25@` pads nothing in this Foundation), so their columns did not line up.
    @Test("evaluate oxford: an unreadable walk is named, left out of the figures and makes the status 3; no walk to summarise gives null in JSON and – in the table; the tables' columns line up")
    func unreadableWalksAndEmptySummaries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = SharedData.path("gait-oxford/data/Nexus_Jamie_Hard_InHand_1")
        for walk in ["Nexus_Jamie_Hard_InHand_1", "Nexus_Other_Hard_InHand_1"] {
            try FileManager.default.createDirectory(atPath: folder.path("data/\(walk)"), withIntermediateDirectories: true)
            for name in ["accelerometer.csv", "stepcounter.csv"] {
                try FileManager.default.copyItem(atPath: source + "/" + name, toPath: folder.path("data/\(walk)/\(name)"))
            }
        }
        try Data("5\n".utf8).write(to: URL(fileURLWithPath: folder.path("data/Nexus_Other_Hard_InHand_1/stepcounter.csv")))

        let json = try Run(["evaluate", "oxford", "--json", folder.url.path])
        #expect(json.status == 3 && json.stderr.contains("Nexus_Other_Hard_InHand_1/stepcounter.csv"), "\(json.stderr)")
        #expect((json.json?["walks"] as? [Any])?.count == 1)
        #expect((json.json?["unreadableWalks"] as? [String])?.first?.contains("Nexus_Other_Hard_InHand_1/stepcounter.csv") == true)

        let table = try Run(["evaluate", "oxford", folder.url.path])
        #expect(table.status == 3)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("group") })
        let walksEnd = try #require(header.range(of: "walks")).upperBound.utf16Offset(in: header)
        let groups = lines.filter { $0.hasPrefix("all ") || $0.hasPrefix("position ") || $0.hasPrefix("phone ") }
        #expect(groups.count == 3 && groups.allSatisfy { $0.utf16.dropFirst(walksEnd - 5).prefix(5).elementsEqual("    1".utf16) }, "\(table.stdout)")

        try FileManager.default.removeItem(atPath: folder.path("data/Nexus_Jamie_Hard_InHand_1"))
        let empty = try Run(["evaluate", "oxford", "--json", folder.url.path])
        #expect(empty.status == 3)
        let all = try #require((empty.json?["summaries"] as? [String: Any])?["all"] as? [String: Any])
        #expect(all["walks"] as? Int == 0 && all["meanAbsoluteCountErrorPercent"] is NSNull && all["cadenceSdStepsPerMinute"] is NSNull, "\(all)")
        let emptyTable = try Run(["evaluate", "oxford", folder.url.path])
        let allLine = try #require(emptyTable.stdout.split(separator: "\n").first { $0.hasPrefix("all ") })
        #expect(allLine.contains("–") && !emptyTable.stdout.contains("nan"), "\(emptyTable.stdout)")
    }
}
