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

    @Test("F and S averaged in one pass equal y += α·(x − y) sample by sample for each (values of F, both maxima and final averages within 1e-12 relative), any block size")
    func exponentialAveragePair() {
        var random = SeededRandom(seed: 61673)
        let x = (0..<30_000).map { n in (n / 7_000 % 2 == 0 ? 1 : 0.001) * random.unit() }
        var referenceF = ExponentialAverage(timeConstantSeconds: 0.125, sampleRateHz: 44_100)
        var referenceS = ExponentialAverage(timeConstantSeconds: 1, sampleRateHz: 44_100)
        var expectedF: [Double] = [], maximumS = -Double.infinity
        for v in x {
            referenceF.add(v)
            referenceS.add(v)
            expectedF.append(referenceF.value)
            maximumS = max(maximumS, referenceS.value)
        }
        var fast = ExponentialAverage(timeConstantSeconds: 0.125, sampleRateHz: 44_100)
        var slow = ExponentialAverage(timeConstantSeconds: 1, sampleRateHz: 44_100)
        var values: [Double] = [], maxima = (-Double.infinity, -Double.infinity), start = 0, k = 0
        let sizes = [0, 2, 16, 33, 5_003]
        while start < x.count {
            let end = min(x.count, start + sizes[k % sizes.count])
            var out = [Double](repeating: .nan, count: end - start)
            let block = x[start..<end].withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { ExponentialAverage.add(input, to: &fast, averages: $0, and: &slow) }
            }
            maxima = (max(maxima.0, block.first), max(maxima.1, block.second))
            values += out
            start = end
            k += 1
        }
        for (value, reference) in zip(values, expectedF) {
            #expect(abs(value - reference) <= 1e-12 * reference, "\(value) vs \(reference)")
        }
        #expect(abs(maxima.0 - expectedF.max()!) <= 1e-12 * expectedF.max()!)
        #expect(abs(maxima.1 - maximumS) <= 1e-12 * maximumS)
        #expect(abs(fast.value - referenceF.value) <= 1e-12 * referenceF.value)
        #expect(abs(slow.value - referenceS.value) <= 1e-12 * referenceS.value)
    }

    @Test("squares and their sum, by hand")
    func squares() {
        let x: [Double] = [1, -2, 3, -4, 5, 0.5]
        var out = [Double](repeating: 0, count: 6)
        let sum = x.withUnsafeBufferPointer { input in out.withUnsafeMutableBufferPointer { Statistics.squares(of: input, into: $0) } }
        #expect(out == [1, 4, 9, 16, 25, 0.25])
        #expect(sum == 55.25)
    }

    @Test("two cascades in the lanes of one vector equal each cascade run on its own, bit for bit: A, C, K, Z, random stable sections (0 to 6, so padding and several passes), strides 1 to 3, blocks of 0 to 4,099")
    func biquadPair() {
        var random = SeededRandom(seed: 1770)
        func randomSection() -> Biquad {
            // Poles inside the unit circle: radius 0.05…0.999, any angle.
            let r = 0.05 + 0.949 * random.unit(), theta = Double.pi * random.unit()
            return Biquad(b0: random.unit() - 0.5, b1: random.unit() - 0.5, b2: random.unit() - 0.5, a1: -2 * r * cos(theta), a2: r * r)
        }
        var cases: [(BiquadCascade, BiquadCascade)] = [
            (FrequencyWeighting.a.filter(sampleRateHz: 48_000), FrequencyWeighting.c.filter(sampleRateHz: 48_000)),
            (FrequencyWeighting.c.filter(sampleRateHz: 192_000), FrequencyWeighting.a.filter(sampleRateHz: 192_000)),
            (KWeighting.filter(sampleRateHz: 44_100), KWeighting.filter(sampleRateHz: 44_100)),
            (FrequencyWeighting.z.filter(sampleRateHz: 48_000), FrequencyWeighting.z.filter(sampleRateHz: 48_000)),
            (FrequencyWeighting.z.filter(sampleRateHz: 48_000), KWeighting.filter(sampleRateHz: 48_000)),
        ]
        for (m, n) in [(1, 1), (4, 4), (5, 2), (6, 6), (0, 3)] {
            cases.append((BiquadCascade(sections: (0..<m).map { _ in randomSection() }), BiquadCascade(sections: (0..<n).map { _ in randomSection() })))
        }
        for (index, (first, second)) in cases.enumerated() {
            for stride in 1...3 {
                let frames = 9_000
                let input = (0..<(frames * stride)).map { _ in 2 * random.unit() - 1 }
                let lane1 = stride == 1 ? input.map { -0.5 * $0 } : input  // stride 1: a second signal of its own
                var expected0 = (0..<frames).map { input[$0 * stride] }, expected1 = (0..<frames).map { lane1[$0 * stride + (stride == 1 ? 0 : 1)] }
                var reference0 = first, reference1 = second
                reference0.process(&expected0)
                reference1.process(&expected1)
                var pair0 = first, pair1 = second
                var out0 = [Double](repeating: .nan, count: frames), out1 = out0
                let sizes = [0, 1, 7, 4_099, 3]
                var start = 0, k = 0
                while start < frames {
                    let end = min(frames, start + sizes[k % sizes.count])
                    input.withUnsafeBufferPointer { x in
                        lane1.withUnsafeBufferPointer { y in
                            out0.withUnsafeMutableBufferPointer { o0 in
                                out1.withUnsafeMutableBufferPointer { o1 in
                                    BiquadCascade.processPair(&pair0, &pair1, input0: x.baseAddress! + start * stride,
                                                              input1: y.baseAddress! + start * stride + (stride == 1 ? 0 : 1), stride: stride,
                                                              count: end - start, output0: o0.baseAddress! + start, output1: o1.baseAddress! + start)
                                }
                            }
                        }
                    }
                    start = end
                    k += 1
                }
                #expect(out0 == expected0, "case \(index), stride \(stride): lane 0")
                #expect(out1 == expected1, "case \(index), stride \(stride): lane 1")
                #expect(pair0 == reference0 && pair1 == reference1, "case \(index), stride \(stride): the filter memories")
            }
        }
    }
}
