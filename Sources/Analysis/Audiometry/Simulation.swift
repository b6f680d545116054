import InputGuards
import Glibc
import SignalProcessing

/// Virtual listeners for the threshold procedures (docs/audiometry.md §5 D18 generalised): a
/// logistic psychometric function around the true threshold with false alarms and lapses,
///   P(yes | L) = γ + (1 − γ − λ)·1/(1 + e^(−(L − T)/s)),
/// γ the false-alarm rate, λ the lapse rate, s the slope (dB).
public struct VirtualListener: Sendable {
    public var slopeDecibels: Double
    public var falseAlarmRate: Double
    public var lapseRate: Double

    public init(slopeDecibels: Double = 2, falseAlarmRate: Double = 0.01, lapseRate: Double = 0.01) {
        self.slopeDecibels = slopeDecibels
        self.falseAlarmRate = falseAlarmRate
        self.lapseRate = lapseRate
    }

    public func probabilityOfYes(level: Double, threshold: Double) -> Double {
        falseAlarmRate + (1 - falseAlarmRate - lapseRate) / (1 + exp(-(level - threshold) / slopeDecibels))
    }
}

public enum AudiometrySimulation {
    public enum Procedure: String, Sendable, CaseIterable {
        /// ``ResearchKitThresholdProcedure``
        case researchkit
        /// ``ASHAThresholdProcedure``
        case asha

        /// A fresh engine of this procedure (ASHA with `ashaCeiling`, dB HL).
        public func engine(ashaCeiling: Double) -> any ThresholdProcedure {
            switch self {
            case .researchkit: return ResearchKitThresholdProcedure()
            case .asha:
                var parameters = ASHAThresholdProcedure.Parameters()
                parameters.ceiling = ashaCeiling
                return ASHAThresholdProcedure(parameters: parameters)
            }
        }
    }

    /// Per frequency and procedure: estimate − truth statistics and presentation counts.
    public struct Row: Sendable {
        public var procedure: Procedure
        public var frequencyHz: Double
        public var runs: Int
        public var determined: Int
        public var biasDecibels: Double
        public var sdDecibels: Double
        public var meanAbsoluteErrorDecibels: Double
        public var meanPresentations: Double
    }

    /// Runs both procedures for every (frequency, true threshold) pair, `repeats` times each,
    /// with a SplitMix64 stream seeded by `seed` (deterministic).
    public static func run(truths: [(frequencyHz: Double, threshold: Double)], listener: VirtualListener, repeats: Int = 1,
                           seed: UInt64 = 1, ashaCeiling: Double = 100) -> [Row] {
        var random = SplitMix64(seed: seed)
        var rows: [Row] = []
        let frequencies = Set(truths.map(\.frequencyHz)).sorted()
        for procedure in Procedure.allCases {
            for f in frequencies {
                var errors: [Double] = []
                var presentations: [Double] = []
                var runs = 0
                for truth in truths where truth.frequencyHz == f {
                    for _ in 0..<repeats {
                        runs += 1
                        let respond: (Double) -> PresentationResponse = { level in
                            random.unit() < listener.probabilityOfYes(level: level, threshold: truth.threshold) ? .heard : .missed
                        }
                        var engine = procedure.engine(ashaCeiling: ashaCeiling)
                        engine.run(listener: respond)
                        let (estimate, count) = (engine.threshold, engine.presentations.count)
                        presentations.append(Double(count))
                        if let estimate { errors.append(estimate - truth.threshold) }
                    }
                }
                rows.append(Row(
                    procedure: procedure, frequencyHz: f, runs: runs, determined: errors.count,
                    biasDecibels: errors.isEmpty ? .nan : errors.statistic(Statistics.mean),
                    sdDecibels: errors.count < 2 ? .nan : errors.statistic(Statistics.standardDeviation),
                    meanAbsoluteErrorDecibels: errors.isEmpty ? .nan : errors.map(abs).statistic(Statistics.mean),
                    meanPresentations: presentations.statistic(Statistics.mean)))
            }
        }
        return rows
    }
}
