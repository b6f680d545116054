import Foundation
import Testing
import TestSupport
@testable import SignalProcessing

/// The C kernels (CKernels) against the plain recurrences they replace, evaluated here one
/// value at a time: y += α·(x − y) and x². Issue 19 asks for results within 1e-12 relative.
@Suite struct KernelTests {
    @Test("exponential averaging four at a time equals y += α·(x − y) sample by sample (values and maximum within 1e-12 relative), F and S at 48 kHz")
    func exponentialAverage() {
        var random = SeededRandom(seed: 61672)
        let x = (0..<30_000).map { n in (n / 5_000 % 2 == 0 ? 1 : 0.01) * random.unit() }
        for tau in [0.125, 1.0] {
            var reference = ExponentialAverage(timeConstantSeconds: tau, sampleRateHz: 48_000)
            let expected = x.map { v -> Double in reference.add(v); return reference.value }
            var average = ExponentialAverage(timeConstantSeconds: tau, sampleRateHz: 48_000)
            var values: [Double] = [], maximum = -Double.infinity, start = 0, k = 0
            let sizes = [1, 3, 15, 16, 17, 4_099]
            while start < x.count {
                let end = min(x.count, start + sizes[k % sizes.count])
                var out = [Double](repeating: .nan, count: end - start)
                let blockMaximum = x[start..<end].withUnsafeBufferPointer { input in
                    out.withUnsafeMutableBufferPointer { average.add(input, averages: $0) }
                }
                maximum = max(maximum, blockMaximum)
                values += out
                start = end
                k += 1
            }
            for (value, reference) in zip(values, expected) {
                #expect(abs(value - reference) <= 1e-12 * reference, "τ = \(tau): \(value) vs \(reference)")
            }
            let expectedMaximum = expected.max()!
            #expect(abs(maximum - expectedMaximum) <= 1e-12 * expectedMaximum)
            #expect(abs(average.value - expected.last!) <= 1e-12 * expected.last!)
        }
        var empty = ExponentialAverage(timeConstantSeconds: 1, sampleRateHz: 8_000)
        #expect([Double]().withUnsafeBufferPointer { empty.add($0) } == -.infinity)
    }

    @Test("squares and their sum, by hand")
    func squares() {
        let x: [Double] = [1, -2, 3, -4, 5, 0.5]
        var out = [Double](repeating: 0, count: 6)
        let sum = x.withUnsafeBufferPointer { input in out.withUnsafeMutableBufferPointer { Statistics.squares(of: input, into: $0) } }
        #expect(out == [1, 4, 9, 16, 25, 0.25])
        #expect(sum == 55.25)
    }
}
