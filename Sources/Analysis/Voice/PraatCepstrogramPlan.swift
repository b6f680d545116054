import Glibc
import SignalProcessing

/// "PowerCepstrogram: Get CPPS" over the frames of ``PraatCepstralAnalysis``: the plan of chunks
/// and the pass that flattens, averages and finds each frame's peak (Praat 6.1.38
/// LPC/PowerCepstrogram.cpp).
extension PraatCepstralAnalysis {
    /// "Get CPPS" frame by frame, in chunks of consecutive frames that can run on different
    /// threads: each frame's trend subtracted, the time averaging over the flattened frames
    /// around it, the quefrency averaging, the trend fitted again, the peak. A chunk makes the
    /// flattened frames it reads (those of its frames and `reach` either side) and keeps
    /// 2·reach + 1 of them: memory for that many frames, whatever the recording's length.
    struct Plan: Sendable {
        let frames: Frames
        let settings: PraatCepstralAnalysis
        /// ln q of every bin (bin 0: ln(½·dq), as the flattening takes it).
        let logQuefrency: [Double]
        /// The bins both trend fits read (``trendBins(count:dq:from:to:)``).
        let trendBins: ClosedRange<Int>?
        /// Frames whose values a window around frame f reads: those within reach + 1 either side.
        let reach: Int
        let averageTime: Bool
        /// The quefrency averaging's window of every bin (the same in every frame); empty when
        /// there is no quefrency averaging.
        let quefrencyWindows: [InterpolatedMean]
        let quefrencyTaps: TapTable
        /// The bins the peak search and its quefrency windows read: a frame whose flattened
        /// neighbours are all constant over these is smoothed in Praat's own order (below).
        let searchBins: ClosedRange<Int>
        static let chunkLength = 500
        var chunkCount: Int { (frames.count + Self.chunkLength - 1) / Self.chunkLength }

        init(frames: Frames, settings: PraatCepstralAnalysis) {
            self.frames = frames
            self.settings = settings
            let dq = frames.quefrencyStep, bins = frames.bins
            logQuefrency = (0..<bins).map { $0 == 0 ? log(0.5 * dq) : PraatCepstralAnalysis.logQuefrency($0, dq) }
            trendBins = PraatCepstralAnalysis.trendBins(count: bins, dq: dq, from: settings.trendFromSeconds, to: settings.trendToSeconds)
            averageTime = Int(clamping: settings.timeAveragingSeconds / settings.timeStep, rounding: .down, to: 0...Int.max) > 1
            reach = Int(clamping: (0.5 * settings.timeAveragingSeconds / settings.timeStep).rounded(.up), to: 0...1_000_000) + 2
            let qmax = dq * Double(bins - 1)
            let averageQuefrency = Int(clamping: settings.quefrencyAveragingSeconds / dq, rounding: .down, to: 0...Int.max) > 1
            quefrencyWindows = averageQuefrency ? (0..<bins).map { j in
                InterpolatedMean(count: bins, x1: 0, dx: dq, domain: 0...qmax, from: Double(j) * dq - 0.5 * settings.quefrencyAveragingSeconds,
                                 to: Double(j) * dq + 0.5 * settings.quefrencyAveragingSeconds)
            } : []
            quefrencyTaps = TapTable(quefrencyWindows.map(\.taps))
            let spread = Int(clamping: (settings.quefrencyAveragingSeconds / dq).rounded(.up), to: 0...bins) + 2
            let low = Int(clamping: (1 / settings.peakSearchCeilingHz / dq).rounded(.down), to: 0...bins - 1)
            let high = Int(clamping: (1 / settings.peakSearchFloorHz / dq).rounded(.up), to: 0...bins - 1)
            searchBins = max(0, min(low, high) - spread)...min(bins - 1, max(low, high) + spread)
        }

        /// One frame's CPP, dB, and the quefrency of its peak, s (NaN where undefined).
        struct Peak: Sendable {
            var cppDb = Double.nan
            var quefrencySeconds = Double.nan
        }

        /// The peaks of chunk `c`'s frames.
        func peaks(chunk c: Int) -> [Peak] {
            let frameRange = c * Self.chunkLength..<min(frames.count, (c + 1) * Self.chunkLength)
            let pass = Pass(self)
            return frameRange.map { f in
                guard let ((slope, intercept), (level, quefrency)) = pass.peak(pass.smoothed(f)) else { return Peak() }
                return Peak(cppDb: level - (slope * log(quefrency) + intercept), quefrencySeconds: quefrency)
            }
        }

