import Foundation
import Testing
import TestSupport

/// `score tremor` and the batch rows of ResearchKit's other motion tasks on SampleData, whose
/// tremor frequencies are set by construction (SampleGenerator.tremorTask: 5, 6, 6.5, 4.5 and
/// 5.5 Hz in the five positions of the right hand; docs/analyses.md §7.4).
@Suite struct ScoreTremorTests {
    static let task = SharedData.sampleData.appendingPathComponent("tremor_task_result.json").path
    static let positions: [(String, Double, Bool)] = [
        ("handInLap", 5, false), ("handAtShoulderLength", 6, false), ("handAtShoulderLengthWithElbowBent", 6.5, false),
        ("handToNose", 4.5, true), ("handQueenWave", 5.5, true),
    ]

    @Test("per position: the constructed tremor frequency within 0.01 Hz (acceleration and rotation rate), mhealthtools' rest features (6 × 86, no IMF) for the still positions and kinetic ones (two IMFs, the gravity windows) for the moving")
    func positions() throws {
        let run = try Run(["score", "tremor", "--json", Self.task])
        #expect(run.status == 0, "\(run.stderr)")
        let sets = try #require(run.json?["features"] as? [String: [String: Any]])
        #expect(sets.count == 10, "\(sets.keys.sorted())")
        for (position, hz, moving) in Self.positions {
            let atk = try #require(sets["atk.\(position).right"], "\(position)")
            for key in ["dominantFrequency3_5To7_5HzAccel", "dominantFrequency3_5To7_5HzGyro"] {
                let value = try #require(atk[key] as? Double, "\(position) \(key)")
                #expect(abs(value - hz) < 0.01, "\(position) \(key): \(value)")
            }
            #expect((atk["relativeBandPower3_5To7_5Accel"] as? Double ?? 0) > 0.95, "\(position)")
            let mhealthtools = try #require(sets["mhealthtools.\(position).right"], "\(position)")
            // With EMD also the gravity windows and those the phone rotated in: gravity's y swings with
            // the 0.5-Hz arm movement, changing sign in every 2.56-s window.
            let expected: Int = moving ? 2 * 6 * 86 + 2 : 6 * 86
            #expect(mhealthtools.count == expected, "\(position): \(mhealthtools.count)")
            if moving {
                let windows = mhealthtools["gravityWindowCount"] as? Int, rotated = mhealthtools["phoneRotatedWindowCount"] as? Int
                #expect(windows == 6 && rotated == 6, "\(position)")
            }
            #expect(mhealthtools[moving ? "gyroscope.z.IMF2.EnergyInBand24_5" : "gyroscope.z.EnergyInBand24_5"] is Double, "\(position)")
        }
    }

    @Test("one recorder file ac4_motion alone is the hand-to-nose position; gait and balance leave the task's recordings to tremor")
    func routing() throws {
        let file = SharedData.sampleData.appendingPathComponent("ac4_motion_right.json").path
        let sets = try #require(try Run(["score", "tremor", "--json", file]).json?["features"] as? [String: Any])
        #expect(Set(sets.keys) == ["mhealthtools.handToNose", "atk.handToNose"], "\(sets.keys)")
        let gait = try Run(["score", "gait", Self.task])
        #expect(gait.status == 2 && gait.stderr.contains("scored by the tremor analyzer, not gait"), "\(gait.stderr)")
        let nothing = try Run(["score", "tremor", SharedData.sampleData.appendingPathComponent("spl_meter_result.json").path])
        #expect(nothing.status == 3 && nothing.stderr.contains("no tremor recording"), "\(nothing.stderr)")
    }

    @Test("batch over a folder with a tremor task, a range-of-motion task, a timed walk and a six-minute walk: one wide table per analyzer (tremor split into views past 1,900 columns), each score --json equal to its row")
    func batch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.path("in")
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: SharedData.sampleData.path)
        where ["tremor", "ac", "range_of_motion", "timed_walk"].contains(where: { name.hasPrefix($0) }) && !name.hasPrefix("accel") {
            try FileManager.default.copyItem(atPath: SharedData.sampleData.appendingPathComponent(name).path, toPath: input + "/" + name)
        }
        // A six-minute walk: its step 6mwt with a pedometer and the walk's accelerometer.
        try FileManager.default.createDirectory(atPath: input + "/six", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: input + "/timed_walk_trial1_accel.json", toPath: input + "/six/accel_6mwt.json")
        try FileManager.default.copyItem(atPath: input + "/timed_walk_trial1_pedometer.json", toPath: input + "/six/pedometer_6mwt.json")
        try #"{"_class":"ORKTaskResult","results":[{"_class":"ORKStepResult","identifier":"6mwt","results":[{"_class":"ORKFileResult","identifier":"accel","fileName":"accel_6mwt.json"},{"_class":"ORKFileResult","identifier":"pedometer","fileName":"pedometer_6mwt.json"}]}]}"#
            .write(toFile: input + "/six/six_minute_walk.json", atomically: true, encoding: .utf8)
        let db = folder.path("r.sqlite")
        let batch = try Run(["batch", input, "--db", db])
        #expect(batch.status == 0, "\(batch.stderr)")
        let rows = try Run(["batch", "export", "--db", db, "--jsonl"]).stdout.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(Set(rows.compactMap { $0["analyzer"] as? String }) == ["tremor", "rangeOfMotion", "walkTest", "gait"], "\(rows.map { $0["analyzer"] ?? "" })")
        for analyzer in ["tremor", "rangeOfMotion", "walkTest"] {
            let wide = try Run(["batch", "export", "--db", db, "--wide", "--analyzer", analyzer, "--jsonl"])
            let lines = wide.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(!lines.isEmpty && wide.status == 0, "\(analyzer): \(wide.stderr)")
            if analyzer == "tremor" {
                #expect(abs((lines.first?["atk.handInLap.right.dominantFrequency3_5To7_5HzAccel"] as? Double ?? 0) - 5) < 0.01, "\(lines.first?.keys.count ?? 0)")
            }
            if analyzer == "walkTest" { #expect(lines.contains { $0["sixMinuteWalk.pedometerStepCount"] is Double }, "\(lines)") }
        }
        for row in rows where row["analyzer"] as? String == "tremor" {
            let recording = try #require(row["recording"] as? String)
            let score = try #require(try Run(["score", "tremor", "--json", recording]).json)
            #expect(ScoreEqualsBatchTests.canonical(score["features"]) == ScoreEqualsBatchTests.canonical(row["features"]))
        }
    }
}
