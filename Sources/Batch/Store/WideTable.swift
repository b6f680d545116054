import InputGuards
import SensorData

/// One analyzer's results as a tidy wide table (issue 17, item 4): one row per (recording,
/// result) — a recording being its content and metadata, whatever paths reached it
/// (``ResultStore/forEachResult(analyzer:_:)``) — the identifiers first (`recording`, `paths`
/// (a JSON array), `content_sha256`, `analyzer_version`, `parameters`, `status`, `error`), then one column per scalar feature named `set.feature`
/// (`atk.stepCount`, `mhealthtools.meanTapInter`), typed: numbers, booleans, text; a feature a
/// result does not have, or a non-finite number, is empty (CSV) or null (JSON). Series features
/// (arrays) stay in the long export and the store.
///
/// The same table is in the store as the view `wide_<analyzer>` (``ResultStore/refreshWideViews()``;
/// split into `wide_<analyzer>_2`, … past ``columnsPerView`` columns),
/// so `pandas.read_sql("SELECT * FROM wide_gait", …)` and R's `DBI::dbReadTable` get it too.
public struct WideTable: Sendable {
    public struct Column: Sendable, Hashable {
        public var featureSet: String
        public var feature: String
        public var name: String { featureSet + "." + feature }
    }

    public static let identifierColumns = ["recording", "paths", "content_sha256", "analyzer_version", "parameters", "status", "error"]

    public let analyzer: String
    public let columns: [Column]
    /// A study manifest's metadata columns (`recordId` is the recording), first in every row, and
    /// each recording's values.
    public let metadataColumns: [String]
    /// The metadata columns' names in the header and the view: each as it is, or `metadata:NAME`
    /// when it equals an identifier or a feature column case-insensitively (as SQL compares
    /// names), so a manifest column never takes over or shadows a column of the toolkit's.
    public let metadataHeaders: [String]
    /// Recording → metadata column → value.
    let metadata: [String: [String: String]]

    /// The columns of `analyzer`'s results in the store: the manifest metadata, then every
    /// scalar feature, in the order they first appear.
    public init(analyzer: String, store: ResultStore) throws(StoreError) {
        var seen = Set<Column>()
        var columns: [Column] = []
        var recordings = Set<String>()
        try store.forEachResult(analyzer: analyzer) { row in
            recordings.insert(row.recording)
            for column in Self.scalarColumns(row) where seen.insert(column).inserted { columns.append(column) }
        }
        let (metadataColumns, metadata) = try store.recordingMetadata()
        self.analyzer = analyzer
        self.columns = columns
        self.metadata = metadata
        // Only the columns this analyzer's recordings have.
        self.metadataColumns = metadataColumns.filter { key in recordings.contains { metadata[$0]?[key] != nil } }
        let taken = Set((Self.identifierColumns + columns.map(\.name)).map { $0.lowercased() })
        metadataHeaders = self.metadataColumns.map { taken.contains($0.lowercased()) ? "metadata:" + $0 : $0 }
    }

    static func scalarColumns(_ row: ResultRow) -> [Column] {
        guard let sets = ResultExport.features(row)?.object else { return [] }
        return sets.members.flatMap { set, features in
            (features.object?.members.filter { $0.1.array == nil && $0.1.object == nil } ?? []).map { Column(featureSet: set, feature: $0.0) }
        }
    }

    /// The header line; names are cells like any other (``ResultExport/cell(_:rawCells:)``).
    public func csvHeader(rawCells: Bool = false) -> String {
        (metadataHeaders + Self.identifierColumns + columns.map(\.name)).map { ResultExport.cell($0, rawCells: rawCells) }.joined(separator: ",") + "\n"
    }

    private func metadata(_ row: ResultRow) -> [String] {
        metadataColumns.map { metadata[row.recording]?[$0] ?? "" }
    }

