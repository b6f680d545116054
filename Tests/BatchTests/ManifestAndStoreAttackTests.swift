import Foundation
import GRDB
import InputGuards
import SensorData
import Testing
import TestSupport
@testable import Batch
@testable import Scoring

/// Attacks on manifests and stores (docs/reliability.md §6) at the library level: manifests as
/// spreadsheets and Synapse write them, ambiguous manifests and lists, a manifest's column names
/// as CSV cells, and stores that must be checked before anything writes to them.
@Suite struct ManifestAndStoreAttackTests {
    static let accel = SharedData.sampleData.appendingPathComponent("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path
    static let tapping = SharedData.sampleData.appendingPathComponent("tapping_results.json").path

    // MARK: - Manifests

    @Test("a manifest as spreadsheets export it (RFC 4180): BOM, CRLF, a quoted cell with a line break and doubled quotes")
    func spreadsheetManifest() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = "\u{FEFF}recordId,note,accel_walking_outbound.json.items\r\n"
            + "r1,\"said \"\"stop\"\"\r\nthen walked\",\(Self.accel)\r\n"
            + "r2,plain,\(Self.accel)\r\n"
        let manifest = try StudyManifest.read(try folder.write("m.csv", text))
        #expect(manifest.fileColumns == ["accel_walking_outbound.json.items"])
        #expect(manifest.records.map(\.id) == ["r1", "r2"])
        #expect(manifest.records[0].metadata.map(\.value) == ["r1", "said \"stop\"\r\nthen walked"])
        #expect(manifest.records[0].files == ["accel_walking_outbound.json.items": Self.accel])
    }

