import Foundation
import GRDB
import SensorData
import Testing
import TestSupport
@testable import Batch
@testable import Scoring

@Suite struct ContentHashTests {
    @Test("a file's content key is its SHA-256 as coreutils' sha256sum computes it (empty, JSON, WAV, a file with every byte value)")
    func matchesSha256sum() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let empty = try folder.write("empty.json", "")
        let bytes = folder.path("bytes.bin")
        try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }).write(to: URL(fileURLWithPath: bytes))
        let files = [empty, bytes, SharedData.sampleData.appendingPathComponent("tapping_results.json").path,
                     SharedData.sampleData.appendingPathComponent("audio_audio.wav").path]
        for file in files {
            #expect(Inventory.examine(file).0.sha256 == (try SHA256Sum.of(file)), "\(file)")
        }
    }
}

@Suite struct DiscoveryTests {
    /// An upload folder (AppCore info.json + tapping + accelerometer + voice), a task result naming
    /// a recorder file in `recorder-X/`, loose files, a hidden file and a manifest.
    static func corpus() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let fm = FileManager.default
        for sub in ["upload", "task/recorder-X", "loose", "loose/.cache"] {
            try fm.createDirectory(atPath: folder.path(sub), withIntermediateDirectories: true)
        }
        func copy(_ name: String, _ destination: String) throws {
            try fm.copyItem(atPath: SharedData.sampleData.appendingPathComponent(name).path, toPath: folder.path(destination))
        }
        _ = try folder.write("upload/info.json", """
            {"taskRun": "0A1B", "item": "Tapping Activity", "files": [{"filename": "tapping_results.json", "timestamp": "2015-03-01T10:00:00+00:00", "contentType": "application/json"}]}
            """)
        try copy("tapping_results.json", "upload/tapping_results.json")
        try copy("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json", "upload/accel_walking.outbound.json")
        try copy("voice_aaah.wav", "upload/audio_audio.wav")
        try copy("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json", "task/recorder-X/accel.json")
        _ = try folder.write("task/taskResult.json", """
            {"_class": "ORKTaskResult", "identifier": "walk", "results": [{"_class": "ORKStepResult", "identifier": "walking.outbound",
             "results": [{"_class": "ORKFileResult", "identifier": "accelerometer", "fileName": "recorder-X/accel.json", "contentType": "application/json"}]}]}
            """)
        try copy("spl_meter_result.json", "loose/spl.json")
        try copy("README.md", "loose/README.md")
        _ = try folder.write("loose/.cache/junk.json", "{}")
        _ = try folder.write("list.txt", "# the loose folder\nloose\n\nmissing.json\n")
        return folder
    }

    @Test("uploads, task results with their recorder files, loose files, @manifests; hidden files left out")
    func grouping() async throws {
        let folder = try Self.corpus()
        defer { folder.remove() }
        let (units, missing, _) = await Discovery.units([folder.path("upload"), folder.path("task"), "@" + folder.path("list.txt")])
        #expect(missing == [folder.path("missing.json")])
        let summary = units.map { "\($0.path.dropFirst(folder.url.path.count + 1)) \($0.shape) \($0.members.count)" }
        #expect(summary == [
            "loose/README.md file 1", "loose/spl.json file 1",
            "task/taskResult.json taskResult 2",
            "upload upload 4",  // info.json, tapping, accelerometer, and the audio: one recording unit per upload
        ], "\(summary)")
    }

    @Test("shards: every key in exactly one of n shards, the same on every call; an upload's and a task run's files share one key")
    func shards() {
        let keys = (0..<500).map { "/data/upload-\($0)" }
        for n in [1, 3, 4] {
            let counts = (0..<n).map { i in keys.filter { WorkUnit.isInShard(key: $0, i, of: n) }.count }
            #expect(counts.reduce(0, +) == 500)
            for key in keys { #expect((0..<n).filter { WorkUnit.isInShard(key: key, $0, of: n) }.count == 1) }
            if n == 4 { #expect(counts.allSatisfy { (90...160).contains($0) }, "\(counts)") }  // FNV-1a spreads paths evenly
        }
    }
}

@Suite struct BatchRunnerTests {
    @Test("a run stores one row per (recording, analyzer) and lists unknown files; a rerun computes nothing; --force recomputes")
    func runAndResume() async throws {
        let folder = try DiscoveryTests.corpus()
        defer { folder.remove() }
        let store = try ResultStore(path: folder.path("results.sqlite"))
        var options = BatchOptions(toolkitVersion: "test")
        options.jobs = 2
        let first = try await BatchRunner.run([folder.path("upload"), folder.path("task"), folder.path("loose")], store: store, options: options)
        #expect(first.unitsDone == 4 && first.errors == 0 && first.unknownFiles == 1)
        let rows = try store.resultRows()
        let keys = rows.map { "\(($0.recording as NSString).lastPathComponent) \($0.key.analyzer) \($0.status.rawValue)" }.sorted()
        // The upload's audio is a voice recording by its name (not also a room-noise check: issue 17, item 6).
        #expect(keys == ["spl.json spl ok", "taskResult.json gait ok", "upload gait ok", "upload tapping ok", "upload voice ok"], "\(keys)")
        #expect(try store.unknownFiles().map(\.kind) == ["text document"])
        // The upload's tapping features are those `score tapping` gives for its file.
        let tapping = try #require(rows.first { $0.key.analyzer == "tapping" })
        let scored = try TappingScorer.score(LoadedInput.load(folder.path("upload/tapping_results.json")))
        #expect(tapping.featuresJSON == JSONWriter().string(scored.report.featuresJSON))
        // The task result's gait reads its recorder file: 18 steps, as for the file alone.
        let gait = try #require(rows.first { $0.recording.hasSuffix("taskResult.json") })
        #expect(gait.featuresJSON.contains(#""stepCount":18"#))

        let again = try await BatchRunner.run([folder.path("upload"), folder.path("task"), folder.path("loose")], store: store, options: options)
        #expect(again.computed == 0 && again.alreadyStored == rows.count)
        options.force = true
        let forced = try await BatchRunner.run([folder.path("loose")], store: store, options: options)
        #expect(forced.computed == 1 && forced.alreadyStored == 0)
        #expect(try store.resultRows().count == rows.count)
    }

    @Test("unreadable and broken files are error rows with the reader's message; the run goes on")
    func errorRows() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try folder.write("broken.json", #"{"items":[{"timestamp":1,"x":0.1,"y":0,"z":"#)
        _ = try folder.write("good.json", try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("spl_meter_result.json").path, encoding: .utf8))
        let store = try ResultStore(path: folder.path("r.sqlite"))
        let counts = try await BatchRunner.run([folder.url.path], store: store, options: BatchOptions(toolkitVersion: "test"))
        #expect(counts.errors == 1 && counts.computed == 2)
        let error = try #require(try store.resultRows().first { $0.status == .error })
        #expect(error.key.analyzer == "read" && error.error?.hasPrefix(folder.path("broken.json") + ":") == true, "\(String(describing: error.error))")
    }

    @Test("merging stores keeps one row per key: two overlapping stores merge to the union")
    func merge() async throws {
        let folder = try DiscoveryTests.corpus()
        defer { folder.remove() }
        let options = BatchOptions(toolkitVersion: "test")
        let a = try ResultStore(path: folder.path("a.sqlite")), b = try ResultStore(path: folder.path("b.sqlite"))
        _ = try await BatchRunner.run([folder.path("upload"), folder.path("loose")], store: a, options: options)
        _ = try await BatchRunner.run([folder.path("loose"), folder.path("task")], store: b, options: options)
        let merged = try ResultStore(path: folder.path("m.sqlite"))
        #expect(try merged.merge(from: a.path) == 4)
        #expect(try merged.merge(from: b.path) == 1)  // spl.json was in both
        #expect(try merged.merge(from: b.path) == 0)
        #expect(try merged.resultRows().count == 5 && merged.unknownFiles().count == 1)
        #expect(throws: StoreError.self) { try merged.merge(from: folder.path("none.sqlite")) }
    }

    @Test("the feature_values view lists the stored features in long form")
    func featureView() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ResultStore(path: folder.path("r.sqlite"))
        _ = try await BatchRunner.run([SharedData.sampleData.appendingPathComponent("spl_meter_result.json").path], store: store,
                                      options: BatchOptions(toolkitVersion: "test"))
        let count = try store.read { db in try Int.fetchOne(db, sql: "SELECT value FROM feature_values WHERE feature = 'readingCount'") }
        #expect(count == 12)
    }
}

