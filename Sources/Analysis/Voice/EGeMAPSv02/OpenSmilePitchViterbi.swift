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

    /// The frequency and voicing a frame with `candidates` takes in `state`: the candidate's (0 for
    /// an empty slot), and in the unvoiced state frequency 0 with the first candidate's voicing.
    static func choice(_ candidates: [OpenSmileSubharmonicSummation.Candidate], state: Int) -> (frequencyHz: Double, voicing: Double) {
        if state < candidates.count { return (candidates[state].frequencyHz, candidates[state].voicing) }
        return (0, state == slots ? candidates.first?.voicing ?? 0 : 0)
    }

    /// The smoother frame by frame: ``push(_:)`` takes each frame's candidates in order and gives
    /// the states of the frames it decides (in order, from the first undecided one: at most
    /// `bufferLength` frames stay undecided), ``finish()`` those of the rest. Memory: the paths
    /// of the last `bufferLength` frames.
    struct Smoother {
        private static let states = slots + 1, unvoiced = slots
        /// The previous and the current frame's slots as openSMILE holds them (single precision).
        private var frequency = [Double](repeating: 0, count: 2 * slots), voicing = [Double](repeating: 0, count: 2 * slots)
        private var paths = [Int](repeating: 0, count: states * bufferLength), nextPaths = [Int](repeating: 0, count: states * bufferLength)
        private var cost = [Double](repeating: 0, count: states), nextCost = [Double](repeating: 0, count: states)
        private var lastChange = 1.0
        /// Frames pushed, and the last decided (−1: none).
        private(set) var count = 0
        private var decidedThrough = -1

        /// The slots of the current frame (`current` 1) or the previous one (0).
        private func local(_ current: Int, _ state: Int) -> Double {
            let base = current * slots
            if state == Self.unvoiced {
                return (0..<slots).contains { voicing[base + $0] >= cutoff } ? wLocal * wThr : 0
            }
            let v = min(max(voicing[base + state], 0.01), 1)
            return (-log(v) + (v < cutoff ? wThr : 0)) * wLocal + rangeWeight(frequency[base + state]) * wRange
        }

        private mutating func transition(into state: Int, from previous: Int) -> Double {
            switch (state == Self.unvoiced, previous == Self.unvoiced) {
            case (true, true): return wUnvoicedToUnvoiced
            case (false, false):
                let f0 = frequency[previous], f1 = frequency[slots + state]
                guard f0 != 0, f1 != 0 else { return 999 }
                let r = log(Double(Float(f1) / Float(f0)))
                defer { lastChange = r }
                return wTvv * abs(r) + wTvvd * abs(r - lastChange)
            default:
                lastChange = 0
                return wTvuv
            }
        }

        private func cheapest() -> Int { (1..<Self.states).reduce(0) { cost[$1] < cost[$0] ? $1 : $0 } }

        mutating func push(_ candidates: [OpenSmileSubharmonicSummation.Candidate]) -> [Int] {
            let states = Self.states, t = count
            for k in 0..<slots {
                (frequency[k], voicing[k]) = (frequency[slots + k], voicing[slots + k])
                let candidate = k < candidates.count ? candidates[k] : nil
                frequency[slots + k] = candidate.map { Double(Float($0.frequencyHz)) } ?? 0
                voicing[slots + k] = candidate.map { Double(Float($0.voicing)) } ?? 0
            }
            count += 1
            guard t > 0 else {
                for state in 0..<states {
                    cost[state] = local(1, state)
                    paths[state * bufferLength] = state
                }
                return []
            }
            for state in 0..<states {
                var best = transition(into: state, from: 0) + cost[0], from = 0
                for previous in 1..<states {
                    let total = transition(into: state, from: previous) + cost[previous]
                    if total < best { (best, from) = (total, previous) }
                }
                nextCost[state] = best + local(1, state)
                for k in 0..<bufferLength { nextPaths[state * bufferLength + k] = paths[from * bufferLength + k] }
                nextPaths[state * bufferLength + t % bufferLength] = state
            }
            swap(&cost, &nextCost)
            swap(&paths, &nextPaths)
            var decided: [Int] = []
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
            return decided
        }

        /// The states of the frames not yet decided, from the path of the cheapest state.
        mutating func finish() -> [Int] {
            let last = cheapest()
            defer { decidedThrough = count - 1 }
            return ((decidedThrough + 1)..<count).map { paths[last * bufferLength + $0 % bufferLength] }
        }
    }
}