    @Test("ambiguous manifests are refused naming the file and the place: a repeated column, an export's own column name, a NUL in a cell, no file column", arguments: [
        ("recordId,a.json,a.json\nr1,x,y\n", "columns 2 and 3 are both named \"a.json\""),
        ("recordId,status,a.json\nr1,x,y\n", "column 2 is named \"status\", a column every export adds"),
        ("recordId,a.json\nr1,\(accel)\u{0}.bak\n", "data row 1, column \"a.json\": the cell holds a NUL byte"),
        ("recordId,healthCode\nr1,h1\nr2,h2\n", "no column names files"),
    ])
    func ambiguousManifests(text: String, message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("m.csv", text)
        #expect {
            try StudyManifest.read(path)
        } throws: { error in
            "\(error)".hasPrefix(path + ": ") && "\(error)".contains(message)
        }
    }

    /// Detection stats at most ``StudyManifest/detectionCells`` cells of a column: a file named
    /// in row 1,001 of a column whose name does not say "file" is not looked for.
    @Test("file columns are detected from a column's first 1,000 non-empty cells")
    func detectionIsBounded() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let rows = (1...StudyManifest.detectionCells).map { "r\($0),no-such-file-\($0),\(Self.accel)" } + ["late,\(Self.accel),\(Self.accel)"]
        let path = try folder.write("m.csv", "recordId,later,walk.json\n" + rows.joined(separator: "\n") + "\n")
        #expect(try StudyManifest.read(path).fileColumns == ["walk.json"])
        let early = try folder.write("early.csv", "recordId,later,walk.json\nfirst,\(Self.accel),\(Self.accel)\n" + rows.joined(separator: "\n") + "\n")
        #expect(try StudyManifest.read(early).fileColumns == ["later", "walk.json"])
    }

    @Test("a manifest column named like a formula is neutralised in the wide CSV's header (and kept with --raw-cells)")
    func columnNameInjection() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let name = #"=HYPERLINK("http://example.invalid","open")"#
        let manifest = try folder.write("m.csv", "recordId,\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\",walk.json\nr1,x,\(Self.accel)\n")
        var options = BatchOptions(toolkitVersion: "test")
        options.manifest = try StudyManifest.read(manifest)
        let store = try ResultStore(path: folder.path("r.sqlite"))
        _ = try await BatchRunner.run([], store: store, options: options)
        let table = try WideTable(analyzer: "gait", store: store)
        let header = table.csvHeader()
        #expect(header.hasPrefix(#"recordId,"'=HYPERLINK(""http://example.invalid"",""open"")",recording,"#), "\(header.prefix(120))")
        #expect(table.csvHeader(rawCells: true).hasPrefix(#"recordId,"=HYPERLINK("#))
        // The same rule for every header: the per-participant summary's group column.
        let summary = try ParticipantSummary(table, store: store, by: name)
        #expect(summary.csv.hasPrefix(#""'=HYPERLINK("#), "\(summary.csv.prefix(80))")
    }

    @Test("a list line with a NUL byte is an error row, and the path before the NUL is not read")
    func listLineWithNUL() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let list = try folder.write("files.txt", "\(Self.tapping)\u{0}.bak\n\(Self.accel)\r\n")
        let walk = Discovery.walk(["@" + list])
        #expect(walk.files == [Self.accel] && walk.missing.isEmpty)
        let reasons = walk.refused.compactMap { unit -> String? in
            if case .refused(let reason) = unit.shape { reason } else { nil }
        }
        #expect(walk.refused.map(\.path) == [list + ":1"])
        #expect(reasons.count == 1 && reasons[0].contains("line 1 of the list holds a NUL byte") && reasons[0].contains("\\x00.bak"), "\(reasons)")
    }

    // MARK: - Stores

    /// A store with a damaged page (one b-tree page overwritten): the batch used to migrate,
    /// stamp the version, add pages and rewrite the freelist before SQLite tripped on it.
    @Test("a damaged store is refused before anything writes to it: its bytes unchanged, no journal files")
    func damagedStore() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("r.sqlite")
        do {
            let store = try ResultStore(path: path)
            _ = try await BatchRunner.run([SharedData.sampleData.path], store: store, options: BatchOptions(toolkitVersion: "test"))
        }
        let pageSize = try await DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096 }
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count >= 4 * pageSize)
        // Page 3 (after the schema page and the first table's root): interior garbage.
        for offset in 2 * pageSize + 8 ..< 2 * pageSize + 200 { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 131) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()

        #expect {
            _ = try ResultStore(path: path)
        } throws: { error in
            "\(error)".hasPrefix(path + ": is damaged (SQLite quick_check") && "\(error)".contains("nothing was written to it")
        }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
        let after = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(after == before, "\(before) → \(after)")
    }

    @Test("a result row edited by hand (features with Infinity, features not an object of sets, warnings not texts) is refused by every reader of rows naming the row and what is wrong, not exported as a row without features", arguments: [
        ("replace(features, ':', ':Infinity,\"x\":')", "has features that are not JSON (features: invalid JSON: expected a JSON value, found \"Inf"),
        ("'[1, 2]'", "has features that are not an object of feature sets"),
        ("'{\"atk\": 3}'", "has features that are not an object of feature sets"),
    ] as [(String, String)])
    func handEditedRow(features: String, problem: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("r.sqlite")
        do {
            let store = try ResultStore(path: path)
            _ = try await BatchRunner.run([Self.tapping], store: store, options: BatchOptions(toolkitVersion: "test"))
            #expect(try store.resultRows().count == 1)
        }
        try await DatabaseQueue(path: path).write { db in try db.execute(sql: "UPDATE results SET features = \(features)") }
        let store = try ResultStore(path: path, access: .readOnly)
        #expect {
            _ = try store.resultRows()
        } throws: { error in
            "\(error)".hasPrefix(path + ": the tapping result of \(Self.tapping) \(problem)") && "\(error)".hasSuffix("the store was edited or damaged; delete that row (or use a new store) and run the batch again")
        }
        try await DatabaseQueue(path: path).write { db in try db.execute(sql: "UPDATE results SET features = '{}', warnings = '[\"a\", 1]'") }
        #expect { _ = try ResultStore(path: path, access: .readOnly).resultRows() } throws: { "\($0)".contains("has warnings that are not an array of texts") }
    }

    @Test("an SQLite database that is not a result store is refused for writing and left as it was")
    func foreignDatabase() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("other.sqlite")
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')") }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try ResultStore(path: path)
        } throws: { error in "\(error)".contains("is an SQLite database but not a result store") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // An empty file is a new store, and so is one killed while being created: GRDB's
        // migration table made, no migration committed (found by FaultInjectionTests' SIGKILL at a random point).
        let empty = try folder.write("empty.sqlite", [UInt8]())
        _ = try ResultStore(path: empty)
        let unmigrated = folder.path("unmigrated.sqlite")
        try DatabaseQueue(path: unmigrated).write { db in try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)") }
        let store = try ResultStore(path: unmigrated)
        #expect(try store.resultRows().isEmpty)
        // With a migration recorded but no results table it is not a store this toolkit made.
        let recorded = folder.path("recorded.sqlite")
        try DatabaseQueue(path: recorded).write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); INSERT INTO grdb_migrations VALUES ('v1')")
        }
        #expect { _ = try ResultStore(path: recorded) } throws: { error in "\(error)".contains("not a result store") }
    }
}
