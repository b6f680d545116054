import Foundation
import Testing
import TestSupport

/// `score walkTest` and its batch rows on SampleData's timed walk, whose values are set by
/// construction (SampleGenerator.timedWalkTask): two 7.62-m trials of 6 and 6.5 s, pedometer
/// updates once a second at 110 steps/min and 0.7 m a step, location fixes spanning exactly 7.62 m
/// due north (one of trial 2 at 65 m accuracy), no orthosis, no assistance (docs/analyses.md §7.2).
@Suite struct ScoreWalkTestTests {
    static let task = SharedData.sampleData.appendingPathComponent("timed_walk_task_result.json").path

    static func score(_ arguments: [String]) throws -> (json: [String: Any], features: [String: [String: Any]], status: Int32) {
        let run = try Run(["score", "walkTest", "--json"] + arguments)
        let json = try #require(run.json, "\(arguments): \(run.stderr)")
        return (json, json["features"] as? [String: [String: Any]] ?? [:], run.status)
    }

    static func close(_ value: Any?, _ expected: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard let value = value as? Double else { return false }
        return abs(value - expected) <= tolerance
    }

    @Test("each trial: its duration, the requested distance and speed, the pedometer's steps and distance, the location path, the gait's steps; the form's answers")
    func timedWalk() throws {
        let (_, sets, status) = try Self.score([Self.task])
        #expect(status == 0)
        #expect(Set(sets.keys) == ["trial1", "trial2", "form"], "\(sets.keys)")
        for (name, duration, kept, leftOut) in [("trial1", 6.0, 7.0, 0.0), ("trial2", 6.5, 7.0, 1.0)] {
            let set = try #require(sets[name])
            #expect(Self.close(set["durationSeconds"], duration) && Self.close(set["requestedDistanceMeters"], 7.62), "\(name)")
            #expect(Self.close(set["timeLimitSeconds"], 180) && Self.close(set["speedMetersPerSecond"], 7.62 / duration), "\(name)")
            let pedometerSteps = (110.0 / 60 * duration.rounded(.down)).rounded(.down)
            #expect(Self.close(set["pedometerStepCount"], pedometerSteps) && Self.close(set["pedometerDistanceMeters"], pedometerSteps * 0.7), "\(name)")
            #expect(Self.close(set["locationDistanceMeters"], 7.62) && Self.close(set["locationFixesKept"], kept) && Self.close(set["locationFixesLeftOut"], leftOut), "\(name): \(set)")
            // The gait analysis counts the walk's steps to within one (110/60 × duration).
            #expect(Self.close(set["stepCount"], 110 / 60 * duration, 1), "\(name): \(set["stepCount"] ?? "nil")")
        }
        let form = try #require(sets["form"])
        #expect(form["ankleFootOrthosis"] as? Bool == false && form["assistance"] as? String == "TIMED_WALK_QUESTION_2_CHOICE")
        #expect(form["shortnessOfBreath"] is NSNull && form["fatigue"] is NSNull)
    }

    /// A trial's duration of 1e-300 s gave a speed of 7.62e300 m/s, a distance of 0 m a speed of
    /// 0 m/s, a duration of 0 s a null speed, each without a word.
    @Test("a trial without a speed says why: 1e-300 s (faster than 12.5 m/s: null), 0 s, a distance of 0 m; 7.62 m in 0.61 s (12.49 m/s) is a speed")
    func speedLimits() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = try String(contentsOfFile: Self.task, encoding: .utf8)
        for name in try FileManager.default.contentsOfDirectory(atPath: SharedData.sampleData.path) where name.hasPrefix("timed_walk_trial") {
            _ = try folder.write(name, Array(try Data(contentsOf: SharedData.sampleData.appendingPathComponent(name))))
        }
        /// The text with its first `old` (trial 1's) replaced by `new`.
        func replacing(_ text: String, _ old: String, _ new: String) -> String {
            guard let range = text.range(of: old) else { return text }
            return text.replacingCharacters(in: range, with: new)
        }
        for (duration, distance, said) in [("1e-300", "7.62", "7.62 m in 1e-300 s is 7.62e+300 m/s, faster than anyone walks or runs (12.5 m/s): speed null"),
                                           ("4.9e-324", "7.62", "7.62 m in 5e-324 s is beyond the largest number (1.7976931348623157e+308 m/s), faster than anyone walks or runs (12.5 m/s): speed null"),
                                           ("0", "7.62", "a duration of 0.0 s gives no speed"), ("6", "0", "a requested distance of 0.0 m gives no speed"),
                                           ("0.61", "7.62", nil)] {
            let edited = replacing(replacing(text, #""duration":6}"#, #""duration":\#(duration)}"#), #""distanceInMeters":7.62,"#, #""distanceInMeters":\#(distance),"#)
            #expect(edited != text)
            let path = try folder.write("timed_walk_task_result.json", edited)
            let (json, sets, status) = try Self.score([path])
            let warnings = json["warnings"] as? [String] ?? []
            #expect(status == 0 && warnings.contains("trial1: \(said ?? "")") == (said != nil), "\(duration) \(distance): \(warnings)")
            let speed = sets["trial1"]?["speedMetersPerSecond"]
            #expect(said == nil ? Self.close(speed, 7.62 / 0.61) : speed is NSNull, "\(duration) \(distance): \(speed ?? "nil")")
        }
    }

    @Test("a location fix years after the trial's others is left out with a warning (trial 1: 6 s + 60 s from the median fix), the distance that of the other fixes")
    func fixFarInTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in try FileManager.default.contentsOfDirectory(atPath: SharedData.sampleData.path) where name.hasPrefix("timed_walk") {
            var text = try String(contentsOf: SharedData.sampleData.appendingPathComponent(name), encoding: .utf8)
            if name == "timed_walk_trial1_location.json", let range = text.range(of: "2026-01-01T12:01:35+0100") {
                text.replaceSubrange(range, with: "9999-01-01T12:01:35+0100")
            }
            _ = try folder.write(name, text)
        }
        let whole = try Self.score([Self.task])
        let (json, sets, status) = try Self.score([folder.path("timed_walk_task_result.json")])
        let warnings = json["warnings"] as? [String] ?? []
        #expect(status == 0 && warnings.contains("trial1: 1 location fix(es) more than 66 s from the fixes' median time left out (not of this walk)"), "\(warnings)")
        #expect(Self.close(sets["trial1"]?["locationFixesKept"], 6) && Self.close(sets["trial1"]?["locationFixesLeftOut"], 1))
        // The six fixes left span the same path as the seven (the fix moved was on the straight line between its neighbours).
        #expect(Self.close(sets["trial1"]?["locationDistanceMeters"], try #require(whole.features["trial1"]?["locationDistanceMeters"] as? Double)))
    }

