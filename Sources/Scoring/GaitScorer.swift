import InputGuards
import Analysis
import SensorData

/// Scores walking recordings (accelerometer or device-motion JSON, CSV motion, pedometer files;
/// an unpacked upload; a task result with the recorder files it names) with ``GaitAnalysis`` and
/// ``PedometerAnalysis`` (docs/analyses.md §2), one feature set per motion recording.
public enum GaitScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// What the caller states about a CSV table (columns, units, the Oxford layout); the
        /// rest is detected from the header and the data.
        public var csv = MotionCSVOverrides()
        /// Keep the complete items before a torn tail of a JSON file (killed mid-write), with a warning.
        public var lenient = false
        /// The gait analysis's own parameters (docs/analyses.md §2).
        public var analysis = GaitAnalysis.Parameters()
        /// Also mhealthtools' walk features (`get_walk_features` with its defaults: 2 IMFs, 256-sample
        /// windows; docs/analyses.md §7.3), one set `mhealthtools` per motion recording.
        public var mhealthtools = true
        public init() {}

        public var problem: String? { analysis.problem }
    }

    public static func score(_ unit: LoadedUnit, _ parameters: Parameters = .init()) throws(ScoringError) -> GaitScore {
        if let problem = parameters.problem { throw ScoringError(.badInvocation, "\(FileName.display(unit.path)): \(problem)") }
        let (recordings, readWarnings, csvLayout) = try self.recordings(unit, parameters)
        var warnings = readWarnings
        let allMotion = recordings.filter { $0.series.kind == .accelerometer || $0.series.kind == .deviceMotion }
        // Standing still is the balance analyzer's, a range-of-motion step the rangeOfMotion analyzer's.
        let rangeOfMotion = allMotion.filter { RangeOfMotionScorer.names([$0.step, $0.file]) }
        let motion = allMotion.filter { $0.part != "rest" && !RangeOfMotionScorer.names([$0.step, $0.file]) && !TremorScorer.names([$0.step, $0.file]) }
        let pedometers = recordings.filter { $0.series.kind == .pedometer }
        guard !motion.isEmpty || !pedometers.isEmpty else {
            if !rangeOfMotion.isEmpty {
                throw ScoringError(.badInvocation, "\(FileName.display(unit.path)): only range-of-motion recordings (by their step or name): scored by the rangeOfMotion analyzer, not gait")
            }
            if allMotion.contains(where: { TremorScorer.names([$0.step, $0.file]) }) {
                throw ScoringError(.badInvocation, "\(FileName.display(unit.path)): only tremor-task recordings (by their step or name): scored by the tremor analyzer, not gait")
            }
            if !allMotion.isEmpty {
                throw ScoringError(.badInvocation, "\(FileName.display(unit.path)): only rest recordings (standing still, by their step, column or name): scored by the balance analyzer, not gait")
            }
            throw ScoringError(.invalidInput, "\(FileName.display(unit.path)): no accelerometer, device-motion or pedometer recording in this file")
        }
        var sets: [FeatureSet] = []
        var scored: [GaitRecording] = []
        let pedometer = pedometers.first.flatMap { recording in PedometerAnalysis.features(recording.series).map { (label: recording.part ?? "0", features: $0) } }
        for (index, recording) in motion.enumerated() {
            guard let signal = MotionSignal(recording.series) else { continue }
            let name = recording.part ?? "\(index + 1)"
            let analysis = GaitAnalysis.analyze(signal, parameters: parameters.analysis)
            scored.append(GaitRecording(name: recording.name, signal: signal, analysis: analysis))
            var set = FeatureSet(name: motion.count == 1 ? "atk" : "atk." + name, features: analysis.features)
            warnings += (analysis.inputWarnings + analysis.warnings).map { motion.count == 1 ? $0 : "\(name): \($0)" }
            // The pedometer joins the recording of its own step (or the only one).
            if let pedometer, motion.count == 1 || pedometer.label == name { set.append(features: pedometer.features) }
            sets.append(set)
            if parameters.mhealthtools {
                let (set, kinematicWarnings) = KinematicSummary.set(.walk, recording.series, name: motion.count == 1 ? "mhealthtools" : "mhealthtools." + name)
                sets.append(set)
                warnings += kinematicWarnings.map { motion.count == 1 ? $0 : "\(name): \($0)" }
            }
        }
        if sets.isEmpty, let pedometer { sets.append(FeatureSet(name: "atk", features: pedometer.features)) }
        let usable = scored.contains { !$0.analysis.stepTimes.isEmpty || $0.analysis.hasTremorSpectrum }
            || pedometer?.features.cadencePedometerStepsPerMinute != nil
        let report = ScoreReport(kind: "gait", file: unit.path, dialect: csvLayout?.summary ?? recordings.map(\.series.kind.rawValue).joined(separator: ", "),
                                 sets: sets, warnings: warnings,
                                 unusable: usable ? nil : "too little motion data to analyse (no walking, less than 5 s for rest and tremor)")
        return GaitScore(report: report, recordings: scored)
    }

    /// One recording of a walking task: its file, the step or column its task gives it, its series.
    public struct Recording: Sendable {
        public var file: String
        public var step: String?
        public var series: SensorSeries

        /// How messages and charts name it: `file (step)`.
        public var name: String { step.map { "\(file) (\($0))" } ?? file }
        /// outbound, return or rest, when its step or file name says (``part(file:steps:)``).
        public var part: String? { GaitScorer.part(file: file, steps: [step]) }
    }

    /// The motion and pedometer recordings of `unit` (with their files and steps), the readers'
    /// warnings, and for a CSV table the layout it was read with.
    public static func recordings(_ unit: LoadedUnit, _ parameters: Parameters = .init()) throws(ScoringError)
        -> (recordings: [Recording], warnings: [String], csvLayout: MotionCSVLayout?)
    {
        var warnings: [String] = []
        var csvLayout: MotionCSVLayout?
        var recordings: [Recording] = []
        let steps = unit.steps
        do throws(ReadError) {
            for input in unit.inputs {
                switch input.kind {
                case .table(let table, _):
                    let layout = try parameters.csv.layout(for: table, file: input.path)
                    csvLayout = layout
                    let (series, readWarnings) = try SensorSeries.accelerometer(from: table, layout: layout, file: input.path)
                    recordings.append(Recording(file: input.path, step: steps[input.path], series: series))
                    warnings += readWarnings.map(\.description)
                case .json(let contents):
                    // A task result's recorder files carry their step (walking.outbound, …), a manifest's their column.
                    recordings += contents.series.map { Recording(file: $0.file, step: steps[input.path], series: $0.series) }
                    warnings += contents.allWarnings.map(\.description)
                case .audio, .text, .binary, .archive:
                    continue
                }
            }
        } catch {
            throw .input(error)
        }
        // A span of detached times would be taken for the recording's duration and rate (a
        // camera's frame rate), a pedometer's far item for its last count.
        for recording in recordings where recording.series.kind.isContinuous {
            guard let problem = recording.series.detachedTimes else { continue }
            // The file scored, and the recorder file a task result names when it is another.
            let files = recording.file == unit.path ? [unit.path] : [unit.path, recording.file]
            throw ScoringError(.invalidInput, files.map { FileName.display($0) + ": " }.joined() + problem)
        }
        return (recordings, warnings, csvLayout)
    }

    /// The part of a walking task a recording is — outbound, return or rest — as its steps (task
    /// result step identifiers, manifest columns) say, else its file name; nil when none says.
    public static func part(file: String, steps: [String?] = []) -> String? {
        for text in steps.compactMap({ $0 }) + [file] {
            for part in ["outbound", "return", "rest"] where text.includes(part) { return part }
        }
        return nil
    }

    /// Whether a recording is the rest part of a walking task (standing still: balance, not gait).
    public static func isRest(file: String, steps: [String?] = []) -> Bool { part(file: file, steps: steps) == "rest" }
}
