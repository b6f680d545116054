import Foundation
import Glibc
import Testing
import TestSupport
@testable import Batch

/// Discovery and analysis when the file system misbehaves: links that loop, files that change or
/// vanish between hashing and analysis, things that are not regular files (docs/reliability.md).
@Suite struct FaultTests {
    static let tapping = SharedData.sampleData.appendingPathComponent("tapping_results.json").path

    @Test("symbolic-link loops end; a second link to a folder adds nothing; a FIFO is refused, never opened; a dangling link is a file that reports itself")
    func links() throws {
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

        let (units, missing) = Discovery.units([root])
        #expect(missing.isEmpty && units.count == 4)
        let outcomes = units.map { BatchRunner.process($0, stored: [], options: BatchOptions(toolkitVersion: "test")) }
        let errors = outcomes.flatMap(\.results).filter { $0.status == .error }.compactMap(\.error)
        #expect(errors.contains(root + "/dangling.json: cannot be read: No such file or directory"), "\(errors)")
        #expect(errors.contains { $0.hasPrefix(root + "/pipe: is not a regular file") }, "\(errors)")
    }

    @Test("a file that changes between hashing and analysis: no result is stored under the old hash, one error row says why")
    func changedFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("tap.json", String(contentsOfFile: Self.tapping, encoding: .utf8))
        let unit = WorkUnit(path: path, members: [path], shape: .file)

        let steady = BatchRunner.process(unit, stored: [], options: BatchOptions(toolkitVersion: "test"))
        #expect(steady.results.map(\.status) == [.ok] && steady.recording != nil)

        let changed = BatchRunner.process(unit, stored: [], options: BatchOptions(toolkitVersion: "test")) {
            _ = try? folder.write("tap.json", #"{"items":[]}"#)
        }
        #expect(changed.recording == nil && changed.results.count == 1)
        let row = try #require(changed.results.first)
        #expect(row.status == .error && row.key.contentSHA256 == "changed:" + path && row.key.analyzer == "read")
        #expect(row.error == path + ": changed or vanished while it was analysed; its results were not stored (run the batch again)")
    }

    @Test("a file rewritten to other bytes and back (A → B → A) between hashing and the re-check: still caught, by its status-change time")
    func rewrittenBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let original = try String(contentsOfFile: Self.tapping, encoding: .utf8)
        let path = try folder.write("tap.json", original)
        let unit = WorkUnit(path: path, members: [path], shape: .file)
        let outcome = BatchRunner.process(unit, stored: [], options: BatchOptions(toolkitVersion: "test")) {
            usleep(20_000)  // past the kernel's timestamp granularity (one tick)
            _ = try? folder.write("tap.json", #"{"items":[]}"#)
            _ = try? folder.write("tap.json", original)
        }
        #expect(outcome.results.count == 1 && outcome.results[0].key.contentSHA256 == "changed:" + path, "\(outcome.results.map(\.status))")
    }

    @Test("a file that vanishes between hashing and analysis: one error row naming it, nothing under the old hash")
    func vanishedFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("tap.json", String(contentsOfFile: Self.tapping, encoding: .utf8))
        let unit = WorkUnit(path: path, members: [path], shape: .file)
        let outcome = BatchRunner.process(unit, stored: [], options: BatchOptions(toolkitVersion: "test")) { unlink(path) }
        #expect(outcome.results.count == 1 && outcome.results[0].status == .error && outcome.recording == nil)
        #expect(outcome.results[0].key.contentSHA256 == "changed:" + path)
    }
}
