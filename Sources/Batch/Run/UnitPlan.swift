import InputGuards
import Scoring
import SensorData

/// One analysis to run on a unit: which analyzer, with which parameters, on which file. Its
/// result key holds the canonical encoding of exactly the parameters the scorer receives
/// (``parameters``), so changing any of them, or a default, recomputes the result.
public struct AnalysisPlan: Sendable {
    /// The analyzer run.
    public var analyzer: Analyzer
    /// The file the scorer reads (the unit's path for gait, which reads every member).
    public var target: String
    /// The CSV row of an AUXU audiogram; the step identifier of one of several tapping results.
    public var row: Int?
    /// The result it scores when the file holds several (a step identifier), else nil.
    public var identifier: String?
    /// The target's name within a unit of several files (nil for a single file, and for gait,
    /// which reads them all): part of the key, so two files of one upload never share a result.
    var member: String?
    /// The analyzers' parameters the plan runs with (the batch's configuration).
    var settings = AnalyzerParameters()

    static func plan(_ analyzer: Analyzer, _ target: String, row: Int? = nil, identifier: String? = nil) -> AnalysisPlan {
        AnalysisPlan(analyzer: analyzer, target: target, row: row, identifier: identifier)
    }

    /// The settings with this plan's row and identifier: exactly what the scorer receives.
    var effective: AnalyzerParameters {
        var parameters = settings
        if analyzer == .tapping { parameters.tapping.identifier = identifier }
        if analyzer == .audiometry {
            parameters.audiometry.row = row ?? parameters.audiometry.row
            parameters.audiometry.identifier = identifier
        }
        return parameters
    }

    /// The canonical JSON of the parameters the scorer receives (with the member file, when
    /// the unit has several): part of the result key.
    public var parameters: String {
        let canonical = effective.canonical(analyzer)
        guard let member else { return canonical }
        return #"{"member":"# + JSONWriter().string(.string(member)) + #","parameters":"# + canonical + "}"
    }

    /// Runs the scorer on the loaded unit.
    func run(_ unit: LoadedUnit) throws(ScoringError) -> Score {
        try effective.score(analyzer, unit, target: target)
    }
}

/// What a unit is for the batch: the analyses that apply, or what it is when none does.
enum UnitPlan {
    case analyses([AnalysisPlan])
    case unknown(kind: String, reason: String)

    /// Chooses the analyses from the members' facts (``FileFacts``, from the one classifier), so
    /// a unit whose results are all stored is planned without reading it. A member that could
    /// not be loaded makes the unit one error row.
    static func make(_ unit: WorkUnit, facts: [String: FileFacts], audio: BatchConfiguration.AudioTask,
                     selected: Set<Analyzer>?) throws(ScoringError) -> UnitPlan {
        var members: [(path: String, facts: FileFacts)] = []
        for member in unit.members {
            guard let known = facts[member] else { throw ScoringError(.invalidInput, "\(FileName.display(member)): was not read") }
            if let error = known.loadError { throw ScoringError(known.loadNeedsMemory == true ? .insufficientMemory : .invalidInput, error) }
            members.append((member, known))
        }
        var plans: [AnalysisPlan] = []
        switch unit.shape {
        case .upload, .taskResult, .record:
            var walking = false, resting = false, rangeOfMotion = false, walkTest = false, tremor = false, heartRate = false
            let whole = unit.shape != .taskResult  // every member's results, not only the task result's own
            let names = memberNames(unit, members)
            let tasks = audioTasks(members, names)
            for (path, facts) in members where facts.category == .audio {
                plans += audioPlans(path, task: tasks[path], default: audio, selected: selected)
            }
            for (path, facts) in members where facts.category != .audio {
                plans += tappingPlans(facts, path)
                // A timed walk's or six-minute walk's step: its walk test (and gait, as every walk).
                if facts.timedWalkResult || (names[path] ?? []).contains(where: { WalkTestScorer.set(of: $0) != nil }) { walkTest = true }
                if facts.camera { heartRate = true }
                if facts.motion {
                    // A range-of-motion step's recording is not a walk; the rest part of a walk (its
                    // step, column or name says so) is standing still: balance, not gait.
                    if RangeOfMotionScorer.names((names[path] ?? []) + [TaskFiles.name(of: path)]) {
                        rangeOfMotion = true
                    } else if TremorScorer.names((names[path] ?? []) + [TaskFiles.name(of: path)]) {
                        tremor = true
                    } else if GaitScorer.isRest(file: path, steps: names[path] ?? []) {
                        resting = true
                    } else {
                        walking = true
                    }
                }
                if path == unit.path || whole {
                    if facts.splResult { plans.append(.plan(.spl, path)) }
                    if facts.dBHLResult { plans.append(.plan(.audiometry, path)) }
                    if facts.rangeOfMotionResult { rangeOfMotion = true }
                }
            }
            if walking { plans.append(.plan(.gait, unit.path)) }
            if resting { plans.append(.plan(.balance, unit.path)) }
            if rangeOfMotion { plans.append(.plan(.rangeOfMotion, unit.path)) }
            if walkTest { plans.append(.plan(.walkTest, unit.path)) }
            if tremor { plans.append(.plan(.tremor, unit.path)) }
            if heartRate { plans.append(.plan(.heartRate, unit.path)) }
            // An upload of a manifest alone, or a countdown recording, has nothing more to do.
            let nothingToScore = members.allSatisfy { $0.facts.uploadManifest || tasks[$0.path] == .countdown }
            if plans.isEmpty && !nothingToScore {
                return .unknown(kind: unit.shape == .taskResult ? "task result" : unit.shape == .upload ? "upload" : "record", reason: "no tapping, motion, camera, SPL or audiometry data")
            }
        case .file:
            let (path, facts) = members[0]
            switch facts.category {
            case .audio:
                plans = audioPlans(path, task: RecordingTask.named([TaskFiles.name(of: path)]), default: audio, selected: selected)
                if plans.isEmpty { return .unknown(kind: "countdown recording", reason: "the countdown before a phonation (by its name): not scored") }
            case .json:
                plans = tappingPlans(facts, path)
                if facts.motion { plans.append(.plan(motionAnalyzer(path, selected: selected), path)) }
                if facts.camera { plans.append(.plan(.heartRate, path)) }
                if facts.rangeOfMotionResult, !plans.contains(where: { $0.analyzer == .rangeOfMotion }) { plans.append(.plan(.rangeOfMotion, path)) }
                if facts.splResult { plans.append(.plan(.spl, path)) }
                if facts.dBHLResult { plans.append(.plan(.audiometry, path)) }
            case .motionTable:
                plans = [.plan(motionAnalyzer(path, selected: selected), path)]
            case .audiogramTable:
                plans = (1...max(1, facts.audiogramRows)).map { .plan(.audiometry, path, row: $0) }
            case .archive, .stepGroundTruth, .table, .text, .binary, .unreadable:  // an archive with JSON or audio is an upload unit
                break
            }
            if plans.isEmpty { return .unknown(kind: facts.kindName, reason: facts.detail) }
        case .refused(let reason):
            throw ScoringError(.invalidInput, "\(FileName.display(unit.path)): \(reason)")
        }
        if unit.members.count > 1 {
            for index in plans.indices where plans[index].target != unit.path { plans[index].member = unit.relativeName(plans[index].target) }
        }
        return .analyses(plans)
    }

