import InputGuards
import Analysis
import SensorData

/// Scores a tapping result (either dialect, alone, in a task result, a flattened archive or a bare
/// `TappingSamples` array) with ``TappingAnalysis`` (analysis.md §1).
public enum TappingScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        public var convention: TappingAnalysis.Convention = .mhealthtools
        /// Minimum |Δx| between kept taps, points.
        public var depressThreshold: Double = 20
        /// The step identifier of the result to score when the file holds several (nil: the first).
        public var identifier: String?
        public var lenient = false
        public init() {}

        /// Why these parameters cannot be used (nil: they can): a threshold of 0…10^6 points.
        public var problem: String? {
            depressThreshold.isFinite && depressThreshold >= 0 && depressThreshold <= 1e6 ? nil
                : "depress threshold \(depressThreshold) points is outside 0…1000000"
        }
    }

    public static func score(_ file: String, _ parameters: Parameters = .init()) throws(ScoringError) -> ScoreReport {
        guard parameters.depressThreshold.isFinite, (0...1_000_000).contains(parameters.depressThreshold) else {
            throw ScoringError(.badInvocation, "\(FileName.display(file)): depress threshold \(parameters.depressThreshold) points is outside 0…1000000")
        }
        let contents = try readContents(file, lenient: parameters.lenient)
        let results = contents.tappingResults
        guard !results.isEmpty else {
            throw .input(ReadError(file: file, reason: .notFound("no tapping result in this file (\(contents.layout.name))")))
        }
        var warnings: [String] = contents.warnings.map(\.description)
        let chosen: TappingResult
        if let identifier = parameters.identifier {
            guard let match = results.first(where: { $0.identifier == identifier }) else {
                throw ScoringError(.badInvocation, "\(FileName.display(file)): no tapping result with identifier \"\(identifier)\"; found: \(results.map { $0.identifier ?? "(none)" }.joined(separator: ", "))")
            }
            chosen = match
        } else {
            chosen = results[0]
            if results.count > 1 {
                warnings.append("the file holds \(results.count) tapping results (\(results.map { $0.identifier ?? "(none)" }.joined(separator: ", "))); scored the first, choose with --identifier")
            }
        }
        let analysis = TappingAnalysis.analyze(chosen, convention: parameters.convention, depressThreshold: parameters.depressThreshold)
        warnings += analysis.warnings.map(\.description)
        return ScoreReport(kind: "tapping", file: file, dialect: chosen.dialect == .appCore ? "AppCore" : "ResearchKit serializer",
                           sets: [analysis.peer, analysis.atk], warnings: warnings, unusable: analysis.error)
    }
}
