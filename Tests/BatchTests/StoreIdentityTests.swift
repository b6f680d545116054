import Foundation
import GRDB
import SensorData
import Testing
import TestSupport
@testable import Batch

/// Who a recording is and what its columns are called: a merge never changes a recording's
/// metadata without refusing; a manifest's metadata column never takes over an identifier column
/// or shadows a feature column, whatever its case (docs/reliability.md § 7).
@Suite struct StoreIdentityTests {
    /// A store holding one tapping result of `recording` with `metadata`.
    static func store(_ path: String, recording: String, metadata: [(String, String)], features: String = #"{"mhealthtools":{"numberTaps":42}}"#) throws -> ResultStore {
        let store = try ResultStore(path: path)
        var batch = StoreBatch()
        batch.recordings = [RecordingEntry(path: recording, contentSHA256: "c-" + recording, bytes: 1, files: 1,
                                           metadata: metadata.map { StudyManifest.Metadata(column: $0.0, value: $0.1) })]
        batch.results = [ResultRow(recording: recording, key: ResultKey(contentSHA256: "c-" + recording, analyzer: "tapping", analyzerVersion: "1", parameters: "{}"),
                                   toolkitVersion: "test", status: .ok, kind: "tapping", dialect: nil, featuresJSON: features, warningsJSON: "[]",
                                   error: nil, computedAt: 0, durationMilliseconds: 1)]
        try store.commit(batch, runID: nil, replace: false)
        return store
    }

