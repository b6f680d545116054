import Foundation
import Glibc
import InputGuards
import Testing
import TestSupport
@testable import Batch
import Scoring

/// Resource limits, signals and escapes (docs/reliability.md §6) through real `activetask` processes: every output complete or absent after a
/// failure or a signal, with no temporary left; data printed to a terminal escaped.
@Suite(.serialized) struct ResourceLimitAndSignalTests {
    static let accel = SharedData.sampleData.appendingPathComponent("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path

    /// The names in `folder`, hidden ones included.
    static func names(_ folder: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    /// A flattened archive of two walks (what `unpack` reads).
    static func archive(in folder: TemporaryFolder) throws -> String {
        let items = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: accel))) as? [String: Any])["items"]
        let data = try JSONSerialization.data(withJSONObject: ["accel_walking_outbound.json.items": items!, "deviceMotion_walking_rest.json.items": items!])
        return try folder.write("archive.json", Array(data))
    }

    @Test("unpack under a file-size limit writes nothing: no torn entry, no temporary; an existing entry refuses the whole archive")
    func unpackAllOrNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let archive = try Self.archive(in: folder)
        let out = folder.path("out")
        // 100 blocks of 512 bytes: the first entry (139 KB) cannot be written whole.
        let limited = try Run(["unpack", archive, "--out", out], launcher: FaultInjectionTests.fileSizeLimit(blocks: 100))
        if FaultInjectionTests.fileSizeLimitUsable {
            #expect(limited.status == 3, "\(limited.stderr)")
            #expect(limited.stderr.contains("File too large") && limited.stderr.contains("nothing of \(archive) was written"), "\(limited.stderr)")
            #expect(try Self.names(out).isEmpty)
        }
        // One entry's name exists: nothing is written, the existing file is untouched.
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        _ = try folder.write("out/deviceMotion_walking_rest.json.items", "mine")
        let clash = try Run(["unpack", archive, "--out", out])
        #expect(clash.status == 3 && clash.stderr.contains("exists (not overwritten)"), "\(clash.stderr)")
        #expect(try Self.names(out) == ["deviceMotion_walking_rest.json.items"])
        #expect(try String(contentsOfFile: out + "/deviceMotion_walking_rest.json.items", encoding: .utf8) == "mine")
        // And without obstacles, both entries.
        try FileManager.default.removeItem(atPath: out + "/deviceMotion_walking_rest.json.items")
        let plain = try Run(["unpack", archive, "--out", out])
        #expect(try plain.status == 0 && Self.names(out) == ["accel_walking_outbound.json.items", "deviceMotion_walking_rest.json.items"])
    }

    /// A store big enough that its long-form export takes seconds, so the signal lands while the
    /// temporary file is being written.
    static func largeStore(_ path: String, rows: Int) throws {
        let store = try ResultStore(path: path)
        let features = #"{"atk":{"# + (0..<40).map { #""feature\#($0)Hz":\#(Double($0) * 1.25)"# }.joined(separator: ",") + "}}"
        var batch = StoreBatch()
        for index in 0..<rows {
            batch.results.append(ResultRow(recording: "/data/walk-\(index).json", key: ResultKey(contentSHA256: String(index), analyzer: "gait", analyzerVersion: "1", parameters: "{}"),
                                           toolkitVersion: "test", status: .ok, kind: "gait", dialect: nil, featuresJSON: features, warningsJSON: "[]",
                                           error: nil, computedAt: 0, durationMilliseconds: 1))
            if batch.results.count == 5_000 {
                try store.commit(batch, runID: nil, replace: false)
                batch = StoreBatch()
            }
        }
        try store.commit(batch, runID: nil, replace: false)
    }

    @Test("SIGINT, SIGTERM or SIGHUP during batch export --out OLD: OLD unchanged, no hidden temporary, ended by that signal", arguments: [SIGINT, SIGTERM, SIGHUP])
    func exportInterrupted(signalNumber: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let db = folder.path("r.sqlite")
        try Self.largeStore(db, rows: 20_000)
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let old = try folder.write("out/export.csv", "the previous export\n")
        let process = Process()
        // Through env with the three signals' default handling: a test run started as a
        // background job ignores SIGINT, the command keeps an ignored signal ignored (CProcess).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=INT,TERM,HUP", Run.executable.path, "batch", "export", "--db", db, "--csv", "--out", old]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for the temporary file, then signal.
        let deadline = Date().addingTimeInterval(60)
        var sawTemporary = false
        while process.isRunning, Date() < deadline {
            if try Self.names(folder.path("out")).contains(where: { $0.hasPrefix(".export.csv.partial-") }) {
                sawTemporary = true
                break
            }
            usleep(1_000)
        }
        #expect(sawTemporary, "the export ended before its temporary file was seen")
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signalNumber)
        #expect(try String(contentsOfFile: old, encoding: .utf8) == "the previous export\n")
        #expect(try Self.names(folder.path("out")) == ["export.csv"])
    }

    /// Descriptors run out only when recordings are read at once: on one processor the batch
    /// reads them one after another and 12 suffice (a whole run then completes with no error row).
    @Test("with 12 file descriptors a batch on two processors or more stops with the limit named and stores no \"Too many open files\" as a result (on one it completes); a normal rerun completes with no error rows")
    func fileDescriptorLimit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("corpus"), withIntermediateDirectories: true)
        let tapping = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("tapping_results.json").path, encoding: .utf8)
        for index in 0..<40 {
            _ = try folder.write("corpus/t\(index).json", tapping + String(repeating: " ", count: index))
            try FileManager.default.copyItem(atPath: Self.accel, toPath: folder.path("corpus/a\(index).json"))
        }
        let db = folder.path("r.sqlite")
        let limited = try Run(["batch", folder.path("corpus"), "--db", db], launcher: ["/bin/sh", "-c", "ulimit -n 12 && exec \"$0\" \"$@\""])
        if Processors.usable > 1 {
            #expect(limited.status == 3 && limited.stderr.contains("batch stopped: ") && limited.stderr.contains("Too many open files"), "\(limited.status) \(limited.stderr)")
        } else {
            #expect(limited.status == 0 && limited.stderr.contains("80/80 recordings") && limited.stderr.contains(", 0 errors"), "\(limited.status) \(limited.stderr)")
        }
        let stored = try ResultStore(path: db, access: .readOnly).resultRows()
        #expect(stored.allSatisfy { $0.status == .ok }, "\(stored.filter { $0.status != .ok }.map { $0.error ?? "" }.prefix(3))")
        let rerun = try Run(["batch", folder.path("corpus"), "--db", db, "--json"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let rows = try ResultStore(path: db, access: .readOnly).resultRows()
        // 40 distinct tapping files and one walk content (its 40 copies are one recording, analysed once).
        #expect(rows.count == 41 && rows.allSatisfy { $0.status == .ok }, "\(rows.count) rows, \(rows.filter { $0.status != .ok }.map { $0.error ?? "" }.prefix(3))")
    }

    @Test("below 12 file descriptors every command is refused at once with the limit named, nothing written (libdispatch aborted at 5 to 7)")
    func fileDescriptorFloor() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("corpus"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: SharedData.sampleData.appendingPathComponent("tapping_results.json").path, toPath: folder.path("corpus/t.json"))
        func limited(_ limit: Int) -> [String] { ["/bin/sh", "-c", "ulimit -n \(limit) && exec \"$0\" \"$@\""] }
        for limit in 4...11 {
            for arguments in [["batch", folder.path("corpus"), "--db", folder.path("r.sqlite")], ["--version"]] {
                let run = try Run(arguments, launcher: limited(limit))
                #expect(run.status == 3 && run.stdout.isEmpty && run.stderr == "activetask: the limit of open files is \(limit) (ulimit -n); activetask needs at least 12 — raise it and run the command again\n",
                        "ulimit -n \(limit) \(arguments[0]): \(run.status) \(run.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("r.sqlite")))
    }

    /// `sh` that limits the process's address space (RLIMIT_AS) to `megabytes` (10^6 bytes; `ulimit -v` counts KiB) before running it.
    static func addressSpaceLimit(megabytes: Int) -> [String] { ["/bin/sh", "-c", "ulimit -v \(megabytes * 1_000_000 / 1024) && exec \"$0\" \"$@\""] }

    /// Under a sanitizer the address space holds the shadow memory (terabytes reserved): no limit fits.
    static let addressSpaceLimitUsable = Sanitizer.active == nil

    @Test("under ulimit -v 600 MB a 6-minute WAV is refused for what its voice analysis needs (skipped, not an error), the small files are scored; score exits 3 with the figures", .enabled(if: addressSpaceLimitUsable))
    func addressSpaceLimit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("study"), withIntermediateDirectories: true)
        // 6 min at 44.1 kHz, mono float: 15,876,000 samples, 1,016 MB of voice analysis at 64 bytes each.
        _ = try folder.write("study/long.wav", CommandAttackTests.floatWAV(CommandAttackTests.vowel(seconds: 360, rate: 44_100), rate: 44_100))
        try FileManager.default.copyItem(atPath: Self.accel, toPath: folder.path("study/walk.json"))
        try FileManager.default.copyItem(atPath: SharedData.sampleData.appendingPathComponent("tapping_results.json").path, toPath: folder.path("study/tapping.json"))
        let db = folder.path("r.sqlite")
        let batch = try Run(["batch", folder.path("study"), "--db", db], launcher: Self.addressSpaceLimit(megabytes: 600))
        #expect(batch.status == 0, "\(batch.status) \(batch.stderr)")
        let rows = try ResultStore(path: db, access: .readOnly).resultRows()
        let byAnalyzer = Dictionary(uniqueKeysWithValues: rows.map { ($0.key.analyzer, $0) })
        #expect(byAnalyzer["gait"]?.status == .ok && byAnalyzer["tapping"]?.status == .ok, "\(rows.map { "\($0.key.analyzer) \($0.status)" })")
        let voice = try #require(byAnalyzer["voice"])
        #expect(voice.status == .skipped)
        // bytesPerSample × 15,876,000 samples and the analysis' thread stacks, in MB rounded up.
        let needed = "needs about \(Int((Double(VoiceScorer.bytesPerSample * 15_876_000 + MemoryBudget.threadStacksBytes) / 1e6).rounded(.up))) MB"
        #expect(voice.error?.contains("the voice analysis of 15876000 samples (~\(VoiceScorer.bytesPerSample) bytes each) \(needed)") == true, "\(voice.error ?? "")")
        #expect(voice.error?.contains("address-space limit (ulimit -v) of 600 MB") == true, "\(voice.error ?? "")")
        // A skipped result is not a stored one: the next run tries it again.
        #expect(try !ResultStore(path: db, access: .readOnly).storedKeys().keys.contains(voice.key))

        // A whole-file reader's estimate (24 bytes per byte): a 10-MB walk is refused under the
        // limit (245 MB to read and parse) and read without it.
        let items = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.accel))) as? [String: Any])["items"] as? [Any]
        let large = try folder.write("large.json", Array(try JSONSerialization.data(withJSONObject: ["items": Array(repeating: items ?? [], count: 90).flatMap { $0 }])))
        let info = try Run(["info", large], launcher: Self.addressSpaceLimit(megabytes: 300))
        #expect(info.status == 3 && info.stderr.contains("reading and parsing its") && info.stderr.contains("(~24 bytes each) needs about"), "\(info.status) \(info.stderr)")
        #expect(try Run(["info", large]).status == 0)
        // At the bound docs/cli.md states, B (about 100 MB) + 24 × 10.2 MB ≈ 345 MB, and a margin, it is read.
        let atBound = try Run(["info", large], launcher: Self.addressSpaceLimit(megabytes: 400))
        #expect(atBound.status == 0, "\(atBound.status) \(atBound.stderr)")

        let score = try Run(["score", "voice", folder.path("study/long.wav")], launcher: Self.addressSpaceLimit(megabytes: 600))
        #expect(score.status == 3 && score.stderr.contains(needed), "\(score.status) \(score.stderr)")
    }

    /// docs/cli.md, "Outputs, hostile input and limits": voice needs B + 64 × samples + thread stacks, B ≈ 100 MB of address space.
    /// A 60-s WAV (2,646,000 samples: 169 MB + 16 MiB of stacks on 2 cores) is refused, with the
    /// figures, where that does not fit, and scored where it does (SIGABRT at 300–340 MB when the
    /// two resamplings ran side by side, each with its padded FFT buffer). Scored from 310 MB: at
    /// 300 MB the command's own mappings (with libmvec's megabyte) leave 186 MB of the 187 it needs.
    @Test("the voice bound holds under RLIMIT_AS: a 60-s WAV refused at 250 MB (exit 3, never SIGABRT), scored at 310 and 360 MB", .enabled(if: addressSpaceLimitUsable))
    func voiceBoundHolds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let wav = try folder.write("minute.wav", CommandAttackTests.floatWAV(CommandAttackTests.vowel(seconds: 60, rate: 44_100), rate: 44_100))
        let tight = try Run(["score", "voice", wav, "--json"], launcher: Self.addressSpaceLimit(megabytes: 250))
        #expect(tight.status == 3 && tight.stderr.contains("the voice analysis of 2646000 samples (~\(VoiceScorer.bytesPerSample) bytes each) needs about"), "\(tight.status) \(tight.stderr)")
        let unlimited = try Run(["score", "voice", wav, "--json"]).stdout
        for megabytes in [310, 360] {
            let enough = try Run(["score", "voice", wav, "--json"], launcher: Self.addressSpaceLimit(megabytes: megabytes))
            #expect(enough.status == 0, "\(megabytes) MB: \(enough.status) \(enough.stderr)")
            #expect(enough.stdout == unlimited)
        }
    }

    /// A recording at 2⁻⁶⁰⁰ full scale holds channel 0 a second time, scaled for its correlations
    /// (8 bytes a frame: 21 MB for the 60-s WAV), reserved once read: at 315 MB the WAV at full
    /// scale is scored and the quiet one refused naming that copy (with 329 MB it fits); with room,
    /// the quiet one has the loud one's F0, jitter, shimmer and HNR, bit for bit.
    @Test("a 60-s WAV at 2⁻⁶⁰⁰ full scale reserves its scaled copy: refused at 315 MB (exit 3, naming it) where the same WAV at full scale is scored; scored at 360 MB with the full-scale WAV's Praat measures", .enabled(if: addressSpaceLimitUsable))
    func voiceScaledCopyReserved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vowel = CommandAttackTests.vowel(seconds: 60, rate: 44_100).map(Double.init)
        let loud = try folder.write("loud.wav", CommandAttackTests.doubleWAV(vowel, rate: 44_100))
        let quiet = try folder.write("quiet.wav", CommandAttackTests.doubleWAV(vowel.map { scalbn($0, -600) }, rate: 44_100))
        #expect(try Run(["score", "voice", loud, "--json"], launcher: Self.addressSpaceLimit(megabytes: 315)).status == 0)
        let refused = try Run(["score", "voice", quiet, "--json"], launcher: Self.addressSpaceLimit(megabytes: 315))
        #expect(refused.status == 3 && refused.stderr.contains("quiet.wav: channel 0 scaled for its correlations (its peak is beyond 2^±128) needs about 22 MB"), "\(refused.status) \(refused.stderr)")
        let measures = try [loud, quiet].map { path in
            let run = try Run(["score", "voice", path, "--json", "--sets", "atk"], launcher: Self.addressSpaceLimit(megabytes: 360))
            #expect(run.status == 0, "\(path): \(run.stderr)")
            let atk = try #require(((run.json?["features"] as? [String: Any])?["atk"]) as? [String: Any])
            return ["f0MedianHz", "jitterLocal", "shimmerLocal", "hnrDb"].map { atk[$0] as? Double }
        }
        #expect(measures[0].allSatisfy { $0 != nil } && measures[0] == measures[1], "\(measures)")
    }

    /// A memory cgroup of `bytes` this process may create (v1 `memory.limit_in_bytes` or v2
    /// `memory.max`), as a launcher that moves the command into it; nil when none can be made.
    static func memoryCgroup(bytes: Int) -> (launcher: [String], remove: () -> Void)? {
        let name = "atk-test-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        for (folder, limitFile) in [("/sys/fs/cgroup/memory/" + name, "memory.limit_in_bytes"), ("/sys/fs/cgroup/" + name, "memory.max")] {
            guard mkdir(folder, 0o755) == 0 else { continue }
            if (try? "\(bytes)".write(toFile: folder + "/" + limitFile, atomically: false, encoding: .utf8)) != nil {
                return (["/bin/sh", "-c", "echo $$ > \(folder)/cgroup.procs && exec \"$0\" \"$@\""], { rmdir(folder) })
            }
            rmdir(folder)
        }
        return nil
    }

    @Test("under a cgroup memory limit of 400 MB a 6-minute WAV is refused with the figures (the OOM killer would end it)")
    func cgroupLimit() throws {
        guard let cgroup = Self.memoryCgroup(bytes: 400_000_000) else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "CI: no memory cgroup could be created (root and a writable cgroup file system are needed)")
            print("skipped: no memory cgroup can be created here (needs root and a writable /sys/fs/cgroup)")
            return
        }
        defer { cgroup.remove() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let wav = try folder.write("long.wav", CommandAttackTests.floatWAV(CommandAttackTests.vowel(seconds: 360, rate: 44_100), rate: 44_100))
        let run = try Run(["score", "voice", wav], launcher: cgroup.launcher)
        #expect(run.status == 3 && run.stderr.contains("under this process's cgroup memory limit of 400 MB"), "\(run.status) \(run.stderr)")
    }

    @Test("an upload whose info.json lists 300,000 files: under ulimit -v 200 MB its read is skipped with what it needs; without the limit a rerun scores it and drops the skipped row", .enabled(if: addressSpaceLimitUsable))
    func hugeUploadManifest() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let listing = "{\"item\":\"Walking Activity\",\"files\":[" + Array(repeating: #"{"filename":"a"}"#, count: 300_000).joined(separator: ",") + "]}"
        _ = try folder.write("info.json", listing)
        try FileManager.default.copyItem(atPath: Self.accel, toPath: folder.path("accel_walking_outbound.json.items"))
        let archive = folder.path("upload.zip")
        let zip = Process()
        zip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        zip.arguments = ["python3", "-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED); [z.write(f, f.split('/')[-1]) for f in sys.argv[2:]]; z.close()",
                         archive, folder.path("info.json"), folder.path("accel_walking_outbound.json.items")]
        try zip.run()
        zip.waitUntilExit()
        let db = folder.path("r.sqlite")
        let limited = try Run(["batch", archive, "--db", db], launcher: Self.addressSpaceLimit(megabytes: 200))
        #expect(limited.status == 0, "\(limited.stderr)")
        let first = try ResultStore(path: db, access: .readOnly).resultRows()
        #expect(first.map(\.status) == [.skipped] && first[0].error?.contains("inflating and parsing its entries (5") == true, "\(first.map { "\($0.status) \($0.error ?? "")" })")
        let rerun = try Run(["batch", archive, "--db", db])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let second = try ResultStore(path: db, access: .readOnly).resultRows()
        #expect(second.map { "\($0.key.analyzer) \($0.status)" } == ["gait ok"], "\(second.map { "\($0.key.analyzer) \($0.status) \($0.error ?? "")" })")
    }

    @Test("ESC, OSC and C1 bytes in a result's fields, an info.json field and a file name are printed escaped by score, info and in errors")
    func terminalEscapes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let osc = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}1m"
        let result = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("dbhl_tone_audiometry_result.json").path, encoding: .utf8)
            .replacingOccurrences(of: #""headphoneType":"AIRPODSV1""#, with: #""headphoneType":"AIRPODSV1\u001b]0;owned\u0007\u001b[2J\u009b1m""#)
        let path = try folder.write("dbhl.json", result)
        let named = try folder.write("walk\(osc).json", try String(contentsOfFile: Self.accel, encoding: .utf8))
        try FileManager.default.createDirectory(atPath: folder.path("upload"), withIntermediateDirectories: true)
        _ = try folder.write("upload/info.json", #"{"item":"Walk\u001b]0;owned\u0007","appVersion":"1\u009b2J","files":[]}"#)
        let runs = [
            try Run(["score", "audiometry", path]), try Run(["info", path]), try Run(["info", named]), try Run(["score", "gait", named]),
            try Run(["info", folder.path("upload/info.json")]), try Run(["score", "tapping", named]),
        ]
        for run in runs {
            for (stream, text) in [("stdout", run.stdout), ("stderr", run.stderr)] {
                #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "\(stream): \(text.debugDescription.prefix(300))")
            }
        }
        #expect(runs[0].stdout.contains(#"AIRPODSV1\x1B]0;owned\x07\x1B[2J\x9B1m"#), "\(runs[0].stdout.prefix(400))")
        #expect(runs[2].stdout.contains(#"walk\x1B]0;owned\x07"#))
        #expect(runs[5].status == 3 && runs[5].stderr.contains(#"walk\x1B]0;owned\x07"#), "\(runs[5].stderr)")
        // JSON escapes them too: C0 as \u001b, C1 as \u009b.
        let json = try Run(["score", "audiometry", path, "--json"])
        #expect(json.stdout.contains(#"AIRPODSV1\u001b]0;owned\u0007\u001b[2J\u009b1m"#), "\(json.stdout.prefix(300))")
    }
}