    /// The analyzer of a motion recording on its own: range of motion when its name says
    /// `range.of.motion`, tremor when it is a tremor task's recorder file (`ac1_motion`, …), balance for the rest part of a walk (its name says `rest`), else gait —
    /// or the one motion analyzer the user selected when gait is not selected (nothing says the
    /// recording is a walk: what was asked for is run).
    private static func motionAnalyzer(_ path: String, selected: Set<Analyzer>?) -> Analyzer {
        let name = TaskFiles.name(of: path)
        if RangeOfMotionScorer.names([name]) { return .rangeOfMotion }
        if TremorScorer.names([name]) { return .tremor }
        if GaitScorer.isRest(file: path) { return .balance }
        guard let selected, !selected.contains(.gait) else { return .gait }
        return selected.contains(.balance) ? .balance : selected.contains(.rangeOfMotion) ? .rangeOfMotion : .gait
    }

    /// The analyses of an audio file: those its task calls for; when no task says, the audio
    /// analyzers the user selected by name (what was asked for), else the configuration's
    /// default; loudness too when it was selected.
    private static func audioPlans(_ path: String, task: RecordingTask?, default audio: BatchConfiguration.AudioTask,
                                   selected: Set<Analyzer>?) -> [AnalysisPlan] {
        guard task != .countdown else { return [] }
        let asked = [Analyzer.voice, .spl].filter { selected?.contains($0) == true }
        var plans = (task?.analyzers ?? (asked.isEmpty ? audio.analyzers : asked)).map { AnalysisPlan.plan($0, path) }
        if selected?.contains(.loudness) == true { plans.append(.plan(.loudness, path)) }
        return plans
    }

    /// The task of each audio member of an upload, task result or manifest record: from the
    /// record's column name or the task result's file-result and step identifiers, then a file
    /// name that says countdown, then the upload's `item` (the whole upload's task), then the
    /// file's name.
    private static func audioTasks(_ members: [(path: String, facts: FileFacts)], _ named: [String: [String?]]) -> [String: RecordingTask] {
        let item = members.first { $0.facts.uploadManifest }?.facts.uploadItem
        var tasks: [String: RecordingTask] = [:]
        for (path, facts) in members where facts.category == .audio {
            let name = TaskFiles.name(of: path)
            tasks[path] = RecordingTask.named((named[path] ?? []) + [RecordingTask.named([name]) == .countdown ? name : nil, item, name])
        }
        return tasks
    }

    /// What the unit says each member is: its manifest column, or the file-result identifier and
    /// step of the task result that names it.
    private static func memberNames(_ unit: WorkUnit, _ members: [(path: String, facts: FileFacts)]) -> [String: [String?]] {
        var named: [String: [String?]] = [:]
        if case .record(let columns) = unit.shape { for (column, path) in columns.sorted(by: { $0.key < $1.key }) { named[path, default: []].append(column) } }
        for (path, facts) in members {
            for file in facts.namedFiles {
                if let sibling = TaskFiles.resolve(file.name, nextTo: path) { named[sibling, default: []] += [file.identifier, file.step] }
            }
        }
        return named
    }

    /// One tapping plan per tapping result (by step identifier when a file holds several).
    private static func tappingPlans(_ facts: FileFacts, _ path: String) -> [AnalysisPlan] {
        let identifiers = facts.tappingIdentifiers
        guard identifiers.count > 1 else { return identifiers.isEmpty ? [] : [.plan(.tapping, path)] }
        return identifiers.compactMap { $0 }.map { .plan(.tapping, path, identifier: $0) }
    }
}
