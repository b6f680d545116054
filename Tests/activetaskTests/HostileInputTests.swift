import Foundation
import Glibc
import Testing
import TestSupport
@testable import Batch

/// Inputs built to hurt (docs/reliability.md): each gives a clear error or a correct result, in
/// bounded memory (the CLI's peak resident memory, from `wait4`), never a crash.
@Suite struct HostileInputTests {
    /// `activetask ARGUMENTS` with its exit status, output and peak resident memory (MB, the
    /// `VmHWM` it reports with ATK_REPORT_PEAK_MEMORY; the parent's ru_maxrss for a spawned
    /// child would include the parent's own peak).
    struct Measured {
        var status: Int32
        var stdout: String
        var stderr: String
        var peakMegabytes: Double

        init(_ arguments: [String]) throws {
            var environment = ProcessInfo.processInfo.environment
            environment["ATK_REPORT_PEAK_MEMORY"] = "1"
            let run = try Run(arguments, environment: environment)
            var lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            let report = lines.popLast() ?? ""
            status = run.status
            stdout = run.stdout
            stderr = lines.map { $0 + "\n" }.joined()
            peakMegabytes = Double(report.split(separator: " ").dropLast().last ?? "") ?? .infinity
        }
    }

    /// The CLI's own footprint (runtime, Foundation, the binary) before it reads anything.
    static let baselineMegabytes: Double = (try? Measured(["--version"]).peakMegabytes) ?? 0

    /// A sanitizer's runtime multiplies memory: bounds are for uninstrumented builds.
    static func bound(_ megabytes: Double) -> Double { Sanitizer.active == nil ? megabytes : 20 * megabytes }

    static func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    /// The 44-byte header of an 8-bit mono 8-kHz PCM WAV whose data chunk declares `dataBytes`.
    static func wav8BitHeader(dataBytes: UInt32) -> [UInt8] {
        Array("RIFF".utf8) + le32(36 &+ dataBytes) + Array("WAVEfmt ".utf8) + le32(16)
            + [1, 0, 1, 0] + le32(8000) + le32(8000) + [1, 0, 8, 0] + Array("data".utf8) + le32(dataBytes)
    }