    @Test("the accuracy limit keeps or leaves out trial 2's 65-m fix; a negative limit is refused naming the option")
    func accuracyLimit() throws {
        let loose = try Self.score(["--maximum-horizontal-accuracy-meters", "100", Self.task])
        #expect(Self.close(loose.features["trial2"]?["locationFixesKept"], 8) && Self.close(loose.features["trial2"]?["locationFixesLeftOut"], 0))
        #expect(!((loose.json["warnings"] as? [String]) ?? []).contains { $0.contains("left out") })
        let refused = try Run(["score", "walkTest", "--maximum-horizontal-accuracy-meters=-1", Self.task])
        #expect(refused.status == 2 && refused.stderr.contains("maximumHorizontalAccuracyMeters"), "\(refused.stderr)")
    }

    @Test("a six-minute walk with hostile fixes and answers: numbers or null, never a crash")
    func hostileSixMinuteWalk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fixes = [#"{"timestamp":"2026-01-01T12:00:00+0100","coordinate":{"latitude":null,"longitude":1},"horizontalAccuracy":5}"#,
                     #"{"timestamp":"2026-01-01T12:00:01+0100","coordinate":{"latitude":1e308,"longitude":1},"horizontalAccuracy":5}"#,
                     #"{"timestamp":"2026-01-01T12:00:02+0100","coordinate":{"latitude":10,"longitude":1},"horizontalAccuracy":1e308}"#,
                     #"{"timestamp":"2026-01-01T12:00:03+0100","coordinate":{"latitude":10,"longitude":1},"horizontalAccuracy":3}"#]
        _ = try folder.write("location_6mwt.json", "[\(fixes.joined(separator: ","))]")
        let task = #"{"_class":"ORKTaskResult","results":[{"_class":"ORKStepResult","identifier":"6mwt","results":[{"_class":"ORKFileResult","identifier":"location","fileName":"location_6mwt.json"}]},{"_class":"ORKStepResult","identifier":"followup","results":[{"_class":"ORKScaleQuestionResult","identifier":"6mwt.fatigue","scaleAnswer":4},{"_class":"ORKScaleQuestionResult","identifier":"6mwt.shortnessOfBreath","scaleAnswer":null}]}]}"#
        let path = try folder.write("six_minute_walk.json", task)
        let (json, sets, status) = try Self.score([path])
        #expect(status == 0, "\(json)")
        let walk = try #require(sets["sixMinuteWalk"])
        #expect(Self.close(walk["locationDistanceMeters"], 0) && Self.close(walk["locationFixesKept"], 1) && Self.close(walk["locationFixesLeftOut"], 3), "\(walk)")
        #expect(walk["pedometerStepCount"] is NSNull && walk["stepCount"] is NSNull && walk["requestedDistanceMeters"] is NSNull)
        #expect(Self.close(sets["form"]?["fatigue"], 4) && sets["form"]?["shortnessOfBreath"] is NSNull)
        let nothing = try Run(["score", "walkTest", SharedData.sampleData.appendingPathComponent("spl_meter_result.json").path])
        #expect(nothing.status == 3 && nothing.stderr.contains("no timed-walk or six-minute-walk step"), "\(nothing.stderr)")
    }

    @Test("batch: the timed walk is a walkTest row and a gait row (its trials are walks)")
    func batch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.path("in")
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: SharedData.sampleData.path) where name.hasPrefix("timed_walk") {
            try FileManager.default.copyItem(atPath: SharedData.sampleData.appendingPathComponent(name).path, toPath: input + "/" + name)
        }
        let db = folder.path("r.sqlite")
        let batch = try Run(["batch", input, "--db", db])
        #expect(batch.status == 0, "\(batch.stderr)")
        let rows = try Run(["batch", "export", "--db", db, "--jsonl"]).stdout.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(rows.compactMap { $0["analyzer"] as? String }.sorted() == ["gait", "walkTest"], "\(rows.map { $0["analyzer"] ?? "" })")
        let wide = try Run(["batch", "export", "--db", db, "--wide", "--analyzer", "walkTest", "--jsonl"])
        let row = try #require(wide.stdout.split(separator: "\n").first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(Self.close(row["trial1.locationDistanceMeters"], 7.62) && row["form.ankleFootOrthosis"] as? Bool == false, "\(row)")
    }
}