/// docs/reliability.md §5, class 8: CSV export cells that a spreadsheet would run as formulas are neutralised
/// (OWASP "CSV Injection"); numbers, negative ones included, are written as numbers.
@Suite struct CSVInjectionTests {
    @Test("= + - @ tab CR at the start of a text cell get a leading ', negative numbers do not; --raw-cells keeps them")
    func neutralised() {
        let row = ResultRow(recording: "=HYPERLINK(\"http://x\")", key: ResultKey(contentSHA256: "abc", analyzer: "tapping", analyzerVersion: "1", parameters: "{}"),
                            toolkitVersion: "0.1.0", status: .ok, kind: "@kind", dialect: nil,
                            featuresJSON: #"{"atk":{"meanMs":-12.5,"label":"+1 call","note":"\tx","plain":"ok"}}"#, warningsJSON: "[]",
                            error: "-cmd", computedAt: 0, durationMilliseconds: 0)
        let safe = ResultExport.csvLines(row)
        #expect(safe.hasPrefix("\"'=HYPERLINK(\"\"http://x\"\")\""), "\(safe)")
        #expect(safe.contains(",'@kind,"))
        #expect(safe.contains(",meanMs,-12.5,'-cmd\n"), "\(safe)")
        #expect(safe.contains(",label,'+1 call,"))
        #expect(safe.contains(",note,'\tx,"))
        #expect(safe.contains(",plain,ok,"))
        let raw = ResultExport.csvLines(row, rawCells: true)
        #expect(raw.contains(",meanMs,-12.5,-cmd\n") && raw.contains(",label,+1 call,"), "\(raw)")
    }
}

