import Analysis
import InputGuards
import SensorData

/// Scores camera heart-rate recordings (docs/analyses.md §7.5): per recording — mPower 2's heart
/// snapshot records one before and one after its stair step (`heartRate_before_recorder.json`,
/// `heartRate_after_recorder.json`) — mhealthtools' `get_heartrate` per colour channel and
/// window (set `mhealthtools`) and a summary of it (set `atk`).
public enum HeartRateScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// Keep the complete items before a torn tail of a JSON file (killed mid-write), with a warning.
        public var lenient = false
        /// mhealthtools' window length, overlap and method.
        public var analysis = CameraHeartRate.Parameters()
        public init() {}

        public var problem: String? { analysis.problem }
    }

    public static func score(_ unit: LoadedUnit, _ parameters: Parameters = .init()) throws(ScoringError) -> HeartRateScore {
        if let problem = parameters.problem { throw ScoringError(.badInvocation, "\(FileName.display(unit.path)): \(problem)") }
        var reading = GaitScorer.Parameters()
        reading.lenient = parameters.lenient
        let (all, readWarnings, _) = try GaitScorer.recordings(unit, reading)
        let recordings = all.filter { $0.series.kind == .camera }
        guard !recordings.isEmpty else {
            throw ScoringError(.invalidInput, "\(FileName.display(unit.path)): no camera heart-rate recording (items with red, green and blue frame means)")
        }
        var warnings = readWarnings
        var sets: [FeatureSet] = []
        var usable = false
        var frameRates: [String] = []
        for recording in recordings {
            let series = recording.series
            func column(_ name: String) -> [Double] { series[name] ?? Array(repeating: .nan, count: series.count) }
            let estimate = CameraHeartRate(t: series.time, red: column("red"), green: column("green"), blue: column("blue"), parameters: parameters.analysis)
            let suffix = recordings.count == 1 ? "" : "." + key(recording)
            let summary = CameraHeartRateSummary(estimate)
            usable = usable || summary.heartRateBeatsPerMinute != nil
            frameRates.append(estimate.samplingRate.map { "\(($0 * 1000).rounded() / 1000) Hz" } ?? "an unknown rate")
            sets.append(FeatureSet(name: "mhealthtools" + suffix, features: CameraHeartRateFeatures(estimate)))
            sets.append(FeatureSet(name: "atk" + suffix, features: summary))
            warnings += estimate.warnings.map { recordings.count == 1 ? $0 : "\(key(recording)): \($0)" }
        }
        let report = ScoreReport(kind: "heartRate", file: unit.path, dialect: "camera frame means", sets: sets, warnings: warnings,
                                 unusable: usable ? nil : "no window gave a heart rate (frames at " + frameRates.joined(separator: ", ") + ")")
        return HeartRateScore(report: report)
    }

    /// A recording's name in its set names: its step identifier, else its file name without
    /// the `.json` extension.
    static func key(_ recording: GaitScorer.Recording) -> String {
        if let step = recording.step { return step }
        let name = TaskFiles.name(of: FileName.display(recording.file))
        return name.hasSuffix(".json") ? String(name.dropLast(5)) : name
    }
}

/// The camera heart-rate recordings of a unit, scored.
public struct HeartRateScore: Sendable {
    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
}
