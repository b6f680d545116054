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

    /// Filters two signals at once through two cascades, one per lane of a vector (CKernels'
    /// `atk_biquad_pair`): `first` reads input0[0], input0[stride], … into output0[0..<count],
    /// `second` input1 into output1. Each output is bit for bit what `process` gives it (the
    /// kernel rounds as `step` does); the shorter cascade runs behind identity sections (y = x
    /// exactly). Costs about what the longer cascade costs alone. An output may be its own input
    /// when stride is 1.
    public static func processPair(_ first: inout BiquadCascade, _ second: inout BiquadCascade,
                                   input0: UnsafePointer<Double>, input1: UnsafePointer<Double>, stride: Int, count: Int,
                                   output0: UnsafeMutablePointer<Double>, output1: UnsafeMutablePointer<Double>) {
        precondition(stride >= 1 && count >= 0, "filter pair: stride below 1 or negative count")
        let sections = max(first.sections.count, second.sections.count)
        guard sections > 0 else {
            for i in 0..<count {
                output0[i] = input0[i * stride]
                output1[i] = input1[i * stride]
            }
            return
        }
        let identity = Biquad(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)
        let pad0 = sections - first.sections.count, pad1 = sections - second.sections.count
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 14 * sections) { buffer in
            let coefficients = buffer.baseAddress!, state = coefficients + 10 * sections
            for k in 0..<sections {
                let s0 = k < pad0 ? identity : first.sections[k - pad0], s1 = k < pad1 ? identity : second.sections[k - pad1]
                let row = coefficients + 10 * k
                (row[0], row[1], row[2], row[3], row[4]) = (s0.b0, s1.b0, s0.b1, s1.b1, s0.b2)
                (row[5], row[6], row[7], row[8], row[9]) = (s1.b2, s0.a1, s1.a1, s0.a2, s1.a2)
                state[4 * k] = k < pad0 ? 0 : first.state[2 * (k - pad0)]
                state[4 * k + 1] = k < pad1 ? 0 : second.state[2 * (k - pad1)]
                state[4 * k + 2] = k < pad0 ? 0 : first.state[2 * (k - pad0) + 1]
                state[4 * k + 3] = k < pad1 ? 0 : second.state[2 * (k - pad1) + 1]
            }
            // Up to four sections per pass; later passes run in place on the outputs.
            var done = 0
            while done < sections {
                let group = min(4, sections - done)
                let (in0, in1, step) = done == 0 ? (input0, input1, stride) : (UnsafePointer(output0), UnsafePointer(output1), 1)
                _ = atk_biquad_pair(coefficients + 10 * done, state + 4 * done, group, in0, in1, step, output0, output1, count)
                done += group
            }
            for k in pad0..<sections {
                first.state[2 * (k - pad0)] = state[4 * k]
                first.state[2 * (k - pad0) + 1] = state[4 * k + 2]
            }
            for k in pad1..<sections {
                second.state[2 * (k - pad1)] = state[4 * k + 1]
                second.state[2 * (k - pad1) + 1] = state[4 * k + 3]
            }
        }
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
/// y[n] = y[n−1] + α·(x[n] − y[n−1]), α = 1 − e^(−1/(fs·τ)), starting at 0 (analysis.md §3.4).
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
    /// averages of `first` go to `output` when given. Returns both maxima (−∞ for no input).
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
