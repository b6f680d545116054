import Foundation
import GRDB
import SensorData
import InputGuards

/// The batch result store: one SQLite file (GRDB, WAL journal), schema by migrations.
///
/// Schema (v1):
/// - `results`: one row per (content, analyzer, analyzer version, parameters) — the key that
///   makes runs resumable and shard stores mergeable — with status `ok`, `unusable`, `error` or
///   `skipped`, the report's kind and dialect, `features` (JSON: set → feature → value; units
///   in the names), `warnings` (JSON array), `error` text, toolkit version, `computed_at` (Unix
///   s), `duration_ms` (analysis wall time), the first `recording` path seen and the run.
/// - `recordings`: every recording path (a file, or an upload folder) with its content hash
///   (SHA-256 of the file, or of its members' names and hashes), bytes and file count, so
///   identical uploads are analysed once and every path still finds its results.
/// - `unknown_files`: files no analyzer applies to, with what they are.
/// - `files` (v2): every file read, with its version (device, inode, size, modification and
///   status-change times, ns) and the facts the batch derived from its content (SHA-256, what it
///   is, what it names): a rerun reads no file whose version is unchanged.
/// - `recording_metadata` (v2): a study manifest record's metadata columns (`healthCode`,
///   `createdOn`, …) by recording, in column order: the first columns of its wide tables.
/// - `runs`: each `batch` invocation: arguments, shard, counts, start and end.
/// - view `feature_values`: the features in long form (result, set, feature, value) through
///   SQLite's JSON1 `json_each`, for SQL and per-cohort summaries.
/// - views `wide_<analyzer>`: one row per result, one column per scalar feature (``WideTable``),
///   recreated at the end of every run and merge.
///
/// Writes happen in transactions of many rows; a process killed at any moment leaves every
/// committed transaction (WAL) and a valid database.
public final class ResultStore: Sendable {
    public let path: String
    let database: any DatabaseReader
    /// Nil when the store was opened read-only.
    let writer: (any DatabaseWriter)?

    /// The schema this toolkit writes, kept in SQLite's `user_version`. A store with a higher
    /// version (a newer toolkit's) is refused rather than written into by code that does not
    /// know its tables.
    public static let schemaVersion = 2

    public enum Access: Sendable {
        /// Created and migrated as needed (`batch run`, `batch merge`'s target).
        case readWrite
        /// Opened without any write, not even a migration (`batch export`, `report`, merge sources):
        /// works on read-only files and media.
        case readOnly
    }

