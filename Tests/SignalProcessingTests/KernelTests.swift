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

    @Test("F and S averaged in place (the averages written over their input) equal the averages written apart, bit for bit, maxima and states too, every length 0…40 and a long block")
    func exponentialAveragePairInPlace() {
        var random = SeededRandom(seed: 61674)
        for count in Array(0...40) + [4_099] {
            let x = (0..<count).map { _ in random.unit() }
            var fastApart = ExponentialAverage(timeConstantSeconds: 0.125, sampleRateHz: 8_000), slowApart = ExponentialAverage(timeConstantSeconds: 1, sampleRateHz: 8_000)
            var fastInPlace = fastApart, slowInPlace = slowApart
            var apart = [Double](repeating: .nan, count: count), inPlace = x
            let maximaApart = x.withUnsafeBufferPointer { input in apart.withUnsafeMutableBufferPointer { ExponentialAverage.add(input, to: &fastApart, averages: $0, and: &slowApart) } }
            let maximaInPlace = inPlace.withUnsafeMutableBufferPointer { ExponentialAverage.add(UnsafeBufferPointer($0), to: &fastInPlace, averages: $0, and: &slowInPlace) }
            #expect(inPlace == apart && maximaInPlace == maximaApart && fastInPlace.value == fastApart.value && slowInPlace.value == slowApart.value, "count \(count)")
        }
    }

    @Test("squares and their sum, by hand")
    func squares() {
        let x: [Double] = [1, -2, 3, -4, 5, 0.5]
        var out = [Double](repeating: 0, count: 6)
        let sum = x.withUnsafeBufferPointer { input in out.withUnsafeMutableBufferPointer { Statistics.squares(of: input, into: $0) } }
        #expect(out == [1, 4, 9, 16, 25, 0.25])
        #expect(sum == 55.25)
    }

    @Test("sums of squares: the documented order (term n in partial n mod 16 over whole runs of 16, (p0 + p2) + (p1 + p3) lane-wise, (l0 + l2) + (l1 + l3), then the rest one by one) bit for bit, for every length 0…40 and a long block")
    func sumOfSquaresOrder() {
        var random = SeededRandom(seed: 1616)
        for count in Array(0...40) + [4_099] {
            let x = (0..<count).map { _ in (random.unit() - 0.5) * 1e3 }
            var partial = [Double](repeating: 0, count: 16)
            let whole = count / 16 * 16
            for n in 0..<whole { partial[n % 16] += x[n] * x[n] }
            let lanes = (0..<4).map { (l: Int) -> Double in
                let low: Double = partial[l] + partial[8 + l], high: Double = partial[4 + l] + partial[12 + l]
                return low + high
            }
            var expected = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])
            for n in whole..<count { expected += x[n] * x[n] }
            let sum = x.withUnsafeBufferPointer(Statistics.sumOfSquares)
            #expect(sum.bitPattern == expected.bitPattern, "\(count) values")
            var squares = [Double](repeating: .nan, count: count)
            let squared = x.withUnsafeBufferPointer { x in squares.withUnsafeMutableBufferPointer { Statistics.squares(of: x, into: $0) } }
            #expect(squared.bitPattern == expected.bitPattern && squares == x.map { $0 * $0 }, "\(count) values")
        }
    }

    @Test("the meter's one pass (A squares, Σa², Σc², Σz²) is bit for bit the three passes it replaces, for every length 0…17 and a long block")
    func meterSquares() {
        var random = SeededRandom(seed: 1770)
        for count in Array(0...17) + [65_539] {
            let a = (0..<count).map { _ in random.unit() - 0.5 }, c = (0..<count).map { _ in 3 * random.unit() }
            let z = (0..<count).map { _ in 1e-3 * (random.unit() - 0.5) }
            var fused = [Double](repeating: .nan, count: count), separate = fused
            let sums = a.withUnsafeBufferPointer { a in c.withUnsafeBufferPointer { c in z.withUnsafeBufferPointer { z in
                fused.withUnsafeMutableBufferPointer { Statistics.squares(of: a, into: $0, summingSquaresOf: c, z) } } } }
            let sumA = a.withUnsafeBufferPointer { a in separate.withUnsafeMutableBufferPointer { Statistics.squares(of: a, into: $0) } }
            #expect(fused.map(\.bitPattern) == separate.map(\.bitPattern), "squares, \(count)")
            #expect(sums.a.bitPattern == sumA.bitPattern, "Σa², \(count)")
            #expect(sums.c.bitPattern == c.withUnsafeBufferPointer(Statistics.sumOfSquares).bitPattern, "Σc², \(count)")
            #expect(sums.z.bitPattern == z.withUnsafeBufferPointer(Statistics.sumOfSquares).bitPattern, "Σz², \(count)")
            // Written over the samples themselves, or up to 5 places before them (the meter's
            // settling samples skipped): the same squares and sums.
            for offset in 0...min(5, count) {
                var memory = [Double](repeating: .nan, count: offset) + a
                let inPlace = memory.withUnsafeMutableBufferPointer { memory in c.withUnsafeBufferPointer { c in z.withUnsafeBufferPointer { z in
                    Statistics.squares(of: UnsafeBufferPointer(rebasing: memory[offset...]), into: memory, summingSquaresOf: c, z) } } }
                #expect(memory.prefix(count).map(\.bitPattern) == separate.map(\.bitPattern), "squares in place, \(count) values, \(offset) before")
                #expect(inPlace.a.bitPattern == sums.a.bitPattern && inPlace.c.bitPattern == sums.c.bitPattern && inPlace.z.bitPattern == sums.z.bitPattern,
                        "sums in place, \(count) values, \(offset) before")
            }
        }
        // By hand: lanes (1 + 25) and 4, 9, 16 of c = 1…5, (26 + 4) + (9 + 16) = 55.
        let sums = [1.0, 2, 3, 4, 5].withUnsafeBufferPointer { c in
            var out = [Double](repeating: 0, count: 5)
            return out.withUnsafeMutableBufferPointer { Statistics.squares(of: c, into: $0, summingSquaresOf: c, c) }
        }
        #expect(sums == (55, 55, 55))
    }

    @Test("one channel of interleaved frames and its peak: every channel of 3, every length 0…9, the peak as large as the largest |x|")
    func channelPeak() {
        var random = SeededRandom(seed: 61260)
        for frames in 0...9 {
            let interleaved = (0..<(3 * frames)).map { _ in 2 * random.unit() - 1 }
            for channel in 0..<3 {
                var out = [Double](repeating: .nan, count: frames)
                let peak = interleaved.withUnsafeBufferPointer { x in out.withUnsafeMutableBufferPointer { Statistics.copyChannel(channel, of: x, channels: 3, into: $0) } }
                let expected = stride(from: channel, to: 3 * frames, by: 3).map { interleaved[$0] }
                #expect(out == expected)
                #expect(peak == expected.map(abs).max() ?? 0, "\(frames) frames, channel \(channel)")
            }
        }
        // A negative peak in the vector part and one in the tail; NaN is passed through, not a peak.
        let x: [Double] = [0.5, -7, .nan, 1, -2, 3, 0.25, -9]
        var out = [Double](repeating: 0, count: 8)
        let peak = x.withUnsafeBufferPointer { x in out.withUnsafeMutableBufferPointer { Statistics.copyChannel(0, of: x, channels: 1, into: $0) } }
        #expect(peak == 9 && out[2].isNaN)
    }

    /// Random stable sections: poles of radius 0.05…0.999 at any angle.
    static func randomSection(_ random: inout SeededRandom) -> Biquad {
        let r = 0.05 + 0.949 * random.unit(), theta = Double.pi * random.unit()
        return Biquad(b0: random.unit() - 0.5, b1: random.unit() - 0.5, b2: random.unit() - 0.5, a1: -2 * r * cos(theta), a2: r * r)
    }

    /// The cascade in 80-bit extended arithmetic (the x87 format: 11 more bits than Double).
    static func extendedPrecision(_ filter: BiquadCascade, _ x: [Double]) -> [Double] {
        var state = filter.state.map { Float80($0) }
        return x.map { value in
            var v = Float80(value)
            for (k, s) in filter.sections.enumerated() {
                let y = Float80(s.b0) * v + state[2 * k]
                state[2 * k] = Float80(s.b1) * v + state[2 * k + 1] - Float80(s.a1) * y
                state[2 * k + 1] = Float80(s.b2) * v - Float80(s.a2) * y
                v = y
            }
            return Double(v)
        }
    }

    /// Runs `processLanes` over `input` (interleaved `stride` values per frame, signal c at offset c)
    /// in blocks of the given sizes; returns each signal's output and the filters.
    static func lanes(_ filters: [BiquadCascade], _ input: [Double], stride: Int, frames: Int, blocks sizes: [Int])
        -> (outputs: [[Double]], filters: [BiquadCascade]) {
        var filters = filters, outputs = [[Double]](repeating: [Double](repeating: .nan, count: frames), count: filters.count)
        var start = 0, k = 0
        while start < frames {
            let end = min(frames, start + sizes[k % sizes.count])
            input.withUnsafeBufferPointer { x in
                let buffers = outputs.indices.map { _ in UnsafeMutablePointer<Double>.allocate(capacity: max(1, end - start)) }
                BiquadCascade.processLanes(&filters, inputs: { x.baseAddress! + start * stride + $0 }, stride: stride,
                                           count: end - start, outputs: { buffers[$0] })
                for c in outputs.indices {
                    outputs[c].replaceSubrange(start..<end, with: UnsafeBufferPointer(start: buffers[c], count: end - start))
                    buffers[c].deallocate()
                }
            }
            start = end
            k += 1
        }
        return (outputs, filters)
    }

    @Test("up to eight signals in the lanes of one vector equal each cascade run on its own, bit for bit, when no lane is left to split them or the blocks are too short to: A, C, K, Z and random sections (0 to 4), 2 to 8 signals (vectors of 2, 4 and 8 lanes), strides up to 8, blocks of 0 to 70,001")
    func biquadLanesExact() {
        var random = SeededRandom(seed: 8)
        let kinds: [BiquadCascade] = [
            FrequencyWeighting.a.filter(sampleRateHz: 48_000), FrequencyWeighting.c.filter(sampleRateHz: 44_100),
            KWeighting.filter(sampleRateHz: 48_000), FrequencyWeighting.z.filter(sampleRateHz: 48_000),
        ] + (0...4).map { n in BiquadCascade(sections: (0..<n).map { _ in Self.randomSection(&random) }) }
        for signals in [5, 6, 7, 8] {  // 8 / signals = 1: one segment per signal, every lane exact
            let filters = (0..<signals).map { kinds[($0 * 3 + signals) % kinds.count] }
            let stride = signals + (signals % 2), frames = 90_000
            let input = (0..<(frames * stride)).map { _ in 2 * random.unit() - 1 }
            let (outputs, ended) = Self.lanes(filters, input, stride: stride, frames: frames, blocks: [0, 1, 7, 70_001, 3])
            for c in 0..<signals {
                var expected = (0..<frames).map { input[$0 * stride + c] }, reference = filters[c]
                reference.process(&expected)
                #expect(outputs[c] == expected, "\(signals) signals, signal \(c)")
                #expect(ended[c] == reference, "\(signals) signals, signal \(c): the filter memory")
            }
        }
        // Two, three and four signals in blocks too short to split (the 2- and 4-lane kernels): exact as well.
        for filters in [[kinds[0], kinds[2]], [kinds[0], kinds[2], kinds[1]], Array(kinds[0..<4])] {
            let signals = filters.count, input = (0..<(signals * 40_000)).map { _ in random.unit() - 0.5 }
            let (outputs, ended) = Self.lanes(filters, input, stride: signals, frames: 40_000, blocks: [10_000, 1, 29_999])
            for c in 0..<signals {
                var expected = (0..<40_000).map { input[signals * $0 + c] }, reference = filters[c]
                reference.process(&expected)
                #expect(outputs[c] == expected && ended[c] == reference, "\(signals) signals in short blocks, signal \(c)")
            }
        }
    }

    @Test("one or two signals split in time over the free lanes: segment 0 bit for bit; against the cascade in 80-bit arithmetic the split outputs err at most 1.5 times as much as the sequential ones (which err up to 3e-12 of the largest output at 192 kHz); per-second energies within 1e-12 relative of the sequential ones, the filter memories after it within 1e-12; A at 8, 48 and 192 kHz, K at 44.1 kHz stereo; loud noise on a DC offset, then 90 dB quieter")
    func biquadLanesSegmented() {
        var random = SeededRandom(seed: 2026)
        let cases: [(String, [BiquadCascade], Double)] = [
            ("A 48 kHz", [FrequencyWeighting.a.filter(sampleRateHz: 48_000)], 48_000),
            ("A 8 kHz", [FrequencyWeighting.a.filter(sampleRateHz: 8_000)], 8_000),
            ("A 192 kHz", [FrequencyWeighting.a.filter(sampleRateHz: 192_000)], 192_000),
            ("K 44.1 kHz stereo", Array(repeating: KWeighting.filter(sampleRateHz: 44_100), count: 2), 44_100),
        ]
        for (name, filters, rate) in cases {
            let signals = filters.count, seconds = 12, frames = seconds * Int(rate)
            // Loud noise on an offset for 7 s, then 90 dB quieter: the quiet seconds hold what is left of the loud start.
            let input = (0..<(frames * signals)).map { i in (i / signals < 7 * Int(rate) ? 1 : 3e-5) * (0.3 + random.unit() - 0.5) }
            var expected = (0..<signals).map { c in (0..<frames).map { input[$0 * signals + c] } }
            var references = filters
            for c in 0..<signals { references[c].process(&expected[c]) }
            let block = 1_048_573  // not a multiple of anything: remainders run sequentially
            let (outputs, ended) = Self.lanes(filters, input, stride: signals, frames: frames, blocks: [block])
            let warmUp = filters[0].warmUpSamples!
            let exactSamples = warmUp + (min(block, frames) - warmUp) / (8 / signals)
            for c in 0..<signals {
                let firstDifference = (0..<frames).first { outputs[c][$0] != expected[c][$0] }
                #expect(firstDifference.map { $0 >= exactSamples } == true, "\(name), signal \(c): first difference at \(firstDifference ?? -1)")
                // Both against the cascade in 80-bit arithmetic: splitting adds no error of its own.
                let exact = Self.extendedPrecision(filters[c], (0..<frames).map { input[$0 * signals + c] })
                let size = expected[c].map(abs).max()!
                let sequentialError = zip(expected[c], exact).map { abs($0 - $1) }.max()!
                let lanesError = zip(outputs[c], exact).map { abs($0 - $1) }.max()!
                #expect(lanesError <= 1.5 * sequentialError && lanesError <= 1e-11 * size,
                        "\(name), signal \(c): largest error \(lanesError) split, \(sequentialError) sequential, of \(size)")
                for second in 0..<seconds {
                    let range = (second * Int(rate))..<((second + 1) * Int(rate))
                    let energy = outputs[c][range].reduce(0) { $0 + $1 * $1 }, reference = expected[c][range].reduce(0) { $0 + $1 * $1 }
                    #expect(abs(energy - reference) <= 1e-12 * reference, "\(name), signal \(c), second \(second): \(energy) vs \(reference)")
                }
                for (z, r) in zip(ended[c].state, references[c].state) {
                    #expect(abs(z - r) <= 1e-12 * size, "\(name), signal \(c): memory \(z) vs \(r)")
                }
            }
        }
    }

    @Test("backwards (strides −1, in place and into another buffer) gives, read backwards, what forwards gives on the reversed signal, bit for bit: split over the lanes (0.3-Hz and 1-Hz Butterworth, A weighting), not split (short signals, an integrator), 1 to 3 signals; and filtfilt equals the forward pass, reversal and forward pass written out")
    func biquadLanesBackwards() {
        var random = SeededRandom(seed: 1937)
        let filters: [BiquadCascade] = [
            Butterworth.lowPass(order: 2, cutoffHz: 0.3, sampleRateHz: 100), Butterworth.highPass(order: 2, cutoffHz: 1, sampleRateHz: 100),
            FrequencyWeighting.a.filter(sampleRateHz: 8_000), BiquadCascade(sections: [Biquad(b0: 1, b1: 0, b2: 0, a1: -1, a2: 0)]),
        ]
        for filter in filters {
            for (n, signals) in [(200_001, 1), (120_000, 3), (37, 1), (5, 2)] {
                let x = (0..<signals).map { _ in (0..<n).map { _ in random.unit() - 0.5 } }
                // Forwards over each reversed signal into another buffer: the reference.
                var forward = [BiquadCascade](repeating: filter, count: signals)
                func copy(_ values: [Double]) -> UnsafeMutablePointer<Double> {
                    let pointer = UnsafeMutablePointer<Double>.allocate(capacity: values.count)
                    pointer.initialize(from: values, count: values.count)
                    return pointer
                }
                let ins = x.map { copy($0.reversed()) }
                let outs = x.map { _ in UnsafeMutablePointer<Double>.allocate(capacity: n) }
                BiquadCascade.processLanes(&forward, inputs: { UnsafePointer(ins[$0]) }, stride: 1, count: n, outputs: { outs[$0] })
                let expected = outs.map { Array(UnsafeBufferPointer(start: $0, count: n)) }
                // Backwards into another buffer, and in place.
                var backward = [BiquadCascade](repeating: filter, count: signals)
                let sources = x.map(copy)
                BiquadCascade.processLanes(&backward, inputs: { UnsafePointer(sources[$0] + (n - 1)) }, stride: -1, count: n,
                                           outputs: { outs[$0] + (n - 1) }, outputStride: -1)
                for c in 0..<signals { #expect(Array(UnsafeBufferPointer(start: outs[c], count: n).reversed()) == expected[c], "\(n) samples, into another buffer") }
                var inPlace = [BiquadCascade](repeating: filter, count: signals)
                BiquadCascade.processLanes(&inPlace, inputs: { UnsafePointer(sources[$0] + (n - 1)) }, stride: -1, count: n,
                                           outputs: { sources[$0] + (n - 1) }, outputStride: -1)
                for c in 0..<signals { #expect(Array(UnsafeBufferPointer(start: sources[c], count: n).reversed()) == expected[c], "\(n) samples, in place") }
                #expect(backward == forward && inPlace == forward)
                for pointer in outs + ins + sources { pointer.deallocate() }
            }
        }
        // filtfilt: the padded signal forwards, reversed, forwards again, reversed, the middle.
        let x = (0..<50_000).map { _ in random.unit() - 0.5 }
        let filter = Butterworth.bandPass(lowHz: 0.5, highHz: 3, sampleRateHz: 100)
        let pad = 200
        var e = (0..<pad).map { 2 * x[0] - x[pad - $0] } + x + (0..<pad).map { 2 * x[x.count - 1] - x[x.count - 2 - $0] }
        var first = filter
        first.startSteady(at: e[0])
        e.withUnsafeMutableBufferPointer { first.processLanes($0) }
        e.reverse()
        var second = filter
        second.startSteady(at: e[0])
        e.withUnsafeMutableBufferPointer { second.processLanes($0) }
        e.reverse()
        #expect(filter.filtfilt(x, padding: pad) == Array(e[pad..<(pad + x.count)]))
    }

    @Test("outputs kept to a window of steps (`written`) are the whole run's outputs there, bit for bit, and the filter memories after it the whole run's: forwards and backwards, 1 to 3 signals split over the lanes and 2 too short to split, windows inside one segment, across segment edges, in the sequential tail, empty and whole")
    func biquadLanesWritten() {
        var random = SeededRandom(seed: 60)
        let filter = Butterworth.bandPass(lowHz: 0.5, highHz: 3, sampleRateHz: 100)
        for (n, signals) in [(50_003, 1), (30_001, 3), (37, 2)] {
            let inputs = (0..<signals).map { _ in
                let pointer = UnsafeMutablePointer<Double>.allocate(capacity: n)
                for i in 0..<n { pointer[i] = random.unit() - 0.5 }
                return UnsafePointer(pointer)
            }
            defer { inputs.forEach { $0.deallocate() } }
            for stride in [1, -1] {
                let start = stride == 1 ? 0 : n - 1
                /// Each signal's outputs in step order (written steps only), and the filters after the run.
                func run(_ window: Range<Int>?) -> (outputs: [[Double]], filters: [BiquadCascade]) {
                    var filters = [BiquadCascade](repeating: filter, count: signals)
                    let count = window?.count ?? n
                    let outputs = (0..<signals).map { _ in UnsafeMutablePointer<Double>.allocate(capacity: max(1, count)) }
                    defer { outputs.forEach { $0.deallocate() } }
                    BiquadCascade.processLanes(&filters, inputs: { inputs[$0] + start }, stride: stride, count: n,
                                               outputs: { stride == 1 ? outputs[$0] : outputs[$0] + (count - 1) },
                                               outputStride: stride, written: window)
                    let steps = outputs.map { Array(UnsafeBufferPointer(start: $0, count: count)) }
                    return (stride == 1 ? steps : steps.map { $0.reversed() }, filters)
                }
                let whole = run(nil)
                let edges = [(0, n), (0, 0), (5, 6), (100, n / 3), (n / 8 - 3, n / 8 + 700), (n / 2, n), (n - 3, n), (1, n - 1)]
                for window in edges.filter({ $0.0 >= 0 && $0.0 <= $0.1 && $0.1 <= n }).map({ $0.0..<$0.1 }) {
                    let part = run(window)
                    for c in 0..<signals {
                        #expect(part.outputs[c] == Array(whole.outputs[c][window]), "\(n) samples, \(signals) signals, stride \(stride), window \(window), signal \(c)")
                    }
                    #expect(part.filters == whole.filters, "\(n) samples, stride \(stride), window \(window): the filter memories")
                }
            }
        }
    }

    @Test("splitting in place gives what splitting into another buffer gives; a pole on the unit circle is never split (the outputs are exactly sequential); warm-up lengths and block sizes")
    func biquadLanesInPlace() {
        var random = SeededRandom(seed: 1936)
        let x = (0..<400_000).map { _ in random.unit() - 0.5 }
        var separate = FrequencyWeighting.a.filter(sampleRateHz: 8_000)
        var inPlace = separate
        let (outputs, ended) = Self.lanes([separate], x, stride: 1, frames: x.count, blocks: [x.count])
        var y = x
        y.withUnsafeMutableBufferPointer { inPlace.processLanes($0) }
        #expect(y == outputs[0] && inPlace == ended[0])
        // An integrator (pole at z = 1) never forgets its start: no warm-up makes a segment right.
        let integrator = BiquadCascade(sections: [Biquad(b0: 1, b1: 0, b2: 0, a1: -1, a2: 0)])
        #expect(integrator.warmUpSamples == nil)
        separate = integrator
        var expected = x
        separate.process(&expected)
        var lanes = integrator, z = x
        z.withUnsafeMutableBufferPointer { lanes.processLanes($0) }
        #expect(z == expected && lanes == separate)
        // A cascade without poles forgets in two steps per section.
        #expect(BiquadCascade(sections: [Biquad(b0: 1, b1: 2, b2: 1, a1: 0, a2: 0)]).warmUpSamples == 2)
        #expect(FrequencyWeighting.a.filter(sampleRateHz: 48_000).warmUpSamples == 22_252)
        // The meters' blocks: 2^18 frames for mono and stereo, never more than 2^19 samples.
        #expect(BiquadCascade.laneBlockFrames(channels: 1) == 1 << 18 && BiquadCascade.laneBlockFrames(channels: 2) == 1 << 18)
        #expect(BiquadCascade.laneBlockFrames(channels: 1_024) == 512)
        #expect((1...1_024).allSatisfy { BiquadCascade.laneBlockFrames(channels: $0) * $0 <= 1 << 19 })
    }
    @Test("lag products: the documented order (term j in partial j mod 16, partials summed 8-4-2-1) bit for bit, and within rounding of the products summed in 80-bit arithmetic; windows of 0 to 700 samples, tails of every length")
    func lagProducts() {
        var random = SeededRandom(seed: 1770)
        let x = (0..<2_000).map { _ in random.unit() - 0.5 }
        for window in Array(0...33) + [100, 441, 588, 700] {
            let lags = 3...(1_000 - window / 2)
            var products = [Double](repeating: .nan, count: lags.count)
            x.withUnsafeBufferPointer { input in
                products.withUnsafeMutableBufferPointer { Autocorrelation.lagProducts(input, window: window, lags: lags, into: $0) }
            }
            for (k, lag) in lags.enumerated() {
                var partial = [Double](repeating: 0, count: 16)
                for j in 0..<window { partial[j % 16] += x[j] * x[lag + j] }
                for width in [8, 4, 2, 1] { for p in 0..<width { partial[p] += partial[p + width] } }
                #expect(products[k].bitPattern == partial[0].bitPattern, "window \(window), lag \(lag): \(products[k]) vs \(partial[0])")
                let exact = (0..<window).reduce(Float80(0)) { (sum: Float80, i: Int) -> Float80 in sum + Float80(x[i]) * Float80(x[lag + i]) }
                let magnitude = (0..<window).reduce(0.0) { (sum: Double, i: Int) -> Double in sum + abs(x[i] * x[lag + i]) }
                #expect(abs(Float80(products[k]) - exact) <= Float80(Double(window + 1) * Double.ulpOfOne * magnitude), "window \(window), lag \(lag)")
            }
        }
    }
    @Test("correlation terms: Σ a·b and Σ b² in the lag products' order bit for bit, max |b| exactly; 0 to 300 values (tails of every length), negative peaks")
    func correlationTerms() {
        var random = SeededRandom(seed: 1961)
        let x = (0..<700).map { _ in 2 * random.unit() - 1 }
        for count in Array(0...33) + [294, 300] {
            for shift in [1, 37, 399] {
                let a = Array(x[0..<count]), b = Array(x[shift..<(shift + count)])
                let terms = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { Autocorrelation.correlationTerms(a, $0) } }
                var products = [Double](repeating: 0, count: 16), energies = products
                for j in 0..<count {
                    products[j % 16] += a[j] * b[j]
                    energies[j % 16] += b[j] * b[j]
                }
                for width in [8, 4, 2, 1] {
                    for p in 0..<width {
                        products[p] += products[p + width]
                        energies[p] += energies[p + width]
                    }
                }
                #expect(terms.product.bitPattern == products[0].bitPattern && terms.energy.bitPattern == energies[0].bitPattern, "\(count) values at \(shift)")
                #expect(terms.peak == b.map(abs).max() ?? 0, "\(count) values at \(shift)")
            }
        }
    }

    @Test("gravity decomposition: v = d·u, h = d − v·u, |d| (u = g/|g|, (0, 0, 1) for |g| = 0, d = a − g) and Σ|g|, Σh in sample order as the scalar expressions give them, bit for bit; 0 to 37 and 1,001 samples, zero gravity, NaN, ±∞ and 1e±300 rows")
    func gravityDecomposition() {
        var random = SeededRandom(seed: 72)
        let special: [Double] = [0, -0.0, .nan, .infinity, -.infinity, 1e300, -1e-300]
        for n in Array(0...37) + [1001] {
            var columns = (0..<6).map { _ in (0..<n).map { _ in 20 * random.unit() - 10 } }
            for i in 0..<n where random.below(5) == 0 {
                if random.below(2) == 0 {
                    for c in 3..<6 { columns[c][i] = 0 }  // no gravity estimate at this sample
                } else {
                    columns[random.below(6)][i] = special[random.below(special.count)]
                }
            }
            let (x, y, z, gx, gy, gz) = (columns[0], columns[1], columns[2], columns[3], columns[4], columns[5])
            let got = GravityDecomposition.split(x: x, y: y, z: z, gx: gx, gy: gy, gz: gz)
            var sum = 0.0, horizontal = [0.0, 0, 0]
            for i in 0..<n {
                let norm = (gx[i] * gx[i] + gy[i] * gy[i] + gz[i] * gz[i]).squareRoot()
                sum += norm
                let (ux, uy, uz) = norm > 0 ? (gx[i] / norm, gy[i] / norm, gz[i] / norm) : (0, 0, 1)
                let dx = x[i] - gx[i], dy = y[i] - gy[i], dz = z[i] - gz[i]
                let vertical = dx * ux + dy * uy + dz * uz
                let expected = [vertical, dx - vertical * ux, dy - vertical * uy, dz - vertical * uz, (dx * dx + dy * dy + dz * dz).squareRoot()]
                let values = [got.vertical[i], got.hx[i], got.hy[i], got.hz[i], got.dynamicMagnitude[i]]
                for k in 0..<3 { horizontal[k] += expected[k + 1] }
                #expect(zip(values, expected).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }, "\(n) samples, sample \(i): \(values) vs \(expected)")
            }
            let sums = [got.gravityMagnitudeSum, got.horizontalSums.0, got.horizontalSums.1, got.horizontalSums.2]
            #expect(zip(sums, [sum] + horizontal).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }, "\(n) samples: Σ|g|, Σh: \(sums)")
        }
    }
}
