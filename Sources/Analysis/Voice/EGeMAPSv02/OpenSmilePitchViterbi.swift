import Glibc

/// The pitch path through the frames' candidates as openSMILE 2.6.0's cPitchSmootherViterbi
/// chooses it with eGeMAPSv02's settings (`wLocal = 2`, `wTvv = 10`, `wTvvd = 5`, `wTvuv = 10`,
/// `wThr = 4`, `wRange = 1`, `bufferLength = 40`, voicing cutoff 0.7), rules and all, read from
/// its published source (values are its single-precision ones):
///
/// - states: the six candidate slots of a frame (a slot without a candidate has frequency and
///   voicing 0) and the unvoiced state;
/// - a candidate state of frequency f and voicing v (clipped to 0.01…1): wLocal·(−ln v + wThr·[v < 0.7])
///   + wRange·w(f), w(f) = 1 − f/100 below 100 Hz, 0 up to 350 Hz, (f − 350)/250 up to 600 Hz, 1.2
///   above, 2 for f ≤ 0; the unvoiced state: wLocal·wThr when any candidate's voicing is ≥ 0.7, else 0;
/// - candidate to candidate: 999 when either frequency is 0, else wTvv·|r| + wTvvd·|r − r′| with
///   r = ln(f/f_previous) and r′ the r of the pair evaluated just before — the states are
///   evaluated current state by current state, previous state by previous state, and r′ is 0 after
///   a transition into or out of the unvoiced state (1 before the first); openSMILE sets wTvvd
///   to wTvv's value, 10; candidate to unvoiced or back: wTvuv; unvoiced to unvoiced: 1;
/// - the best predecessor is the first with the least cost; a frame is decided once the paths
///   into every state agree on it, or, when 40 frames are undecided, the oldest is taken from the
///   path of the state with the least cost; at the end the rest from that path.
enum OpenSmilePitchViterbi {
    static let cutoff = Double(Float(0.7))
    static let wLocal = 2.0, wTvv = 10.0, wTvvd = 10.0, wTvuv = 10.0, wThr = 4.0, wRange = 1.0, wUnvoicedToUnvoiced = 1.0
    static let slots = OpenSmileSubharmonicSummation.candidates, bufferLength = 40

    /// w(f), the frequency-range weight.
    static func rangeWeight(_ f: Double) -> Double {
        if f > 0, f < 100 { return 1 - f / 100 }
        if f >= 100, f < 350 { return 0 }
        if f >= 350, f < 600 { return (f - 350) / 250 }
        return f >= 600 ? 1.2 : 2
    }

    /// The chosen frequency of each frame (0: unvoiced or an empty slot), its voicing (the chosen
    /// candidate's, 0 for an empty slot, the first slot's in an unvoiced frame), and how many
    /// frames were decided before the last frame came (the rest are decided at the end).
    static func path(_ frames: [[OpenSmileSubharmonicSummation.Candidate]]) -> (frequencyHz: [Double], voicing: [Double], decided: Int) {
        guard !frames.isEmpty else { return ([], [], 0) }
        let states = slots + 1, unvoiced = slots
        // Each frame's slots as openSMILE holds them (single precision), frequency and voicing.
        var frequency = [Double](repeating: 0, count: frames.count * slots), voicing = frequency
        for (t, frame) in frames.enumerated() {
            for (k, candidate) in frame.prefix(slots).enumerated() {
                frequency[t * slots + k] = Double(Float(candidate.frequencyHz))
                voicing[t * slots + k] = Double(Float(candidate.voicing))
            }
        }
        func local(_ t: Int, _ state: Int) -> Double {
            if state == unvoiced {
                return (0..<slots).contains { voicing[t * slots + $0] >= cutoff } ? wLocal * wThr : 0
            }
            let v = min(max(voicing[t * slots + state], 0.01), 1)
            return (-log(v) + (v < cutoff ? wThr : 0)) * wLocal + rangeWeight(frequency[t * slots + state]) * wRange
        }
        var lastChange = 1.0
        func transition(_ t: Int, into state: Int, from previous: Int) -> Double {
            switch (state == unvoiced, previous == unvoiced) {
            case (true, true): return wUnvoicedToUnvoiced
            case (false, false):
                let f0 = frequency[(t - 1) * slots + previous], f1 = frequency[t * slots + state]
                guard f0 != 0, f1 != 0 else { return 999 }
                let r = log(Double(Float(f1) / Float(f0)))
                defer { lastChange = r }
                return wTvv * abs(r) + wTvvd * abs(r - lastChange)
            default:
                lastChange = 0
                return wTvuv
            }
        }
        // Each state's path over the last bufferLength frames (a ring), and the decisions.
        var paths = [Int](repeating: 0, count: states * bufferLength), nextPaths = paths
        var cost = (0..<states).map { local(0, $0) }, nextCost = cost
        for state in 0..<states { paths[state * bufferLength] = state }
        var decided = [Int](), decidedThrough = -1
        func cheapest() -> Int { (1..<states).reduce(0) { cost[$1] < cost[$0] ? $1 : $0 } }
        for t in 1..<frames.count {
            for state in 0..<states {
                var best = transition(t, into: state, from: 0) + cost[0], from = 0
                for previous in 1..<states {
                    let total = transition(t, into: state, from: previous) + cost[previous]
                    if total < best { (best, from) = (total, previous) }
                }
                nextCost[state] = best + local(t, state)
                for k in 0..<bufferLength { nextPaths[state * bufferLength + k] = paths[from * bufferLength + k] }
                nextPaths[state * bufferLength + t % bufferLength] = state
            }
            swap(&cost, &nextCost)
            swap(&paths, &nextPaths)
            let count = t + 1
            if count - decidedThrough > bufferLength {
                decidedThrough += 1
                decided.append(paths[cheapest() * bufferLength + decidedThrough % bufferLength])
            } else {
                while decidedThrough + 1 < count {
                    let n = (decidedThrough + 1) % bufferLength, x = paths[n]
                    guard (1..<states).allSatisfy({ paths[$0 * bufferLength + n] == x }) else { break }
                    decidedThrough += 1
                    decided.append(x)
                }
            }
        }
        let settled = decided.count, last = cheapest()
        while decided.count < frames.count { decided.append(paths[last * bufferLength + decided.count % bufferLength]) }
        var chosen = [Double](repeating: 0, count: frames.count), chosenVoicing = chosen
        for (t, state) in decided.enumerated() {
            let frame = frames[t]
            if state < frame.count {
                chosen[t] = frame[state].frequencyHz
                chosenVoicing[t] = frame[state].voicing
            } else if state == unvoiced {
                chosenVoicing[t] = frame.first?.voicing ?? 0
            }
        }
        return (chosen, chosenVoicing, settled)
    }
}
