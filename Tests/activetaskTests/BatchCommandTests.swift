import Foundation
import GRDB
import Testing
import TestSupport
@testable import Batch

/// `activetask batch`: real processes, really killed, really sharded.
@Suite struct BatchCommandTests {
    /// `count` distinct accelerometer recordings and `count` distinct tapping results (copies of
    /// SampleData's, made distinct by trailing whitespace, which the readers ignore).
    static func corpus(_ count: Int) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let accel = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path, encoding: .utf8)
        let tapping = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("tapping_results.json").path, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder.path("corpus"), withIntermediateDirectories: true)
        for i in 0..<count {
            let padding = String(repeating: " ", count: i + 1)
            _ = try folder.write(String(format: "corpus/walk-%04d.json", i), accel + padding)
            _ = try folder.write(String(format: "corpus/tap-%04d.json", i), tapping + padding)
        }
        return folder
    }

    /// The results committed to the store at `path`, read only and without waiting: nil while
    /// the file or its table is missing or a lock is held.
    static func committedResults(_ path: String) -> Int? {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .immediateError
        guard FileManager.default.fileExists(atPath: path), let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        return (try? queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM results") }) ?? nil
    }

    /// The long-form CSV export of a store.
    func export(_ db: String) throws -> String {
        let run = try Run(["batch", "export", "--db", db, "--csv"])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    @Test("SIGKILL during a batch: the store is valid and keeps every committed result; a rerun finishes the rest and equals a single run")
    func killAndResume() throws {
        let folder = try Self.corpus(150)
        defer { folder.remove() }
        let corpus = folder.path("corpus"), db = folder.path("killed.sqlite")
        let process = try Run.start(["batch", corpus, "--db", db, "--jobs", "2"])
        // Kill once at least one transaction (64 rows) is committed. The batch is stopped
        // (SIGSTOP) while the store is looked at, so it cannot finish between a look and the
        // kill (a look that opened the store read-write, on a loaded machine, once took long
        // enough for all 300 results); a look never waits for a lock the stopped batch holds.
        var committed = 0
        for _ in 0..<3000 where committed < 64 {
            usleep(10_000)
            kill(process.processIdentifier, SIGSTOP)
            committed = Self.committedResults(db) ?? committed
            if committed < 64 { kill(process.processIdentifier, SIGCONT) }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let store = try ResultStore(path: db)
        #expect(try store.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
        let kept = try store.resultRows().count
        #expect(kept >= 64 && kept < 300, "\(kept) results kept")

        let resumed = try Run(["batch", corpus, "--db", db, "--json"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.json?["alreadyStored"] as? Double == Double(kept) && resumed.json?["computed"] as? Double == Double(300 - kept),
                "\(resumed.stdout)")
        let single = folder.path("single.sqlite")
        #expect(try Run(["batch", corpus, "--db", single]).status == 0)
        #expect(try export(db) == export(single))
    }

    @Test("4 shard processes over one corpus, merged, equal a single run")
    func shardsMerge() throws {
        let folder = try Self.corpus(40)
        defer { folder.remove() }
        let corpus = folder.path("corpus")
        let processes = try (0..<4).map { index in
            try Run.start(["batch", corpus, "--db", folder.path("shard-\(index).sqlite"), "--shard", "\(index)/4", "--jobs", "1"])
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let sizes = try (0..<4).map { try ResultStore(path: folder.path("shard-\($0).sqlite")).resultRows().count }
        #expect(sizes.reduce(0, +) == 80 && sizes.allSatisfy { $0 > 0 }, "\(sizes)")
        let merged = folder.path("merged.sqlite")
        let merge = try Run(["batch", "merge", "--db", merged] + (0..<4).map { folder.path("shard-\($0).sqlite") })
        #expect(merge.status == 0, "\(merge.stderr)")
        let single = folder.path("single.sqlite")
        #expect(try Run(["batch", corpus, "--db", single]).status == 0)
        #expect(try export(merged) == export(single))
        #expect(try Run(["batch", corpus, "--db", merged, "--json"]).json?["computed"] as? Double == 0)
    }

    @Test("generate-corpus: every file of 2 mPower-like runs is distinct and analyses without error (tapping, gait, balance, voice, spl, audiometry)")
    func corpusRuns() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let corpus = folder.path("corpus"), db = folder.path("c.sqlite")
        #expect(try Run(["generate-corpus", "--runs", "2", "--out", corpus]).status == 0)
        let run = try Run(["batch", corpus, "--db", db, "--json"])
        #expect(run.status == 0 && run.json?["errors"] as? Double == 0 && run.json?["unknownFiles"] as? Double == 0, "\(run.stdout)")
        let rows = try ResultStore(path: db).resultRows()
        #expect(rows.allSatisfy { $0.status == .ok }, "\(rows.filter { $0.status != .ok }.map { "\($0.recording) \($0.key.analyzer): \($0.error ?? "")" })")
        let perRun = Dictionary(grouping: rows) { $0.recording.components(separatedBy: "/").first { $0.hasPrefix("run-") } ?? "" }
        for (_, runRows) in perRun {
            // The voice recording is scored as voice only, not also as a room-noise check (issue 17, item 6);
            // the walk's rest recording by balance, its outbound walk by gait (issue 18, item 3).
            #expect(runRows.map(\.key.analyzer).sorted() == ["audiometry", "balance", "gait", "spl", "tapping", "voice"])
        }
        #expect(Set(rows.map(\.key.contentSHA256)).count == 10)  // 2 runs × 5 files, all distinct
    }

    @Test("bad invocations: a malformed --shard, an export without a format", arguments: [
        ["batch", "x", "--db", "/tmp/x.sqlite", "--shard", "4/4"], ["batch", "export", "--db", "/tmp/x.sqlite"],
    ])
    func badInvocations(arguments: [String]) throws {
        #expect(try Run(arguments).status == 2)
    }

    @Test("../shared/data in one command: every real file gives features, an error row, or an unknown-file entry", .enabled(if: SharedData.runs, SharedData.skipMessage))
    func sharedData() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let db = folder.path("data.sqlite")
        let run = try Run(["batch", SharedData.root.path, "--db", db, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let store = try ResultStore(path: db)
        let recorded = Set(try store.read { db in try String.fetchAll(db, sql: "SELECT path FROM recordings") })
        let relative: [String] = FileManager.default.enumerator(atPath: SharedData.root.path)?.allObjects as? [String] ?? []
        let files: [String] = relative.map { SharedData.root.appendingPathComponent($0).path }.filter { (path: String) -> Bool in
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            return type == .typeRegular && !(path as NSString).lastPathComponent.hasPrefix(".")
        }
        #expect(!files.isEmpty)
        for file in files { #expect(recorded.contains(file), "\(file) has no recording row") }
        let rows = try store.resultRows()
        let unknown = Set(try store.unknownFiles().map(\.path))
        for file in files {
            let hasRow = rows.contains { $0.paths.contains(file) } || unknown.contains(file)
            #expect(hasRow, "\(file): neither a result nor an unknown-file entry")
        }
        // The real recordings produce features: the mPower gait, tapping and voice files among them.
        for name in ["pdkit_mpower_gait.json", "pdkit_mpower_finger_tapping.json", "pdscores_phonation.m4a"] {
            #expect(rows.contains { $0.recording.hasSuffix(name) && $0.status == .ok }, "\(name)")
        }
        #expect(rows.allSatisfy { $0.status != .error || !($0.error ?? "").isEmpty })
        // The report of the whole store renders (charts re-read example recordings).
        let report = try Run(["report", "--db", db, "--out", folder.path("report"), "--examples", "1"])
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: folder.path("report/index.html"), encoding: .utf8)
        #expect(html.contains("<h2>voice</h2>") && html.contains("Acceleration and detected steps") && html.contains("<h2>Unknown files</h2>"))
    }
}

/// The HTML report in a real headless browser (Debian's chromium).
@Suite struct ReportScreenshotTests {

    /// A PNG screenshot of `html` at 1200 × `height`.
    func screenshot(_ html: String, height: Int, in folder: TemporaryFolder, name: String) throws -> [UInt8] {
        let png = folder.path(name + ".png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Peer.chromium.files[0])
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,\(height)",
                             "--screenshot=\(png)", URL(fileURLWithPath: html).absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
    }

    @Test("the report of SampleData's batch and a score --html page render in chromium: 1200-px PNGs far richer than a blank page",
          .enabled(if: Peer.chromium.runs, Peer.chromium.skipMessage))
    func screenshots() throws {
        guard Peer.chromium.require() != nil else { return }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let db = folder.path("r.sqlite")
        #expect(try Run(["batch", SharedData.sampleData.path, "--db", db]).status == 0)
        let report = try Run(["report", "--db", db, "--out", folder.path("report")])
        #expect(report.status == 0, "\(report.stderr)")
        let score = try Run(["score", "voice", "--html", folder.path("voice.html"), SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path])
        #expect(score.status == 0, "\(score.stderr)")
        let blank = try folder.write("blank.html", "<!DOCTYPE html><html><body></body></html>")
        let blankPNG = try screenshot(blank, height: 2000, in: folder, name: "blank")
        for (html, name) in [(folder.path("report/index.html"), "report"), (folder.path("voice.html"), "voice")] {
            let png = try screenshot(html, height: 2000, in: folder, name: name)
            #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(name): not a PNG")
            // IHDR: width and height, big-endian, at bytes 16–23.
            let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 1200 && height == 2000, "\(name): \(width)×\(height)")
            #expect(png.count > 10 * blankPNG.count, "\(name): \(png.count) bytes against \(blankPNG.count) for a blank page")
        }
    }
}
