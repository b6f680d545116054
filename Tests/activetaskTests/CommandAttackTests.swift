import Foundation
import Glibc
import Testing
import TestSupport
import Batch
import Scoring

/// Attacks on every command (docs/reliability.md §5): one regression test per class of defect found
/// in 6eb677a, each of which crashed, hung, exhausted memory or destroyed data there. Every run
/// goes through `timeout 60`, so a hang fails as exit 124 instead of stalling the suite.
@Suite struct CommandAttackTests {
    static func run(_ arguments: [String], input: Data? = nil) throws -> Run {
        try Run(arguments, input: input, launcher: ["/usr/bin/timeout", "60"])
    }

    /// A crash is a signal (128 + n from timeout's child, or the process's own); a hang is 124.
    static func expectContract(_ run: Run, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect((0...3).contains(run.status), "\(what): exit \(run.status)\n\(run.stderr.prefix(600))", sourceLocation: sourceLocation)
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    /// A mono 32-bit float WAV.
    static func floatWAV(_ samples: [Float], rate: UInt32 = 8_000, channels: UInt16 = 1) -> [UInt8] {
        let data = samples.withUnsafeBytes { Array($0) }
        return Array("RIFF".utf8) + le(UInt32(36 + data.count)) + Array("WAVEfmt ".utf8) + le(UInt32(16)) + le(UInt16(3)) + le(channels)
            + le(rate) + le(rate &* 4 &* UInt32(channels)) + le(4 &* channels) + le(UInt16(32)) + Array("data".utf8) + le(UInt32(data.count)) + data
    }

    static func vowel(seconds: Double = 2, rate: Double = 8_000) -> [Float] {
        (0..<Int(seconds * rate)).map { Float(0.3 * sin(2 * Double.pi * 150 * Double($0) / rate) + 0.1 * sin(2 * Double.pi * 300 * Double($0) / rate)) }
    }

    // MARK: 1. Traps on numbers

    @Test("class 1: a float WAV with NaN and ±∞ samples scores (voice, spl) with a nonFiniteSamples warning; a 1-GHz header is invalid input")
    func nonFiniteSamples() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var samples = Self.vowel()
        samples[5_000] = .nan
        samples[6_000] = .infinity
        samples[7_000] = -.infinity
        let path = try folder.write("nan.wav", Self.floatWAV(samples))
        for kind in ["voice", "spl"] {
            let run = try Self.run(["score", kind, "--json", path])
            #expect(run.status == 0, "\(kind): \(run.stderr)")
            #expect(run.stdout.contains("nonFiniteSamples(3)"), "\(kind): \(run.stdout.prefix(300))")
        }
        let clean = try Self.run(["score", "voice", "--json", try folder.write("clean.wav", Self.floatWAV(Self.vowel()))])
        #expect(!clean.stdout.contains("nonFiniteSamples"))
        let fast = try folder.write("fast.wav", Self.floatWAV(Self.vowel(), rate: 1_000_000_000))
        for command in [["info"], ["score", "voice"], ["score", "spl"]] {
            let run = try Self.run(command + [fast])
            #expect(run.status == 3, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("sample rate 1000000000.0 Hz is outside 1–768000 Hz"), "\(run.stderr)")
        }
    }

    /// A mono 64-bit float WAV (the one format whose samples can exceed Float's 3.4e38).
    static func doubleWAV(_ samples: [Double], rate: UInt32 = 8_000) -> [UInt8] {
        let data = samples.withUnsafeBytes { Array($0) }
        return Array("RIFF".utf8) + le(UInt32(36 + data.count)) + Array("WAVEfmt ".utf8) + le(UInt32(16)) + le(UInt16(3)) + le(UInt16(1))
            + le(rate) + le(rate &* 8) + le(UInt16(8)) + le(UInt16(64)) + Array("data".utf8) + le(UInt32(data.count)) + data
    }

