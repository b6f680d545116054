import Scoring
import SensorData

extension ScoreReport {
    /// The report as `score --json` prints it, with the result key a batch with the same
    /// parameters stores the same features under (`null` when the file cannot be keyed).
    public func json(keyedFor file: String, _ analyzer: Analyzer, _ parameters: AnalyzerParameters) -> JSONValue {
        var object = json.object ?? JSONObject()
        object.append("key", ResultKey(scoring: file, analyzer, parameters)?.json ?? .null)
        return .object(object)
    }
}