        /// The chunks' peaks joined, CPPS, and the slice of the frame whose CPP is the median (the
        /// lower middle one), made again.
        func result(_ chunks: [[Peak]]) -> Result {
            let cpp = chunks.flatMap { $0.map(\.cppDb) }, peaks = chunks.flatMap { $0.map(\.quefrencySeconds) }
            let dq = frames.quefrencyStep
            var slice: Slice?
            let defined = cpp.indices.filter { cpp[$0].isFinite }.sorted { cpp[$0] < cpp[$1] }
            if !defined.isEmpty {
                let f = defined[(defined.count - 1) / 2]
                let pass = Pass(self)
                let smoothed = pass.smoothed(f)
                if let ((slope, intercept), (level, quefrency)) = pass.peak(smoothed) {
                    let shown = min(frames.bins, Int(clamping: settings.trendToSeconds / dq, rounding: .down, to: 0...frames.bins - 1) + 1)
                    slice = Slice(timeSeconds: frames.firstTime + Double(f) * frames.timeStep, quefrencySeconds: (0..<shown).map { Double($0) * dq },
                                  levelDb: smoothed.prefix(shown).map { 10 * log10($0 + 1e-30) }, trendSlopeDb: slope, trendInterceptDb: intercept,
                                  trendFromSeconds: settings.trendFromSeconds, trendToSeconds: settings.trendToSeconds,
                                  peakQuefrencySeconds: quefrency, peakDb: level, cppDb: cpp[f])
                }
            }
            var sum: Float80 = 0
            for value in cpp { sum += Float80(value) }
            let complete = cpp.allSatisfy(\.isFinite) && !cpp.isEmpty
            return Result(firstTime: frames.firstTime, timeStep: frames.timeStep, cppDb: cpp, peakQuefrencySeconds: peaks,
                          cppsDb: complete ? Double(sum) / Double(cpp.count) : nil, slice: slice)
        }
    }

    /// The flattened frames one chunk has made: a ring of the 2·reach + 1 a window reads and the
    /// three made ahead with them; and the buffers of one frame's work, made once per chunk.
    private final class Pass {
        let plan: Plan
        let bins: Int
        let rows: Int
        /// Row r % rows holds flattened frame r, for r in `made`.
        var ring: [Double]
        var made = 0..<0
        private var workspace: Frames.Workspace
        /// A frame's levels, dB; the trend fit's slopes and intercepts and its selection's
        /// scratch (two parts); the exponents of the flattening; the time-averaged and the smoothed
        /// frame: `bins` values each.
        private let buffer: UnsafeMutableBufferPointer<Double>
        private var levels: UnsafeMutableBufferPointer<Double> { part(0) }
        private var fit: UnsafeMutableBufferPointer<Double> { UnsafeMutableBufferPointer(rebasing: buffer[bins..<3 * bins]) }
        private var exponent: UnsafeMutableBufferPointer<Double> { part(3) }
        private var timeAveraged: UnsafeMutableBufferPointer<Double> { part(4) }
        private var smoothedValues: UnsafeMutableBufferPointer<Double> { part(5) }

        init(_ plan: Plan) {
            self.plan = plan
            bins = plan.frames.bins
            rows = 2 * plan.reach + 4
            ring = [Double](repeating: 0, count: rows * bins)
            workspace = plan.frames.workspace()
            buffer = .allocate(capacity: 6 * bins)
            buffer.initialize(repeating: 0)
        }

        deinit { buffer.deallocate() }

        private func part(_ k: Int) -> UnsafeMutableBufferPointer<Double> { UnsafeMutableBufferPointer(rebasing: buffer[k * bins..<(k + 1) * bins]) }

        /// PowerCepstrum_fitTrendLine, exponential decay, Theil's incomplete method: dB = a·ln q + b
        /// fitted to the levels in `levels` (10·lg(power + 10⁻³⁰)) over the plan's trend bins.
        private func trend() -> (Double, Double)? {
            guard let trendBins = plan.trendBins else { return nil }
            return plan.logQuefrency.withUnsafeBufferPointer { lnq in
                PraatCepstralAnalysis.theil(UnsafeBufferPointer(rebasing: lnq[trendBins]), UnsafeBufferPointer(rebasing: levels[trendBins]), scratch: fit)
            }
        }

