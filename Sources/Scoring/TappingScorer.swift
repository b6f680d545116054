import InputGuards
import Analysis
import SensorData

/// Scores a tapping result (either dialect, alone, in a task result, a flattened archive or a bare
/// `TappingSamples` array) with ``TappingAnalysis`` (docs/analyses.md §1).
public enum TappingScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// The peer convention of the main feature set (mhealthtools, mpowerSdata, pdscores; docs/analyses.md §1.2, §1.5).
        public var convention: TappingAnalysis.Convention = .mhealthtools
        /// Minimum |Δx| between kept taps, points.
        public var depressThreshold = TappingAnalysis.mhealthtoolsDepressThreshold
        /// The step identifier of the result to score when the file holds several (nil: the first).
        public var identifier: String?
        /// Keep the complete items before a torn tail of a JSON file (killed mid-write), with a warning.
        public var lenient = false
        public init() {}

        /// Why these parameters cannot be used (nil: they can): a threshold of 0…10^6 points.
        public var problem: String? {
            depressThreshold.isFinite && depressThreshold >= 0 && depressThreshold <= 1e6 ? nil
                : "depress threshold \(depressThreshold) points is outside 0…1000000"
        }
    }

    /// Scores the tapping result of `input`; `context` is what its unit says the file is (a
    /// manifest column such as `tapping_left.json.TappingSamples`, a task result's step).
    public static func score(_ input: LoadedInput, _ parameters: Parameters = .init(), context: String? = nil) throws(ScoringError) -> TappingScore {
        if let problem = parameters.problem { throw ScoringError(.badInvocation, "\(FileName.display(input.path)): \(problem)") }
        let contents = try input.requireJSON("a tapping result")
        var warnings: [String] = contents.warnings.map(\.description)
        let (chosen, note) = try choose(contents.tappingResults, identifier: parameters.identifier, what: "tapping result", file: input.path, \.identifier)
        warnings += note.map { [$0] } ?? []
        let analysis = TappingAnalysis.analyze(chosen, convention: parameters.convention, depressThreshold: parameters.depressThreshold)
        warnings += analysis.warnings.map(\.description)
        let task = TappingTaskFeatures(hand: hand(of: [chosen.identifier, context, TaskFiles.name(of: input.path)]))
        var atk = FeatureSet(name: "atk", features: analysis.atk)
        atk.append(features: task)
        let report = ScoreReport(kind: "tapping", file: input.path, dialect: chosen.dialect == .appCore ? "AppCore" : "ResearchKit serializer",
                                 sets: [FeatureSet(name: parameters.convention.setName, features: analysis.peer), atk], warnings: warnings, unusable: analysis.error)
        return TappingScore(report: report, result: chosen, analysis: analysis, task: task, depressThreshold: parameters.depressThreshold)
    }
}

/// What the task says about a tapping result, beside the ``TappingExtraFeatures`` of the `atk` set.
public struct TappingTaskFeatures: Sendable, Hashable, Encodable {
    /// The hand that tapped, when the task says (``TappingScorer/hand(of:)``).
    public var hand: TappingScorer.Hand?
}

extension TappingScorer {
    /// The hand that tapped, when the task says.
    public enum Hand: String, Sendable, Encodable {
        case left, right
    }

    /// The hand the first of `names` that names one says: ResearchKit's two-finger tapping task
    /// with both hands has the steps `tapping.left` and `tapping.right`; mPower v2's tables have
    /// the columns `tapping_left.json.TappingSamples` and `tapping_right…`; a file may be named so.
    public static func hand(of names: [String?]) -> Hand? {
        for case let name? in names {
            // Words split at non-letters and at camel case (`TappingLeft`).
            let spaced = name.reduce(into: "") { text, character in text += character.isUppercase ? " " + character.lowercased() : String(character) }
            let words = spaced.split(whereSeparator: { !$0.isLetter })
            if words.contains("left") { return .left }
            if words.contains("right") { return .right }
        }
        return nil
    }
}

/// The result with step identifier `identifier` among `results`, or the first (with a note when
/// there were several): the choice the tapping and audiometry scorers share.
func choose<Result>(_ results: [Result], identifier: String?, what: String, file: String,
                    _ name: (Result) -> String?) throws(ScoringError) -> (Result, note: String?) {
    guard let first = results.first else {
        throw .input(ReadError(file: file, reason: .notFound("no \(what) in this file")))
    }
    guard let identifier else {
        let names = results.map { name($0) ?? "(none)" }.joined(separator: ", ")
        return (first, results.count > 1 ? "the file holds \(results.count) \(what)s (\(names)); scored the first, choose one by its step identifier" : nil)
    }
    guard let match = results.first(where: { name($0) == identifier }) else {
        throw ScoringError(.badInvocation, "\(FileName.display(file)): no \(what) with step identifier \"\(identifier)\"; found: \(results.map { name($0) ?? "(none)" }.joined(separator: ", "))")
    }
    return (match, nil)
}

extension LoadedInput {
    /// The JSON contents, or an error saying the file is not what `what` needs.
    func requireJSON(_ what: String) throws(ScoringError) -> JSONContents {
        guard let json else { throw .input(ReadError(file: path, reason: .notFound("\(what) is JSON; this file is \(kind.summary)"))) }
        return json
    }
}

extension InputKind {
    /// A few words on what the file is, for messages.
    public var summary: String {
        switch self {
        case .json(let contents): "JSON (\(contents.layout.name))"
        case .table(_, let kind):
            switch kind {
            case .motion: "a motion CSV"
            case .audiogram: "an audiogram CSV"
            case .stepGroundTruth: "step ground truth CSV"
            case .other: "a CSV table"
            }
        case .audio: "audio"
        case .archive(let archive): "an upload archive (ZIP, \(archive.entries.count) entries)"
        case .text: "UTF-8 text, not a recording"
        case .binary(let bytes): "binary data (first bytes \(bytes.map { String($0, radix: 16) }.joined(separator: " "))) that is neither JSON, CSV nor a known audio container"
        }
    }
}
