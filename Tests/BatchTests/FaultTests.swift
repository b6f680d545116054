import Foundation
import Glibc
import Testing
import TestSupport
@testable import Batch
import InputGuards
@testable import Scoring
import SensorData
import SignalProcessing

/// Discovery and analysis when the file system misbehaves: links that loop, files that change or
/// vanish between hashing and analysis, things that are not regular files (docs/reliability.md).
@Suite struct FaultTests {
    static let tapping = SharedData.sampleData.appendingPathComponent("tapping_results.json").path

    /// A manifest cell that names a special file: refused by what it is before any read (a
    /// /proc entry reads as a regular file of size 0, and /proc/self/mem fails with EIO), as that
    /// record's error row; the records after it are analysed.
    @Test("manifest cells naming /proc/self/mem, /dev/zero, a folder or a FIFO are those records' errors; the batch goes on")
    func specialFilesInAManifest() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(mkfifo(folder.path("pipe"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: false)
        let manifest = try folder.write("records.csv", """
            recordId,tapping_results.json.TappingSamples
            r1,/proc/self/mem
            r2,/dev/zero
            r3,\(folder.path("sub"))
            r4,\(folder.path("pipe"))
            r5,/proc/self/status
            r6,\(Self.tapping)

            """)
        var options = BatchOptions(toolkitVersion: "test")
        options.manifest = try StudyManifest.read(manifest, base: folder.url.path)
        let store = try ResultStore(path: folder.path("r.sqlite"))
        let counts = try await BatchRunner.run([], store: store, options: options)
        let rows = try store.resultRows()
        let byRecord = Dictionary(rows.map { (String($0.recording.split(separator: "#").last!), $0) }, uniquingKeysWith: { first, _ in first })
        #expect(counts.unitsDone == 6 && counts.errors == 5, "\(counts)")
        #expect(byRecord["r6"]?.status == .ok)
        for (record, words) in [("r1", "running system"), ("r2", "character device"), ("r3", "directory"), ("r4", "FIFO"), ("r5", "running system")] {
            #expect(byRecord[record]?.status == .error && byRecord[record]?.error?.contains(words) == true, "\(record): \(byRecord[record]?.error ?? "no row")")
        }
    }

    @Test("symbolic-link loops end; a second link to a folder adds nothing; a FIFO is refused, never opened; a dangling link is a file that reports itself")
    func links() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.path("root")
        try FileManager.default.createDirectory(atPath: root + "/sub/deeper", withIntermediateDirectories: true)
        _ = try folder.write("root/a.json", "{}")
        _ = try folder.write("root/sub/deeper/b.json", "{}")
        try FileManager.default.createSymbolicLink(atPath: root + "/sub/deeper/up", withDestinationPath: "../..")  // → root: a loop
        try FileManager.default.createSymbolicLink(atPath: root + "/again", withDestinationPath: "sub")  // → sub: listed already
        try FileManager.default.createSymbolicLink(atPath: root + "/dangling.json", withDestinationPath: "nowhere.json")
        #expect(mkfifo(root + "/pipe", 0o600) == 0)

        let (files, refused) = Discovery.files(under: root, includeHidden: false)
        // `again` sorts before `sub`, so sub's files are reached through the link first.
        #expect(files == [root + "/a.json", root + "/again/deeper/b.json", root + "/dangling.json"])
        #expect(refused.map(\.path) == [root + "/pipe"] && refused[0].reason.contains("FIFO"))

        let (units, missing, inventory) = await Discovery.units([root])
        #expect(missing.isEmpty && units.count == 4)
        let outcomes = units.map { BatchRunner.process($0, inventory: inventory, stored: [], options: BatchOptions(toolkitVersion: "test")) }
        let errors = outcomes.flatMap(\.results).filter { $0.status == .error }.compactMap(\.error)
        #expect(errors.contains(root + "/dangling.json: cannot be read: No such file or directory"), "\(errors)")
        #expect(errors.contains { $0.hasPrefix(root + "/pipe: is not a regular file") }, "\(errors)")
    }

