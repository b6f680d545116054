import InputGuards
import Analysis
import Foundation
import AudioIO
import SensorData

/// The analyzers a batch runs, each with a version that is part of the result key: bump it when
/// the analyzer's output changes, and reruns recompute exactly its rows.
public enum BatchAnalyzer: String, Sendable, CaseIterable, Codable {
    case tapping, gait, spl, voice, audiometry
    /// Not an analyzer: the row of a recording that could not be read at all.
    case read

    /// The analyzers a configuration or `--analyzers` can choose.
    public static let selectable: [BatchAnalyzer] = [.tapping, .gait, .spl, .voice, .audiometry]

    /// Bumped whenever the analyzer's definitions change, so a resumed batch does not serve
    /// rows computed under the old ones. 2 (spl): metered from the first sample, filters start in
    /// their steady state, Lmax no longer skips 5τ. 2 (voice): BS.1770 loudness sums identical
    /// stereo channels; unfinished WAVs are read. 2 (gait): cadence disagreement and
    /// implausible-cadence warnings.
    public var version: String {
        switch self {
        case .voice: "3"  // 2: Praat's isPeriod for the mean period; 3: harmonicity exactly as Praat's cc
        case .spl, .gait: "2"
        case .tapping, .audiometry: "2"  // typed values: no-error null (tapping), per-frequency status fields (audiometry)
        case .read: "1"
        }
    }

}

/// The parameters of every analyzer a batch runs, with their defaults in one place (each
/// scorer's `Parameters`); a batch configuration file (``BatchConfiguration/read(_:)``) sets them.
public struct AnalyzerParameters: Sendable, Hashable, Codable {
    public var tapping = TappingScorer.Parameters()
    public var gait = GaitScorer.Parameters()
    public var spl = SPLScorer.Parameters()
    public var voice = VoiceScorer.Parameters()
    public var audiometry = AudiometryScorer.Parameters()
    public init() {}
}

/// One analysis to run on a unit: which analyzer, with which parameters, on which file. Its
/// result key holds the canonical encoding of exactly the parameters the scorer receives
/// (``parameters``), so changing any of them, or a default, recomputes the result.
public struct AnalysisPlan: Sendable {
    public var analyzer: BatchAnalyzer
    /// The file (or folder) the scorer reads.
    public var target: String
    /// Set when the plan is not run, with the reason (stored as a `skipped` row).
    public var skipReason: String?
    /// The CSV row of an AUXU audiogram; the step identifier of one of several tapping results.
    public var row: Int?
    public var identifier: String?
    /// The parsed AUXU table its rows share (parsed once per file, not once per row).
    var table: AUXUTable?
    /// The analyzers' parameters the plan runs with (the batch's configuration).
    var settings = AnalyzerParameters()

    /// The canonical JSON of the parameters the scorer receives (keys sorted, shortest numbers):
    /// part of the result key.
    public var parameters: String {
        switch analyzer {
        case .tapping: Self.canonical(tappingParameters)
        case .gait: Self.canonical(settings.gait)
        case .spl: Self.canonical(settings.spl)
        case .voice: Self.canonical(settings.voice)
        case .audiometry: Self.canonical(audiometryParameters)
        case .read: "{}"
        }
    }

    var tappingParameters: TappingScorer.Parameters {
        var parameters = settings.tapping
        parameters.identifier = identifier
        return parameters
    }

    var audiometryParameters: AudiometryScorer.Parameters {
        var parameters = settings.audiometry
        parameters.row = row ?? parameters.row
        parameters.identifier = identifier
        return parameters
    }

    /// Sorted keys, no escaped slashes; a non-finite number (refused before a batch starts)
    /// cannot make it fail.
    static func canonical(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Runs the scorer with the plan's parameters.
    func run() throws(ScoringError) -> ScoreReport {
        switch analyzer {
        case .tapping: return try TappingScorer.score(target, tappingParameters)
        case .gait: return try GaitScorer.score(target, settings.gait)
        case .spl: return try SPLScorer.score(target, settings.spl)
        case .voice: return try VoiceScorer.score(target, settings.voice)
        case .audiometry:
            if let table, let row { return try AudiometryScorer.score(table, row: row).report }
            return try AudiometryScorer.score(target, audiometryParameters).report
        case .read: throw ScoringError(.invalidInput, "\(target): nothing to run")
        }
    }

    static func plan(_ analyzer: BatchAnalyzer, _ target: String, row: Int? = nil, identifier: String? = nil, skip: String? = nil) -> AnalysisPlan {
        AnalysisPlan(analyzer: analyzer, target: target, skipReason: skip, row: row, identifier: identifier)
    }
}

/// What a unit is for the batch: the analyses that apply, or what it is when none does.
enum UnitPlan {
    case analyses([AnalysisPlan])
    case unknown(kind: String, reason: String)