@Suite struct SchedulingTests {
    @Test("units start longest first (most file bytes; an upload counts all its members), equal sizes in walk order, unknown files as 0 bytes")
    func longestFirst() {
        func unit(_ path: String, _ members: [String]) -> WorkUnit { WorkUnit(path: path, members: members, shape: members.count > 1 ? .upload : .file) }
        let facts: [String: FileFacts] = [
            "a.json": FileFacts(sha256: "a", bytes: 10, error: ""), "voice.wav": FileFacts(sha256: "v", bytes: 882_044, error: ""),
            "b.json": FileFacts(sha256: "b", bytes: 10, error: ""), "up/walk.json": FileFacts(sha256: "w", bytes: 400_000, error: ""),
            "up/rest.json": FileFacts(sha256: "r", bytes: 500_000, error: ""), "noise.wav": FileFacts(sha256: "n", bytes: 882_044, error: ""),
        ]
        let units = [unit("a.json", ["a.json"]), unit("voice.wav", ["voice.wav"]), unit("missing.json", ["missing.json"]), unit("b.json", ["b.json"]),
                     unit("up", ["up/rest.json", "up/walk.json"]), unit("noise.wav", ["noise.wav"])]
        // 900,000 (the upload) > 882,044 (voice, then noise, in walk order) > 10 (a, then b) > 0.
        #expect(BatchRunner.longestFirst(units, facts).map(\.path) == ["up", "voice.wav", "noise.wav", "a.json", "b.json", "missing.json"])
    }

    @Test("each distinct unit's content key is made once and handed to its analysis, unless another unit has its path (two manifest records with one id): those make their own")
    func contentKeysOnce() {
        let facts: [String: FileFacts] = ["a.json": FileFacts(sha256: "a", bytes: 1, error: ""), "b.json": FileFacts(sha256: "b", bytes: 1, error: ""),
                                          "c.json": FileFacts(sha256: "c", bytes: 1, error: ""), "copy.json": FileFacts(sha256: "a", bytes: 1, error: "")]
        let units = [WorkUnit(path: "m.csv#r1", members: ["a.json"], shape: .record(columns: ["x": "a.json"])),
                     WorkUnit(path: "m.csv#r1", members: ["b.json"], shape: .record(columns: ["x": "b.json"])),
                     WorkUnit(path: "c.json", members: ["c.json"], shape: .file), WorkUnit(path: "copy.json", members: ["copy.json"], shape: .file)]
        let (distinct, aliases, contents) = BatchRunner.distinctRecordings(units, facts)
        #expect(distinct.map(\.members) == [["a.json"], ["b.json"], ["c.json"]] && aliases.map(\.unit.path) == ["copy.json"])
        #expect(contents == ["c.json": "c"], "\(contents)")
    }
}