    @Test("merging two site stores whose record m.csv#r1 carries different healthCodes is refused naming both; nothing is merged")
    func mergeConflict() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site1 = try Self.store(folder.path("a.sqlite"), recording: "m.csv#r1", metadata: [("recordId", "r1"), ("healthCode", "hc-1")])
        _ = try Self.store(folder.path("b.sqlite"), recording: "m.csv#r1", metadata: [("recordId", "r1"), ("healthCode", "hc-2")],
                           features: #"{"mhealthtools":{"numberTaps":7}}"#)
        let before = try site1.recordingMetadata().values
        #expect {
            try site1.merge(from: folder.path("b.sqlite"))
        } throws: { error in
            let text = "\(error)"
            return text.contains("healthCode") && text.contains("hc-1") && text.contains("hc-2") && text.contains("nothing was merged")
        }
        #expect(try site1.recordingMetadata().values == before && site1.resultRows().count == 1)
        // The same metadata merges.
        _ = try Self.store(folder.path("c.sqlite"), recording: "m.csv#r2", metadata: [("recordId", "r2"), ("healthCode", "hc-2")])
        #expect(try site1.merge(from: folder.path("c.sqlite")) == 1)
    }

    @Test("manifest columns named like an identifier column in another case are refused", arguments: ["Recording", "STATUS", "Content_SHA256"])
    func identifierNames(name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manifest = try folder.write("m.csv", "recordId,\(name),tapping_results.json.TappingSamples\nr1,x,a.json\n")
        #expect { try StudyManifest.read(manifest) } throws: { "\($0)".contains(name) && "\($0)".contains("a column every export adds") }
    }

    @Test("a metadata column named like a feature column: the wide CSV and the wide view keep the feature under its name and the metadata as metadata:NAME")
    func featureNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Self.store(folder.path("r.sqlite"), recording: "m.csv#r1", metadata: [("recordId", "r1"), ("MHEALTHTOOLS.numberTaps", "from the manifest")])
        let table = try WideTable(analyzer: "tapping", store: store)
        #expect(table.metadataHeaders == ["recordId", "metadata:MHEALTHTOOLS.numberTaps"])
        let header = table.csvHeader().split(separator: ",").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(Set(header).count == header.count && header.contains("mhealthtools.numberTaps"), "\(header)")
        try store.refreshWideViews()
        let row = try DatabaseQueue(path: folder.path("r.sqlite")).read { db in
            try Row.fetchOne(db, sql: #"SELECT "mhealthtools.numberTaps", "metadata:MHEALTHTOOLS.numberTaps" FROM wide_tapping"#)
        }
        #expect(row?[0] as Int? == 42 && row?[1] as String? == "from the manifest")
    }

    @Test("4,500 feature columns (past SQLite's 2,000): the wide view is split into wide_tapping, wide_tapping_2 and wide_tapping_3, each with the identifiers first, together every column once")
    func wideViewsSplit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let features = "{\"many\":{" + (0..<4_500).map { "\"f\($0)\":\($0)" }.joined(separator: ",") + "}}"
        let store = try Self.store(folder.path("r.sqlite"), recording: "m.csv#r1", metadata: [("recordId", "r1")], features: features)
        try store.refreshWideViews()
        let columns = try DatabaseQueue(path: folder.path("r.sqlite")).read { db in
            try ["wide_tapping", "wide_tapping_2", "wide_tapping_3"].map { view in try Row.fetchOne(db, sql: "SELECT * FROM \(view)")!.columnNames.map { $0 } }
        }
        let fixed = ["recordId"] + WideTable.identifierColumns
        #expect(columns.allSatisfy { Array($0.prefix(fixed.count)) == fixed && $0.count <= WideTable.columnsPerView })
        #expect(columns.flatMap { $0.dropFirst(fixed.count) } == (0..<4_500).map { "many.f\($0)" })
        let value = try DatabaseQueue(path: folder.path("r.sqlite")).read { db in try Int.fetchOne(db, sql: #"SELECT "many.f4499" FROM wide_tapping_3"#) }
        #expect(value == 4_499)
    }

    @Test("a recording committed again unchanged keeps its row and run; new content, size, file count or metadata replaces them")
    func recordingRowsChangeOnlyWhenTheRecordingDoes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ResultStore(path: folder.path("r.sqlite"))
        func commit(_ entry: RecordingEntry, run: Int64) throws {
            var batch = StoreBatch()
            batch.recordings = [entry]
            try store.commit(batch, runID: run, replace: false)
        }
        func row() throws -> [String] {
            try store.read { db in
                try Row.fetchAll(db, sql: "SELECT content_sha256, bytes, files, run_id FROM recordings WHERE path = 'a'")
                    .map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int) \($0[3] as Int)" }
            }
        }
        var entry = RecordingEntry(path: "a", contentSHA256: "x", bytes: 10, files: 1, metadata: [.init(column: "healthCode", value: "h1")])
        try commit(entry, run: 1)
        try commit(entry, run: 2)
        #expect(try row() == ["x 10 1 1"])
        for (change, expected) in [({ (e: inout RecordingEntry) in e.contentSHA256 = "y" }, "y 10 1 3"), ({ $0.bytes = 11 }, "y 11 1 4"),
                                   ({ $0.files = 2 }, "y 11 2 5")] as [((inout RecordingEntry) -> Void, String)] {
            change(&entry)
            try commit(entry, run: Int64(expected.suffix(1))!)
            #expect(try row() == [expected])
        }
        entry.metadata = [.init(column: "externalId", value: "e"), .init(column: "healthCode", value: "h2")]
        try commit(entry, run: 6)
        let metadata = try store.recordingMetadata()
        #expect(metadata.values["a"] == ["healthCode": "h2", "externalId": "e"])
        #expect(metadata.columns == ["externalId", "healthCode"])
        // What a rerun skips writing: the entry exactly as stored, metadata in position order;
        // any other content, size, file count or metadata is written.
        let second = RecordingEntry(path: "b", contentSHA256: "z", bytes: 5, files: 3)
        try commit(second, run: 7)
        #expect(try store.storedRecordings() == [entry, second])
        var reordered = entry
        reordered.metadata.reverse()
        var otherValue = entry
        otherValue.metadata[1].value = "h3"
        var moreMetadata = second
        moreMetadata.metadata = [.init(column: "healthCode", value: "h")]
        for changed in [reordered, otherValue, moreMetadata] {
            #expect(try !store.storedRecordings().contains(changed))
        }
    }
}
