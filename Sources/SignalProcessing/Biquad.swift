import CKernels
import Glibc

/// One second-order section, coefficients normalised so that a0 = 1:
/// H(z) = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²) (SciPy's `sos` row layout
/// [b0, b1, b2, 1, a1, a2]).
public struct Biquad: Sendable, Hashable {
    public var b0, b1, b2, a1, a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
        self.a1 = a1
        self.a2 = a2
    }

    /// From a SciPy `sos` row; nil unless it has 6 values with a0 ≠ 0 (then it is normalised).
    public init?(sosRow row: [Double]) {
        guard row.count == 6, row[3] != 0, row.allSatisfy(\.isFinite) else { return nil }
        let a0 = row[3]
        self.init(b0: row[0] / a0, b1: row[1] / a0, b2: row[2] / a0, a1: row[4] / a0, a2: row[5] / a0)
    }

    /// Complex response at normalised angular frequency ω = 2πf/fs, as (magnitude, phase rad).
    public func response(omega: Double) -> (magnitude: Double, phase: Double) {
        // e^{-iω} powers
        let c1 = cos(omega), s1 = -sin(omega), c2 = cos(2 * omega), s2 = -sin(2 * omega)
        let nr = b0 + b1 * c1 + b2 * c2, ni = b1 * s1 + b2 * s2
        let dr = 1 + a1 * c1 + a2 * c2, di = a1 * s1 + a2 * s2
        let denominator = dr * dr + di * di
        let re = (nr * dr + ni * di) / denominator
        let im = (ni * dr - nr * di) / denominator
        return ((re * re + im * im).squareRoot(), atan2(im, re))
    }
}

/// A cascade of biquads run in transposed direct form II (numerically robust for streaming;
/// J. O. Smith, "Introduction to Digital Filters", 2007, "Transposed Direct-Forms"). State
/// persists between `process` calls, so a file can be filtered block by block.
public struct BiquadCascade: Sendable, Hashable {
    public let sections: [Biquad]
    /// Two state values per section.
    @usableFromInline var state: [Double]

    public init(sections: [Biquad]) {
        self.sections = sections
        state = Array(repeating: 0, count: 2 * sections.count)
    }

    /// Clears the filter memory.
    public mutating func reset() {
        for i in state.indices { state[i] = 0 }
    }

    /// Sets the memory to the steady state of a constant input `x` (as if `x` had been applied
    /// forever, scipy's `lfilter_zi` × x), so a signal that starts at a non-zero value has no
    /// start transient. In transposed direct form II with section output y = H(1)·x:
    /// z1 = y − b0·x and z2 = b2·x − a2·y.
    public mutating func prime(constantInput x: Double) {
        var input = x
        for (k, s) in sections.enumerated() {
            let denominator = 1 + s.a1 + s.a2
            let y = denominator == 0 ? 0 : input * (s.b0 + s.b1 + s.b2) / denominator
            state[2 * k] = y - s.b0 * input
            state[2 * k + 1] = s.b2 * input - s.a2 * y
            input = y
        }
    }