    @Test("class 1: a 64-bit float WAV with one sample of 1e300 (its square overflows) is refused by voice, spl and loudness naming the frame, the channel and the value, exit 3; 1e99 is still a level")
    func absurdMagnitudes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var samples = Self.vowel().map(Double.init)
        samples[7_000] = -1e300
        let path = try folder.write("huge.wav", Self.doubleWAV(samples))
        for kind in ["voice", "spl", "loudness"] {
            let run = try Self.run(["score", kind, path])
            #expect(run.status == 3, "\(kind): exit \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("huge.wav: frame 7000, channel 0 holds -1e+300 × full scale, beyond ±1e100"), "\(kind): \(run.stderr)")
        }
        samples[7_000] = 1e99
        let large = try Self.run(["score", "spl", "--json", try folder.write("large.wav", Self.doubleWAV(samples))])
        #expect(large.status == 0 && large.stdout.range(of: "\"lzeqDecibels\": [0-9]", options: .regularExpression) != nil, "\(large.stderr) \(large.stdout.prefix(400))")
    }

    @Test("class 1: accelerometer timestamps 1e-20 s apart, a pedometer count of 1e300 refused naming it, --interval-seconds 1e300 / 0 and --threshold-decibels nan: no trap")
    func numbersFromFilesAndOptions() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let items = (0..<600).map { #"{"timestamp":\#(Double($0) * 1e-20),"x":\#(0.1 * Double($0 % 7)),"y":0.2,"z":-0.9}"# }
        let tiny = try Self.run(["score", "gait", try folder.write("accel_tiny-20260101120000.json", "{\"items\":[\(items.joined(separator: ","))]}")])
        #expect(tiny.status == 1, "\(tiny.stderr)")  // one instant: too little motion data, analysed and unusable
        #expect(tiny.stderr.contains("too little motion data"), "\(tiny.stderr)")
        let pedometer = #"{"items":[{"startDate":"2026-01-01T12:00:00+0000","endDate":"2026-01-01T12:00:10+0000","numberOfSteps":1e300,"distance":10}]}"#
        let info = try Self.run(["info", try folder.write("pedometer_x-20260101120000.json", pedometer)])
        #expect(info.status == 3 && info.stderr.contains("numberOfSteps 1e+300 steps is outside 0–1000000000 steps at items[0].numberOfSteps"), "\(info.stderr)")
        let wav = try folder.write("v.wav", Self.floatWAV(Self.vowel()))
        for (option, value, message) in [("--interval-seconds", "1e300", "reading interval 1e+300 s"), ("--interval-seconds", "0", "reading interval 0.0 s"),
                                         ("--threshold-decibels", "nan", "[spl] thresholdDecibels must be a number")] {
            let run = try Self.run(["score", "spl", wav, option, value])
            #expect(run.status == 2, "\(option) \(value): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
        }
    }

    @Test("class 1: every numeric option of every command, given NaN, ±∞, ±1e308, 0, −0, −1, a subnormal or Int.max, ends with a status of the contract")
    func everyNumericOption() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sample = SharedData.packageRoot.appendingPathComponent("SampleData").path
        let wav = try folder.write("v.wav", Self.floatWAV(Self.vowel(seconds: 1)))
        _ = try Self.run(["batch", sample + "/tapping_results.json", "--db", folder.path("s.sqlite")])
        // A command line that otherwise works, per command; the option under test is appended.
        let base: [String: [String]] = [
            "info": ["info", sample + "/tapping_results.json"],
            "score tapping": ["score", "tapping", sample + "/tapping_results.json"],
            "score gait": ["score", "gait", sample + "/accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json"],
            "score balance": ["score", "balance", sample + "/deviceMotion_FBB0F82D_B546_0A40_4F1C_E3D85E934F5F-20260101120005.json"],
            "score spl": ["score", "spl", wav],
            "score voice": ["score", "voice", wav],
            "score loudness": ["score", "loudness", wav],
            "score audiometry": ["score", "audiometry", sample + "/dbhl_tone_audiometry_result.json"],
            "score rangeOfMotion": ["score", "rangeOfMotion", sample + "/range_of_motion_task_result.json"],
            "score walkTest": ["score", "walkTest", sample + "/timed_walk_task_result.json"],
            "score tremor": ["score", "tremor", sample + "/tremor_task_result.json"],
            "score heartRate": ["score", "heartRate", sample + "/heartRate_before_recorder.json"],
            "batch run": ["batch", "run", sample + "/tapping_results.json", "--db", folder.path("b.sqlite")],
            "report": ["report", "--db", folder.path("s.sqlite"), "--out", folder.path("report")],
            "record": ["record", "accelerometer", "--source", "simulate", "--fast", "--out", folder.path("rec")],
            "calibrate": ["calibrate", wav],
            "tone": ["tone", "--frequency", "1000", "--level-dbfs", "-20", "--out", folder.path("tone.wav")],
            // stdin is not a terminal here (exit 2 once the options pass), and the device does not exist (exit 3 if it were).
            "hearing-test": ["hearing-test", "--headphone", "AIRPODSV1", "--out", folder.path("ht"), "--device", "alsa:nonesuch"],
            "audiometry verify": ["audiometry", "verify", wav],
            "audiometry simulate": ["audiometry", "simulate", "--nhanes", sample + "/../Tests/none.csv"],
            "generate-samples": ["generate-samples", "--out", folder.path("samples")],
            "generate-corpus": ["generate-corpus", "--runs", "1", "--out", folder.path("corpus")],
        ]
        let dump = try Run(["--experimental-dump-help"])
        let root = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any]
        var options: [(command: String, flag: String)] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option" {
                guard let name = (argument["names"] as? [[String: Any]])?.first?["name"] as? String,
                      let value = argument["defaultValue"] as? String ?? (["duration", "calibration-offset", "frequency", "level-dbfs", "level-hl", "noise-dba", "runs"].contains(name) ? "1" : nil),
                      Double(value) != nil else { continue }
                options.append((path.joined(separator: " "), "--" + name))
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path + [sub["commandName"] as? String ?? ""]) }
        }
        walk(root?["command"] as? [String: Any] ?? [:], [])
        #expect(options.count >= 30, "numeric options found: \(options.count)")
        let hostile = ["nan", "inf", "-inf", "1e308", "-1e308", "0", "-0", "-1", "4.9e-324", "9223372036854775807"]
        for (command, flag) in options {
            guard let arguments = base[command] else {
                Issue.record("no base command line for `\(command)` (option \(flag)): add one so its options are tried")
                continue
            }
            for value in hostile {
                let run = try Self.run(arguments + [flag, value])
                Self.expectContract(run, "\(command) \(flag) \(value)")
            }
        }
    }

    @Test("class 1: a negative value given apart from its option (--shard -1/2, --threshold-decibels -10) reaches the option's own check: the output of --name=value, not ArgumentParser's missing value")
    func negativeValuesApart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sample = SharedData.packageRoot.appendingPathComponent("SampleData").path
        let shard = try Self.run(["batch", sample + "/tapping_results.json", "--db", folder.path("s.sqlite"), "--shard", "-1/2"])
        #expect(shard.status == 2 && shard.stderr.contains("--shard must be i/n with 0 ≤ i < n, got -1/2") && !shard.stderr.contains("Missing value"), "\(shard.stderr)")
        let wav = try folder.write("v.wav", Self.floatWAV(Self.vowel(seconds: 1)))
        let apart = try Self.run(["score", "spl", wav, "--json", "--threshold-decibels", "-10"])
        let joined = try Self.run(["score", "spl", wav, "--json", "--threshold-decibels=-10"])
        #expect(apart.status == 0 && apart.stdout == joined.stdout && !apart.stdout.isEmpty, "\(apart.stderr)")
    }

    // MARK: 2. Hangs

    @Test("class 2: a task result naming a FIFO and a link to /dev/zero: error rows, no hang; SPL readings of ±200 dB chart, 1e308 dB refused; replay --fast over a one-year gap")
    func hangs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let upload = folder.path("upload")
        try FileManager.default.createDirectory(atPath: upload, withIntermediateDirectories: true)
        #expect(mkfifo(upload + "/accel_fifo.json", 0o644) == 0)
        #expect(symlink("/dev/zero", upload + "/accel_zero.json") == 0)
        let result = #"{"_class":"ORKTaskResult","identifier":"walk","results":[{"_class":"ORKStepResult","identifier":"walking.outbound","results":[{"_class":"ORKFileResult","identifier":"a","fileName":"accel_fifo.json","contentType":"application/json"},{"_class":"ORKFileResult","identifier":"b","fileName":"accel_zero.json","contentType":"application/json"}]}]}"#
        let task = try folder.write("upload/taskresult.json", result)
        let batch = try Self.run(["batch", task, "--db", folder.path("r.sqlite")])
        #expect(batch.status == 0, "\(batch.stderr)")
        let rows = try Self.run(["batch", "export", "--db", folder.path("r.sqlite"), "--csv"]).stdout
        #expect(rows.contains("is a FIFO, not a regular file"), "\(rows)")

        // Readings at the ends of what a meter gives, and beyond (docs/formats.md §10.1).
        let readings = #"{"_class":"ORKEnvironmentSPLMeterResult","identifier":"splMeter","sensitivityOffset":-23.3,"recordedSPLMeterSamples":[200,-200,31,@]}"#
        let spl = try Self.run(["score", "spl", try folder.write("spl.json", readings.replacingOccurrences(of: "@", with: "0")), "--html", folder.path("spl.html")])
        #expect(spl.status == 0, "\(spl.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("spl.html")))
        let beyond = try Self.run(["score", "spl", try folder.write("beyond.json", readings.replacingOccurrences(of: "@", with: "1e308")), "--html", folder.path("beyond.html")])
        #expect(beyond.status == 3 && beyond.stderr.contains("reading 1e+308 dB is outside -200–200 dB at recordedSPLMeterSamples[3]"), "\(beyond.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("beyond.html")))

        let gap = (0..<200).map { i -> String in
            let t = Double(i) / 100 + (i >= 100 ? 31_536_000 : 0)
            return #"{"timestamp":\#(t),"x":0.01,"y":-0.98,"z":0.12}"#
        }
        let replay = try folder.write("gap.json", "{\"items\":[\(gap.joined(separator: ","))]}")
        let started = Date()
        let record = try Self.run(["record", "accelerometer", "--source", "replay:" + replay, "--fast", "--out", folder.path("rec")])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(Date().timeIntervalSince(started) < 60)
    }

    // MARK: 3. Memory

    @Test("class 3: voice above its sample bound and JSON above the file bound are refused with the limit and the flag; raising the flag reads them")
    func memoryBounds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let wav = try folder.write("v.wav", Self.floatWAV(Self.vowel(seconds: 2)))  // 16,000 samples
        let refused = try Self.run(["score", "voice", wav, "--maximum-samples", "10000"])
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(refused.stderr.contains("16000 frames × 1 channels exceed the limit of 10000 samples"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--maximum-samples"))
        // The bytes per sample said are the memory model's (VoiceScorer.bytesPerSample).
        #expect(refused.stderr.contains("(voice analysis holds ~\(VoiceScorer.bytesPerSample) bytes per sample;"), "\(refused.stderr)")
        #expect(try Self.run(["score", "voice", wav, "--maximum-samples", "16000"]).status == 0)
        let tone = try Self.run(["audiometry", "verify", wav, "--max-samples", "10000"])
        #expect(tone.status == 3 && tone.stderr.contains("16000 frames × 1 channels exceed the limit of 10000 samples")
                && tone.stderr.contains("--max-samples"), "\(tone.stderr)")
        let walk = SharedData.packageRoot.appendingPathComponent("SampleData/accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path
        let big = try Self.run(["score", "gait", walk, "--max-file-bytes", "1000"])
        #expect(big.status == 3, "\(big.stderr)")
        #expect(big.stderr.contains("exceed the whole-file readers' limit of 1000 bytes") && big.stderr.contains("--max-file-bytes"), "\(big.stderr)")
        let batch = try Self.run(["batch", wav, "--db", folder.path("r.sqlite"), "--max-voice-samples", "10000"])
        #expect(batch.status == 0)
        let rows = try Self.run(["batch", "export", "--db", folder.path("r.sqlite"), "--csv"]).stdout
        #expect(rows.contains("exceed the limit of 10000 samples"), "\(rows)")
    }

    // MARK: 4, 6, 8. Data destroyed, stores, long-standing asks

    @Test("class 4: export onto its store, an HTML page onto its recording and a failing export: refused or left unchanged")
    func nothingDestroyed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = folder.path("r.sqlite")
        _ = try Self.run(["batch", SharedData.packageRoot.appendingPathComponent("SampleData/tapping_results.json").path, "--db", store])
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let onto = try Self.run(["batch", "export", "--db", store, "--csv", "--out", store])
        #expect(onto.status == 2, "\(onto.stderr)")
        #expect(onto.stderr.contains("refusing to write over it"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let link = folder.path("alias.sqlite")
        #expect(symlink(store, link) == 0)
        #expect(try Self.run(["batch", "export", "--db", link, "--jsonl", "--out", store]).status == 2)

        let out = try folder.write("out.csv", "previous export\n")
        let failing = try Self.run(["batch", "export", "--db", try folder.write("bad.sqlite", "not a database"), "--csv", "--out", out])
        #expect(failing.status == 3)
        #expect(failing.stderr.contains("is not a readable result store"), "\(failing.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "previous export\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).allSatisfy { !$0.contains(".partial-") })

        let wav = try folder.write("v.wav", Self.floatWAV(Self.vowel()))
        let html = try Self.run(["score", "voice", wav, "--html", wav])
        #expect(html.status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: wav)) == Data(Self.floatWAV(Self.vowel())))
    }

    @Test("class 6: a newer schema is refused naming both versions; export and report open read-only; batch of an absent path makes no store")
    func stores() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = folder.path("r.sqlite")
        let tapping = SharedData.packageRoot.appendingPathComponent("SampleData/tapping_results.json").path
        #expect(try Self.run(["batch", tapping, "--db", store]).status == 0)
        // Read-only: the store and its folder without write permission (as an ordinary user).
        chmod(store, 0o444)
        chmod(folder.path(""), 0o555)
        let launcher = geteuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"] : []
        let export = try Run(["batch", "export", "--db", store, "--jsonl"], launcher: launcher)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("\"analyzer\""))
        chmod(folder.path(""), 0o755)
        chmod(store, 0o644)

        let newer = Process()
        newer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        newer.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version = 7'); c.commit()", store]
        try newer.run()
        newer.waitUntilExit()
        for command in [["batch", tapping, "--db", store], ["batch", "export", "--db", store, "--csv"], ["report", "--db", store, "--out", folder.path("rep")]] {
            let run = try Self.run(command)
            #expect(run.status == 3, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("schema 7") && run.stderr.contains("schema \(ResultStore.schemaVersion)"), "\(run.stderr)")
        }

        let absent = try Self.run(["batch", folder.path("nonexistent"), "--db", folder.path("new.sqlite")])
        #expect(absent.status == 3)
        #expect(absent.stderr.contains("no such file or folder; nothing was analysed"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("new.sqlite")))
    }

    // MARK: 7. Lines and frequencies

    @Test("class 7: a line source without newlines ends with an error, not unbounded memory; audiometry frequencies of 0, −1000 and 1e300 Hz are refused")
    func linesAndFrequencies() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // From a file, so the recorder stopping early cannot SIGPIPE the test's own writes.
        let endless = try folder.write("endless.txt", [UInt8](repeating: UInt8(ascii: "7"), count: 3 << 20))
        let run = try Run(["record", "accelerometer", "--source", "stdin", "--out", folder.path("rec")],
                          launcher: ["/bin/sh", "-c", "exec /usr/bin/timeout 60 \"$0\" \"$@\" < \"\(endless)\""])
        Self.expectContract(run, "no newline")
        #expect(run.stderr.contains("longer than 1048576 bytes"), "\(run.stderr)")
        for frequency in ["0", "-1000", "1e300"] {
            let result = #"{"_class":"ORKdBHLToneAudiometryResult","identifier":"d","samples":[{"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":\#(frequency),"channel":0,"calculatedThreshold":20}]}"#
            let scored = try Self.run(["score", "audiometry", try folder.write("f.json", result)])
            #expect(scored.status == 3, "\(frequency): \(scored.stderr)")
            #expect(scored.stderr.contains("is outside 20–20000 Hz"), "\(scored.stderr)")
        }
    }

    /// Creates `folder/prefix + name bytes + suffix` by its bytes (Foundation cannot name a
    /// non-UTF-8 file) with `contents`.
    static func createRaw(_ folder: String, _ name: [UInt8], _ contents: [UInt8]) throws {
        let path = Array((folder + "/").utf8) + name
        let descriptor = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        #expect(descriptor >= 0)
        _ = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    @Test("class 7: names that are not UTF-8 (tap\\xFF, tap\\xFE) and tap\u{FFFD} stay three recordings, shown escaped; score opens such a name from argv")
    func nonUTF8Names() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = folder.path("samples")
        _ = try Self.run(["generate-samples", "--out", samples])
        let tapping = Array(try Data(contentsOf: URL(fileURLWithPath: samples + "/tapping_results.json")))
        let other = Array(try Data(contentsOf: URL(fileURLWithPath: samples + "/tapping_task_result.json")))
        let data = folder.path("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Self.createRaw(data, Array("tap".utf8) + [0xFF] + Array(".json".utf8), tapping)
        try Self.createRaw(data, Array("tap".utf8) + [0xFE] + Array(".json".utf8), other)
        // Other bytes (a trailing line break): the same content would be one recording with two paths.
        try Self.createRaw(data, Array("tap\u{FFFD}.json".utf8), tapping + [0x0A])
        let store = folder.path("s.sqlite")
        let batch = try Self.run(["batch", data, "--db", store])
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stdout.contains("recordings       3"), "\(batch.stdout)")
        let export = try Self.run(["batch", "export", "--db", store, "--csv"])
        let recordings = Set(export.stdout.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != "," }) })
        #expect(recordings == [data + "/tap\\xFF.json", data + "/tap\\xFE.json", data + "/tap\u{FFFD}.json"], "\(recordings)")
        #expect(export.stdout.split(separator: "\n").dropFirst().allSatisfy { $0.contains("}\",ok,") }, "\(export.stdout.prefix(800))")
        // argv bytes reach the file: the shell makes the byte, the CLI must open exactly it.
        let score = try Run(["score", "tapping"], launcher: [
            "/bin/sh", "-c", "exec /usr/bin/timeout 60 \"$0\" \"$@\" \"$(printf '\(data)/tap\\376.json')\""])
        #expect(score.status == 0, "\(score.stderr)")
        #expect(score.stdout.hasPrefix(data + "/tap\\xFE.json\n"), "\(score.stdout.prefix(200))")
    }
}
