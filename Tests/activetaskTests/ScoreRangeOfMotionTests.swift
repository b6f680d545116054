import Foundation
import Testing
import TestSupport

/// `score rangeOfMotion` and its batch rows on SampleData's knee range-of-motion task, whose
/// angles are worked by hand (SampleGenerator.rangeOfMotionTask: pitch 85° at the start, the
/// knee bending to 110° from there and back to 100°): start 5°, finish 105°, minimum 5°, maximum
/// 115°, range 110° (docs/analyses.md §7.1).
@Suite struct ScoreRangeOfMotionTests {
    static let task = SharedData.sampleData.appendingPathComponent("range_of_motion_task_result.json").path
    static let motion = SharedData.sampleData.appendingPathComponent("range_of_motion_deviceMotion.json").path
    static let byHand: [(String, Double)] = [("start", 5), ("finish", 105), ("minimum", 5), ("maximum", 115), ("range", 110)]

    static func features(_ arguments: [String]) throws -> (set: [String: Any], warnings: [String], status: Int32) {
        let run = try Run(["score", "rangeOfMotion", "--json"] + arguments)
        let json = try #require(run.json, "\(arguments): \(run.stderr)")
        let set = try #require((json["features"] as? [String: Any])?["researchKit"] as? [String: Any], "\(json)")
        return (set, json["warnings"] as? [String] ?? [], run.status)
    }

    @Test("the task result with its device-motion file: the recomputed angles and the stored ones both equal the hand values")
    func taskResult() throws {
        let (set, warnings, status) = try Self.features([Self.task])
        #expect(status == 0)
        for (name, expected) in Self.byHand {
            let recomputed = try #require(set["\(name)Degrees"] as? Double, "\(name)")
            #expect(abs(recomputed - expected) <= 1e-9, "\(name): \(recomputed), by hand \(expected)")
            #expect(set["stored\(name.prefix(1).uppercased() + name.dropFirst())Degrees"] as? Double == expected, "stored \(name)")
        }
        #expect(try #require(set["largestDifferenceFromStoredDegrees"] as? Double) <= 1e-9)
        #expect(set["step"] as? String == "knee.range.of.motion" && set["orientation"] as? String == "portrait")
        #expect(set["sampleCount"] as? Double == 801 && set["skippedSampleCount"] as? Double == 0)
        #expect(abs(try #require(set["durationSeconds"] as? Double) - 8) <= 1e-6)
        #expect(!warnings.contains { $0.contains("differ") }, "\(warnings)")
    }

    @Test("read in landscape (the roll of a pitch-only motion is 0) the angles disagree with the stored result, and a warning names the orientation parameter")
    func otherOrientation() throws {
        let (set, warnings, status) = try Self.features(["--orientation", "landscape", Self.task])
        #expect(status == 0)
        #expect(set["orientation"] as? String == "landscape")
        #expect(abs(try #require(set["rangeDegrees"] as? Double)) <= 1e-9)
        #expect(try #require(set["largestDifferenceFromStoredDegrees"] as? Double) > 100)
        #expect(warnings.contains { $0.contains("differ from the stored ORKRangeOfMotionResult") && $0.contains("the parameter orientation") }, "\(warnings)")
    }

    @Test("the device-motion file alone: the angles, stored values null; the stored result alone: its values, recomputed null, with a warning")
    func eitherHalf() throws {
        let alone = try Self.features([Self.motion])
        #expect(abs(try #require(alone.set["maximumDegrees"] as? Double) - 115) <= 1e-9)
        #expect(alone.set["storedMaximumDegrees"] is NSNull && alone.set["largestDifferenceFromStoredDegrees"] is NSNull)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = folder.path("range_of_motion_task_result.json")
        try FileManager.default.copyItem(atPath: Self.task, toPath: result)
        let stored = try Self.features([result])
        #expect(stored.status == 0)
        #expect(stored.set["storedRangeDegrees"] as? Double == 110 && stored.set["rangeDegrees"] is NSNull)
        #expect(stored.warnings.contains("no device-motion recording: the stored result only"), "\(stored.warnings)")
    }

    @Test("a device-motion file without a usable attitude, or with one sample: numbers or null, never a crash")
    func hostile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let item = #"{"timestamp":1,"attitude":{"x":0,"y":0,"z":0,"w":0},"rotationRate":{"x":0,"y":0,"z":0},"gravity":{"x":0,"y":0,"z":-1},"userAcceleration":{"x":0,"y":0,"z":0}}"#
        let placeholder = try folder.write("deviceMotion_range_of_motion.json", "[\(item)]")
        let run = try Run(["score", "rangeOfMotion", "--json", placeholder])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("no usable attitude and no stored result"), "\(run.stderr)")
        let one = try folder.write("deviceMotion_one.json", "[\(item.replacingOccurrences(of: #""w":0"#, with: #""w":1"#))]")
        let single = try Self.features([one])
        #expect(single.set["startDegrees"] as? Double == 90 && single.set["rangeDegrees"] as? Double == 0 && single.set["sampleCount"] as? Double == 1)
        let nothing = try Run(["score", "rangeOfMotion", SharedData.sampleData.appendingPathComponent("spl_meter_result.json").path])
        #expect(nothing.status == 3 && nothing.stderr.contains("no range-of-motion recording"), "\(nothing.stderr)")
    }

    @Test("gait and balance leave a range-of-motion recording to rangeOfMotion: exit 2 naming it, or no rest recording")
    func notAWalk() throws {
        let gait = try Run(["score", "gait", Self.task])
        #expect(gait.status == 2 && gait.stderr.contains("scored by the rangeOfMotion analyzer, not gait"), "\(gait.stderr)")
        let balance = try Run(["score", "balance", Self.task])
        #expect(balance.status == 3 && balance.stderr.contains("no rest recording"), "\(balance.stderr)")
    }

    @Test("batch: the task is one rangeOfMotion row (not a walk), its wide table holds the hand values")
    func batch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.path("in")
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for path in [Self.task, Self.motion] {
            try FileManager.default.copyItem(atPath: path, toPath: input + "/" + URL(fileURLWithPath: path).lastPathComponent)
        }
        let db = folder.path("r.sqlite")
        let batch = try Run(["batch", input, "--db", db])
        #expect(batch.status == 0, "\(batch.stderr)")
        let rows = try Run(["batch", "export", "--db", db, "--jsonl"]).stdout.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(rows.compactMap { $0["analyzer"] as? String } == ["rangeOfMotion"], "\(rows)")
        let wide = try Run(["batch", "export", "--db", db, "--wide", "--analyzer", "rangeOfMotion", "--jsonl"])
        let table = wide.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(table.count == 1, "\(wide.stdout)\(wide.stderr)")
        for (name, expected) in Self.byHand {
            let value = try #require(table.first?["researchKit.\(name)Degrees"] as? Double, "\(table)")
            #expect(abs(value - expected) <= 1e-9, "\(name)")
        }
    }
}