        /// Flattened frames `indices` (up to four) made into their rows: each power cepstrum
        /// with the trend subtracted in dB (what lies below the trend set to 0 dB).
        func make(_ indices: Range<Int>) {
            let bins = self.bins, levels = self.levels, exponent = self.exponent
            plan.frames.cepstra(indices, in: &workspace)
            for (lane, index) in indices.enumerated() {
                workspace.cepstra.withUnsafeBufferPointer { PraatCepstralAnalysis.decibels(UnsafeBufferPointer(rebasing: $0[lane * bins..<(lane + 1) * bins]), into: levels) }
                let row = (index % rows) * bins
                let trend = self.trend()
                ring.withUnsafeMutableBufferPointer { ring in
                    let out = UnsafeMutableBufferPointer(rebasing: ring[row..<row + bins])
                    guard let (slope, intercept) = trend else {
                        _ = out.update(fromContentsOf: workspace.cepstra[lane * bins..<(lane + 1) * bins])
                        return
                    }
                    plan.logQuefrency.withUnsafeBufferPointer { lnq in
                        for j in 0..<bins {
                            exponent[j] = max(0, levels[j] - (slope * lnq[j] + intercept)) * M_LN10 / 10
                            out[j] = exponent[j]
                        }
                    }
                    VectorMath.exp(out)
                    // 1 exactly where the trend lies above (10^0); both values loaded, one chosen
                    // without a branch.
                    for j in 0..<bins {
                        let power = out[j]
                        out[j] = (exponent[j] == 0 ? 1 : power) - 1e-30
                    }
                }
            }
        }

        /// Makes the flattened frames in `needed` that are not yet made, four at a time (a
        /// chunk's frames ascend; the ring keeps the three made ahead).
        func ensure(_ needed: ClosedRange<Int>) {
            if needed.lowerBound < made.lowerBound || needed.lowerBound > made.upperBound {
                made = needed.lowerBound..<needed.lowerBound
            }
            while made.upperBound <= needed.upperBound {
                let group = made.upperBound..<min(made.upperBound + 4, plan.frames.count)
                make(group)
                made = max(made.lowerBound, group.upperBound - rows)..<group.upperBound
            }
        }

        /// The smoothed power cepstrum of frame f, valid until the next call.
        func smoothed(_ f: Int) -> UnsafeBufferPointer<Double> {
            let frames = plan.frames, settings = plan.settings, bins = self.bins, count = frames.count
            let out = timeAveraged
            let low = max(0, f - plan.reach), high = min(count - 1, f + plan.reach)
            ensure(low...high)
            let row = { (i: Int) in (i % self.rows) * bins }
            // Where the time-averaged frame is constant over the peak's bins (the frames it
            // averages are, as in digital silence), the smoothed values there differ only by the
            // rounding of the quefrency averaging, and that rounding decides the peak: such a
            // frame is averaged again in Praat's order, in 80 bits, as Praat does.
            var exact = false
            ring.withUnsafeBufferPointer { ring in
                if plan.averageTime {
                    let mid = frames.firstTime + Double(f) * frames.timeStep
                    let window = InterpolatedMean(count: count, x1: frames.firstTime, dx: frames.timeStep, domain: 0...frames.end,
                                                  from: mid - 0.5 * settings.timeAveragingSeconds, to: mid + 0.5 * settings.timeAveragingSeconds)
                    if let taps = window.taps {
                        // out[j] = Σ_k weight_k·r_k[j], k ascending from 0, several bins at a time.
                        withUnsafeTemporaryAllocation(of: UnsafePointer<Double>.self, capacity: taps.weights.count) { rows in
                            for k in taps.weights.indices { rows.initializeElement(at: k, to: ring.baseAddress! + row(taps.first - 1 + k)) }
                            taps.weights.withUnsafeBufferPointer { VectorMath.weightedRows(UnsafeBufferPointer(rows), weights: $0, into: out) }
                        }
                    } else {
                        out.update(repeating: .nan)
                    }
                    let level = out[plan.searchBins.lowerBound]
                    exact = plan.searchBins.allSatisfy { out[$0] == level }
                    if exact {
                        for j in 0..<bins { out[j] = window { ring[row($0 - 1) + j] } }
                    }
                } else {
                    _ = out.update(fromContentsOf: ring[row(f)..<row(f) + bins])
                    exact = plan.searchBins.allSatisfy { out[$0] == out[plan.searchBins.lowerBound] }
                }
            }
            guard !plan.quefrencyWindows.isEmpty else { return UnsafeBufferPointer(out) }
            let y = UnsafeBufferPointer(out), smoothed = smoothedValues
            if exact {
                for j in 0..<bins { smoothed[j] = plan.quefrencyWindows[j].callAsFunction { y[$0 - 1] } }
            } else {
                plan.quefrencyTaps.apply(y, into: smoothed)
            }
            return UnsafeBufferPointer(smoothed)
        }

        /// A smoothed frame's trend line and peak: (slope, intercept), (peak dB, quefrency s).
        func peak(_ values: UnsafeBufferPointer<Double>) -> (trend: (Double, Double), peak: (Double, Double))? {
            let settings = plan.settings, dq = plan.frames.quefrencyStep
            PraatCepstralAnalysis.decibels(values, into: levels)
            guard let trend = trend(),
                  let found = PraatCepstralAnalysis.maximum(UnsafeBufferPointer(levels), dx: dq, from: 1 / settings.peakSearchCeilingHz, to: 1 / settings.peakSearchFloorHz)
            else { return nil }
            return (trend, found)
        }
    }
}
