import Analysis
import InputGuards
import SensorData

/// Scores ResearchKit's timed walk (`timed.walk.trial1`, `timed.walk.turn.around`,
/// `timed.walk.trial2`) and six-minute walk (`6mwt`) (docs/analyses.md §7.2): per walking step its
/// duration, the distance the task asked for, the pedometer's steps and distance, the distance
/// along its location fixes, and the toolkit's step count and cadence of its motion recording;
/// and the task's form answers.
public enum WalkTestScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// Keep the complete items before a torn tail of a JSON file (killed mid-write), with a warning.
        public var lenient = false
        /// Location fixes whose horizontal accuracy (68 % radius) is worse than this are left out of
        /// the path, m.
        public var maximumHorizontalAccuracyMeters = 20.0
        /// The motion analysis's parameters (sampling grid, filters) behind the step count and cadence.
        public var analysis = GaitAnalysis.Parameters()
        public init() {}

        public var problem: String? {
            guard maximumHorizontalAccuracyMeters.isFinite, maximumHorizontalAccuracyMeters >= 0 else {
                return "maximumHorizontalAccuracyMeters must be a finite number ≥ 0, got \(maximumHorizontalAccuracyMeters)"
            }
            return analysis.problem
        }
    }

    /// The walking steps of the two tasks, in task order, each with the set name it is scored under.
    public static let steps: [(identifier: String, set: String)] = [
        ("timed.walk.trial1", "trial1"), ("timed.walk.turn.around", "turnAround"), ("timed.walk.trial2", "trial2"), ("6mwt", "sixMinuteWalk"),
    ]

    /// The set name of a step identifier that is one of ``steps``, or nil.
    public static func set(of step: String?) -> String? {
        steps.first { $0.identifier == step }?.set
    }

    /// A time limit at or above this is ResearchKit's "none" (it writes CGFLOAT_MAX), s.
    static let noTimeLimitSeconds = 1e30

    /// The fastest anyone covers ground, m/s (a sprinter's peak is about 12.4 m/s): a trial faster
    /// than that holds a duration or distance no walk has.
    public static let fastestMetersPerSecond = 12.5

    /// How far from the fixes' median time a location fix may lie and still be of the trial, s: the
    /// trial's duration (the longest walk, six minutes, when it has none or an unusable one) and a
    /// minute for a fix's latency.
    static func locationWindowSeconds(durationSeconds: Double?) -> Double {
        let duration = durationSeconds.flatMap { $0.isFinite && $0 > 0 && $0 <= 3600 ? $0 : nil } ?? 360
        return duration + 60
    }

    /// A trial's speed, requested distance ÷ duration, m/s; nil with why when the trial has no
    /// speed: no duration, no distance, or faster than ``fastestMetersPerSecond``.
    static func speed(distanceMeters: Double, durationSeconds: Double) -> (metersPerSecond: Double?, missing: String?) {
        guard durationSeconds > 0 else { return (nil, "a duration of \(durationSeconds) s gives no speed") }
        guard distanceMeters > 0 else { return (nil, "a requested distance of \(distanceMeters) m gives no speed") }
        let speed = distanceMeters / durationSeconds
        guard speed <= fastestMetersPerSecond else {
            // A duration near the smallest double overflows the quotient: said as such, not as "inf".
            let pace = speed.isFinite ? "is \(speed) m/s" : "is beyond the largest number (\(Double.greatestFiniteMagnitude) m/s)"
            return (nil, "\(distanceMeters) m in \(durationSeconds) s \(pace), faster than anyone walks or runs (\(fastestMetersPerSecond) m/s): speed null")
        }
        return (speed, nil)
    }

    public static func score(_ unit: LoadedUnit, _ parameters: Parameters = .init()) throws(ScoringError) -> WalkTestScore {
        if let problem = parameters.problem { throw ScoringError(.badInvocation, "\(FileName.display(unit.path)): \(problem)") }
        var reading = GaitScorer.Parameters()
        reading.lenient = parameters.lenient
        let (recordings, readWarnings, _) = try GaitScorer.recordings(unit, reading)
        let contents = unit.inputs.compactMap(\.json)
        let results = contents.flatMap(\.timedWalkResults)
        let answers = contents.flatMap(\.questionAnswers)
        let present = Self.steps.filter { step in
            recordings.contains { $0.step == step.identifier } || results.contains { $0.identifier == step.identifier }
        }
        guard !present.isEmpty else {
            throw ScoringError(.invalidInput, "\(FileName.display(unit.path)): no timed-walk or six-minute-walk step (a recording or ORKTimedWalkResult of \(Self.steps.map(\.identifier).joined(separator: ", ")))")
        }
        var warnings = readWarnings
        var sets: [FeatureSet] = []
        for (identifier, name) in present {
            let mine = recordings.filter { $0.step == identifier }
            let result = results.first { $0.identifier == identifier }
            let pedometer = mine.first { $0.series.kind == .pedometer }.flatMap { PedometerAnalysis.features($0.series) }
            let window = Self.locationWindowSeconds(durationSeconds: result?.durationSeconds)
            let location = mine.first { $0.series.kind == .location }.map { recording in
                LocationPath.distance(latitude: recording.series["coordinate.latitude"] ?? [], longitude: recording.series["coordinate.longitude"] ?? [],
                                      horizontalAccuracy: recording.series["horizontalAccuracy"], maximumAccuracyMeters: parameters.maximumHorizontalAccuracyMeters,
                                      time: recording.series.time, withinSeconds: window)
            }
            if let location, location.fixesLeftOut > location.fixesOutsideWindow {
                warnings.append("\(name): \(location.fixesLeftOut - location.fixesOutsideWindow) location fix(es) left out (invalid, or accuracy worse than \(parameters.maximumHorizontalAccuracyMeters.compactDescription) m)")
            }
            if let location, location.fixesOutsideWindow > 0 {
                warnings.append("\(name): \(location.fixesOutsideWindow) location fix(es) more than \(window.compactDescription) s from the fixes' median time left out (not of this walk)")
            }
            let motion = mine.first { $0.series.kind == .accelerometer } ?? mine.first { $0.series.kind == .deviceMotion }
            let gait = motion.flatMap { MotionSignal($0.series) }.map { GaitAnalysis.analyze($0, parameters: parameters.analysis, windows: false) }
            let spans = mine.compactMap { recording -> Double? in
                guard let first = recording.series.time.first, let last = recording.series.time.last, recording.series.kind != .pedometer else { return nil }
                return last - first
            }
            let duration = result?.durationSeconds ?? spans.max()
            let speed = result.map { Self.speed(distanceMeters: $0.distanceInMeters, durationSeconds: $0.durationSeconds) }
            if let missing = speed?.missing { warnings.append("\(name): \(missing)") }
            let features = WalkTestStepFeatures(
                step: identifier, durationSeconds: duration, requestedDistanceMeters: result?.distanceInMeters,
                timeLimitSeconds: result.flatMap { $0.timeLimitSeconds < noTimeLimitSeconds ? $0.timeLimitSeconds : nil },
                speedMetersPerSecond: speed?.metersPerSecond,
                pedometerStepCount: pedometer?.pedometerStepCount, pedometerDistanceMeters: pedometer?.pedometerDistanceMeters,
                locationDistanceMeters: location?.distanceMeters, locationFixesKept: location?.fixesKept ?? 0, locationFixesLeftOut: location?.fixesLeftOut ?? 0,
                stepCount: gait.map { Double($0.features.stepCount) }, cadenceStepsPerMinute: gait?.features.cadenceStepsPerMinute)
            if let gait { warnings += gait.inputWarnings.map { "\(name): \($0)" } }
            sets.append(FeatureSet(name: name, features: features))
        }
        let form = WalkTestForm(answers)
        if form != WalkTestForm() { sets.append(FeatureSet(name: "form", features: form)) }
        let report = ScoreReport(kind: "walkTest", file: unit.path, dialect: results.isEmpty ? "recorder files" : "ORKTimedWalkResult",
                                 sets: sets, warnings: warnings)
        return WalkTestScore(report: report)
    }
}

