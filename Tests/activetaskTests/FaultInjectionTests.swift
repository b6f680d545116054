import Foundation
import Glibc
import GRDB
import SignalProcessing
import Testing
import TestSupport
@testable import Batch

/// Faults injected into real `activetask` processes: permissions, links, FIFOs, files changing
/// under a running batch, a full disk, SIGKILL at random points, stalled and closing senders
/// (docs/reliability.md).
@Suite(.serialized) struct FaultInjectionTests {
    /// As root, file permissions do not apply (CAP_DAC_OVERRIDE); run the CLI without the two
    /// capabilities that bypass them, as an ordinary user would.
    static let withoutPermissionOverride = geteuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"] : []

    /// `sh` that limits the size of files the process may write to `blocks` × 512 bytes.
    static func fileSizeLimit(blocks: Int) -> [String] { ["/bin/sh", "-c", "ulimit -f \(blocks) && exec \"$0\" \"$@\""] }

    func rows(_ db: String) throws -> [ResultRow] { try ResultStore(path: db).resultRows() }

    func integrity(_ db: String) throws -> String? {
        try ResultStore(path: db).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
    }

    @Test("unreadable files and folders, a symbolic-link loop, a FIFO and a dangling link: one error row each with the reason; every readable file analysed once")
    func permissionsAndLinks() throws {
        let folder = try BatchCommandTests.corpus(2)
        defer {
            chmod(folder.path("corpus/locked"), 0o755)
            folder.remove()
        }
        let corpus = folder.path("corpus")
        try FileManager.default.createDirectory(atPath: corpus + "/locked", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: corpus + "/walk-0000.json", toPath: corpus + "/locked/walk.json")
        try FileManager.default.copyItem(atPath: corpus + "/tap-0000.json", toPath: corpus + "/secret.json")
        #expect(chmod(corpus + "/secret.json", 0) == 0 && chmod(corpus + "/locked", 0) == 0)
        try FileManager.default.createSymbolicLink(atPath: corpus + "/loop", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: corpus + "/gone.json", withDestinationPath: "nowhere.json")
        #expect(mkfifo(corpus + "/pipe.json", 0o644) == 0)
        // The store must be writable by the unprivileged process.
        let db = folder.path("r.sqlite")

        let run = try Run(["batch", corpus, "--db", db, "--json"], launcher: Self.withoutPermissionOverride)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try rows(db)
        let errors = Dictionary(uniqueKeysWithValues: rows.filter { $0.status == .error }.map { ($0.recording, $0.error ?? "") })
        #expect(errors == [
            corpus + "/secret.json": corpus + "/secret.json: cannot be read: Permission denied",
            corpus + "/locked": corpus + "/locked: cannot be listed: Permission denied",
            corpus + "/gone.json": corpus + "/gone.json: cannot be read: No such file or directory",
            corpus + "/pipe.json": corpus + "/pipe.json: is not a regular file (a FIFO, socket or device); not read",
        ])
        // The 4 readable files, each once although `loop` leads back to them.
        let ok = rows.filter { $0.status == .ok }.map(\.recording).sorted()
        #expect(ok == ["tap-0000", "tap-0001", "walk-0000", "walk-0001"].map { corpus + "/\($0).json" }, "\(ok)")
    }

    @Test("files rewritten and deleted while a batch runs: every stored result belongs to the content its key names; vanished files are error rows")
    func changingFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Walks (tens of milliseconds of analysis each: a wide window between hashing and reading).
        let a = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path, encoding: .utf8)
        let b = a.replacingOccurrences(of: #""x":0.00347,"#, with: #""x":0.5,"#)  // one sample moved: other features
        #expect(a != b)
        // The features of each version, from a quiet run.
        for sub in ["reference", "corpus"] { try FileManager.default.createDirectory(atPath: folder.path(sub), withIntermediateDirectories: true) }
        _ = try folder.write("reference/a.json", a)
        _ = try folder.write("reference/b.json", b)
        #expect(try Run(["batch", folder.path("reference"), "--db", folder.path("reference.sqlite")]).status == 0)
        let reference = try Dictionary(uniqueKeysWithValues: rows(folder.path("reference.sqlite")).map { ($0.key.contentSHA256, $0.featuresJSON) })
        #expect(reference.count == 2 && Set(reference.values).count == 2)

        let count = 100
        for i in 0..<count { _ = try folder.write(String(format: "corpus/walk-%03d.json", i), a) }
        let db = folder.path("r.sqlite")
        let process = Process()
        process.executableURL = Run.executable
        process.arguments = ["batch", folder.path("corpus"), "--db", db, "--jobs", "2"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Flip files between the two versions, and delete every tenth, until the batch ends.
        var flips = 0
        while process.isRunning {
            let i = flips % count
            let path = folder.path(String(format: "corpus/walk-%03d.json", i))
            if i % 10 == 0 { unlink(path) } else { _ = try folder.write(String(format: "corpus/walk-%03d.json", i), (flips / count) % 2 == 0 ? b : a) }
            flips += 1
            usleep(200)
        }
        #expect(process.terminationStatus == 0)
        #expect(try integrity(db) == "ok")
        let stored = try rows(db)
        var ok = 0, errors = 0
        for row in stored {
            switch row.status {
            case .ok:
                ok += 1
                #expect(reference[row.key.contentSHA256] == row.featuresJSON, "\(row.recording): features of other bytes than its key \(row.key.contentSHA256)")
            case .error:
                errors += 1
                let error = row.error ?? ""
                #expect(error.contains("changed or vanished while it was analysed") || error.contains("No such file or directory"), "\(error)")
            default:
                Issue.record("\(row.recording): \(row.status)")
            }
        }
        #expect(ok > 0 && ok + errors >= count / 2, "\(ok) ok, \(errors) errors after \(flips) rewrites")
        print("fault injection: \(flips) rewrites and deletions under a running batch; \(ok) results, all of the content their key names; \(errors) error rows")
    }

    @Test("a full disk (a file-size limit) during a batch: exit 3 naming the store; the store opens with what was committed; a rerun finishes and equals a single run")
    func fullDisk() throws {
        let folder = try BatchCommandTests.corpus(40)
        defer { folder.remove() }
        let corpus = folder.path("corpus"), single = folder.path("single.sqlite"), db = folder.path("full.sqlite")
        #expect(try Run(["batch", corpus, "--db", single]).status == 0)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: single)[.size] as? Int)

        // Half the finished store's size: the disk fills part way through.
        let full = try Run(["batch", corpus, "--db", db], launcher: Self.fileSizeLimit(blocks: size / 2 / 512))
        #expect(full.status == 3)
        #expect(full.stderr.contains("activetask: \(db): SQLite error") && full.stderr.contains("results committed before are kept"), "\(full.stderr)")
        #expect(try integrity(db) == "ok")
        let kept = try rows(db).count
        #expect(kept < 80, "\(kept) rows")

        let resumed = try Run(["batch", corpus, "--db", db, "--json"])
        #expect(resumed.status == 0 && resumed.json?["alreadyStored"] as? Double == Double(kept), "\(resumed.stdout)")
        #expect(try BatchCommandTests().export(db) == BatchCommandTests().export(single))
    }

    @Test("SIGKILL at 50 random points of batches resuming one store: it always opens, no committed row is lost, none is duplicated; the end equals a single run")
    func fiftyKills() throws {
        let folder = try BatchCommandTests.corpus(20)
        defer { folder.remove() }
        let corpus = folder.path("corpus"), single = folder.path("single.sqlite")
        let started = Date()
        #expect(try Run(["batch", corpus, "--db", single]).status == 0)
        let fullRun = Date().timeIntervalSince(started)

        var random = SplitMix64(seed: 0x2026_1122)
        var db = folder.path("killed-0.sqlite"), stores = 0
        var committed = Set<String>()
        var killed = 0, completed = 0
        for kill in 0..<50 {
            let process = Process()
            process.executableURL = Run.executable
            process.arguments = ["batch", corpus, "--db", db, "--jobs", "2"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Uniform over the length of a whole run: store creation, analyses, commits, the end.
            usleep(UInt32(random.unit() * fullRun * 1.1 * 1e6))
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 } else { completed += 1 }

            #expect(try integrity(db) == "ok", "kill \(kill)")
            let keys = try rows(db).map { "\($0.key.contentSHA256) \($0.key.analyzer)" }
            #expect(keys.count == Set(keys).count, "kill \(kill): duplicate rows")
            #expect(committed.isSubset(of: keys), "kill \(kill): \(committed.subtracting(keys).count) committed rows lost")
            committed = Set(keys)
            if committed.count == 40 {  // finished: start again on a new store
                stores += 1
                db = folder.path("killed-\(stores).sqlite")
                committed = []
            }
        }
        #expect(killed >= 25, "\(killed) killed, \(completed) completed")
        print("fault injection: 50 SIGKILLs over \(stores + 1) stores (\(killed) killed mid-run, \(completed) had finished); integrity ok and no committed row lost after each")
        let finish = try Run(["batch", corpus, "--db", db])
        #expect(finish.status == 0, "\(finish.stderr)")
        #expect(try BatchCommandTests().export(db) == BatchCommandTests().export(single))
    }
}
