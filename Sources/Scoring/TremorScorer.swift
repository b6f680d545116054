import Analysis
import InputGuards
import SensorData

/// Scores ResearchKit's tremor task (docs/analyses.md §7.4): per hand position — the step
/// `tremor.<position>.<hand>` of its task factory, or the recorder file `ac1_…` to `ac5_…` — the
/// device-motion recording (else the accelerometer one) with mhealthtools' rest tremor features for
/// the still positions (hand in lap, at shoulder length, with the elbow bent: `get_tremor_features`)
/// and its kinetic tremor features for the moving ones (hand to nose, queen wave:
/// `get_kinetic_tremor_features`), and the 3.5–7.5 Hz band (``TremorBandFeatures``).
public enum TremorScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// Keep the complete items before a torn tail of a JSON file (killed mid-write), with a warning.
        public var lenient = false
        /// The motion analysis's parameters (sampling grid, gravity cutoff) the band uses.
        public var analysis = GaitAnalysis.Parameters()
        public init() {}

        public var problem: String? { analysis.problem }
    }

    /// The five positions of ResearchKit's tremor task, by step identifier, with the recorder
    /// number of their files (`ac1_acc`, `ac1_motion`, …).
    public enum Position: String, Sendable, CaseIterable {
        case handInLap, handAtShoulderLength, handAtShoulderLengthWithElbowBent, handToNose, handQueenWave

        public var recorderNumber: Int { Self.allCases.firstIndex(of: self)! + 1 }
        /// mhealthtools' entry point: rest tremor for the still positions, kinetic for the moving ones.
        public var task: MhealthtoolsKinematics.Task { self == .handToNose || self == .handQueenWave ? .kineticTremor : .restTremor }
    }

    /// The position and hand a step identifier (`tremor.handInLap.left`) or recorder file name
    /// (`ac1_motion-….json`) gives; nil when neither is the tremor task's.
    public static func position(step: String?, file: String) -> (position: Position, hand: String?)? {
        if let step, step.hasPrefix("tremor.") {
            let parts = step.split(separator: ".").map(String.init)
            // The longest name first: handAtShoulderLengthWithElbowBent before handAtShoulderLength.
            if parts.count >= 2, let position = Position(rawValue: parts[1]) {
                return (position, parts.count >= 3 ? parts[2] : nil)
            }
        }
        let name = FileName.display(file).split(separator: "/").last.map(String.init) ?? file
        for position in Position.allCases where name.hasPrefix("ac\(position.recorderNumber)_acc") || name.hasPrefix("ac\(position.recorderNumber)_motion") {
            return (position, nil)
        }
        return nil
    }

    /// Whether a step identifier or file name is the tremor task's.
    public static func names(_ texts: [String?]) -> Bool {
        texts.contains { text in text.map { position(step: $0, file: $0) != nil } ?? false }
    }

    public static func score(_ unit: LoadedUnit, _ parameters: Parameters = .init()) throws(ScoringError) -> TremorScore {
        if let problem = parameters.problem { throw ScoringError(.badInvocation, "\(FileName.display(unit.path)): \(problem)") }
        var reading = GaitScorer.Parameters()
        reading.lenient = parameters.lenient
        let (recordings, readWarnings, _) = try GaitScorer.recordings(unit, reading)
        // Per position and hand, in task order: the device-motion recording, else the accelerometer.
        var chosen: [(key: String, position: Position, recording: GaitScorer.Recording)] = []
        for recording in recordings where [.deviceMotion, .accelerometer].contains(recording.series.kind) {
            guard let (position, hand) = position(step: recording.step, file: recording.file) else { continue }
            let key = position.rawValue + (hand.map { "." + $0 } ?? "")
            if let index = chosen.firstIndex(where: { $0.key == key }) {
                if chosen[index].recording.series.kind == .accelerometer && recording.series.kind == .deviceMotion { chosen[index].recording = recording }
            } else {
                chosen.append((key, position, recording))
            }
        }
        guard !chosen.isEmpty else {
            throw ScoringError(.invalidInput, "\(FileName.display(unit.path)): no tremor recording (an accelerometer or device-motion recording of a step tremor.<position>.<hand>, or a file ac1_acc … ac5_motion)")
        }
        chosen.sort { ($0.position.recorderNumber, $0.key) < ($1.position.recorderNumber, $1.key) }
        var warnings = readWarnings
        var sets: [FeatureSet] = []
        var scored: [GaitRecording] = []
        var usable = false
        for (key, position, recording) in chosen {
            let (set, kinematicWarnings) = KinematicSummary.set(position.task, recording.series, name: "mhealthtools." + key)
            sets.append(set)
            warnings += kinematicWarnings.map { "\(key): \($0)" }
            guard let signal = MotionSignal(recording.series) else { continue }
            let band = TremorBandFeatures(signal, parameters: parameters.analysis)
            usable = usable || band.dominantFrequency3_5To7_5HzAccel != nil
            sets.append(FeatureSet(name: "atk." + key, features: band))
            scored.append(GaitRecording(name: recording.name, signal: signal, analysis: GaitAnalysis.analyze(signal, parameters: parameters.analysis, windows: false)))
        }
        let report = ScoreReport(kind: "tremor", file: unit.path, dialect: chosen.map(\.recording.series.kind.rawValue).joined(separator: ", "),
                                 sets: sets, warnings: warnings, unusable: usable ? nil : "less than 5 s of gap-free motion recorded at \(Int(TremorBandFeatures.lowestRateHz)) Hz or more in every position")
        return TremorScore(report: report, recordings: scored)
    }
}

/// The positions of a tremor task, each recording with its motion analysis (for charts).
public struct TremorScore: Sendable {
    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
    /// The recording scored for each position, in task order.
    public var recordings: [GaitRecording]
}
