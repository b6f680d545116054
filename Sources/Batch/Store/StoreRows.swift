import Scoring
import SensorData

/// The key of a stored result: content, analyzer, its version and its parameters (canonical
/// JSON). Equal keys mean the same computation, so it is done once (resume, merge).
public struct ResultKey: Sendable, Hashable {
    public var contentSHA256: String
    public var analyzer: String
    public var analyzerVersion: String
    public var parameters: String

    public init(contentSHA256: String, analyzer: String, analyzerVersion: String, parameters: String) {
        self.contentSHA256 = contentSHA256
        self.analyzer = analyzer
        self.analyzerVersion = analyzerVersion
        self.parameters = parameters
    }

    /// The key a batch gives `analyzer` with `parameters` on the recording at `path` (its content
    /// key as a batch finds it, ``Discovery/currentContentKey(of:)``), or nil when `path` is not
    /// one readable recording: what `score --json` reports beside the features.
    public init?(scoring path: String, _ analyzer: Analyzer, _ parameters: AnalyzerParameters) {
        guard let content = Discovery.currentContentKey(of: path) else { return nil }
        self.init(contentSHA256: content, analyzer: analyzer.rawValue, analyzerVersion: analyzer.version, parameters: parameters.canonical(analyzer))
    }

    /// `{"contentSHA256", "analyzer", "analyzerVersion", "parameters"}`, the parameters as their canonical JSON text.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("contentSHA256", .string(contentSHA256))
        object.append("analyzer", .string(analyzer))
        object.append("analyzerVersion", .string(analyzerVersion))
        object.append("parameters", .string(parameters))
        return .object(object)
    }
}

/// What became of one (recording, analyzer): features (`ok`), analysed but unusable, an error
/// (with its text), or skipped: not computed because it would not fit under the memory limits (the reason as its error text;
/// a rerun computes it and replaces the row).
public enum ResultStatus: String, Sendable, CaseIterable {
    case ok, unusable, error, skipped
}

/// One result row.
public struct ResultRow: Sendable {
    /// The recording's path (the first seen with this content; when read back, each path).
    public var recording: String
    public var key: ResultKey
    public var toolkitVersion: String
    public var status: ResultStatus
    public var kind: String?
    public var dialect: String?
    /// Feature set → feature → value (JSON object; names carry units).
    public var featuresJSON: String
    /// JSON array of warning texts.
    public var warningsJSON: String
    public var error: String?
    /// Unix s.
    public var computedAt: Double
    /// Analysis wall time, ms.
    public var durationMilliseconds: Double
    /// When read back: every path by which the recording was reached (the same content and
    /// metadata: a folder and its link, an upload folder and its `.zip`), sorted; `recording` is
    /// the first.
    public var paths: [String] = []
}

/// A recording path and its content, and a manifest record's metadata.
public struct RecordingEntry: Sendable, Hashable {
    public var path: String
    public var contentSHA256: String
    public var bytes: Int
    public var files: Int
    public var metadata: [StudyManifest.Metadata] = []
}

/// A file that no analyzer applies to, and what it is.
public struct UnknownFile: Sendable, Hashable {
    public var path: String
    public var kind: String
    public var reason: String
}

/// Rows committed together in one transaction.
public struct StoreBatch: Sendable {
    public var recordings: [RecordingEntry] = []
    public var results: [ResultRow] = []
    public var unknownFiles: [UnknownFile] = []
    /// Recordings read whose earlier read had been skipped for memory: their `skipped` read rows go.
    public var readAfterSkip: [String] = []

    public init() {}

    public var isEmpty: Bool { recordings.isEmpty && results.isEmpty && unknownFiles.isEmpty && readAfterSkip.isEmpty }
    public var count: Int { recordings.count + results.count + unknownFiles.count }
}
