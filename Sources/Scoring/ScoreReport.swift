import InputGuards
import Analysis
import Foundation
import SensorData

/// What scoring one recording produced: `{"kind", "file", "dialect", "features", "warnings"}`
/// (docs/cli.md), shared by `activetask score` and `activetask batch`.
public struct ScoreReport: Sendable {
    /// What was scored (`tapping`, `gait`, `voice`, …).
    public var kind: String
    /// The file as given.
    public var file: String
    /// The file's layout or dialect (`AppCore`, `WAV FLOAT`, …), when known.
    public var dialect: String?
    /// The feature sets, in output order (a peer's set first, then `atk` and the others).
    public var sets: [FeatureSet]
    /// What the reader and the analysis noticed without refusing the file.
    public var warnings: [String]
    /// Why the recording was analysed but is unusable (exit status 1; a batch row with status
    /// `unusable`), nil when usable.
    public var unusable: String?

    public init(kind: String, file: String, dialect: String?, sets: [FeatureSet], warnings: [String], unusable: String? = nil) {
        self.kind = kind
        self.file = file
        self.dialect = dialect
        self.sets = sets
        self.warnings = warnings
        self.unusable = unusable
    }

    /// The feature sets as one JSON object, set name → features.
    public var featuresJSON: JSONValue {
        var features = JSONObject()
        for set in sets { features.append(set.name, set.json) }
        return .object(features)
    }

    public var json: JSONValue {
        var object = JSONObject()
        object.append("kind", .string(kind))
        object.append("file", .string(file))
        object.append("dialect", dialect.map { .string($0) } ?? .null)
        object.append("features", featuresJSON)
        object.append("warnings", .array(warnings.map { .string($0) }))
        return .object(object)
    }

    /// A readable table: the file, kind, dialect, warnings, then each set's features. Every field
    /// that can come from data (the file's name, a category such as `headphoneType`, a warning
    /// quoting the file) is escaped (``TerminalText``): it can neither act on a terminal nor forge
    /// a line of the table.
    public var table: String {
        func safe(_ text: String) -> String { TerminalText.escaped(text) }
        var text = safe(FileName.display(file)) + "\n  kind      \(safe(kind))\n"
        if let dialect { text += "  dialect   \(safe(dialect))\n" }
        for warning in warnings { text += "  warning   \(safe(warning))\n" }
        for set in sets {
            text += "  [\(safe(set.name))]\n"
            let width = set.names.map(\.count).max() ?? 0
            for (name, value) in zip(set.names, set.values) {
                let shown: String
                switch value {
                case .number(let number): shown = number.isFinite ? PrintfNumber.g(number, significant: 10) : "\(number)"
                case .boolean(let flag): shown = flag ? "true" : "false"
                case .text(let text): shown = safe(text)
                case .numbers(let values): shown = values.map { PrintfNumber.g($0, significant: 4) }.joined(separator: " ")
                case .missing: shown = "–"
                }
                let shownName = safe(name)
                text += "    \(shownName)\(String(repeating: " ", count: max(0, width - shownName.count)))  \(shown)\n"
            }
        }
        return text
    }
}

/// Why a recording could not be scored: its message names the file, and the status says whether
/// the input is unreadable (3) or the request does not fit it (2).
public struct ScoringError: Error, Sendable, CustomStringConvertible {
    public enum Status: Sendable {
        case invalidInput, badInvocation
        /// The work would not fit under the process's memory limits (``MemoryBudget``): a fact
        /// about the machine, so a batch stores it as `skipped` and a rerun tries again.
        case insufficientMemory
    }
    public var status: Status
    public var description: String

    public init(_ status: Status, _ description: String) {
        self.status = status
        self.description = description
    }

    public static func input(_ error: some CustomStringConvertible) -> ScoringError { ScoringError(.invalidInput, error.description) }

    /// `error` as thrown by ``MemoryBudget/reserve(_:for:_:)`` around scoring work: a shortfall, or
    /// the work's own ``ScoringError``.
    static func reserving(_ error: any Error) -> ScoringError {
        if let error = error as? ScoringError { return error }
        return ScoringError(error is MemoryBudget.Shortfall ? .insufficientMemory : .invalidInput, "\(error)")
    }
}
