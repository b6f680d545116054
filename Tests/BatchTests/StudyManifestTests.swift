import Foundation
import GRDB
import SensorData
import Testing
import TestSupport
@testable import Batch
@testable import Scoring

/// `batch --manifest` (issue 18, item 1) over the real mPower files in ../shared/data, laid out
/// as a Synapse table: one row per record, a column per file, metadata columns.
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct StudyManifestTests {
    static let header = "recordId,healthCode,createdOn,appVersion,tapping_results.json.TappingSamples,"
        + "accel_walking_outbound.json.items,deviceMotion_walking_rest.json.items,audio_audio.m4a,audio_countdown.m4a"

    static func manifest(in folder: TemporaryFolder) throws -> String {
        // The countdown: another file (mPower's are other recordings; here a copy of the phonation).
        try FileManager.default.copyItem(atPath: SharedData.path("mpower/pdscores_phonation.m4a"), toPath: folder.path("countdown.m4a"))
        return try folder.write("records.csv", """
            \(header)
            r1,hc-1,1426000000000,"version 1.0.7, build 28",pdkit_mpower_finger_tapping.json,pdkit_mpower_gait.json,mhealthtools_device_motion.json,pdscores_phonation.m4a,\(folder.path("countdown.m4a"))
            r2,hc-2,1426000100000,"version 1.0.7, build 28",missing_tapping.json,,,,
            r3,hc-1,1426000200000,"version 1.0.8, build 30",,,,pdscores_phonation.m4a,

            """)
    }

    @Test("columns: file columns by their mPower names, the rest metadata in order; cells relative to --base; missing files named")
    func reads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manifest = try StudyManifest.read(try Self.manifest(in: folder), base: SharedData.path("mpower"))
        let columns: [String] = Self.header.split(separator: ",").dropFirst(4).map { String($0) }
        #expect(manifest.fileColumns == columns)
        #expect(manifest.records.map(\.id) == ["r1", "r2", "r3"])
        #expect(manifest.records[0].metadata.map(\.column) == ["recordId", "healthCode", "createdOn", "appVersion"])
        #expect(manifest.records[0].metadata[3].value == "version 1.0.7, build 28")
        #expect(manifest.records[0].files["audio_audio.m4a"] == SharedData.path("mpower/pdscores_phonation.m4a"))
        #expect(manifest.records[1].missing == ["tapping_results.json.TappingSamples": SharedData.path("mpower/missing_tapping.json")])
        let units = manifest.units
        #expect(units.map(\.path) == ["r1", "r2", "r3"].map { folder.path("records.csv") + "#" + $0 })
        guard case .refused(let reason) = units[1].shape else { Issue.record("r2 should be an error unit"); return }
        #expect(reason == "data row 2 (recordId r2): column tapping_results.json.TappingSamples names \(SharedData.path("mpower/missing_tapping.json")), which does not exist")
        #expect(throws: ReadError.self) { try StudyManifest.read(folder.path("records.csv"), idColumn: "nope") }
    }

    @Test("a batch over the manifest: one unit per record, analyses by column (outbound walk and rest, the phonation not the countdown), metadata first in the wide tables and their views")
    func batch() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var options = BatchOptions(toolkitVersion: "test")
        options.manifest = try StudyManifest.read(try Self.manifest(in: folder), base: SharedData.path("mpower"))
        let store = try ResultStore(path: folder.path("r.sqlite"))
        let counts = try await BatchRunner.run([], store: store, options: options)
        #expect(counts.unitsDone == 3 && counts.errors == 1)
        let rows = try store.resultRows()
        let summary = rows.map { "\($0.recording.split(separator: "#").last!) \($0.key.analyzer) \($0.status.rawValue)" }.sorted()
        #expect(summary == ["r1 balance ok", "r1 gait ok", "r1 tapping ok", "r1 voice ok", "r2 read error", "r3 voice ok"], "\(summary)")
        // The walk's two parts are told apart by their columns: the outbound walk is gait, the rest part balance.
        let gait = try #require(rows.first { $0.key.analyzer == "gait" })
        #expect(gait.featuresJSON.hasPrefix(#"{"atk":{"#) && gait.featuresJSON.contains(#""stepCount""#) && !gait.featuresJSON.contains("atk.rest"), "\(gait.featuresJSON.prefix(300))")
        let balance = try #require(rows.first { $0.key.analyzer == "balance" })
        #expect(balance.featuresJSON.contains(#""swayRmsMetersPerSecondSquaredH""#) && !balance.featuresJSON.contains("stepCount"), "\(balance.featuresJSON.prefix(300))")
        // The phonation is scored, the countdown (the same bytes here) is not: one voice key per record, naming its column.
        let voice = rows.filter { $0.key.analyzer == "voice" && $0.recording.hasSuffix("#r1") }
        #expect(voice.count == 1 && voice[0].key.parameters.hasPrefix(#"{"member":"audio_audio.m4a","#))

        let table = try WideTable(analyzer: "tapping", store: store)
        #expect(table.metadataColumns == ["recordId", "healthCode", "createdOn", "appVersion"])
        #expect(table.csvHeader().hasPrefix("recordId,healthCode,createdOn,appVersion,recording,"))
        var lines: [String] = []
        try store.forEachResult(analyzer: "tapping") { lines.append(table.csvLine($0)) }
        #expect(lines.count == 1 && lines[0].hasPrefix(#"r1,hc-1,1426000000000,"version 1.0.7, build 28","#), "\(lines)")
        let view = try await DatabaseQueue(path: folder.path("r.sqlite")).read { db in
            try Row.fetchAll(db, sql: "SELECT recordId, healthCode, appVersion FROM wide_voice ORDER BY recording").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" }
        }
        #expect(view == ["r1 hc-1 version 1.0.7, build 28", "r3 hc-1 version 1.0.8, build 30"])
        // The long forms carry the same metadata first: every line of every result, the error's too.
        let long = try LongExport(store: store)
        #expect(long.csvHeader().hasPrefix("recordId,healthCode,createdOn,appVersion,recording,paths,content_sha256,"))
        var csv: [String] = [], json: [[String: Any]] = []
        try store.forEachResult(analyzer: nil) { row in
            csv += long.csvLines(row).split(separator: "\n").map(String.init)
            json.append(try #require(try JSONSerialization.jsonObject(with: Data(long.jsonLine(row).utf8)) as? [String: Any]))
        }
        #expect(csv.count > 40 && csv.allSatisfy { $0.hasPrefix("r1,hc-1,") || $0.hasPrefix("r2,hc-2,") || $0.hasPrefix("r3,hc-1,") }, "\(csv.prefix(3))")
        #expect(json.count == rows.count && json.allSatisfy { ($0["healthCode"] as? String)?.hasPrefix("hc-") == true && $0["recordId"] != nil })
        #expect(json.contains { $0["recordId"] as? String == "r2" && $0["status"] as? String == "error" && $0["appVersion"] as? String != nil })
        // The error row keeps its record's identifiers.
        #expect(try store.recordingMetadata().values[folder.path("records.csv") + "#r2"]?["healthCode"] == "hc-2")
    }
}
