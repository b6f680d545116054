import InputGuards
import Analysis
import Foundation
import AudioIO
import SensorData

/// The analyzers a batch runs, each with a version that is part of the result key: bump it when
/// the analyzer's output changes, and reruns recompute exactly its rows.
public enum BatchAnalyzer: String, Sendable, CaseIterable {
    case tapping, gait, spl, voice, audiometry
    /// Not an analyzer: the row of a recording that could not be read at all.
    case read

    /// Bumped whenever the analyzer's definitions change, so a resumed batch does not serve
    /// rows computed under the old ones. 2 (spl): metered from the first sample, filters start in
    /// their steady state, Lmax no longer skips 5τ. 2 (voice): BS.1770 loudness sums identical
    /// stereo channels; unfinished WAVs are read. 2 (gait): cadence disagreement and
    /// implausible-cadence warnings.
    public var version: String {
        switch self {
        case .voice: "3"  // 2: Praat's isPeriod for the mean period; 3: harmonicity exactly as Praat's cc
        case .spl, .gait: "2"
        case .tapping, .audiometry, .read: "1"
        }
    }

}

/// One analysis to run on a unit: which analyzer, with which parameters (canonical JSON, part
/// of the key), on which file.
public struct AnalysisPlan: Sendable {
    public var analyzer: BatchAnalyzer
    public var parameters: String
    /// The file (or folder) the scorer reads.
    public var target: String
    /// Set when the plan is not run, with the reason (stored as a `skipped` row).
    public var skipReason: String?
    /// The CSV row of an AUXU audiogram; the step identifier of one of several tapping results.
    public var row: Int?
    public var identifier: String?
    /// The parsed AUXU table its rows share (parsed once per file, not once per row).
    var table: AUXUTable?
    /// The voice analyzer's sample bound (``VoiceScorer/Parameters/maximumSamples``), part of its key.
    var voiceMaximumSamples = VoiceScorer.Parameters.defaultMaximumSamples

    /// This plan under the batch's options: the voice bound enters the voice plan's key.
    func configured(by options: BatchOptions) -> AnalysisPlan {
        guard analyzer == .voice else { return self }
        var plan = self
        plan.voiceMaximumSamples = options.voiceMaximumSamples
        plan.parameters = Self.voiceParameters(maximumSamples: options.voiceMaximumSamples)
        return plan
    }

    /// Runs the scorer with the batch's default parameters.
    func run() throws(ScoringError) -> ScoreReport {
        switch analyzer {
        case .tapping:
            var parameters = TappingScorer.Parameters()
            parameters.identifier = identifier
            return try TappingScorer.score(target, parameters)
        case .gait: return try GaitScorer.score(target)
        case .spl: return try SPLScorer.score(target)
        case .voice:
            var parameters = VoiceScorer.Parameters()
            parameters.maximumSamples = voiceMaximumSamples
            return try VoiceScorer.score(target, parameters)
        case .audiometry:
            if let table, let row { return try AudiometryScorer.score(table, row: row).report }
            return try AudiometryScorer.score(target).report
        case .read: throw ScoringError(.invalidInput, "\(target): nothing to run")
        }
    }

    /// The voice plan's key parameters (canonical JSON, keys sorted).
    static func voiceParameters(maximumSamples: Int) -> String {
        #"{"countIdenticalChannelsOnce":false,"maximumSamples":\#(maximumSamples),"pitchCeilingHz":600,"pitchFloorHz":75}"#
    }

    static func plan(_ analyzer: BatchAnalyzer, _ target: String, row: Int? = nil, identifier: String? = nil, skip: String? = nil) -> AnalysisPlan {
        let parameters: String
        switch analyzer {
        case .tapping:
            let chosen = identifier.map { ",\"identifier\":" + JSONWriter().string(.string($0)) } ?? ""
            parameters = #"{"convention":"mhealthtools","depressThresholdPoints":20"# + chosen + "}"
        case .gait: parameters = #"{"csvLayout":"auto"}"#
        case .spl: parameters = #"{"calibrationOffsetDecibels":117.3,"intervalSeconds":1,"oversampling":1,"requiredIntervals":5,"thresholdDecibels":35}"#
        case .voice: parameters = voiceParameters(maximumSamples: VoiceScorer.Parameters.defaultMaximumSamples)
        case .audiometry: parameters = row.map { #"{"row":\#($0),"tables":"rk-3.2"}"# } ?? #"{"tables":"rk-3.2"}"#
        case .read: parameters = "{}"
        }
        return AnalysisPlan(analyzer: analyzer, parameters: parameters, target: target, skipReason: skip, row: row, identifier: identifier)
    }
}

/// What a unit is for the batch: the analyses that apply, or what it is when none does.
enum UnitPlan {
    case analyses([AnalysisPlan])
    case unknown(kind: String, reason: String)

    /// Chooses the analyses by content (the same sniffing and readers `info` and `score` use).
    /// A unit that cannot be read throws, and becomes an error row.
    static func make(_ unit: WorkUnit) throws(ScoringError) -> UnitPlan {
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
            return try file(unit.path)
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

    private static func file(_ path: String) throws(ScoringError) -> UnitPlan {
        switch InputSniffer.sniff(path) {
        case .audio:
            _ = try AudioScoring.open(path)  // unreadable audio is one read error row, not one per analyzer
            return .analyses([.plan(.voice, path), .plan(.spl, path)])
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
