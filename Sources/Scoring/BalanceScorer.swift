import InputGuards
import Analysis
import SensorData

/// Scores the rest part of a walking task — the participant standing still — with the sway and
/// rest-tremor features of ``GaitAnalysis`` (docs/analyses.md §2.8 sway: Mancini et al. 2012; §2.9 the
/// tremor spectrum), never with steps and cadence: a rest recording's "cadence" is noise. A
/// recording is a rest part when its step identifier, manifest column or file name says `rest`
/// (``GaitScorer/part(file:steps:)``); without one, the recordings nothing names at all are
/// scored (balance asked for by name), never one named as a walk (outbound, return).
public enum BalanceScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// Keep the complete items before a torn tail of a JSON file (killed mid-write), with a warning.
        public var lenient = false
        /// The motion analysis's parameters (sampling grid, gravity cutoff) the features use.
        public var analysis = GaitAnalysis.Parameters()
        /// Also mhealthtools' balance features (`get_balance_features` with its defaults: no EMD, the
        /// whole recording; docs/analyses.md §7.3), one set `mhealthtools` per rest recording.
        public var mhealthtools = true
        public init() {}

        public var problem: String? { analysis.problem }
    }

    public static func score(_ unit: LoadedUnit, _ parameters: Parameters = .init()) throws(ScoringError) -> BalanceScore {
        if let problem = parameters.problem { throw ScoringError(.badInvocation, "\(FileName.display(unit.path)): \(problem)") }
        var reading = GaitScorer.Parameters()
        reading.lenient = parameters.lenient
        reading.analysis = parameters.analysis
        let (recordings, readWarnings, _) = try GaitScorer.recordings(unit, reading)
        let motion = recordings.filter {
            [.accelerometer, .deviceMotion].contains($0.series.kind) && !RangeOfMotionScorer.names([$0.step, $0.file]) && !TremorScorer.names([$0.step, $0.file])
        }
        // The rest parts; when none is named, the recordings nothing names at all (asked for as
        // balance, a recording no step, column or name calls a walk is scored as one standing).
        let named = motion.filter { $0.part == "rest" }
        let rest = named.isEmpty ? motion.filter { $0.part == nil } : named
        guard !rest.isEmpty else {
            throw ScoringError(.invalidInput, "\(FileName.display(unit.path)): no rest recording (a motion recording whose step, manifest column or file name says rest, or that nothing names a walk)")
        }
        var warnings = readWarnings
        var sets: [FeatureSet] = []
        var scored: [GaitRecording] = []
        for (index, recording) in rest.enumerated() {
            guard let signal = MotionSignal(recording.series) else { continue }
            let analysis = GaitAnalysis.analyze(signal, parameters: parameters.analysis, windows: false)
            scored.append(GaitRecording(name: recording.name, signal: signal, analysis: analysis))
            warnings += (analysis.inputWarnings + [analysis.swayMissing].compactMap { $0 }).map { rest.count == 1 ? $0 : "\(index + 1): \($0)" }
            let features = BalanceFeatures(durationSeconds: signal.time.count > 1 ? signal.time.last! - signal.time.first! : 0,
                                           sway: analysis.features.sway, tremor: analysis.features.tremor)
            sets.append(FeatureSet(name: rest.count == 1 ? "atk" : "atk.\(index + 1)", features: features))
            if parameters.mhealthtools {
                let (set, kinematicWarnings) = KinematicSummary.set(.balance, recording.series, name: rest.count == 1 ? "mhealthtools" : "mhealthtools.\(index + 1)")
                sets.append(set)
                warnings += kinematicWarnings.map { rest.count == 1 ? $0 : "\(index + 1): \($0)" }
            }
        }
        if scored.count > 1 { warnings.append("\(scored.count) rest recordings, scored one set each in their order") }
        let usable = scored.contains { $0.analysis.hasTremorSpectrum }
        let report = ScoreReport(kind: "balance", file: unit.path, dialect: rest.map(\.series.kind.rawValue).joined(separator: ", "), sets: sets,
                                 warnings: warnings, unusable: usable ? nil : "less than 5 s of gap-free rest recording at \(Int(TremorBandFeatures.lowestRateHz)) Hz or more")
        return BalanceScore(report: report, recordings: scored)
    }
}
