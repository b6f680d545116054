import SensorData

/// Result rows as files for downstream tools (pandas `read_csv` / `read_json(lines=True)`, R `read.csv`).
public enum ResultExport {
    static let csvColumns = ["recording", "content_sha256", "analyzer", "analyzer_version", "parameters", "status", "kind",
                             "feature_set", "feature", "value", "error"]

    /// The header of the long-form CSV (RFC 4180 quoting): one line per feature of each result
    /// (``csvLines(_:)``); a result without features (an error, a skipped analysis) is one line
    /// with empty feature columns. Series values are JSON arrays; non-finite numbers are `NaN`,
    /// `Infinity`, `-Infinity`.
    public static var csvHeader: String { csvColumns.joined(separator: ",") + "\n" }

    /// The CSV lines of one result.
    public static func csvLines(_ row: ResultRow) -> String {
        var out = ""
        let prefix = [row.recording, row.key.contentSHA256, row.key.analyzer, row.key.analyzerVersion, row.key.parameters,
                      row.status.rawValue, row.kind ?? ""]
        var lines = 0
        for (set, features) in (features(row)?.object?.members).map(Array.init) ?? [] {
            for (name, value) in (features.object?.members).map(Array.init) ?? [] {
                let text: String
                switch value {
                case .string(let string): text = string
                case .null: text = ""
                default: text = JSONWriter().string(value)
                }
                out += (prefix + [set, name, text, row.error ?? ""]).map(quoted).joined(separator: ",") + "\n"
                lines += 1
            }
        }
        if lines == 0 { out += (prefix + ["", "", "", row.error ?? ""]).map(quoted).joined(separator: ",") + "\n" }
        return out
    }

    /// One result as a JSON line: recording, key, status, kind, dialect, features, warnings, error, timing.
    public static func jsonLine(_ row: ResultRow) -> String {
        var object = JSONObject()
        object.append("recording", .string(row.recording))
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

    static func features(_ row: ResultRow) -> JSONValue? {
        try? JSONValue.parse(Array(row.featuresJSON.utf8), file: "features")
    }

    /// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180 §2).
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
