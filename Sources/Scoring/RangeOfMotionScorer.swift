import Analysis
import InputGuards
import SensorData

/// Scores ResearchKit's knee and shoulder range-of-motion steps (docs/analyses.md §7.1): the
/// angles recomputed from each step's device-motion recording by ``RangeOfMotion``, beside the
/// `ORKRangeOfMotionResult` the step stored, and how far apart they are. A recording belongs to
/// the task when its step identifier or file name says `range.of.motion`; without one, the
/// device-motion recordings nothing names at all are scored (the analyzer asked for by name).
public enum RangeOfMotionScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// Keep the complete items before a torn tail of a JSON file (killed mid-write), with a warning.
        public var lenient = false
        /// The interface orientation the step ran in: portrait reads the pitch, landscape the roll.
        public var orientation = RangeOfMotion.Orientation.portrait
        public init() {}
    }

    /// The largest difference from the stored result, degrees, that is not reported as one: the
    /// step's own arithmetic on the same attitudes, rounded once more by its JSON serializer.
    public static let agreementDegrees = 1e-6

    /// Whether a step identifier or file name says range of motion (`knee.range.of.motion`).
    public static func names(_ texts: [String?]) -> Bool {
        texts.contains { $0?.includes("range.of.motion") == true || $0?.includes("range_of_motion") == true }
    }

    public static func score(_ unit: LoadedUnit, _ parameters: Parameters = .init()) throws(ScoringError) -> RangeOfMotionScore {
        var reading = GaitScorer.Parameters()
        reading.lenient = parameters.lenient
        let (recordings, readWarnings, _) = try GaitScorer.recordings(unit, reading)
        let motion = recordings.filter { $0.series.kind == .deviceMotion }
        let named = motion.filter { names([$0.step, $0.file]) }
        let chosen = named.isEmpty ? motion.filter { $0.part == nil } : named
        let stored = unit.inputs.flatMap { $0.json?.rangeOfMotionResults ?? [] }
        // One set per step: the recordings' steps in their order, then results no recording has.
        var steps: [String?] = []
        for step in chosen.map(\.step) + stored.map(\.identifier) where !steps.contains(step) { steps.append(step) }
        guard !steps.isEmpty else {
            throw ScoringError(.invalidInput, "\(FileName.display(unit.path)): no range-of-motion recording or ORKRangeOfMotionResult (a device-motion recording whose step or file name says range.of.motion, or that nothing names)")
        }
        var warnings = readWarnings
        var sets: [FeatureSet] = []
        var scored: [RangeOfMotionScore.Step] = []
        for (index, step) in steps.enumerated() {
            let label = steps.count == 1 ? "" : "\(step ?? "\(index + 1)"): "
            let recording = chosen.first { $0.step == step }
            let result = stored.first { $0.identifier == step } ?? (steps.count == 1 ? stored.first : nil)
            let series = recording?.series
            let relative = series.map { series in
                RangeOfMotion.relativeAnglesDegrees(x: series["attitude.x"] ?? [], y: series["attitude.y"] ?? [], z: series["attitude.z"] ?? [],
                                                    w: series["attitude.w"] ?? [], orientation: parameters.orientation)
            }
            let angles = relative.flatMap { RangeOfMotion.analyze($0, orientation: parameters.orientation) }
            let features = RangeOfMotionFeatures(step: step, orientation: parameters.orientation, angles: angles, stored: result,
                                                 durationSeconds: series.flatMap { $0.time.count > 1 ? $0.time.last! - $0.time.first! : nil })
            if recording == nil {
                warnings.append(label + "no device-motion recording: the stored result only")
            } else if angles == nil {
                warnings.append(label + "no usable attitude in the device-motion recording")
            }
            if let skipped = angles?.skipped, skipped > 0 { warnings.append(label + "\(skipped) sample(s) without a usable attitude left out") }
            if let difference = features.largestDifferenceFromStoredDegrees, difference > agreementDegrees {
                warnings.append(label + "the recomputed angles differ from the stored ORKRangeOfMotionResult by up to \(difference.compactDescription)°"
                    + " (the step may have run in the other orientation: the parameter orientation)")
            }
            sets.append(FeatureSet(name: steps.count == 1 ? "researchKit" : "researchKit.\(index + 1)", features: features))
            // The angle over time as the step reports its extremes: start − the relative angle.
            var trace: (time: [Double], degrees: [Double]) = ([], [])
            if let series, let relative, let start = angles?.startDegrees {
                for (time, angle) in zip(series.time, relative.degrees) where !angle.isNaN {
                    trace.time.append(time - series.time[0])
                    trace.degrees.append(start - angle)
                }
            }
            scored.append(RangeOfMotionScore.Step(name: recording?.name ?? step ?? unit.path, timeSeconds: trace.time, angleDegrees: trace.degrees, features: features))
        }
        let usable = scored.contains { $0.features.startDegrees != nil || $0.features.storedStartDegrees != nil }
        let report = ScoreReport(kind: "rangeOfMotion", file: unit.path, dialect: chosen.isEmpty ? "ORKRangeOfMotionResult" : "deviceMotion",
                                 sets: sets, warnings: warnings, unusable: usable ? nil : "no usable attitude and no stored result")
        return RangeOfMotionScore(report: report, steps: scored)
    }
}