    /// One CSV line: numbers in their shortest round-trip form, booleans `TRUE`/`FALSE` (the
    /// spelling both pandas and R's read.csv read as logical, also beside empty cells), text
    /// quoted (RFC 4180) and neutralised unless `rawCells`.
    public func csvLine(_ row: ResultRow, rawCells: Bool = false) -> String {
        func text(_ value: String) -> String { ResultExport.cell(value, rawCells: rawCells) }
        let features = ResultExport.features(row)?.object
        var cells = metadata(row).map(text) + identifiers(row).map { $0.map(text) ?? "" }
        for column in columns {
            switch features?[column.featureSet]?.object?[column.feature] {
            case .number(let number)?: cells.append(number.isFinite ? JSONWriter.number(number) : "")
            case .bool(let flag)?: cells.append(flag ? "TRUE" : "FALSE")
            case .string(let string)?: cells.append(text(string))
            default: cells.append("")
            }
        }
        return cells.joined(separator: ",") + "\n"
    }

    /// One JSON line with the same columns (absent features null).
    public func jsonLine(_ row: ResultRow) -> String {
        var object = JSONObject()
        for (name, value) in zip(metadataHeaders, metadata(row)) { object.append(name, .string(value)) }
        for (name, value) in zip(Self.identifierColumns, identifiers(row)) {
            if name == "parameters" || name == "paths", let value, let parsed = try? JSONValue.parse(Array(value.utf8), file: name) {
                object.append(name, parsed)
            } else {
                object.append(name, value.map { .string($0) } ?? .null)
            }
        }
        let features = ResultExport.features(row)?.object
        for column in columns {
            let value = features?[column.featureSet]?.object?[column.feature] ?? .null
            object.append(column.name, value.number.map { $0.isFinite ? value : .null } ?? value)
        }
        return JSONWriter().string(.object(object)) + "\n"
    }

    private func identifiers(_ row: ResultRow) -> [String?] {
        [FileName.display(row.recording), ResultExport.pathsJSON(row), row.key.contentSHA256, row.key.analyzerVersion, row.key.parameters,
         row.status.rawValue, row.error]
    }

    /// The view's SQL: the same rows and columns through SQLite's `json_extract` (booleans as 0/1).
    /// The most columns one view holds: SQLite refuses a result with more than 2,000
    /// (SQLITE_MAX_COLUMN), so a wider table is split into views `wide_<analyzer>`,
    /// `wide_<analyzer>_2`, … each with the metadata and identifier columns first.
    static let columnsPerView = 1_900

    /// The views' names and CREATE statements.
    var views: [(name: String, sql: String)] {
        let metadata = zip(metadataColumns, metadataHeaders).map { key, header in
            "(SELECT m.value FROM recording_metadata m WHERE m.recording = g.recording AND m.key = '\(Self.sqlString(key))') AS \(Self.identifier(header))"
        }
        let leading = metadata + Self.identifierColumns.map { "g." + $0 }
        let perView = max(1, Self.columnsPerView - leading.count)
        let features = columns.map { column in
            "json_extract(g.features, '$.\"\(Self.sqlString(column.featureSet))\".\"\(Self.sqlString(column.feature))\"') AS \(Self.identifier(column.name))"
        }
        return stride(from: 0, to: max(1, features.count), by: perView).enumerated().map { part, start in
            let name = "wide_" + analyzer + (part == 0 ? "" : "_\(part + 1)")
            let selected = leading + features[start..<min(features.count, start + perView)]
            return (name, """
                CREATE VIEW \(Self.identifier(name)) AS SELECT \(selected.joined(separator: ", ")) FROM (
                    SELECT COALESCE(MIN(c.path), r.recording) AS recording, json_group_array(c.path) AS paths, r.content_sha256,
                           r.analyzer_version, r.parameters, r.status, r.error, r.features
                    FROM results r LEFT JOIN recordings c ON c.content_sha256 = r.content_sha256
                    WHERE r.analyzer = '\(Self.sqlString(analyzer))'
                    GROUP BY r.id, \(ResultStore.metadataSignature("c.path"))) g
                ORDER BY g.recording, g.parameters
                """)
        }
    }

    static func identifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    static func sqlString(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "''").replacingOccurrences(of: "\"", with: "") }
}