/// One walking step of ResearchKit's timed walk or six-minute walk (docs/analyses.md §7.2).
public struct WalkTestStepFeatures: Sendable, Hashable, Encodable {
    /// The step identifier.
    public var step: String
    /// The time the step took: the ORKTimedWalkResult's duration, else the longest recording's span, s.
    public var durationSeconds: Double?
    /// The distance the timed walk asked for (not measured), m.
    public var requestedDistanceMeters: Double?
    /// The trial's time limit, s (null: none, or no timed-walk result).
    public var timeLimitSeconds: Double?
    /// Requested distance ÷ duration of a timed-walk trial, m/s (null, with a warning, without a
    /// duration or distance or above 12.5 m/s).
    public var speedMetersPerSecond: Double?
    /// Steps the pedometer counted over the step (its last cumulative value), count.
    public var pedometerStepCount: Double?
    /// Distance the pedometer estimated (its last cumulative value), m.
    public var pedometerDistanceMeters: Double?
    /// Distance along the kept location fixes (haversine), m.
    public var locationDistanceMeters: Double?
    /// Location fixes on the path, count.
    public var locationFixesKept: Int
    /// Location fixes left out (invalid, or less accurate than the limit), count.
    public var locationFixesLeftOut: Int
    /// Steps the toolkit's gait analysis counts in the step's motion recording, count.
    public var stepCount: Double?
    /// The gait analysis's cadence of that recording, steps/min.
    public var cadenceStepsPerMinute: Double?
}

/// The form answers of the two tasks (their question identifiers): null where not answered.
public struct WalkTestForm: Sendable, Hashable, Encodable {
    /// `timed.walk.form.afo`: an ankle-foot orthosis worn (yes/no).
    public var ankleFootOrthosis: Bool?
    /// `timed.walk.form.assistance`: the assistive device used, as its choice value (`TIMED_WALK_QUESTION_2_CHOICE…`).
    public var assistance: String?
    /// `6mwt.shortnessOfBreath`: the shortness of breath after the walk, 1–10 scale.
    public var shortnessOfBreath: Double?
    /// `6mwt.fatigue`: the fatigue after the walk, 1–10 scale.
    public var fatigue: Double?

    init() {}

    init(_ answers: [QuestionAnswer]) {
        for answer in answers {
            switch (answer.identifier, answer.answer) {
            case ("timed.walk.form.afo", .bool(let flag)?): ankleFootOrthosis = flag
            case ("timed.walk.form.assistance", .choices(let choices)?): assistance = choices.joined(separator: ";")
            case ("6mwt.shortnessOfBreath", .number(let value)?): shortnessOfBreath = value
            case ("6mwt.fatigue", .number(let value)?): fatigue = value
            default: continue
            }
        }
    }
}

/// ResearchKit's timed walk or six-minute walk of a task run.
public struct WalkTestScore: Sendable {
    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
}