    /// Filters `samples` in place. Sections run in groups of up to three per pass over the
    /// samples, each sample through the whole group: the next section's arithmetic then overlaps
    /// the feedback latency of the one before (one pass per section waits on it in turn). The
    /// output is identical to one pass per section.
    @inlinable
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Double>) {
        let sections = self.sections
        state.withUnsafeMutableBufferPointer { state in
            var k = 0
            while k < sections.count {
                let group = min(3, sections.count - k)
                let memory = state.baseAddress! + 2 * k
                switch group {
                case 3: Self.run3(sections[k], sections[k + 1], sections[k + 2], samples, memory)
                case 2: Self.run2(sections[k], sections[k + 1], samples, memory)
                default: Self.run1(sections[k], samples, memory)
                }
                k += group
            }
        }
    }

    /// One transposed direct form II step: returns y and updates (z1, z2). z1 is summed as
    /// (b1·x + z2) − a1·y, so the feedback path from y is one multiply and one subtract.
    @inlinable @inline(__always)
    static func step(_ s: Biquad, _ x: Double, _ z1: inout Double, _ z2: inout Double) -> Double {
        let y = s.b0 * x + z1
        z1 = (s.b1 * x + z2) - s.a1 * y
        z2 = s.b2 * x - s.a2 * y
        return y
    }

    @inlinable
    static func run1(_ a: Biquad, _ samples: UnsafeMutableBufferPointer<Double>, _ state: UnsafeMutablePointer<Double>) {
        var a1 = state[0], a2 = state[1]
        for i in samples.indices { samples[i] = step(a, samples[i], &a1, &a2) }
        state[0] = a1; state[1] = a2
    }

    @inlinable
    static func run2(_ a: Biquad, _ b: Biquad, _ samples: UnsafeMutableBufferPointer<Double>, _ state: UnsafeMutablePointer<Double>) {
        var a1 = state[0], a2 = state[1], b1 = state[2], b2 = state[3]
        for i in samples.indices { samples[i] = step(b, step(a, samples[i], &a1, &a2), &b1, &b2) }
        state[0] = a1; state[1] = a2; state[2] = b1; state[3] = b2
    }

    @inlinable
    static func run3(_ a: Biquad, _ b: Biquad, _ c: Biquad, _ samples: UnsafeMutableBufferPointer<Double>, _ state: UnsafeMutablePointer<Double>) {
        var a1 = state[0], a2 = state[1], b1 = state[2], b2 = state[3], c1 = state[4], c2 = state[5]
        for i in samples.indices { samples[i] = step(c, step(b, step(a, samples[i], &a1, &a2), &b1, &b2), &c1, &c2) }
        state[0] = a1; state[1] = a2; state[2] = b1; state[3] = b2; state[4] = c1; state[5] = c2
    }

    /// The largest pole radius of the cascade, ρ = max |p| over the roots of z² + a1·z + a2 of
    /// every section (0 for an empty cascade; +∞ when a coefficient is not finite).
    public var largestPoleRadius: Double {
        sections.reduce(0) { radius, s in
            let discriminant = s.a1 * s.a1 - 4 * s.a2
            let section = discriminant < 0 ? s.a2.squareRoot() : (abs(s.a1) + discriminant.squareRoot()) / 2
            return section.isNaN ? .infinity : max(radius, section)  // Swift's max would drop a NaN
        }
    }

    /// Samples a cascade started from rest must run before its output matches one that has run
    /// all along: ⌈60 / −ln ρ⌉, after which the difference of the two states, a zero-input
    /// response, has decayed by ρ^n ≤ e^−60 ≈ 9e−27 (times a polynomial in n where poles repeat);
    /// what remains between the two is rounding (`KernelTests`). 22,252 samples for the A
    /// weighting at 48 kHz (ρ from the 20.6-Hz pair), 12,028 for K; at least two per section.
    /// Nil when a pole is on or outside the unit circle (the difference never decays) or the
    /// count would not fit an Int.
    public var warmUpSamples: Int? {
        let radius = largestPoleRadius
        guard radius < 1 else { return nil }
        // All poles at 0: the difference is gone after two steps per section.
        let samples = radius > 0 ? (60 / -log(radius)).rounded(.up) : 0
        return samples < 1e15 ? max(Int(samples), 2 * sections.count) : nil
    }

    /// Filters up to eight signals through their cascades at once, in the eight lanes of one
    /// vector (CKernels' `atk_biquad_lanes`, AVX-512, AVX2 or SSE2 chosen at run time): signal c
    /// reads inputs(c)[0], inputs(c)[stride], … (`count` values) into outputs(c)[0],
    /// outputs(c)[outputStride], …; a stride of −1 reads or writes backwards from the pointer. No
    /// allocation: the pointers come from the closures, the lanes' memory from the stack.
    ///
    /// Lanes that the signals leave free split each signal in time: with g = ⌊8 / filters.count⌋
    /// segments per signal (fewer when segments would be shorter than the warm-up W,
    /// ``warmUpSamples``), segment 0 continues the filter's state and gives exactly what
    /// ``process(_:)`` gives; segment k ≥ 1 starts from rest W samples before its first output, so
    /// its outputs differ from the sequential ones by rounding only: against the cascade in 80-bit
    /// arithmetic they err no more than the sequential outputs do, which for the A weighting is up
    /// to 3e−12 of the largest output at 192 kHz (the 20-Hz poles amplify rounding; measured in
    /// `KernelTests`), and energies per second agree to 1e−12. The filters end in the state
    /// of their last segment and the last few samples (fewer than g) run sequentially. With one
    /// segment per signal every output is bit for bit ``process(_:)``'s. This is the sequential
    /// recurrence's way out of its latency: each step waits on the last, about 9 cycles per
    /// sample; eight lanes share those cycles.
    ///
    /// Outputs may be their inputs when both strides are 1 or both −1 (every lane reads a position
    /// before any lane writes it); otherwise they must not overlap the inputs.
    ///
    /// With `written`, only the outputs of the steps in it are stored, step i at
    /// outputs(c)[(i − written.lowerBound)·outputStride]; the others are computed as before (the
    /// same segments, the same bits) and dropped: a zero-phase filter's backward pass writes the
    /// middle of its padded signal straight into the result.
    public static func processLanes(_ filters: inout [BiquadCascade], inputs: (Int) -> UnsafePointer<Double>, stride: Int, count: Int,
                                    outputs: (Int) -> UnsafeMutablePointer<Double>, outputStride: Int = 1, written: Range<Int>? = nil) {
        processLanes(&filters, input: { c, steps in inputs(c) + steps.lowerBound * stride }, stride: stride, count: count,
                     outputs: outputs, outputStride: outputStride, written: written)
    }

    /// ``processLanes(_:inputs:stride:count:outputs:outputStride:written:)`` with the inputs asked
    /// for by the steps each lane (or sequential run) reads: input(c, steps) points at signal c's
    /// step steps.lowerBound, readable for the steps' count. Each range is asked for once, before
    /// any step runs: a zero-phase filter reads the middle of its padded signal from the caller's
    /// array and copies only what the lanes at its ends read.
    static func processLanes(_ filters: inout [BiquadCascade], input: (Int, Range<Int>) -> UnsafePointer<Double>, stride: Int, count: Int,
                             outputs: (Int) -> UnsafeMutablePointer<Double>, outputStride: Int = 1, written: Range<Int>? = nil) {
        let signals = filters.count
        precondition((1...8).contains(signals), "filter lanes: 1 to 8 filters")
        precondition(stride != 0 && abs(outputStride) == 1 && count >= 0, "filter lanes: stride 0, output stride not ±1 or negative count")
        let written = written ?? 0..<count
        precondition(written.lowerBound >= 0 && written.upperBound <= count, "filter lanes: written steps outside 0..<count")
        guard count > 0 else { return }
        // The longest cascade, and the longest warm-up (`forgets` false: some filter never forgets its start).
        var sections = 0, warmUp = 0, forgets = true
        for filter in filters {
            sections = max(sections, filter.sections.count)
            if let samples = filter.warmUpSamples { warmUp = max(warmUp, samples) } else { forgets = false }
        }
        // Segments per signal: as many as the free lanes allow while each is at least a warm-up long.
        var segments = 1
        if forgets, warmUp > 0, count / warmUp - 1 >= 2 { segments = min(8 / signals, count / warmUp - 1) }
        guard (1...4).contains(sections), segments > 1 || signals > 1 else {
            for c in 0..<signals {
                filters[c].process(from: input(c, 0..<count), stride: stride, into: outputs(c), outputStride, 0..<count, written: written)
            }
            return
        }
        // Segment k of every signal covers outputs [W + k·S, W + (k + 1)·S) after W warm-up steps
        // from k·S; segment 0 covers [0, W + S) from the filter's state.
        let skipped = segments == 1 ? 0 : warmUp
        let length = (count - skipped) / segments
        let identity = Biquad(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)
        // Two allocations, so that up to three sections stay within the 1 KB the standard library
        // takes from the stack (no malloc per block).
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 40 * sections) { coefficientBuffer in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 16 * sections) { stateBuffer in
                let coefficients = coefficientBuffer.baseAddress!, state = stateBuffer.baseAddress!
                coefficientBuffer.initialize(repeating: 0)  // lanes not in use compute zeros
                stateBuffer.initialize(repeating: 0)
                withUnsafeTemporaryAllocation(of: UnsafePointer<Double>?.self, capacity: 8) { laneInputs in
                    withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Double>?.self, capacity: 8) { laneOutputs in
                        withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { window in
                            laneInputs.initialize(repeating: nil)
                            laneOutputs.initialize(repeating: nil)
                            window.initialize(repeating: 0)
                            for lane in 0..<(segments * signals) {
                                let c = lane % signals, segment = lane / signals
                                let pad = sections - filters[c].sections.count
                                for k in 0..<sections {
                                    let s = k < pad ? identity : filters[c].sections[k - pad]
                                    let row = coefficients + 40 * k + lane  // b0, b1, b2, a1, a2 eight apart
                                    (row[0], row[8], row[16], row[24], row[32]) = (s.b0, s.b1, s.b2, s.a1, s.a2)
                                    if segment == 0 && k >= pad {
                                        state[16 * k + lane] = filters[c].state[2 * (k - pad)]
                                        state[16 * k + 8 + lane] = filters[c].state[2 * (k - pad) + 1]
                                    }
                                }
                                // The lane's step n is the signal's step `base` + n; it writes from its
                                // first output (n = 0 for segment 0, W for the others) to its last,
                                // within `written`.
                                let base = segment * length
                                let first = max(segment == 0 ? 0 : skipped, written.lowerBound - base)
                                let end = max(first, min(skipped + length, written.upperBound - base))
                                (window[lane], window[8 + lane]) = (first, end)
                                laneInputs[lane] = input(c, base..<(base + skipped + length))
                                laneOutputs[lane] = outputs(c) + (base + first - written.lowerBound) * outputStride
                            }
                            // Lanes not in use read lane 0's input (all eight run).
                            for lane in (segments * signals)..<8 { laneInputs[lane] = laneInputs[0] }
                            _ = atk_biquad_lanes(coefficients, state, sections, laneInputs.baseAddress!, stride, laneOutputs.baseAddress!,
                                                 outputStride, window.baseAddress!, window.baseAddress! + 8, skipped + length)
                        }
                    }
                }
                for c in 0..<signals {
                    let lane = (segments - 1) * signals + c, pad = sections - filters[c].sections.count
                    for k in pad..<sections {
                        filters[c].state[2 * (k - pad)] = state[16 * k + lane]
                        filters[c].state[2 * (k - pad) + 1] = state[16 * k + 8 + lane]
                    }
                }
            }
        }
        // The last few samples, sequentially from the last segment's state.
        let done = skipped + segments * length
        for c in 0..<signals where done < count {
            filters[c].process(from: input(c, done..<count), stride: stride, into: outputs(c), outputStride, done..<count, written: written)
        }
    }

    /// Filters the steps in `range`, step i read at input[(i − range.lowerBound)·stride],
    /// sequentially, storing the outputs of the steps in `written` at
    /// output[(i − written.lowerBound)·outputStride].
    private mutating func process(from input: UnsafePointer<Double>, stride: Int, into output: UnsafeMutablePointer<Double>,
                                  _ outputStride: Int, _ range: Range<Int>, written: Range<Int>) {
        if outputStride == 1, written.lowerBound <= range.lowerBound, range.upperBound <= written.upperBound {
            let start = output + (range.lowerBound - written.lowerBound)
            for i in 0..<range.count { start[i] = input[i * stride] }
            process(UnsafeMutableBufferPointer(start: start, count: range.count))
            return
        }
        var values = (0..<range.count).map { input[$0 * stride] }
        process(&values)
        for (i, value) in zip(range, values) where written.contains(i) { output[(i - written.lowerBound) * outputStride] = value }
    }

    /// Frames per block for `channels` interleaved channels: 2^18 for one or two, so that
    /// ``processLanes(_:inputs:stride:count:outputs:)`` splits 48-kHz signals over its lanes with
    /// warm-ups of a fifth (A weighting, eight segments) to a quarter (K or A with C, four) of the
    /// block; fewer for more channels, so that a block holds at most 2^19 samples (4 MB of Double)
    /// whatever channel count a header claims. What the meters' callers read at a time.
    public static func laneBlockFrames(channels: Int) -> Int {
        max(1, min(1 << 18, (1 << 19) / max(1, channels)))
    }

    /// Filters `samples` in place through ``processLanes(_:inputs:stride:count:outputs:)`` with
    /// eight segments when the block is long enough for them (their recurrences side by side in
    /// vector lanes, where one recurrence waits on each step); the outputs differ from
    /// ``process(_:)``'s by rounding only, segment 0 not at all.
    public mutating func processLanes(_ samples: UnsafeMutableBufferPointer<Double>) {
        guard let base = samples.baseAddress else { return }
        var filters = [self]
        Self.processLanes(&filters, inputs: { _ in UnsafePointer(base) }, stride: 1, count: samples.count, outputs: { _ in base })
        self = filters[0]
    }

    /// Filters an array in place.
    public mutating func process(_ samples: inout [Double]) {
        samples.withUnsafeMutableBufferPointer { process($0) }
    }

    /// Magnitude response of the cascade at `frequencyHz` for `sampleRateHz`.
    public func magnitude(atFrequencyHz frequency: Double, sampleRateHz: Double) -> Double {
        sections.reduce(1) { $0 * $1.response(omega: 2 * Double.pi * frequency / sampleRateHz).magnitude }
    }
}