/// ResearchKit's range-of-motion angles of one step (docs/analyses.md §7.1): recomputed from its
/// device-motion recording, and as the step stored them in its `ORKRangeOfMotionResult`. Degrees,
/// with the step's sign conventions (start = 90° − the first angle; minimum and maximum the step's
/// way round).
public struct RangeOfMotionFeatures: Sendable, Hashable, Encodable {
    /// The step identifier (`knee.range.of.motion`, `shoulder.range.of.motion`), when the task names one.
    public var step: String?
    /// The orientation whose angle was read: `portrait` (pitch) or `landscape` (roll).
    public var orientation: String
    /// Recomputed start, degrees (null without a usable attitude).
    public var startDegrees: Double?
    /// Recomputed finish, degrees.
    public var finishDegrees: Double?
    /// Recomputed minimum, degrees.
    public var minimumDegrees: Double?
    /// Recomputed maximum, degrees.
    public var maximumDegrees: Double?
    /// Recomputed range, degrees.
    public var rangeDegrees: Double?
    /// Device-motion samples the angles used, count.
    public var sampleCount: Int
    /// Samples left out (attitude not finite or all 0), count.
    public var skippedSampleCount: Int
    /// Last − first sample time of the recording, s (null without one).
    public var durationSeconds: Double?
    /// Start as the step stored it, degrees (null without a stored result).
    public var storedStartDegrees: Double?
    /// Finish as stored, degrees.
    public var storedFinishDegrees: Double?
    /// Minimum as stored, degrees.
    public var storedMinimumDegrees: Double?
    /// Maximum as stored, degrees.
    public var storedMaximumDegrees: Double?
    /// Range as stored, degrees.
    public var storedRangeDegrees: Double?
    /// The largest |recomputed − stored| of the five angles, degrees (null unless both exist).
    public var largestDifferenceFromStoredDegrees: Double?

    init(step: String?, orientation: RangeOfMotion.Orientation, angles: RangeOfMotion.Result?, stored: RangeOfMotionResult?, durationSeconds: Double?) {
        self.step = step
        self.orientation = orientation.rawValue
        startDegrees = angles?.startDegrees
        finishDegrees = angles?.finishDegrees
        minimumDegrees = angles?.minimumDegrees
        maximumDegrees = angles?.maximumDegrees
        rangeDegrees = angles?.rangeDegrees
        sampleCount = angles?.samples ?? 0
        skippedSampleCount = angles?.skipped ?? 0
        self.durationSeconds = durationSeconds
        storedStartDegrees = stored?.startDegrees
        storedFinishDegrees = stored?.finishDegrees
        storedMinimumDegrees = stored?.minimumDegrees
        storedMaximumDegrees = stored?.maximumDegrees
        storedRangeDegrees = stored?.rangeDegrees
        if let angles, let stored {
            largestDifferenceFromStoredDegrees = [
                angles.startDegrees - stored.startDegrees, angles.finishDegrees - stored.finishDegrees,
                angles.minimumDegrees - stored.minimumDegrees, angles.maximumDegrees - stored.maximumDegrees,
                angles.rangeDegrees - stored.rangeDegrees,
            ].map(abs).max()
        }
    }
}

/// ResearchKit's range-of-motion steps of a task, each with its recording and angles.
public struct RangeOfMotionScore: Sendable {
    public struct Step: Sendable {
        /// The file (and step) of the device-motion recording, or the step of a stored result alone.
        public var name: String
        /// The usable samples' times from the recording's first, s (empty: a stored result only).
        public var timeSeconds: [Double]
        /// The device angle at those times as the step reports its extremes (start − the relative
        /// angle), degrees.
        public var angleDegrees: [Double]
        /// The recomputed and stored angles.
        public var features: RangeOfMotionFeatures
    }

    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
    /// Each step scored, in order.
    public var steps: [Step]
}
