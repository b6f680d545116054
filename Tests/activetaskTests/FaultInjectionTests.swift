import InputGuards
import Foundation
import Glibc
import GRDB
import SensorData
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

    /// Under ThreadSanitizer a file-size limit kills the instrumented process inside the TSan
    /// runtime (SIGBUS, "nested bug"), before the toolkit's code sees EFBIG; the tmpfs test
    /// covers a full disk there.
    static let fileSizeLimitUsable = Sanitizer.active != .thread

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
        let process = try Run.start(["batch", folder.path("corpus"), "--db", db, "--jobs", "2"])
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
                ok += row.paths.count  // every path whose content this is (one result per content)
                #expect(reference[row.key.contentSHA256] == row.featuresJSON, "\(row.recording): features of other bytes than its key \(row.key.contentSHA256)")
            case .error:
                errors += 1
                // Mostly "changed or vanished while it was analysed"; a file caught half-written
                // by the writer is a read error. Either names the file.
                #expect(row.error?.hasPrefix(row.recording + ": ") == true, "\(row.error ?? "")")
            default:
                Issue.record("\(row.recording): \(row.status)")
            }
        }
        #expect(ok > 0 && ok + errors >= count / 2, "\(ok) ok, \(errors) errors after \(flips) rewrites")
        print("fault injection: \(flips) rewrites and deletions under a running batch; \(ok) results, all of the content their key names; \(errors) error rows")
    }

    @Test("a full disk (a file-size limit) during a batch: exit 3 naming the store; the store opens with what was committed; a rerun finishes and equals a single run",
          .enabled(if: fileSizeLimitUsable, "ThreadSanitizer's runtime dies under a file-size limit"))
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

    @Test("a full file system (a tmpfs the size of the finished store, ENOSPC) under the store: exit 3 naming it; copied to a disk with room, it opens with what was committed and a rerun finishes it",
          .enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
    func fullFileSystem() throws {
        let folder = try BatchCommandTests.corpus(40)
        defer { folder.remove() }
        let corpus = folder.path("corpus"), small = folder.path("small"), single = folder.path("single.sqlite")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        #expect(try Run(["batch", corpus, "--db", single]).status == 0)
        // As big as the finished store: the store and its write-ahead log fill it part way through.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: single)[.size] as? Int)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(size / 4096 * 4)k", "tmpfs", small]
        mount.standardError = FileHandle.nullDevice
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else {
            print("fault injection: cannot mount a tmpfs here (no CAP_SYS_ADMIN); the file-size-limit test covers a full disk")
            return
        }
        defer { _ = try? Process.run(URL(fileURLWithPath: "/bin/umount"), arguments: [small]).waitUntilExit() }

        let full = try Run(["batch", corpus, "--db", small + "/r.sqlite"])
        #expect(full.status == 3)
        #expect(full.stderr.contains("activetask: \(small)/r.sqlite: SQLite error") && full.stderr.contains("results committed before are kept"), "\(full.stderr)")
        // "Free space": the store's files, as they are, on a disk with room.
        let moved = folder.path("moved")
        try FileManager.default.createDirectory(atPath: moved, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: small) {
            try FileManager.default.copyItem(atPath: small + "/" + name, toPath: moved + "/" + name)
        }
        let db = moved + "/r.sqlite"
        #expect(try integrity(db) == "ok")
        let kept = try rows(db).count
        #expect(kept > 0 && kept < 80, "\(kept) rows kept")
        let resumed = try Run(["batch", corpus, "--db", db, "--json"])
        #expect(resumed.status == 0 && resumed.json?["alreadyStored"] as? Double == Double(kept), "\(resumed.stdout)")
        #expect(try BatchCommandTests().export(db) == BatchCommandTests().export(single))
        print("fault injection: a \(size / 4096 * 4)-KB tmpfs filled under the store: \(kept) of 80 results kept, the rest computed by the rerun; \(full.stderr.split(separator: "\n").last ?? "")")
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
            let process = try Run.start(["batch", corpus, "--db", db, "--jobs", "2"])
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

    // MARK: - Recorders

    /// Starts `activetask record accelerometer` on a new Unix socket in `folder` and connects to it.
    func recorderOnSocket(_ folder: TemporaryFolder) throws -> (process: Process, output: Pipe, errors: Pipe, socket: Int32) {
        let socketPath = folder.path("in.sock")
        let process = Process()
        process.executableURL = Run.executable
        process.arguments = ["record", "accelerometer", "--source", "unix:" + socketPath, "--out", folder.url.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socketPath) { usleep(10_000) }
        return (process, output, errors, try UnixSocket.connect(socketPath))
    }

    /// The items of the file a recording reported on stdout.
    func recordedX(_ folder: TemporaryFolder, stdout: Data) throws -> [Double] {
        let results = try #require(try JSONSerialization.jsonObject(with: stdout) as? [[String: Any]])
        let name = try #require(results.first?["fileName"] as? String)
        return try #require(try JSONContents.read(folder.path(name)).series.first?.series)["x"] ?? []
    }

    static func lines(_ range: Range<Int>) -> String {
        range.map { #"{"timestamp":\#(Double($0) / 100),"x":\#($0),"y":-1,"z":0}"# }.joined(separator: "\n") + "\n"
    }

    @Test("a recorder stopped (SIGSTOP) for 1 s while its sender streams 20,000 lines: the sender waits on the socket, nothing is lost")
    func stalledRecorder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (process, output, _, fd) = try recorderOnSocket(folder)
        kill(process.processIdentifier, SIGSTOP)
        let bytes = Array(Self.lines(0..<20_000).utf8)
        let sender = Thread {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                sent += n
            }
            close(fd)
        }
        sender.start()
        sleep(1)
        kill(process.processIdentifier, SIGCONT)
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try recordedX(folder, stdout: stdout) == (0..<20_000).map(Double.init))
    }

    @Test("a sender that closes the socket in the middle of a line: the 100 whole lines are kept in a finished file, the torn line is reported by number")
    func socketClosedMidLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (process, output, errors, fd) = try recorderOnSocket(folder)
        let bytes = Array((Self.lines(0..<100) + #"{"timestamp":1.0,"x":"#).utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(try recordedX(folder, stdout: stdout) == (0..<100).map(Double.init))
        #expect(process.terminationStatus == 3)
        #expect(stderr.contains("in.sock:101: truncated JSON: the text ends inside a value at byte 21 (line 1, column 22) (recording stopped; the items before it are kept)"), "\(stderr)")
    }

    @Test("a disk that fills (a file-size limit) during a 100-Hz recording: exit 3 naming the file and the failed call; the file left is valid and holds every sample written",
          .enabled(if: fileSizeLimitUsable, "ThreadSanitizer's runtime dies under a file-size limit"))
    func recorderDiskFull() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Run(["record", "accelerometer", "--source", "simulate", "--duration", "600", "--frequency", "100", "--out", folder.url.path],
                          launcher: Self.fileSizeLimit(blocks: 64))
        #expect(run.status == 3)
        let message = try #require(run.stderr.split(separator: "\n").last.map(String.init))
        #expect(message.hasPrefix("activetask: " + folder.url.path) && message.hasSuffix(".json: pwrite failed: File too large"), "\(message)")
        let file = String(message.dropFirst("activetask: ".count).dropLast(": pwrite failed: File too large".count))
        let series = try #require(try JSONContents.read(file).series.first?.series)
        // 64 blocks of 512 bytes hold about 200 items of ~150 bytes; the items are 10 ms apart.
        let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
        #expect(series.count > 100 && size <= 64 * 512, "\(series.count) items, \(size) bytes")
        let steps = zip(series.time.dropFirst(), series.time).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 0.01) < 1e-6 })
    }
}
