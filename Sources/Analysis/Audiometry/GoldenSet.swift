import SensorData

/// ResearchKit's golden-set protocol (docs/audiometry.md §4; ResearchKit `ORKAudiometryTests.m`): each
/// audiogram drives the ResearchKit procedure with a listener that hears iff the level ≥ its
/// threshold; run A uses AUXU1K1 for 1 kHz, run B AUXU1K2, run C both 1 kHz entries in one list.
public enum GoldenSet {
    public struct Summary: Sendable, Hashable {
        /// Audiograms of the golden set run.
        public var audiograms = 0
        /// Run A (1 kHz ↦ AUXU1K1): entries and exact thresholds.
        public var runAEntries = 0, runAExact = 0
        /// Run B (1 kHz ↦ AUXU1K2): entries and exact thresholds.
        public var runBEntries = 0, runBExact = 0
        /// The run with both 1-kHz entries in one list: entries and exact thresholds.
        public var combinedEntries = 0, combinedExact = 0
        /// Fewest and most presentations an entry took.
        public var minimumPresentations = Int.max, maximumPresentations = 0

        public var thresholdsTotal: Int { runAEntries + runBEntries }
        public var thresholdsExact: Int { runAExact + runBExact }
    }

    public static func run(_ table: AudiogramTable) -> Summary {
        var summary = Summary()
        summary.audiograms = table.rows.count
        let index = Dictionary(uniqueKeysWithValues: table.columns.enumerated().map { ($1, $0) })
        let others = ["AUXU500", "AUXU2K", "AUXU3K", "AUXU4K", "AUXU6K", "AUXU8K"]
        /// Runs one entry: 1 when the threshold is recovered exactly; the presentation range is updated.
        func measure(_ truth: Double) -> Int {
            var engine = ResearchKitThresholdProcedure()
            engine.run { $0 >= truth ? .heard : .missed }
            let count = engine.presentations.count
            summary.minimumPresentations = min(summary.minimumPresentations, count)
            summary.maximumPresentations = max(summary.maximumPresentations, count)
            return engine.threshold == truth ? 1 : 0
        }
        for row in table.rows {
            func value(_ key: String) -> Double? { index[key].map { row[$0] }.flatMap { $0.isNaN ? nil : $0 } }
            /// Entries and exact thresholds of one list of columns.
            func run(_ keys: [String]) -> (entries: Int, exact: Int) {
                let truths = keys.compactMap(value)
                return (truths.count, truths.reduce(0) { $0 + measure($1) })
            }
            let a = run(others + ["AUXU1K1"]), b = run(others + ["AUXU1K2"])
            summary.runAEntries += a.entries
            summary.runAExact += a.exact
            summary.runBEntries += b.entries
            summary.runBExact += b.exact
            // Run C: [1000, 2000, 3000, 4000, 6000, 8000, 1000, 500], first 1 kHz ↦ AUXU1K1, second ↦ AUXU1K2;
            // a fresh procedure per entry, so the repeated frequency starts from scratch.
            let c = run(["AUXU1K1", "AUXU2K", "AUXU3K", "AUXU4K", "AUXU6K", "AUXU8K", "AUXU1K2", "AUXU500"])
            summary.combinedEntries += c.entries
            summary.combinedExact += c.exact
        }
        return summary
    }
}
