import SensorData

/// ResearchKit's golden-set protocol (audiometry.md §4; ResearchKit `ORKAudiometryTests.m`): each
/// audiogram drives the ResearchKit procedure with a listener that hears iff the level ≥ its
/// threshold; run A uses AUXU1K1 for 1 kHz, run B AUXU1K2, run C both 1 kHz entries in one list.
public enum GoldenSet {
    public struct Summary: Sendable, Hashable {
        public var audiograms = 0
        public var runAEntries = 0, runAExact = 0
        public var runBEntries = 0, runBExact = 0
        public var combinedEntries = 0, combinedExact = 0
        public var minimumPresentations = Int.max, maximumPresentations = 0

        public var thresholdsTotal: Int { runAEntries + runBEntries }
        public var thresholdsExact: Int { runAExact + runBExact }
    }

    public static func run(_ table: AudiogramTable) -> Summary {
        var summary = Summary()
        summary.audiograms = table.rows.count
        let index = Dictionary(uniqueKeysWithValues: table.columns.enumerated().map { ($1, $0) })
        let others = ["AUXU500", "AUXU2K", "AUXU3K", "AUXU4K", "AUXU6K", "AUXU8K"]
        /// (threshold recovered exactly, presentations).
        func measure(_ truth: Double) -> (Int, Int) {
            var engine = ResearchKitThresholdProcedure()
            engine.run { $0 >= truth ? .heard : .missed }
            return (engine.threshold == truth ? 1 : 0, engine.presentations.count)
        }
        for row in table.rows {
            func value(_ key: String) -> Double? { index[key].map { row[$0] }.flatMap { $0.isNaN ? nil : $0 } }
            for key in others + ["AUXU1K1"] {
                guard let t = value(key) else { continue }
                let result = measure(t)
                summary.runAEntries += 1
                summary.runAExact += result.0
                summary.minimumPresentations = min(summary.minimumPresentations, result.1)
                summary.maximumPresentations = max(summary.maximumPresentations, result.1)
            }
            for key in others + ["AUXU1K2"] {
                guard let t = value(key) else { continue }
                let result = measure(t)
                summary.runBEntries += 1
                summary.runBExact += result.0
                summary.minimumPresentations = min(summary.minimumPresentations, result.1)
                summary.maximumPresentations = max(summary.maximumPresentations, result.1)
            }
            // Run C: [1000, 2000, 3000, 4000, 6000, 8000, 1000, 500], first 1 kHz ↦ AUXU1K1, second ↦ AUXU1K2;
            // a fresh procedure per entry, so the repeated frequency starts from scratch.
            for key in ["AUXU1K1", "AUXU2K", "AUXU3K", "AUXU4K", "AUXU6K", "AUXU8K", "AUXU1K2", "AUXU500"] {
                guard let t = value(key) else { continue }
                summary.combinedEntries += 1
                summary.combinedExact += measure(t).0
            }
        }
        return summary
    }
}