/// First-order exponential averaging of squared samples, the time weighting of IEC 61672-1:
/// y[n] = y[n−1] + α·(x[n] − y[n−1]), α = 1 − e^(−1/(fs·τ)), starting at 0 (docs/analyses.md §3.4).
public struct ExponentialAverage: Sendable {
    public let alpha: Double
    /// The current average.
    @usableFromInline var storage = 0.0
    public var value: Double { storage }

    public init(timeConstantSeconds tau: Double, sampleRateHz: Double) {
        alpha = 1 - exp(-1 / (sampleRateHz * tau))
    }

    @inlinable
    public mutating func add(_ x: Double) {
        storage += alpha * (x - storage)
    }

    /// Adds every value of `input` (C kernel `atk_exponential_average`, four at a time:
    /// y[k] = c^(k+1)·y[−1] + Σ α·c^(k−j)·x[j], c = 1 − α); writes each average to `output`
    /// when given (same count) and returns the largest (−∞ for no input).
    public mutating func add(_ input: UnsafeBufferPointer<Double>, averages output: UnsafeMutableBufferPointer<Double>? = nil) -> Double {
        guard let base = input.baseAddress, !input.isEmpty else { return -.infinity }
        precondition(output.map { $0.count >= input.count } ?? true, "averages buffer shorter than the input")
        return atk_exponential_average(alpha, &storage, base, output?.baseAddress, input.count)
    }

    /// Two averages of one input in one pass (`atk_exponential_average_pair`: the two
    /// recurrences overlap each other's latency), each as `add(_:averages:)` computes it; the
    /// averages of `first` go to `output` when given, which may be the input's own memory (each
    /// block is read before it is written). Returns both maxima (−∞ for no input).
    public static func add(_ input: UnsafeBufferPointer<Double>, to first: inout ExponentialAverage, averages output: UnsafeMutableBufferPointer<Double>?,
                           and second: inout ExponentialAverage) -> (first: Double, second: Double) {
        guard let base = input.baseAddress, !input.isEmpty else { return (-.infinity, -.infinity) }
        precondition(output.map { $0.count >= input.count } ?? true, "averages buffer shorter than the input")
        var maxima = (first: -Double.infinity, second: -Double.infinity)
        atk_exponential_average_pair(first.alpha, &first.storage, output?.baseAddress, &maxima.first, second.alpha, &second.storage, nil,
                                     &maxima.second, base, input.count)
        return maxima
    }
}
