import InputGuards
import SensorData

/// Result rows as files for downstream tools (pandas `read_csv` / `read_json(lines=True)`, R `read.csv`).
public enum ResultExport {
    /// The columns of the long-form CSV after the metadata (``LongExport``; RFC 4180 quoting): one
    /// line per feature of each result (``csvLines(_:rawCells:metadata:)``); a result without
    /// features (an error, a skipped analysis) is one line with empty feature columns. Series
    /// values are JSON arrays; non-finite numbers are `NaN`, `Infinity`, `-Infinity`.
    static let csvColumns = ["recording", "paths", "content_sha256", "analyzer", "analyzer_version", "parameters", "status", "kind",
                             "feature_set", "feature", "value", "error"]


    /// Every text cell and every header name of every CSV export (long, wide, per participant):
    /// quoted (RFC 4180) and, unless `rawCells`, neutralised (``neutralised(_:)``) — a manifest's
    /// column name is as much data as its cells.
    static func cell(_ text: String, rawCells: Bool = false) -> String { quoted(rawCells ? text : neutralised(text)) }

    /// The CSV lines of one result.
    ///
    /// Text cells that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab
    /// or a carriage return: a file named `=HYPERLINK(…).json`, an error message) get a leading `'`,
    /// as OWASP's "CSV Injection" page recommends, unless `rawCells`; numeric values are written
    /// as numbers and never changed.
    public static func csvLines(_ row: ResultRow, rawCells: Bool = false, metadata: [String] = []) -> String {
        var out = ""
        func cell(_ text: String) -> String { Self.cell(text, rawCells: rawCells) }
        let prefix = (metadata + [FileName.display(row.recording), pathsJSON(row), row.key.contentSHA256, row.key.analyzer, row.key.analyzerVersion, row.key.parameters,
                      row.status.rawValue, row.kind ?? ""]).map(cell)
        var lines = 0
        for (set, features) in (features(row)?.object?.members).map(Array.init) ?? [] {
            for (name, value) in (features.object?.members).map(Array.init) ?? [] {
                let text: String
                switch value {
                case .string(let string): text = cell(string)
                case .null: text = ""
                case .number: text = JSONWriter().string(value)
                default: text = cell(JSONWriter().string(value))
                }
                out += (prefix + [cell(set), cell(name), text, cell(row.error ?? "")]).joined(separator: ",") + "\n"
                lines += 1
            }
        }
        if lines == 0 { out += (prefix + ["", "", "", cell(row.error ?? "")]).joined(separator: ",") + "\n" }
        return out
    }

    /// `text` with a leading `'` when its first character would start a spreadsheet formula.
    static func neutralised(_ text: String) -> String {
        guard let first = text.utf8.first, [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D].contains(first) else {
            return text
        }
        return "'" + text
    }

    /// One result as a JSON line: the metadata fields given, then recording, key, status, kind,
    /// dialect, features, warnings, error, timing.
    public static func jsonLine(_ row: ResultRow, metadata: [(name: String, value: String)] = []) -> String {
        var object = JSONObject()
        for (name, value) in metadata { object.append(name, .string(value)) }
        object.append("recording", .string(FileName.display(row.recording)))
        object.append("paths", .array((row.paths.isEmpty ? [row.recording] : row.paths).map { .string(FileName.display($0)) }))
        object.append("content_sha256", .string(row.key.contentSHA256))
        object.append("analyzer", .string(row.key.analyzer))
        object.append("analyzer_version", .string(row.key.analyzerVersion))
        object.append("parameters", (try? JSONValue.parse(Array(row.key.parameters.utf8), file: "parameters")) ?? .string(row.key.parameters))
        object.append("toolkit_version", .string(row.toolkitVersion))
        object.append("status", .string(row.status.rawValue))
        object.append("kind", row.kind.map { .string($0) } ?? .null)
        object.append("dialect", row.dialect.map { .string($0) } ?? .null)
        object.append("features", features(row) ?? .object(JSONObject()))
        object.append("warnings", (try? JSONValue.parse(Array(row.warningsJSON.utf8), file: "warnings")) ?? .array([]))
        object.append("error", row.error.map { .string($0) } ?? .null)
        object.append("computed_at", .number(row.computedAt))
        object.append("duration_ms", .number(row.durationMilliseconds))
        return JSONWriter().string(.object(object)) + "\n"
    }

    /// Every path of the row's recording, as a JSON array (one cell of the CSV exports).
    static func pathsJSON(_ row: ResultRow) -> String {
        JSONWriter().string(.array((row.paths.isEmpty ? [row.recording] : row.paths).map { .string(FileName.display($0)) }))
    }

    static func features(_ row: ResultRow) -> JSONValue? {
        try? JSONValue.parse(Array(row.featuresJSON.utf8), file: "features")
    }

    /// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180 §2).
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// The long-form exports of a store with a study manifest's metadata columns first in every
/// line (`healthCode`, `createdOn`, …; empty for recordings without), as the wide exports carry them.
public struct LongExport: Sendable {
    public let metadataColumns: [String]
    let metadata: [String: [String: String]]

    public init(store: ResultStore) throws(StoreError) {
        (metadataColumns, metadata) = try store.recordingMetadata()
    }

    private func values(_ row: ResultRow) -> [String] { metadataColumns.map { metadata[row.recording]?[$0] ?? "" } }

    public func csvHeader(rawCells: Bool = false) -> String {
        (metadataColumns + ResultExport.csvColumns).map { ResultExport.cell($0, rawCells: rawCells) }.joined(separator: ",") + "\n"
    }

    public func csvLines(_ row: ResultRow, rawCells: Bool = false) -> String {
        ResultExport.csvLines(row, rawCells: rawCells, metadata: values(row))
    }

    public func jsonLine(_ row: ResultRow) -> String {
        ResultExport.jsonLine(row, metadata: Array(zip(metadataColumns, values(row))).map { (name: $0.0, value: $0.1) })
    }
}