    @Test("a WAV header claiming 2^31 frames over 1,000 bytes: the 1,000 frames present are read with a warning naming both sizes, for info and score spl, without allocating for the claim")
    func wavClaimingTwoGigaframes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 8-bit mono PCM: 2^31 frames are 2^31 data bytes.
        let path = try folder.write("claims.wav", Self.wav8BitHeader(dataBytes: 0x8000_0000) + (0..<1000).map { UInt8(truncatingIfNeeded: 128 + $0 % 7) })
        for command in [["info"], ["score", "spl"]] {
            let run = try Measured(command + [path])
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(run.stdout.contains("the WAV header declares 2147483648 data bytes, the file holds 1000; the 1000 bytes of whole frames were read"), "\(run.stdout)")
            #expect(run.peakMegabytes < Self.baselineMegabytes + Self.bound(32), "\(command): \(run.peakMegabytes) MB")
        }
    }

    @Test("a WAV whose LIST sub-chunk size wraps libsndfile's 32-bit count (sf_open never returned): info and score spl exit 3 naming the file and both offsets; batch stores the error row and scores the good WAV beside it")
    func wavListSizeWrap() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let audio = Self.wav8BitHeader(dataBytes: 1000) + (0..<1000).map { UInt8(truncatingIfNeeded: 128 + $0 % 7) }
        let list = Array("LIST".utf8) + Self.le32(28) + Array("adtl".utf8) + [0x6C, 0x61, 0x62, 0x96] + Self.le32(0xFFFF_FFF3) + [UInt8](repeating: 0, count: 16)
        let uploads = folder.path("uploads")
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        let bad = try folder.write("uploads/room-noise.wav", audio + list)
        _ = try folder.write("uploads/room-noise-ok.wav", audio)
        for command in [["info"], ["score", "spl"]] {
            let run = try Measured(command + [bad])
            #expect(run.status == 3, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("room-noise.wav: corrupt WAV header: the LIST chunk at byte 1044 holds a sub-chunk 'lab\\x96' at byte 1056 declaring 4294967283 bytes, more than the list's 28"), "\(run.stderr)")
        }
        let batch = try Run(["batch", uploads, "--db", folder.path("store.sqlite"), "--json"])
        #expect(batch.status == 0 && batch.json?["errors"] as? Double == 1 && batch.json?["computed"] as? Double == 2, "\(batch.stdout) \(batch.stderr)")
        let rows = try ResultStore(path: folder.path("store.sqlite")).resultRows().map { ($0.recording, $0.status, $0.error ?? "") }
        #expect(rows.contains { $0.0.hasSuffix("room-noise-ok.wav") && $0.1 == .ok }, "\(rows)")
        #expect(rows.contains { $0.0.hasSuffix("room-noise.wav") && $0.1 == .error && $0.2.contains("LIST chunk at byte 1044") }, "\(rows)")
    }

    @Test("a 10^6-item accelerometer array (50 MB): read whole, in memory about twice the file")
    func millionItems() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var text = "["
        text.reserveCapacity(50_000_000)
        for i in 0..<1_000_000 {
            if i > 0 { text += "," }
            text += #"{"timestamp":\#(Double(i) / 100),"x":0.01,"y":-0.98,"z":0.12}"#
        }
        let path = try folder.write("accel_big-20260101120000.json", text + "]")
        let megabytes = Double(text.utf8.count) / 1_048_576
        let run = try Measured(["info", "--json", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""samples" : 1000000"#) || run.stdout.contains(#""samples": 1000000"#), "\(run.stdout.prefix(400))")
        // The bytes of the file, 8 bytes per number in columns, and the runtime.
        #expect(run.peakMegabytes < Self.baselineMegabytes + Self.bound(2.5 * megabytes), "\(run.peakMegabytes) MB for a \(megabytes)-MB file")
    }

    @Test("10^5-deep arrays and objects: exit 3 at the 49th level, in constant memory")
    func deepNesting() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (name, open, close) in [("arrays.json", "[", "]"), ("objects.json", #"{"a":"#, "}")] {
            let path = try folder.write(name, String(repeating: open, count: 100_000) + "1" + String(repeating: close, count: 100_000))
            let run = try Measured(["info", path])
            #expect(run.status == 3)
            #expect(run.stderr.contains("\(path): invalid JSON: nesting deeper than 48 levels at byte \(48 * open.utf8.count)"), "\(run.stderr)")
            #expect(run.peakMegabytes < Self.baselineMegabytes + Self.bound(16), "\(name): \(run.peakMegabytes) MB")
        }
    }

    @Test("400-digit numbers and 1e400 in a walk: read as ±infinity with a warning, those items left out of gait; in a tapping result: exit 3 naming the sample")
    func hugeNumbers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let walk = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path, encoding: .utf8)
        let hostile = walk.replacingOccurrences(of: #""x":0.00347,"#, with: #""x":1\#(String(repeating: "0", count: 400)),"#)
            .replacingOccurrences(of: #""z":-0.88652}"#, with: #""z":-1e400}"#)
        #expect(hostile != walk)
        let clean = try Run(["score", "gait", "--json", try folder.write("clean.json", walk)])
        let run = try Run(["score", "gait", "--json", try folder.write("hostile.json", hostile)])
        #expect(run.status == 0, "\(run.stderr)")
        #expect((run.json?["warnings"] as? [String])?.first == "infiniteValues(2): 2 item(s) hold a number beyond ±1.8e308, read as ±infinity")
        // Two of 1,000 samples left out: the steps are the same walk's.
        let steps = { (run: Run) in ((run.json?["features"] as? [String: Any])?["atk"] as? [String: Any])?["stepCount"] as? Double }
        #expect(steps(run) != nil && steps(run) == steps(clean))

        let tapping = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("tapping_results.json").path, encoding: .utf8)
            .replacingOccurrences(of: #""TapTimeStamp": 0.195984"#, with: #""TapTimeStamp": 1e400"#)
        let path = try folder.write("tapping.json", tapping)
        let tap = try Run(["score", "tapping", path])
        #expect(tap.status == 3 && tap.stderr.contains("\(path): invalid value: TapTimeStamp is not finite at TappingSamples[1].TapTimeStamp"), "\(tap.stderr)")
    }

    /// One device-motion item at 10⁶ s in a 10-s recording (the others at 86,430 s since boot)
    /// became the recording's end: tremor's mhealthtools features at a rate of 1,000 / 913,590 s,
    /// a range of motion's finish angle (105° → 5°) and a balance duration of 913,600 s, with
    /// exit 0 and only a gap warning.
    @Test("a motion item whose time lies far from the rest: gait, balance, tremor and rangeOfMotion exit 3 naming the file and the gap, batch stores the error row; a pedometer update dated far away: walkTest exits 3; a camera frame far away: heartRate exits 3; info says why")
    func detachedTimes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = SharedData.sampleData
        let scored = [("gait", "accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json", "accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json"),
                      ("balance", "deviceMotion_FBB0F82D_B546_0A40_4F1C_E3D85E934F5F-20260101120005.json", "deviceMotion_FBB0F82D_B546_0A40_4F1C_E3D85E934F5F-20260101120005.json"),
                      ("tremor", "tremor_task_result.json", "ac1_motion_right.json"),
                      ("rangeOfMotion", "range_of_motion_task_result.json", "range_of_motion_deviceMotion.json")]
        for name in try FileManager.default.contentsOfDirectory(atPath: samples.path) where name.hasSuffix(".json") {
            var text = try String(contentsOfFile: samples.appendingPathComponent(name).path, encoding: .utf8)
            if scored.contains(where: { $0.2 == name }) {
                // The second item's time: 1e6 s.
                let second = try #require(text.range(of: #"},{"timestamp":"#), "\(name)")
                let end = try #require(text[second.upperBound...].firstIndex(of: ","))
                text.replaceSubrange(second.upperBound..<end, with: "1e6")
            }
            _ = try folder.write(name, text)
        }
        for (kind, file, motion) in scored {
            let run = try Run(["score", kind, folder.path(file)])
            #expect(run.status == 3 && run.stderr.contains("\(folder.path(motion)): gaps longer than 5 × the median interval")
                && run.stderr.contains("the times are not those of one recording"), "\(kind): \(run.status) \(run.stderr)")
            #expect(try Run(["score", kind, samples.appendingPathComponent(file).path]).status == 0, "\(kind) on the sample")
        }
        // info still describes such a file, saying why the analyzers refuse it.
        let described = try Run(["info", folder.path(scored[0].2)])
        #expect(described.status == 0 && described.stdout.contains("warning   detachedTimes: gaps longer than 5 × the median interval")
            && described.stdout.contains("the analyzers refuse this file"), "\(described.stdout)")
        // A pedometer's last update dated in year 1: its count was taken from the update before.
        let pedometer = try String(contentsOfFile: samples.appendingPathComponent("timed_walk_trial1_pedometer.json").path, encoding: .utf8)
        let lastEnd = try #require(pedometer.ranges(of: #""endDate":""#).last)
        let dated = pedometer.replacingCharacters(in: lastEnd.upperBound..<pedometer.index(lastEnd.upperBound, offsetBy: 24), with: "0001-01-01T00:00:00+0000")
        _ = try folder.write("timed_walk_trial1_pedometer.json", dated)
        let walk = try Run(["score", "walkTest", folder.path("timed_walk_task_result.json")])
        #expect(walk.status == 3 && walk.stderr.contains("timed_walk_trial1_pedometer.json: gaps longer than 5 × the median interval"), "\(walk.stderr)")
        // A camera frame at 10⁶ s: the frame rate from the span was 0.0018 frames/s and no window fit.
        let camera = try String(contentsOfFile: samples.appendingPathComponent("heartRate_before_recorder.json").path, encoding: .utf8)
        let frame = try #require(camera.range(of: #"{"timestamp":0.416667,"#))
        _ = try folder.write("heartRate_before_recorder.json", camera.replacingCharacters(in: frame, with: #"{"timestamp":1e6,"#))
        let heart = try Run(["score", "heartRate", folder.path("heartRate_before_recorder.json")])
        #expect(heart.status == 3 && heart.stderr.contains("heartRate_before_recorder.json: gaps longer than 5 × the median interval"), "\(heart.stderr)")
        let store = folder.path("results.sqlite")
        let batch = try Run(["batch", folder.path("range_of_motion_task_result.json"), "--db", store])
        #expect(batch.status == 0, "\(batch.stderr)")
        let export = try Run(["batch", "export", "--db", store, "--csv"])
        #expect(export.stdout.contains("range_of_motion_deviceMotion.json: gaps longer than 5 × the median interval"), "\(export.stdout)")
    }

    /// `info` described these as `"durationSeconds": "Infinity"` and a rate of 0 Hz, its table as
    /// `duration "Infinity" s`, and a number of 1e306 as "Infinity" (its 4-decimal rounding
    /// overflowed).
    @Test("info on times of ±∞, ±1e308 and 1e-320 s apart: duration and rate null (JSON) or absent (table), never a string or 0 Hz; an answer of 1e306 printed as 1e+306")
    func infoOfHostileTimes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let items = { (t0: String, t1: String) in #"{"items":[{"timestamp":\#(t0),"x":1,"y":0,"z":0},{"timestamp":\#(t1),"x":1,"y":0,"z":0}]}"# }
        for (name, text, duration) in [("inf.json", items("1e400", "-1e400"), nil), ("huge.json", items("1e308", "-1e308"), nil),
                                       ("close.json", items("0", "1e-320"), Double("1e-320"))] {
            let path = try folder.write(name, text)
            let json = try Run(["info", "--json", path])
            let file = try #require((json.json?["files"] as? [[String: Any]])?.first, "\(name): \(json.stdout)")
            #expect(file["samplingRateHz"] is NSNull, "\(name): \(file)")
            #expect(duration.map { file["durationSeconds"] as? Double == $0 } ?? (file["durationSeconds"] is NSNull), "\(name): \(file)")
            let table = try Run(["info", path])
            #expect(table.status == 0 && !table.stdout.contains("Infinity") && !table.stdout.contains("rate "), "\(name): \(table.stdout)")
        }
        let answer = try folder.write("form.json", #"{"_class":"ORKTaskResult","identifier":"t","results":[{"_class":"ORKStepResult","identifier":"s","results":[{"_class":"ORKScaleQuestionResult","identifier":"q","scaleAnswer":1e306}]}]}"#)
        let described = try Run(["info", answer])
        #expect(described.status == 0 && described.stdout.contains("q: 1e+306"), "\(described.stdout)")
    }

    /// unpack re-serialised each entry, so a timestamp of 1e400 (read from the archive as +∞
    /// with a warning) became the string "Infinity" and the unpacked file was unreadable.
    @Test("unpack writes each entry as the archive spells it (1e400, a 400-digit number, 1.0): the unpacked file reads as the entry does in the archive; a name given twice is refused, nothing written")
    func unpackKeepsSpelling() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let long = "1" + String(repeating: "0", count: 399)
        let entry = #"{"items":[{"timestamp":1e400,"x":1.0,"y":\#(long),"z":0},{"timestamp":1,"x":1,"y":0,"z":0},{"timestamp":2,"x":1,"y":0,"z":0}]}"#
        let twice = try folder.write("twice.json", #"{"accel_walking.outbound.json":{"items":[]},"accel_walking.outbound.json":\#(entry)}"#)
        let refused = try Run(["unpack", twice, "--out", folder.path("out")])
        #expect(refused.status == 3 && refused.stderr.contains("\"accel_walking.outbound.json\" is given twice; nothing written"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/accel_walking.outbound.json")))
        let archive = try folder.write("archive.json", #"{"accel_walking.outbound.json":\#(entry)}"#)
        let run = try Run(["unpack", archive, "--out", folder.path("out")])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try String(contentsOfFile: folder.path("out/accel_walking.outbound.json"), encoding: .utf8)
        #expect(written == entry + "\n")
        let inside = try Run(["info", "--json", archive]), outside = try Run(["info", "--json", folder.path("out/accel_walking.outbound.json")])
        let part = ((inside.json?["files"] as? [[String: Any]])?.first?["parts"] as? [[String: Any]])?.first
        let file = (outside.json?["files"] as? [[String: Any]])?.first
        #expect(outside.status == 0 && file?["samples"] as? Int == 3 && part?["samples"] as? Int == 3, "\(outside.stderr) \(outside.stdout)")
        #expect((file?["warnings"] as? [String])?.contains { $0.hasPrefix("infiniteValues(1)") } == true, "\(outside.stdout)")
    }

    @Test("non-UTF-8 bytes in a string, and a 10^6-digit TapCoordinate: exit 3 with the position, bounded memory")
    func hostileStrings() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let latin1 = try folder.write("latin1.json", Array(#"[{"TapTimeStamp":0,"TapCoordinate":"{1, 2}","TappedButtonId":"Tapped"#.utf8) + [0xE9] + Array(#""}]"#.utf8))
        let run = try Measured(["info", latin1])
        #expect(run.status == 3 && run.stderr.contains("\(latin1): invalid UTF-8 in a string at byte 61"), "\(run.stderr)")

        let digits = String(repeating: "7", count: 1_000_000)
        let huge = try folder.write("huge.json", #"[{"TapTimeStamp":0,"TapCoordinate":"{\#(digits), 2}","TappedButtonId":"TappedButtonLeft"}]"#)
        let tap = try Measured(["score", "tapping", huge])
        #expect(tap.status == 3 && tap.stderr.contains("is not a CoreGraphics geometry string at [0].TapCoordinate"), "\(tap.stderr.prefix(300))")
        #expect(tap.peakMegabytes < Self.baselineMegabytes + Self.bound(32), "\(tap.peakMegabytes) MB")
    }

    @Test("archive entries named ../, absolute or with / are never written; links in the output folder are not followed; a task result cannot name a file outside its folder")
    func escapingNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tapping = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("tapping_results.json").path, encoding: .utf8)
        let accel = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path, encoding: .utf8)
        func archive(_ name: String) -> String {
            #"{"info.json":{"taskRun":"x","item":"tapping","files":[]},"tapping_results.json":\#(tapping),"\#(name)":\#(accel)}"#
        }
        try FileManager.default.createDirectory(atPath: folder.path("deep/er"), withIntermediateDirectories: true)
        for name in ["../escape.json", "../../escape.json", folder.path("absolute.json"), "sub/inner.json", #"..\\escape.json"#] {
            let path = try folder.write("archive.json", archive(name))
            let run = try Run(["unpack", path, "--out", folder.path("deep/er/out")])
            #expect(run.status == 3, "\(name)")
            #expect(run.stderr.contains("is not a plain file name"), "\(name): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("deep/er/out")), "\(name): something was written")
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.url.path).sorted() == ["archive.json", "deep", "deep/er"])

        // A link planted in the output folder is not followed, and what it points to is unchanged.
        let outside = try folder.write("outside.json", "{}")
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("out/tapping_results.json"), withDestinationPath: outside)
        let run = try Run(["unpack", try folder.write("archive.json", archive("accel_x.json")), "--out", folder.path("out")])
        #expect(run.status == 3 && run.stderr.contains("out/tapping_results.json: exists (not overwritten)"), "\(run.stderr)")
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "{}")
        // Every entry or none (docs/reliability.md §6): the clash leaves the folder as it was.
        #expect(try run.stdout.isEmpty && FileManager.default.contentsOfDirectory(atPath: folder.path("out")) == ["tapping_results.json"])

        // A task result naming ../secret.json as its recorder file: the batch never reads it.
        try FileManager.default.createDirectory(atPath: folder.path("upload"), withIntermediateDirectories: true)
        _ = try folder.write("secret.json", accel)
        let task = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("tapping_task_result.json").path, encoding: .utf8)
        let fileName = try #require(task.firstMatch(of: /"fileName"\s*:\s*"([^"]+)"/)?.1)
        _ = try folder.write("upload/task.json", task.replacingOccurrences(of: String(fileName), with: "../secret.json"))
        let batch = try Run(["batch", folder.path("upload"), "--db", folder.path("r.sqlite"), "--json"])
        #expect(batch.status == 0 && batch.json?["units"] as? Double == 1, "\(batch.stdout)")
        let rows = try Run(["batch", "export", "--db", folder.path("r.sqlite"), "--csv"]).stdout
        #expect(!rows.contains("secret"), "\(rows)")
    }
}
