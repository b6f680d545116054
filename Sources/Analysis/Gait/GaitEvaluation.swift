import SignalProcessing

/// Scoring of step counts and cadence against foot-contact ground truth, as docs/analyses.md §2.10
/// prescribes for the Oxford Step Counter walks.
public enum GaitEvaluation {
    /// One walk's outcome.
    public struct Walk: Sendable {
        public var name: String
        public var groundTruthSteps: Int
        public var detectedSteps: Int
        /// 100 · (detected − truth) / truth.
        public var countErrorPercent: Double
        /// Per 20-s window: (ground truth, estimate) cadence, steps/min; estimate NaN if none.
        public var windows: [(truth: Double, estimate: Double)]
        /// False when the ground truth cannot be right: fewer than 0.2 steps/s over its span
        /// (e.g. insoles reading "contact" throughout). Such walks are listed, not summarized.
        public var groundTruthUsable: Bool
    }

    /// Scores `signal` against ground-truth step times (s, the same clock).
    ///
    /// Count: stepCount of the whole walk. Cadence: 20-s windows, 10-s hop, between the first and
    /// last ground-truth step; truth = 60·(k − 1)/(t_k − t_1) over the k ≥ 10 steps inside; the
    /// analyzer sees only the window's samples.
    public static func evaluate(
        name: String, signal: MotionSignal, groundTruth: [Double], parameters: GaitAnalysis.Parameters = .init(),
        windowSeconds: Double = 20, hopSeconds: Double = 10
    ) -> Walk {
        let result = GaitAnalysis.analyze(signal, parameters: parameters, windows: false)
        let detected = result.stepTimes.count
        var windows: [(Double, Double)] = []
        // The windows visited are bounded by the steps, whatever their times claim: a window
        // without a step jumps to the last hop before the next step (a step at 10^10 s is one
        // window away, not 10^9), and the start must move, so each step is in at most
        // ⌈window/hop⌉ + 1 windows visited. Steps and, when in time order, samples are found by
        // bisection.
        let truthTimes = groundTruth.sorted()
        let inOrder = signal.time.indices.dropFirst().allSatisfy { signal.time[$0 - 1] <= signal.time[$0] }
        if let first = truthTimes.first, let last = truthTimes.last {
            var start = first
            while start + windowSeconds <= last {
                let end = start + windowSeconds
                let from = truthTimes.firstIndex(atLeast: start), to = truthTimes.firstIndex(atLeast: end)
                if to - from >= 10 {
                    var samples = 0..<0
                    if inOrder {
                        samples = signal.time.firstIndex(atLeast: start)..<signal.time.firstIndex(atLeast: end)
                    } else {
                        let inside = signal.time.indices.filter { signal.time[$0] >= start && signal.time[$0] < end }
                        if let lower = inside.first, let upper = inside.last { samples = lower..<(upper + 1) }
                    }
                    if !samples.isEmpty {
                        let truth = 60 * Double(to - from - 1) / (truthTimes[to - 1] - truthTimes[from])
                        let estimate = GaitAnalysis.cadence(signal.slice(samples), parameters: parameters) ?? .nan
                        windows.append((truth, estimate))
                    }
                }
                var next = start + hopSeconds
                if from == to, to < truthTimes.count {
                    next = max(next, first + ((truthTimes[to] - first) / hopSeconds).rounded(.down) * hopSeconds)
                }
                guard next > start else { break }
                start = next
            }
        }
        let truth = groundTruth.count
        return Walk(name: name, groundTruthSteps: truth, detectedSteps: detected,
                    countErrorPercent: truth > 0 ? 100 * Double(detected - truth) / Double(truth) : .nan, windows: windows,
                    groundTruthUsable: groundTruthUsable(steps: truth, signal: signal))
    }

    /// Whether `steps` ground-truth steps can be right for a recording as long as `signal`: at
    /// least 0.2 steps/s over its span (a step counter that missed most of the walk is not truth).
    public static func groundTruthUsable(steps: Int, signal: MotionSignal) -> Bool {
        let span = signal.time.last.map { $0 - signal.time[0] } ?? 0
        return Double(steps) >= 0.2 * span
    }

    /// Summary over walks: mean/median |count error| (%), and cadence error statistics.
    public struct Summary: Sendable {
        /// Walks summarised.
        public var walks: Int
        /// Mean |step-count error|, % of the true count.
        public var meanAbsoluteCountErrorPercent: Double
        /// Median |step-count error|, %.
        public var medianAbsoluteCountErrorPercent: Double
        /// The largest |step-count error|, % (signed).
        public var worstCountErrorPercent: Double
        /// 20-s cadence windows with a true cadence.
        public var windows: Int
        /// Mean |cadence error| over the windows, steps/min.
        public var cadenceMeanAbsoluteError: Double
        /// Median |cadence error|, steps/min.
        public var cadenceMedianAbsoluteError: Double
        /// Mean signed cadence error (estimate − truth), steps/min.
        public var cadenceBias: Double
        /// SD of the signed cadence error, steps/min.
        public var cadenceSd: Double
        /// Share of windows within ±5 steps/min.
        public var cadenceWithin5: Double
        /// Windows whose estimate/truth ratio is within 10 % of 0.5 or 2.
        public var halvingOrDoubling: Int
        /// Windows without an estimate.
        public var missing: Int
    }