    /// Chooses the analyses by content (the same sniffing and readers `info` and `score` use).
    /// A unit that cannot be read throws, and becomes an error row.
    static func make(_ unit: WorkUnit, audio: BatchConfiguration.AudioTask = .voice) throws(ScoringError) -> UnitPlan {
        switch unit.shape {
        case .upload, .taskResult:
            var plans: [AnalysisPlan] = []
            var motion = false
            for member in unit.members {
                let contents = try readContents(member, lenient: false)
                plans += tappingPlans(contents, member)
                motion = motion || contents.series.contains { [.accelerometer, .deviceMotion, .pedometer].contains($0.series.kind) }
                if member == unit.path || unit.shape == .upload {
                    if !contents.splMeterResults.isEmpty { plans.append(.plan(.spl, member)) }
                    if !contents.dBHLResults.isEmpty { plans.append(.plan(.audiometry, member)) }
                }
            }
            if motion { plans.append(.plan(.gait, unit.path)) }
            // An upload whose only JSON is its manifest (a voice upload: the audio is a unit of its own) has nothing more to do.
            let manifestOnly = unit.shape == .upload && unit.members.allSatisfy { ($0 as NSString).lastPathComponent == "info.json" }
            return plans.isEmpty && !manifestOnly
                ? .unknown(kind: unit.shape == .upload ? "upload" : "task result", reason: "no tapping, motion, SPL or audiometry data") : .analyses(plans)
        case .file:
            return try file(unit.path, audio: audio)
        case .refused(let reason):
            throw ScoringError(.invalidInput, "\(FileName.display(unit.path)): \(reason)")
        }
    }

    /// One tapping plan per tapping result (by step identifier when a file holds several).
    private static func tappingPlans(_ contents: JSONContents, _ path: String) -> [AnalysisPlan] {
        let results = contents.tappingResults
        guard results.count > 1 else { return results.isEmpty ? [] : [.plan(.tapping, path)] }
        return results.compactMap(\.identifier).map { .plan(.tapping, path, identifier: $0) }
    }

    private static func file(_ path: String, audio: BatchConfiguration.AudioTask) throws(ScoringError) -> UnitPlan {
        switch InputSniffer.sniff(path) {
        case .audio:
            _ = try AudioScoring.open(path)  // unreadable audio is one read error row, not one per analyzer
            return .analyses(audio.analyzers.map { .plan($0, path) })
        case .json, .empty:
            let contents = try readContents(path, lenient: false)
            var plans = tappingPlans(contents, path)
            if contents.series.contains(where: { [.accelerometer, .deviceMotion, .pedometer].contains($0.series.kind) }) { plans.append(.plan(.gait, path)) }
            if !contents.splMeterResults.isEmpty { plans.append(.plan(.spl, path)) }
            if !contents.dBHLResults.isEmpty { plans.append(.plan(.audiometry, path)) }
            guard plans.isEmpty else { return .analyses(plans) }
            let description = FileDescription.describe(contents)
            return .unknown(kind: description.kind, reason: "no analyzer for \(description.kind) (\(description.dialect ?? contents.layout.name))")
        case .csv:
            let table: CSVTable
            do { table = try CSVTable.parse(FileBytes.read(path), file: path) } catch { throw .input(error) }
            if MotionCSVLayout.detect(table) != nil { return .analyses([.plan(.gait, path)]) }
            if let auxu = try? AUXUTable(path) {
                return .analyses((1...max(1, auxu.table.rowCount)).map {
                    var plan = AnalysisPlan.plan(.audiometry, path, row: $0)
                    plan.table = auxu
                    return plan
                })
            }
            if StepGroundTruth(table) != nil { return .unknown(kind: "step ground truth", reason: "reference data for gait evaluation (activetask evaluate)") }
            return .unknown(kind: "table", reason: "CSV without motion (time, x, y, z) or AUXU audiogram columns")
        case .text:
            return .unknown(kind: "text document", reason: "UTF-8 text, not a recording")
        case .binary:
            return .unknown(kind: "binary", reason: "neither JSON, CSV nor a known audio container")
        }
    }
}
