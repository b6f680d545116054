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

    /// Filters `samples` in place.
    @inlinable
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Double>) {
        let sections = self.sections
        state.withUnsafeMutableBufferPointer { state in
            for k in sections.indices {
                let s = sections[k]
                var z1 = state[2 * k], z2 = state[2 * k + 1]
                for i in samples.indices {
                    let x = samples[i]
                    let y = s.b0 * x + z1
                    z1 = s.b1 * x - s.a1 * y + z2
                    z2 = s.b2 * x - s.a2 * y
                    samples[i] = y
                }
                state[2 * k] = z1
                state[2 * k + 1] = z2
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
}