    @Test("a file that changes after it was read: its results describe the bytes read, keyed by their hash; the next run reads the new bytes")
    func changedAfterReading() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let original = try String(contentsOfFile: Self.tapping, encoding: .utf8)
        let path = try folder.write("tap.json", original)
        let unit = WorkUnit(path: path, members: [path], shape: .file)
        let inventory = await Inventory.take([path], cached: [:], options: BatchOptions(toolkitVersion: "test"))
        _ = try folder.write("tap.json", #"{"items":[]}"#)
        let outcome = BatchRunner.process(unit, inventory: inventory, stored: [], options: BatchOptions(toolkitVersion: "test"))
        let expected = try TappingScorer.score(LoadedInput.load(Self.tapping)).report
        #expect(outcome.results.map(\.status) == [.ok] && outcome.results[0].featuresJSON == JSONWriter().string(expected.featuresJSON))
        #expect(outcome.results[0].key.contentSHA256 == Inventory.examine(Self.tapping).0.sha256)

        // Through the store: the rewritten file has a new version, is read again, and gets its own row.
        let store = try ResultStore(path: folder.path("r.sqlite"))
        _ = try folder.write("tap.json", original)
        _ = try await BatchRunner.run([path], store: store, options: BatchOptions(toolkitVersion: "test"))
        _ = try folder.write("tap.json", #"{"items":[]}"#)
        let second = try await BatchRunner.run([path], store: store, options: BatchOptions(toolkitVersion: "test"))
        #expect(second.alreadyStored == 0 && second.unknownFiles == 1)
    }

    @Test("a file cut short while the batch reads it (the open hook truncates it: the read sees a prefix): an error row saying it changed while read, no result; a later run reads it as it then is")
    func cutShortWhileRead() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let walk = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path, encoding: .utf8)
        let path = try folder.write("walk.json", walk)
        let unit = WorkUnit(path: path, members: [path], shape: .file)
        let cut = Locked(false)
        let inventory = await RegularFile.$openObserver.withValue({ opened in
            guard opened == path, !cut.withLock({ let first = !$0; $0 = true; return !first }) else { return }
            _ = truncate(path, off_t(walk.utf8.count / 2))
        }) {
            await Inventory.take([path], cached: [:], options: BatchOptions(toolkitVersion: "test"))
        }
        #expect(cut.withLock { $0 })
        #expect(inventory.facts[path]?.loadError == "\(path): changed while it was read; not analysed (run the batch again)", "\(String(describing: inventory.facts[path]))")
        let outcome = BatchRunner.process(unit, inventory: inventory, stored: [], options: BatchOptions(toolkitVersion: "test"))
        #expect(outcome.results.allSatisfy { $0.status == .error } && !outcome.results.isEmpty, "\(outcome.results.map { $0.status })")
        // Left alone, the cut file is read as it is: hashed, and refused for what it holds (JSON cut
        // inside a value), not for changing.
        let again = await Inventory.take([path], cached: [:], options: BatchOptions(toolkitVersion: "test"))
        #expect(again.facts[path]?.sha256.isEmpty == false && again.facts[path]?.loadError?.contains("truncated JSON") == true,
                "\(String(describing: again.facts[path]?.loadError))")
    }

    @Test("beyond the memory budget a file is read again for its analyses: changed or vanished meanwhile, it is one error row and nothing is stored under its old hash")
    func changedBeyondBudget() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("tap.json", String(contentsOfFile: Self.tapping, encoding: .utf8))
        let unit = WorkUnit(path: path, members: [path], shape: .file)
        var inventory = await Inventory.take([path], cached: [:], options: BatchOptions(toolkitVersion: "test"))
        inventory.loaded = [:]  // as when the budget was spent: the analyses read the file again

        let steady = BatchRunner.process(unit, inventory: inventory, stored: [], options: BatchOptions(toolkitVersion: "test"))
        #expect(steady.results.map(\.status) == [.ok] && steady.recording != nil)

        _ = try folder.write("tap.json", #"{"items":[]}"#)
        let changed = BatchRunner.process(unit, inventory: inventory, stored: [], options: BatchOptions(toolkitVersion: "test"))
        #expect(changed.recording == nil && changed.results.count == 1)
        let row = try #require(changed.results.first)
        #expect(row.status == .error && row.key.contentSHA256 == "changed:" + path && row.key.analyzer == "read")
        #expect(row.error == path + ": changed or vanished while the batch ran; its results were not stored (run the batch again)")

        unlink(path)
        let vanished = BatchRunner.process(unit, inventory: inventory, stored: [], options: BatchOptions(toolkitVersion: "test"))
        #expect(vanished.results.count == 1 && vanished.results[0].key.contentSHA256 == "changed:" + path && vanished.recording == nil)
    }

    @Test("a file rewritten to other bytes and back (A → B → A): its status-change time makes the rerun read it again, its hash finds every result stored")
    func rewrittenBack() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let original = try String(contentsOfFile: Self.tapping, encoding: .utf8)
        let path = try folder.write("tap.json", original)
        let store = try ResultStore(path: folder.path("r.sqlite"))
        _ = try await BatchRunner.run([path], store: store, options: BatchOptions(toolkitVersion: "test"))
        usleep(20_000)  // past the kernel's timestamp granularity (one tick)
        _ = try folder.write("tap.json", #"{"items":[]}"#)
        _ = try folder.write("tap.json", original)
        let opens = OpenCounter()
        let again = try await RegularFile.$openObserver.withValue({ opens.add($0) }) {
            try await BatchRunner.run([path], store: store, options: BatchOptions(toolkitVersion: "test"))
        }
        #expect(opens.count(path) == 1 && again.computed == 0 && again.alreadyStored == 1)
    }
}
