import Glibc

/// The pitch path through the frames' candidates, after openSMILE 2.6.0's cPitchSmootherViterbi
/// (eGeMAPSv02 sets `wLocal = 2`, `wTvv = 10`, `wTvvd = 5`, `wTvuv = 10`, `wThr = 4`, `wTuu = 0`,
/// `wRange = 1`, voicing cutoff 0.7). openSMILE documents the weights' roles, not its costs; the
/// costs below have those roles, and their weights are fitted to openSMILE's output (openSMILE's
/// own candidates of 18 files — the Praat corpus, the real voices, the mPower phonation — random
/// search for the largest share of frames with its F0: 94.3 %, against 91.4 % with the
/// configuration's weights in these costs; the real sustained vowels 100 %):
///
/// - a voiced state (a candidate of frequency f and voicing v): wLocal·(1 − v) + wThr·[v < 0.7]
///   + wRange·r(f), r = log₂(100/f) below 100 Hz, log₂(f/f_high) above f_high, 0 between;
/// - the unvoiced state (v₁, the voicing of the frame's first candidate, 0 for none):
///   wLocal·v₁ + wThr·[v₁ ≥ 0.7];
/// - voiced to voiced: wTvv·|d| + wTvvd·|d − d′|, d = log₂(f/f_previous), d′ the step into the
///   previous state on its best path; voiced to unvoiced or back: wTvuv; unvoiced to unvoiced: 0.
///
/// The whole recording is one trellis (openSMILE decides within 40 frames).
enum OpenSmilePitchViterbi {
    static let cutoff = 0.7
    static let wLocal = 0.573, wTvv = 3.554, wTvvd = 2.334, wTvuv = 4.973, wThr = 4.023, wTuu = 0.0, wRange = 0.830
    static let lowHz = 100.0, highHz = 458.9

    /// The chosen frequency of each frame (0: unvoiced) and its voicing (the chosen candidate's,
    /// or the first candidate's in an unvoiced frame).
    static func path(_ frames: [[OpenSmileSubharmonicSummation.Candidate]]) -> (frequencyHz: [Double], voicing: [Double]) {
        guard !frames.isEmpty else { return ([], []) }
        // State 0 is unvoiced, state c + 1 candidate c.
        func local(_ frame: [OpenSmileSubharmonicSummation.Candidate], _ state: Int) -> Double {
            if state == 0 {
                let v = frame.first?.voicing ?? 0
                return wLocal * v + (v >= cutoff ? wThr : 0)
            }
            let c = frame[state - 1]
            let f = c.frequencyHz
            let range = f < lowHz ? log2(lowHz / f) : f > highHz ? log2(f / highHz) : 0
            return wLocal * (1 - c.voicing) + (c.voicing < cutoff ? wThr : 0) + wRange * range
        }
        // Costs and steps of the states of one frame; back pointers of every frame in one array.
        let width = frames.reduce(0) { max($0, $1.count) } + 1
        var cost = [Double](repeating: .infinity, count: width), step = [Double](repeating: 0, count: width)
        var nextCost = cost, nextStep = step
        var back = [Int](repeating: 0, count: frames.count * width)
        for state in 0...frames[0].count { cost[state] = local(frames[0], state) }
        for t in 1..<frames.count {
            let previous = frames[t - 1], frame = frames[t]
            for state in 0...frame.count {
                var best = Double.infinity, bestFrom = 0, bestStep = 0.0
                for p in 0...previous.count {
                    var transition = 0.0, d = 0.0
                    switch (p, state) {
                    case (0, 0): transition = wTuu
                    case (0, _), (_, 0): transition = wTvuv
                    default:
                        d = log2(frame[state - 1].frequencyHz / previous[p - 1].frequencyHz)
                        transition = wTvv * abs(d) + wTvvd * abs(d - step[p])
                    }
                    if cost[p] + transition < best { (best, bestFrom, bestStep) = (cost[p] + transition, p, d) }
                }
                nextCost[state] = best + local(frame, state)
                nextStep[state] = bestStep
                back[t * width + state] = bestFrom
            }
            swap(&cost, &nextCost)
            swap(&step, &nextStep)
        }
        let last = frames[frames.count - 1].count
        var state = (0...last).min { cost[$0] < cost[$1] } ?? 0
        var frequency = [Double](repeating: 0, count: frames.count), voicing = frequency
        for t in stride(from: frames.count - 1, through: 0, by: -1) {
            let frame = frames[t]
            if state > 0 {
                frequency[t] = frame[state - 1].frequencyHz
                voicing[t] = frame[state - 1].voicing
            } else {
                voicing[t] = frame.first?.voicing ?? 0
            }
            if t > 0 { state = back[t * width + state] }
        }
        return (frequency, voicing)
    }
}
