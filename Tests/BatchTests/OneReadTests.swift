import Foundation
import InputGuards
import Testing
import TestSupport
@testable import Batch

/// Every file is read once per batch (issue 17, acceptance): the tracing hook of
/// ``RegularFile/openObserver`` counts every open for content, in every task the batch starts.
@Suite struct OneReadTests {
    /// The discovery corpus (upload, task result with a recorder subfolder, loose files) plus the
    /// sample data: JSON of every recorder, results of every kind, WAV, motion CSV, an m4a from
    /// the shared data when present.
    static func corpus() throws -> TemporaryFolder {
        let folder = try DiscoveryTests.corpus()
        try FileManager.default.copyItem(atPath: SharedData.sampleData.path, toPath: folder.path("sample"))
        let m4a = SharedData.path("mpower/pdscores_phonation.m4a")
        if FileManager.default.fileExists(atPath: m4a) {  // decoded from memory (FFmpeg custom I/O), not opened again
            try FileManager.default.copyItem(atPath: m4a, toPath: folder.path("loose/phonation.m4a"))
        }
        return folder
    }

    @Test("a first run opens each file once (hash, classification and every analysis share one read); a rerun with everything stored opens none")
    func oneReadPerFile() async throws {
        let folder = try Self.corpus()
        defer { folder.remove() }
        let arguments = [folder.path("upload"), folder.path("task"), folder.path("loose"), folder.path("sample")]
        let files = Discovery.walk(arguments).files
        #expect(files.count >= 20)
        let store = try ResultStore(path: folder.path("r.sqlite"))
        var options = BatchOptions(toolkitVersion: "test")
        options.jobs = 2

        let first = OpenCounter()
        let counts = try await RegularFile.$openObserver.withValue({ first.add($0) }) {
            try await BatchRunner.run(arguments, store: store, options: options)
        }
        #expect(counts.computed > 10 && counts.errors == 0)
        for file in files { #expect(first.count(file) == 1, "\(file) opened \(first.count(file)) times") }
        #expect(Set(first.all.keys).isSubset(of: Set(files)), "opened beyond the inputs: \(Set(first.all.keys).subtracting(files))")

        let second = OpenCounter()
        let again = try await RegularFile.$openObserver.withValue({ second.add($0) }) {
            try await BatchRunner.run(arguments, store: store, options: options)
        }
        #expect(again.computed == 0 && again.alreadyStored == counts.computed)
        #expect(second.all.isEmpty, "a fully stored rerun opened \(second.all)")
    }

    @Test("a changed parameter reads only the files whose analyzer it changes")
    func changedParameterReadsOnlyItsFiles() async throws {
        let folder = try Self.corpus()
        defer { folder.remove() }
        let arguments = [folder.path("sample")]
        let store = try ResultStore(path: folder.path("r.sqlite"))
        var options = BatchOptions(toolkitVersion: "test")
        _ = try await BatchRunner.run(arguments, store: store, options: options)
        options.configuration.parameters.tapping.depressThreshold = 30
        let opens = OpenCounter()
        let counts = try await RegularFile.$openObserver.withValue({ opens.add($0) }) {
            try await BatchRunner.run(arguments, store: store, options: options)
        }
        #expect(Set(opens.all.keys) == [folder.path("sample/tapping_results.json"), folder.path("sample/tapping_task_result.json")], "\(opens.all)")
        #expect(counts.computed == 2)
    }
}