    /// Opens the store at `path`: created and migrated as needed, or read-only.
    public init(path: String, access: Access = .readWrite) throws(StoreError) {
        self.path = path
        SQLiteOpenErrors.installed
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            switch access {
            case .readWrite:
                // An existing store is checked without writing before anything writes to it:
                // opening it read-write already changes it (WAL mode, migrations, the version).
                if case .success(let version) = FileVersion.of(path), version.size > 0 {
                    try Self.checkBeforeWriting(path, configuration: configuration)
                }
                let pool = try DatabasePool(path: path, configuration: configuration)
                try pool.read { db in try Self.checkVersion(db, path: path) }
                try Self.migrator.migrate(pool)
                try pool.write { db in
                    if try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 < Self.schemaVersion {
                        try db.execute(sql: "PRAGMA user_version = \(Self.schemaVersion)")
                    }
                }
                database = pool
                writer = pool
            case .readOnly:
                guard FileSystem.statusIfAny(path) != nil else { throw StoreError(path: path, message: "no such result store") }
                let queue = try Self.openReadOnly(path, configuration: configuration)
                try queue.read { db in try Self.checkReadable(db, path: path, forWriting: false) }
                database = queue
                writer = nil
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, error)
        }
    }

    /// The store at `path` opened without any write. A WAL store on read-only media, whose `-shm`
    /// SQLite cannot create, is read as immutable (nothing can write it there anyway).
    static func openReadOnly(_ path: String, configuration: Configuration) throws -> DatabaseQueue {
        var configuration = configuration
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in _ = try Int.fetchOne(db, sql: "PRAGMA user_version") }
            return queue
        } catch let error as DatabaseError where [.SQLITE_READONLY, .SQLITE_CANTOPEN].contains(error.resultCode) {
            return try DatabaseQueue(path: immutableURI(path), configuration: configuration)
        }
    }

    /// ``checkReadable(_:path:forWriting:)`` of an existing store, leaving no file behind: without
    /// a `-wal` beside it (no writer, no interrupted run) the store is opened immutable, so SQLite
    /// creates neither `-wal` nor `-shm`; with one, the committed transactions in it are part of
    /// the store and it is opened read-only as a reader beside the writer. A problem seen while a
    /// writer may have started meanwhile is looked at again the second way.
    static func checkBeforeWriting(_ path: String, configuration: Configuration) throws {
        var configuration = configuration
        configuration.readonly = true
        if !FileVersion.exists(path + "-wal") {
            do {
                let queue = try DatabaseQueue(path: immutableURI(path), configuration: configuration)
                defer { try? queue.close() }
                try queue.read { db in try Self.checkReadable(db, path: path, forWriting: true) }
                return
            } catch where FileVersion.exists(path + "-wal") {
                // a writer started: check again beside it
            }
        }
        let queue = try openReadOnly(path, configuration: configuration)
        defer { try? queue.close() }
        try queue.read { db in try Self.checkReadable(db, path: path, forWriting: true) }
    }

    /// The URI that opens `path` immutable (SQLite reads it as a file no one changes).
    static func immutableURI(_ path: String) -> String {
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))) ?? path
        return "file:\(escaped)?immutable=1"
    }

    /// Refuses what must not be read or written as a store: a newer schema (``checkVersion(_:path:)``),
    /// an SQLite database that is not a result store, and — before a write (`forWriting`) — a store whose
    /// pages SQLite's `PRAGMA quick_check` finds damaged (a write into damaged pages spreads the
    /// damage: SQLite may reuse a page the damaged tree still points to).
    static func checkReadable(_ db: Database, path: String, forWriting: Bool) throws {
        try checkVersion(db, path: path)
        if forWriting {
            let problems = try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
            guard problems == ["ok"] else {
                throw StoreError(path: path, message: "is damaged (SQLite quick_check: \(problems.joined(separator: "; "))); nothing was written to it — "
                    + "restore it from a copy or run `sqlite3 \(path) .recover`, or give a new store path")
            }
        }
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        // A store killed while being created holds GRDB's migration table and no migration yet
        // (the table is made before the first migration's transaction): still a new store.
        let unmigrated = try tables == ["grdb_migrations"] && (Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") ?? 0) == 0
        guard tables.contains("results") || (forWriting && (tables.isEmpty || unmigrated)) else {
            throw StoreError(path: path, message: "is an SQLite database but not a result store (no results table); give the store that `activetask batch` wrote")
        }
    }

    /// Refuses a store written by a newer schema: its `user_version`, or migrations this toolkit
    /// does not know.
    static func checkVersion(_ db: Database, path: String) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        var unknown: [String] = []
        if try db.tableExists("grdb_migrations") {
            let known = Set(["v1", "v2"])
            unknown = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").filter { !known.contains($0) }
        }
        guard version <= schemaVersion, unknown.isEmpty else {
            throw StoreError(path: path, message: "was written with result-store schema \(max(version, schemaVersion + 1)) (migrations \(unknown.joined(separator: ", "))); "
                + "this activetask reads and writes schema \(schemaVersion) — use the newer activetask that wrote it, or give a new store path")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE runs (
                    id INTEGER PRIMARY KEY, started_at REAL NOT NULL, finished_at REAL, toolkit_version TEXT NOT NULL,
                    arguments TEXT NOT NULL, shard TEXT, units INTEGER, computed INTEGER, skipped INTEGER, errors INTEGER);
                CREATE TABLE recordings (
                    path TEXT PRIMARY KEY, content_sha256 TEXT NOT NULL, bytes INTEGER NOT NULL, files INTEGER NOT NULL, run_id INTEGER);
                CREATE INDEX recordings_by_content ON recordings(content_sha256);
                CREATE TABLE results (
                    id INTEGER PRIMARY KEY, content_sha256 TEXT NOT NULL, analyzer TEXT NOT NULL, analyzer_version TEXT NOT NULL,
                    parameters TEXT NOT NULL, toolkit_version TEXT NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('ok', 'unusable', 'error', 'skipped')),
                    kind TEXT, dialect TEXT, features TEXT NOT NULL DEFAULT '{}', warnings TEXT NOT NULL DEFAULT '[]', error TEXT,
                    computed_at REAL NOT NULL, duration_ms REAL NOT NULL, recording TEXT NOT NULL, run_id INTEGER,
                    UNIQUE (content_sha256, analyzer, analyzer_version, parameters));
                CREATE TABLE unknown_files (path TEXT PRIMARY KEY, kind TEXT NOT NULL, reason TEXT NOT NULL, run_id INTEGER);
                CREATE VIEW feature_values AS
                    SELECT r.id AS result_id, r.content_sha256, r.analyzer, r.recording, s.key AS feature_set, f.key AS feature,
                           f.value AS value
                    FROM results r, json_each(r.features) s, json_each(s.value) f
                    WHERE r.status = 'ok' AND f.type IN ('integer', 'real', 'text');
                """)
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                CREATE TABLE files (
                    path TEXT PRIMARY KEY, device INTEGER NOT NULL, inode INTEGER NOT NULL, size INTEGER NOT NULL,
                    modified_ns INTEGER NOT NULL, changed_ns INTEGER NOT NULL, facts TEXT NOT NULL);
                CREATE TABLE recording_metadata (
                    recording TEXT NOT NULL, position INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
                    PRIMARY KEY (recording, key));
                """)
        }
        return migrator
    }

    // MARK: - Files

    /// The stored facts of every file read by earlier runs, by path (facts that no longer decode,
    /// from another toolkit version, are left out: those files are read again).
    func fileFacts() throws(StoreError) -> [String: CachedFile] {
        try read { db in
            guard try db.tableExists("files") else { return [:] }
            var files: [String: CachedFile] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT path, device, inode, size, modified_ns, changed_ns, facts FROM files")
            while let row = try rows.next() {
                let path: String = row[0]
                guard let stored = try? JSONValue.parse(Array((row[6] as String).utf8), file: "facts"),
                      let facts = FileFacts(stored: stored) else { continue }
                let version = FileVersion(device: UInt64(bitPattern: row[1]), inode: UInt64(bitPattern: row[2]), size: row[3],
                                          modifiedNanoseconds: row[4], changedNanoseconds: row[5])
                files[path] = CachedFile(path: path, version: version, facts: facts)
            }
            return files
        }
    }

    /// Stores the facts of files read now, with their versions.
    func commitFileFacts(_ files: [CachedFile]) throws(StoreError) {
        guard !files.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try write { db in
            for file in files {
                let facts = String(decoding: try encoder.encode(file.facts), as: UTF8.self)
                try db.execute(sql: "INSERT OR REPLACE INTO files (path, device, inode, size, modified_ns, changed_ns, facts) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               arguments: [file.path, Int64(bitPattern: file.version.device), Int64(bitPattern: file.version.inode), file.version.size,
                                           file.version.modifiedNanoseconds, file.version.changedNanoseconds, facts])
            }
        }
    }

    /// The metadata columns of the recordings that have them, in first-seen column order, and
    /// each recording's values.
    public func recordingMetadata() throws(StoreError) -> (columns: [String], values: [String: [String: String]]) {
        try read { db in
            guard try db.tableExists("recording_metadata") else { return ([], [:]) }
            var columns: [String] = [], seen = Set<String>(), values: [String: [String: String]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT recording, key, value FROM recording_metadata ORDER BY position, recording")
            while let row = try rows.next() {
                let (recording, key, value): (String, String, String) = (row[0], row[1], row[2])
                if seen.insert(key).inserted { columns.append(key) }
                values[recording, default: [:]][key] = value
            }
            return (columns, values)
        }
    }

    // MARK: - Writing

    /// Records a run's start; returns its id.
    public func startRun(arguments: [String], shard: String?, toolkitVersion: String) throws(StoreError) -> Int64 {
        try write { db in
            try db.execute(sql: "INSERT INTO runs (started_at, toolkit_version, arguments, shard) VALUES (?, ?, ?, ?)",
                           arguments: [Date().timeIntervalSince1970, toolkitVersion, arguments.joined(separator: " "), shard])
            return db.lastInsertedRowID
        }
    }

    public func finishRun(_ id: Int64, units: Int, computed: Int, skipped: Int, errors: Int) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE runs SET finished_at = ?, units = ?, computed = ?, skipped = ?, errors = ? WHERE id = ?",
                           arguments: [Date().timeIntervalSince1970, units, computed, skipped, errors, id])
        }
    }

    /// Writes recordings, results and unknown files in one transaction. A result whose key is
    /// already stored is replaced only when `replace` (`--force`) or when the stored one was
    /// `skipped` (not computed).
    public func commit(_ batch: StoreBatch, runID: Int64?, replace: Bool) throws(StoreError) {
        guard !batch.isEmpty else { return }
        // Each statement prepared once per connection (GRDB's statement cache), and a recording
        // or metadata row written only when it changed: a rerun that finds every recording as
        // stored writes no page (measured: 10,000 unchanged recordings were a tenth of a
        // fully stored rerun, parsing each statement anew and syncing pages that did not change).
        // A recording's run_id is the run that stored its current content, files and size.
        try write { db in
            let recording = try db.cachedStatement(sql: """
                INSERT INTO recordings (path, content_sha256, bytes, files, run_id) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (path) DO UPDATE SET content_sha256 = excluded.content_sha256, bytes = excluded.bytes,
                    files = excluded.files, run_id = excluded.run_id
                WHERE (content_sha256, bytes, files) IS NOT (excluded.content_sha256, excluded.bytes, excluded.files)
                """)
            let metadata = try db.cachedStatement(sql: """
                INSERT INTO recording_metadata (recording, position, key, value) VALUES (?, ?, ?, ?)
                ON CONFLICT (recording, key) DO UPDATE SET position = excluded.position, value = excluded.value
                WHERE (position, value) IS NOT (excluded.position, excluded.value)
                """)
            for entry in batch.recordings {
                try recording.execute(arguments: [entry.path, entry.contentSHA256, entry.bytes, entry.files, runID])
                for (position, item) in entry.metadata.enumerated() {
                    try metadata.execute(arguments: [entry.path, position, item.column, item.value])
                }
            }
            let result = try db.cachedStatement(sql: """
                INSERT \(replace ? "OR REPLACE " : "")INTO results (content_sha256, analyzer, analyzer_version, parameters,
                    toolkit_version, status, kind, dialect, features, warnings, error, computed_at, duration_ms, recording, run_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                \(replace ? "" : Self.replacingSkipped)
                """)
            for row in batch.results {
                try result.execute(arguments: [row.key.contentSHA256, row.key.analyzer, row.key.analyzerVersion, row.key.parameters, row.toolkitVersion,
                                               row.status.rawValue, row.kind, row.dialect, row.featuresJSON, row.warningsJSON, row.error,
                                               row.computedAt, row.durationMilliseconds, row.recording, runID])
            }
            // Recordings read now whose earlier read was skipped for memory: that row is history.
            for recording in batch.readAfterSkip {
                try db.execute(sql: "DELETE FROM results WHERE recording = ? AND analyzer = 'read' AND status = 'skipped'", arguments: [recording])
            }
            for file in batch.unknownFiles {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO unknown_files (path, kind, reason, run_id) VALUES (?, ?, ?, ?)")
                    .execute(arguments: [file.path, file.kind, file.reason, runID])
            }
        }
    }

    /// The upsert that lets a computed result take the place of a `skipped` one of the same key
    /// (any other stored result is kept).
    static let replacingSkipped = """
        ON CONFLICT (content_sha256, analyzer, analyzer_version, parameters) DO UPDATE SET
            toolkit_version = excluded.toolkit_version, status = excluded.status, kind = excluded.kind, dialect = excluded.dialect,
            features = excluded.features, warnings = excluded.warnings, error = excluded.error, computed_at = excluded.computed_at,
            duration_ms = excluded.duration_ms, recording = excluded.recording, run_id = excluded.run_id
        WHERE results.status = 'skipped'
        """

    // MARK: - Reading

    /// The keys of every stored result (to skip them on a rerun) but `skipped` ones: those were
    /// not computed (memory limits, ``ResultStatus/skipped``), so a rerun tries them again; and
    /// the recordings whose read was skipped for memory (a `read` row with status `skipped`).
    /// One pass over the results (each pass reads every page of the table's b-tree).
    public func storedKeys() throws(StoreError) -> (keys: Set<ResultKey>, skippedReads: Set<String>) {
        try read { db in
            // The recording (a column after the features) only where it is wanted: reading it on
            // every row would read each row's overflow pages, the whole table.
            let rows = try Row.fetchCursor(db, sql: """
                SELECT content_sha256, analyzer, analyzer_version, parameters, status = 'skipped',
                    CASE WHEN status = 'skipped' AND analyzer = 'read' THEN recording END FROM results
                """)
            var keys = Set<ResultKey>(), skippedReads = Set<String>()
            while let row = try rows.next() {
                if !(row[4] as Bool) {
                    keys.insert(ResultKey(contentSHA256: row[0], analyzer: row[1], analyzerVersion: row[2], parameters: row[3]))
                } else if let recording = row[5] as String? {
                    skippedReads.insert(recording)
                }
            }
            return (keys, skippedReads)
        }
    }

    /// Every stored recording as a rerun would write it again: path, content, size, file count
    /// and metadata in position order. A recording found exactly so needs no write (the commit's
    /// upsert would change nothing); 10,000 unchanged upserts were a seventh of a fully stored
    /// rerun of 2,000 task runs. Memory: one entry per stored recording, as ``storedKeys()`` holds
    /// one key per result.
    public func storedRecordings() throws(StoreError) -> Set<RecordingEntry> {
        try read { db in
            var metadata: [String: [StudyManifest.Metadata]] = [:]
            if try db.tableExists("recording_metadata") {
                let rows = try Row.fetchCursor(db, sql: "SELECT recording, key, value FROM recording_metadata ORDER BY recording, position")
                while let row = try rows.next() {
                    metadata[row[0], default: []].append(StudyManifest.Metadata(column: row[1], value: row[2]))
                }
            }
            var entries = Set<RecordingEntry>()
            let rows = try Row.fetchCursor(db, sql: "SELECT path, content_sha256, bytes, files FROM recordings")
            while let row = try rows.next() {
                let path: String = row[0]
                entries.insert(RecordingEntry(path: path, contentSHA256: row[1], bytes: row[2], files: row[3], metadata: metadata[path] ?? []))
            }
            return entries
        }
    }

    /// Every result row of each recording (``forEachResult(analyzer:_:)``), in path order.
    public func resultRows() throws(StoreError) -> [ResultRow] {
        var rows: [ResultRow] = []
        try forEachResult { rows.append($0) }
        return rows
    }

    /// Calls `body` with each result row of each recording, in path order, one at a time from a
    /// cursor (memory independent of the store's size). `analyzer` restricts the rows to one
    /// analyzer's results.
    ///
    /// A recording is its content and its metadata, not a path (issue 18, item 4): the paths
    /// that reached the same content with the same metadata (links, mounts, an upload folder and
    /// its `.zip`) give one row, whose `recording` is the first of its `paths`; two manifest
    /// records with the same files stay two rows (their ids differ).
    public func forEachResult(analyzer: String? = nil, _ body: (ResultRow) throws -> Void) throws(StoreError) {
        try read { db in
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT COALESCE(MIN(c.path), r.recording), r.content_sha256, r.analyzer, r.analyzer_version, r.parameters, r.toolkit_version,
                       r.status, r.kind, r.dialect, r.features, r.warnings, r.error, r.computed_at, r.duration_ms, json_group_array(c.path)
                FROM results r LEFT JOIN recordings c ON c.content_sha256 = r.content_sha256
                WHERE ?1 IS NULL OR r.analyzer = ?1
                GROUP BY r.id, \(Self.metadataSignature("c.path"))
                ORDER BY 1, r.analyzer, r.parameters
                """, arguments: [analyzer])
            while let row = try cursor.next() {
                let paths = (try? JSONValue.parse(Array((row[14] as String).utf8), file: "paths"))?.array?.compactMap(\.string) ?? []
                let result = ResultRow(recording: row[0], key: ResultKey(contentSHA256: row[1], analyzer: row[2], analyzerVersion: row[3], parameters: row[4]),
                                       toolkitVersion: row[5], status: ResultStatus(rawValue: row[6]) ?? .error, kind: row[7], dialect: row[8],
                                       featuresJSON: row[9], warningsJSON: row[10], error: row[11], computedAt: row[12], durationMilliseconds: row[13],
                                       paths: paths.isEmpty ? [row[0]] : paths.sorted())
                if let problem = Self.storedTextProblem(result) {
                    throw StoreError(path: path, message: "the \(result.key.analyzer) result of \(FileName.display(result.recording)) \(problem) — "
                        + "the store was edited or damaged; delete that row (or use a new store) and run the batch again")
                }
                try body(result)
            }
        }
    }

    /// What is wrong with a row's stored JSON texts, nil when nothing: its features must be an
    /// object of feature sets (objects), its warnings an array of texts, as the batch writes them
    /// (an export would otherwise show a damaged row as one without features).
    static func storedTextProblem(_ row: ResultRow) -> String? {
        let features: JSONValue, warnings: JSONValue
        do { features = try JSONValue.parse(Array(row.featuresJSON.utf8), file: "features") } catch { return "has features that are not JSON (\(error))" }
        guard let sets = features.object, sets.members.allSatisfy({ $0.1.object != nil }) else {
            return "has features that are not an object of feature sets"
        }
        do { warnings = try JSONValue.parse(Array(row.warningsJSON.utf8), file: "warnings") } catch { return "has warnings that are not JSON (\(error))" }
        guard let list = warnings.array, list.allSatisfy({ $0.string != nil }) else { return "has warnings that are not an array of texts" }
        return nil
    }

    /// SQL for the metadata of the recording at `path` as one text (key order): the part of a
    /// recording's identity besides its content.
    static func metadataSignature(_ path: String) -> String {
        "(SELECT group_concat(m.key || char(31) || m.value, char(30)) FROM recording_metadata m WHERE m.recording = \(path))"
    }

    /// The analyzers that have results in the store (`read` rows excluded), in name order.
    public func analyzers() throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT analyzer FROM results WHERE analyzer != 'read' ORDER BY 1") }
    }

    /// Recreates the view `wide_<analyzer>` of every analyzer in the store over its current
    /// feature columns (``WideTable``); a batch run and a merge end with it.
    public func refreshWideViews() throws(StoreError) {
        var tables: [WideTable] = []
        for analyzer in try analyzers() { tables.append(try WideTable(analyzer: analyzer, store: self)) }
        try write { db in
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view' AND name LIKE 'wide\\_%' ESCAPE '\\'") {
                try db.execute(sql: "DROP VIEW \(WideTable.identifier(name))")
            }
            for table in tables { for view in table.views { try db.execute(sql: view.sql) } }
        }
    }

    /// Unknown files, in path order.
    public func unknownFiles() throws(StoreError) -> [UnknownFile] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT path, kind, reason FROM unknown_files ORDER BY path").map { UnknownFile(path: $0[0], kind: $0[1], reason: $0[2]) }
        }
    }

    /// Copies every result, recording and unknown file of the store at `other` into this one;
    /// results already here (same key) are kept, so merging shard stores makes no duplicates.
    /// Returns the number of results added.
    public func merge(from other: String) throws(StoreError) -> Int {
        guard FileSystem.statusIfAny(other) != nil else { throw StoreError(path: other, message: "no such file") }
        do {
            // The source must be a store of a known schema; it is only read, never migrated.
            _ = try ResultStore(path: other, access: .readOnly)
            guard let writer else { throw StoreError(path: path, message: "opened read-only; cannot merge into it") }
            defer { try? refreshWideViews() }
            return try writer.writeWithoutTransaction { db -> Int in
                try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [other])
                defer { try? db.execute(sql: "DETACH DATABASE source") }
                var added = 0
                try db.inTransaction {
                    let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM results") ?? 0
                    try db.execute(sql: """
                        INSERT OR IGNORE INTO results (content_sha256, analyzer, analyzer_version, parameters, toolkit_version, status, kind,
                            dialect, features, warnings, error, computed_at, duration_ms, recording)
                        SELECT content_sha256, analyzer, analyzer_version, parameters, toolkit_version, status, kind, dialect, features,
                            warnings, error, computed_at, duration_ms, recording FROM source.results ORDER BY id;
                        INSERT OR IGNORE INTO recordings (path, content_sha256, bytes, files) SELECT path, content_sha256, bytes, files FROM source.recordings;
                        INSERT OR IGNORE INTO unknown_files (path, kind, reason) SELECT path, kind, reason FROM source.unknown_files;
                        """)
                    if try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM source.sqlite_master WHERE name = 'recording_metadata'") ?? false {
                        // A recording whose metadata differs between the two stores (a healthCode
                        // relabelled) is refused, not resolved by whichever store came first.
                        if let conflict = try Row.fetchOne(db, sql: """
                            SELECT s.recording, s.key, t.value, s.value FROM source.recording_metadata s
                            JOIN recording_metadata t ON t.recording = s.recording AND t.key = s.key
                            WHERE t.value IS NOT s.value LIMIT 1
                            """) {
                            let (recording, key, here, there): (String, String, String?, String?) = (conflict[0], conflict[1], conflict[2], conflict[3])
                            throw StoreError(path: other, message: "recording \(FileName.display(recording)) has \(key) \(ReadError.quote(there ?? "")) here "
                                + "but \(ReadError.quote(here ?? "")) in \(path); refusing to merge (nothing was merged): the same record with other metadata")
                        }
                        try db.execute(sql: """
                            INSERT OR IGNORE INTO recording_metadata (recording, position, key, value)
                            SELECT recording, position, key, value FROM source.recording_metadata
                            """)
                    }
                    added = (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM results") ?? 0) - before
                    return .commit
                }
                return added
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: other, message: "merge into \(path) failed: \(error)")
        }
    }

    // MARK: - Access

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try database.read(body) } catch { throw StoreError(path: path, error) }
    }

    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        guard let writer else { throw StoreError(path: path, message: "opened read-only") }
        do { return try writer.write(body) } catch { throw StoreError(path: path, error) }
    }
}

/// A store that cannot be opened, read or written: its path and SQLite's message.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(FileName.display(path)): \(message)" }

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// A database error, saying what a failed write means for the store: SQLite rolls the
    /// transaction back, so every result committed before stays and a rerun finishes the rest.
    init(path: String, _ error: any Error) {
        self.path = path
        if let error = error as? StoreError {
            message = error.message
        } else if let error = error as? DatabaseError, [.SQLITE_FULL, .SQLITE_IOERR].contains(error.resultCode) {
            message = "\(error) — the disk is full, a file-size limit was reached or the device failed; results committed before are kept, run the batch again when there is room"
        } else if let error = error as? DatabaseError, [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            message = "is not a readable result store (SQLite: \(error.message ?? "\(error.resultCode)")) — if it is a store, restore it from a copy or run "
                + "`sqlite3 \(path) .recover`; otherwise give a new store path"
        } else if let error = error as? DatabaseError, error.resultCode == .SQLITE_CANTOPEN, let failure = SQLiteOpenErrors.take(store: path) {
            message = "cannot open the result store: \(FileName.display(failure.file)): \(failure.reason)"
        } else if let error = error as? DatabaseError, [.SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM].contains(error.resultCode) {
            message = "cannot open the result store for writing (SQLite: \(error.message ?? "\(error.resultCode)")) — check the file's and its folder's permissions and free space"
        } else {
            message = "\(error)"
        }
    }
}
