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

    /// Filters `input` into `output` (at least as long; not overlapping `input`).
    public mutating func process(_ input: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>) {
        precondition(output.count >= input.count, "filter output shorter than its input")
        let target = UnsafeMutableBufferPointer(rebasing: output[0..<input.count])
        _ = target.update(fromContentsOf: input)
        process(target)
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
}