    public static func summarize(_ allWalks: [Walk]) -> Summary {
        let walks = allWalks.filter(\.groundTruthUsable)
        let count = walks.map { abs($0.countErrorPercent) }
        let pairs = walks.flatMap(\.windows)
        let estimated = pairs.filter { !$0.estimate.isNaN }
        let errors = estimated.map { $0.estimate - $0.truth }
        let absolute = errors.map(abs)
        let ratios = estimated.map { $0.estimate / $0.truth }
        return Summary(
            walks: walks.count,
            meanAbsoluteCountErrorPercent: count.statistic(Statistics.mean),
            medianAbsoluteCountErrorPercent: count.statistic(Statistics.median),
            worstCountErrorPercent: walks.map(\.countErrorPercent).max { abs($0) < abs($1) } ?? .nan,
            windows: pairs.count,
            cadenceMeanAbsoluteError: absolute.statistic(Statistics.mean),
            cadenceMedianAbsoluteError: absolute.statistic(Statistics.median),
            cadenceBias: errors.statistic(Statistics.mean),
            cadenceSd: errors.statistic(Statistics.standardDeviation),
            cadenceWithin5: absolute.isEmpty ? .nan : Double(absolute.filter { $0 <= 5 }.count) / Double(absolute.count),
            halvingOrDoubling: ratios.filter { abs($0 - 0.5) <= 0.05 || abs($0 - 2) <= 0.2 }.count,
            missing: pairs.count - estimated.count)
    }
}

// MARK: - Leave-one-group-out tuning

extension GaitEvaluation {
    /// A walk with its ground truth and the group (participant) it belongs to.
    public struct LabelledWalk: Sendable {
        public var name: String
        public var group: String
        public var signal: MotionSignal
        /// Ground-truth step times, s.
        public var truth: [Double]

        public init(name: String, group: String, signal: MotionSignal, truth: [Double]) {
            self.name = name
            self.group = group
            self.signal = signal
            self.truth = truth
        }
    }

    /// One fold: the group held out, the grid point chosen on the others, and the held-out scores.
    public struct Fold: Sendable {
        public var heldOutGroup: String
        public var parameters: GaitAnalysis.Parameters
        public var walks: [Walk]
    }

    /// The tuning grid the defaults were chosen from: prominence 0.3/0.5/0.7 × stride-mode ratio
    /// 0.35/0.5/0.65 × walking band fraction 0.1/0.15/0.3 × stride regularity 0.2/0.3/0.4.
    public static var tuningGrid: [GaitAnalysis.Parameters] {
        var grid: [GaitAnalysis.Parameters] = []
        for prominence in [0.3, 0.5, 0.7] {
            for strideMode in [0.35, 0.5, 0.65] {
                for band in [0.1, 0.15, 0.3] {
                    for regularity in [0.2, 0.3, 0.4] {
                        var p = GaitAnalysis.Parameters()
                        p.prominenceFactor = prominence
                        p.strideModeRatio = strideMode
                        p.walkingBandFraction = band
                        p.minimumStrideRegularity = regularity
                        grid.append(p)
                    }
                }
            }
        }
        return grid
    }

    /// Training loss: mean |count error| % plus the median |cadence error| (steps/min).
    public static func loss(_ walks: [Walk]) -> Double {
        let s = summarize(walks)
        return s.meanAbsoluteCountErrorPercent + s.cadenceMedianAbsoluteError
    }

    /// Leave-one-group-out cross-validation: for each group, the grid point with the least
    /// training ``loss(_:)`` on the other groups scores the held-out group's walks. Every walk is
    /// scored with every grid point once, in parallel (the folds only regroup those scores).
    public static func leaveOneGroupOut(_ walks: [LabelledWalk], grid: [GaitAnalysis.Parameters] = tuningGrid) -> [Fold] {
        guard !grid.isEmpty else { return [] }
        let table = Parallel.map(grid.count, parallel: true) { g in
            walks.map { evaluate(name: $0.name, signal: $0.signal, groundTruth: $0.truth, parameters: grid[g]) }
        }
        return Set(walks.map(\.group)).sorted().map { group in
            let train = walks.indices.filter { walks[$0].group != group }
            let test = walks.indices.filter { walks[$0].group == group }
            let losses = grid.indices.map { g in loss(train.map { table[g][$0] }) }
            let best = grid.indices.min { losses[$0] < losses[$1] }!
            return Fold(heldOutGroup: group, parameters: grid[best], walks: test.map { table[best][$0] })
        }
    }
}

extension Array where Element == Double {
    /// The first index whose element is ≥ `value` in these ascending numbers (`count` when none), by bisection.
    func firstIndex(atLeast value: Double) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = low + (high - low) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
