import Foundation
import Testing
import TestSupport
@testable import InputGuards
@testable import SignalProcessing

@Suite struct WindowTests {
    @Test("symmetric windows of 5 points, by hand")
    func handValues() {
        // Hann: 0.5 − 0.5·cos(2πn/4) = 0, 0.5, 1, 0.5, 0
        let hann = Window.hann.values(count: 5, periodic: false)
        for (value, expected) in zip(hann, [0, 0.5, 1, 0.5, 0]) { #expect(abs(value - expected) < 1e-15) }
        // Hamming ends at 0.54 − 0.46 = 0.08
        let hamming = Window.hamming.values(count: 5, periodic: false)
        #expect(abs(hamming[0] - 0.08) < 1e-15 && abs(hamming[2] - 1) < 1e-15)
        // Blackman–Harris ends at 0.35875 − 0.48829 + 0.14128 − 0.01168 = 0.00006
        #expect(abs(Window.blackmanHarris.values(count: 5, periodic: false)[0] - 0.00006) < 1e-12)
        // Flat-top peak Σa = 1.000000003 (SciPy's coefficients)
        #expect(abs(Window.flatTop.values(count: 5, periodic: false)[2] - 1.000000003) < 1e-12)
    }

    @Test("periodic Hann of N equals the first N points of symmetric Hann of N+1")
    func periodic() {
        let periodic = Window.hann.values(count: 8)
        let symmetric = Window.hann.values(count: 9, periodic: false)
        for i in 0..<8 { #expect(abs(periodic[i] - symmetric[i]) < 1e-15) }
    }
}

@Suite struct BiquadTests {
    /// 1–5 sections: the cascade runs them in groups of up to three per pass (3 + 1, 3 + 2 …).
    @Test("the cascade equals the difference equation y[n] = b0x[n] + b1x[n−1] + b2x[n−2] − a1y[n−1] − a2y[n−2], block by block",
          arguments: 1...5)
    func differenceEquation(sectionCount: Int) {
        let pool = [Biquad(b0: 0.2, b1: 0.3, b2: 0.1, a1: -0.5, a2: 0.25), Biquad(b0: 1, b1: -1, b2: 0, a1: -0.9, a2: 0),
                    Biquad(b0: 0.5, b1: 0.5, b2: 0, a1: 0.1, a2: 0), Biquad(b0: 0.9, b1: -1.2, b2: 0.4, a1: -1.6, a2: 0.7),
                    Biquad(b0: 0.3, b1: 0, b2: -0.3, a1: -0.2, a2: 0.5)]
        let sections = Array(pool.prefix(sectionCount))
        var random = SeededRandom(seed: 11)
        let x = (0..<1000).map { _ in random.unit() - 0.5 }
        var expected = x
        for s in sections {
            var y = [Double](repeating: 0, count: expected.count)
            for n in expected.indices {
                let x1 = n >= 1 ? expected[n - 1] : 0, x2 = n >= 2 ? expected[n - 2] : 0
                let y1 = n >= 1 ? y[n - 1] : 0, y2 = n >= 2 ? y[n - 2] : 0
                y[n] = s.b0 * expected[n] + s.b1 * x1 + s.b2 * x2 - s.a1 * y1 - s.a2 * y2
            }
            expected = y
        }
        var cascade = BiquadCascade(sections: sections)
        var first = Array(x[0..<333]), second = Array(x[333...])
        cascade.process(&first)
        cascade.process(&second)
        for (value, reference) in zip(first + second, expected) { #expect(abs(value - reference) < 1e-12) }
    }

    @Test("magnitude response: a two-point average passes DC and stops Nyquist; SOS rows normalise by a0")
    func response() throws {
        let average = BiquadCascade(sections: [Biquad(b0: 0.5, b1: 0.5, b2: 0, a1: 0, a2: 0)])
        #expect(abs(average.magnitude(atFrequencyHz: 0, sampleRateHz: 48_000) - 1) < 1e-15)
        #expect(average.magnitude(atFrequencyHz: 24_000, sampleRateHz: 48_000) < 1e-15)
        // |H(f)| = |cos(πf/fs)| for the two-point average
        #expect(abs(average.magnitude(atFrequencyHz: 8000, sampleRateHz: 48_000) - cos(Double.pi / 6)) < 1e-15)
        let row = try #require(Biquad(sosRow: [2, 2, 0, 4, 0, 0]))
        #expect(row == Biquad(b0: 0.5, b1: 0.5, b2: 0, a1: 0, a2: 0))
        #expect(Biquad(sosRow: [1, 0, 0, 0, 0, 0]) == nil)
    }
}

@Suite struct StatisticsTests {
    /// x = (1, 2, 3, 4, 10): mean 4; deviations −3, −2, −1, 0, 6; m2 = 10, m3 = 36, m4 = 278.8
    /// (population moments). R: sd = √12.5, quantile(x, .25) = 2, mad = 1.4826·1;
    /// e1071 type 3: skewness = 36/10^1.5·(4/5)^1.5, kurtosis = 2.788·(4/5)² − 3.
    @Test("hand-computed values for (1, 2, 3, 4, 10)")
    func handValues() {
        let x: [Double] = [1, 2, 3, 4, 10]
        #expect(x.statistic(Statistics.mean) == 4)
        #expect(abs(x.statistic(Statistics.standardDeviation) - 12.5.squareRoot()) < 1e-15)
        #expect(x.statistic { Statistics.quantile($0, 0.25) } == 2)
        #expect(abs(x.statistic { Statistics.quantile($0, 0.9) } - 7.6) < 1e-12)  // h = 3.6 → 4 + 0.6·6
        #expect(x.statistic(Statistics.median) == 3)
        #expect(abs(x.statistic { Statistics.medianAbsoluteDeviation($0) } - 1.4826) < 1e-15)
        #expect(abs(x.statistic(Statistics.skewness) - 36 / pow(10, 1.5) * pow(0.8, 1.5)) < 1e-12)
        #expect(abs(x.statistic(Statistics.kurtosis) - (2.788 * 0.64 - 3)) < 1e-12)
        #expect(abs(x.statistic(Statistics.rootMeanSquare) - (130.0 / 5).squareRoot()) < 1e-15)
    }

    @Test("sum of squares: 1…9 (a tail after the four-way sums) is 285; empty is 0")
    func sumOfSquares() {
        let values = (1...9).map(Double.init)
        #expect(values.withUnsafeBufferPointer(Statistics.sumOfSquares) == 285)
        #expect([Double]().withUnsafeBufferPointer(Statistics.sumOfSquares) == 0)
    }

    @Test("peak deviation by hand: (1, −3, 2, 0.5, 7, −8, 0) gives 8 from 0 and 10 from 2; the largest value in every lane and every tail position of 0 to 9 values; −0 and empty give 0")
    func peakDeviation() {
        let x: [Double] = [1, -3, 2, 0.5, 7, -8, 0]
        #expect(x.withUnsafeBufferPointer { Statistics.peakDeviation($0) } == 8)
        #expect(x.withUnsafeBufferPointer { Statistics.peakDeviation($0, from: 2) } == 10)
        for count in 0...9 {
            for place in 0..<max(count, 1) where place < count {
                var values = [Double](repeating: 0.25, count: count)
                values[place] = -5
                #expect(values.withUnsafeBufferPointer { Statistics.peakDeviation($0, from: 1) } == 6, "\(count) values, -5 at \(place)")
            }
        }
        #expect([-0.0].withUnsafeBufferPointer { Statistics.peakDeviation($0) } == 0)
        #expect([Double]().withUnsafeBufferPointer { Statistics.peakDeviation($0) } == 0)
    }

    @Test("allFinite: NaN, +∞ or −∞ at any place of 0 to 19 values (every lane, every tail position) is found; ±1e308, −0, the smallest subnormal and none at all are finite")
    func allFinite() {
        for count in 0...19 {
            let finite = (0..<count).map { [1e308, -1e308, -0.0, Double.leastNonzeroMagnitude, 0.5][$0 % 5] }
            #expect(finite.withUnsafeBufferPointer(Statistics.allFinite), "\(count) finite values")
            for place in 0..<count {
                for bad in [Double.nan, .infinity, -.infinity] {
                    var values = finite
                    values[place] = bad
                    #expect(!values.withUnsafeBufferPointer(Statistics.allFinite), "\(count) values, \(bad) at \(place)")
                }
            }
        }
    }

    @Test("frame sums at given starts equal one frame at a time, bit for bit: plain, squared, and the squared deviations from each frame's mean (Statistics.variance's numerator); frames in any order, overlapping, repeated, at the ends; 1 to 19 frames (blocks of eight lanes and the rest); none, or of length 0")
    func frameSumsAtStarts() {
        var random = SeededRandom(seed: 61)
        let x = (0..<1_000).map { _ in (random.unit() - 0.5) * 1e3 }
        x.withUnsafeBufferPointer { x in
            for count in [1, 7, 8, 9, 19] {
                for length in [1, 3, 200] {
                    let starts = (0..<count).map { _ in Int(random.unit() * Double(x.count - length)) } + [0, x.count - length]
                    let frames = starts.map { UnsafeBufferPointer(rebasing: x[$0..<($0 + length)]) }
                    let means = frames.map { $0.reduce(0, +) / Double(length) }
                    #expect(Statistics.frameSums(x, starts: starts, length: length) == frames.map { $0.reduce(0, +) })
                    #expect(Statistics.frameSums(x, starts: starts, length: length, squared: true) == frames.map { $0.reduce(0) { $0 + $1 * $1 } })
                    let deviations = Statistics.frameSums(x, starts: starts, length: length, centers: means)
                    #expect(deviations == zip(frames, means).map { frame, mean in frame.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } })
                    if length >= 2 {
                        #expect(zip(deviations, frames).allSatisfy { $0 / Double(length - 1) == Statistics.variance($1) })
                    }
                }
            }
            #expect(Statistics.frameSums(x, starts: [], length: 5).isEmpty)
            #expect(Statistics.frameSums(x, starts: [3, 9], length: 0) == [0, 0])
            let none = UnsafeBufferPointer<Double>(start: nil, count: 0)
            #expect(Statistics.frameSums(none, starts: [0], length: 0) == [0])
        }
    }

    @Test("frame sums four frames at a time equal each frame summed on its own in increasing order, bit for bit (sums and sums of squares): 0 to 9 frames, hops shorter and longer than the frame; by hand, (1…6) in frames of 3 every 2: 6, 12 and 14, 50")
    func frameSums() {
        let hand = (1...6).map(Double.init)
        #expect(hand.withUnsafeBufferPointer { Statistics.frameSums($0, length: 3, hop: 2) } == [6, 12])
        #expect(hand.withUnsafeBufferPointer { Statistics.frameSums($0, length: 3, hop: 2, squared: true) } == [14, 50])
        #expect(hand.withUnsafeBufferPointer { Statistics.frameSums($0, length: 0, hop: 2) } == [])
        var random = SeededRandom(seed: 4_410)
        let x = (0..<2_000).map { _ in 2 * random.unit() - 1 }
        for (length, hop) in [(40, 10), (7, 13), (1, 1)] {
            for frames in 0...9 {
                let count = frames > 0 ? length + (frames - 1) * hop : length - 1
                for squared in [false, true] {
                    let expected = stride(from: 17, through: 17 + count - length, by: hop).map { start in
                        var sum = 0.0
                        for i in start..<(start + length) { sum += squared ? x[i] * x[i] : x[i] }
                        return sum
                    }
                    let sums = x.withUnsafeBufferPointer { Statistics.frameSums(UnsafeBufferPointer(rebasing: $0[17..<(17 + count)]), length: length, hop: hop, squared: squared) }
                    #expect(sums.count == frames && sums.map(\.bitPattern) == expected.map(\.bitPattern), "length \(length), hop \(hop), \(frames) frames, squared \(squared)")
                }
            }
        }
    }

    @Test("interval energy: intervals of 3 across blocks of 2, 4 and 3 samples: 1+4+9, 16+25+36, 49+64+81")
    func intervalEnergy() {
        var energy = IntervalEnergy(length: 3)
        var sums: [Double] = []
        for block in [[1.0, 2], [3, 4, 5, 6], [7, 8, 9], [10]] {
            block.withUnsafeBufferPointer { energy.add($0) { sums.append($0) } }
        }
        #expect(sums == [14, 77, 194])
        #expect(energy.partialSum == 100 && energy.partialCount == 1)
    }

    @Test("interval energy from the caller's sums: stretches cut at `remaining` and summed by sumOfSquares give the intervals add(_:) gives, bit for bit, over blocks of 1 to 700 samples")
    func intervalEnergyFromSums() {
        var random = SeededRandom(seed: 61_672)
        var byItself = IntervalEnergy(length: 480), fromSums = IntervalEnergy(length: 480)
        var expected: [Double] = [], sums: [Double] = []
        for _ in 0..<200 {
            let block = (0..<(1 + Int(random.unit() * 700))).map { _ in random.unit() - 0.5 }
            block.withUnsafeBufferPointer { x in
                byItself.add(x) { expected.append($0) }
                var start = 0
                while start < x.count {
                    let stretch = start..<min(x.count, start + fromSums.remaining)
                    fromSums.add(sumOfSquares: Statistics.sumOfSquares(UnsafeBufferPointer(rebasing: x[stretch])), count: stretch.count) { sums.append($0) }
                    start = stretch.upperBound
                }
            }
        }
        #expect(expected.count > 100 && sums.map(\.bitPattern) == expected.map(\.bitPattern))
        #expect(fromSums.partialSum.bitPattern == byItself.partialSum.bitPattern && fromSums.partialCount == byItself.partialCount)
    }

    @Test("interval energy: a caller's stretch longer than what completes the interval is refused")
    func intervalEnergyRefusesOverlongStretch() async {
        await #expect(processExitsWith: .failure) {
            var energy = IntervalEnergy(length: 3)
            energy.add(sumOfSquares: 1, count: 2) { _ in }
            energy.add(sumOfSquares: 1, count: 2) { _ in }
        }
    }

    @Test("empty and NaN inputs give NaN")
    func degenerate() {
        #expect([Double]().statistic(Statistics.mean).isNaN)
        #expect([1.0].statistic(Statistics.standardDeviation).isNaN)
        #expect([1, .nan].statistic(Statistics.median).isNaN)
    }
}

@Suite struct SpectrumTests {
    /// A sine of amplitude A has power A²/2; Welch's one-sided density integrates to it.
    @Test("Welch PSD of a sine integrates to A²/2 and peaks at its frequency")
    func welchSine() throws {
        let fs = 1000.0, amplitude = 0.8, frequency = 125.0
        let x = (0..<10_000).map { amplitude * sin(2 * Double.pi * frequency * Double($0) / fs) }
        let (frequencies, density) = try Spectrum.welch(x, sampleRateHz: fs, segmentSize: 256)
        let binWidth = frequencies[1] - frequencies[0]
        let total = density.reduce(0, +) * binWidth
        #expect(abs(total - amplitude * amplitude / 2) < 0.01 * amplitude * amplitude / 2)
        let peak = density.indices.max { density[$0] < density[$1] }!
        #expect(abs(frequencies[peak] - frequency) <= binWidth / 2)
    }

    @Test("STFT frames: count, bin spacing, and the energy of a windowed sine in its bin")
    func stft() throws {
        let fs = 8000.0
        let x = (0..<8000).map { sin(2 * Double.pi * 1000 * Double($0) / fs) }
        let frames = try Spectrum.stft(x, size: 512, hop: 256, sampleRateHz: fs)
        #expect(frames.frameCount == (8000 - 512) / 256 + 1)
        #expect(frames.binCount == 257)
        #expect(frames.binSpacingHz == 15.625)
        let row = frames.row(3)
        // 1000 Hz is bin 64 exactly; a periodic Hann's coherent gain is 1/2, so |X| = N/4.
        #expect(abs(row[row.startIndex + 64].squareRoot() - 128) < 1e-6)
    }
}

/// Selection against the sort it replaces: every order statistic and type-7 quantile the same
/// value, bit for bit, on shapes that defeat naive pivots.
@Suite struct SelectionTests {
    static func shapes(_ random: inout SeededRandom) -> [(String, [Double])] {
        var cases: [(String, [Double])] = []
        for n in [0, 1, 2, 3, 15, 16, 17, 31, 166, 1_000, 20_001] {
            let uniform = (0..<n).map { _ in random.unit() }
            cases.append(("uniform \(n)", uniform))
            cases.append(("sorted \(n)", uniform.sorted()))
            cases.append(("reversed \(n)", uniform.sorted().reversed()))
            cases.append(("three values \(n)", (0..<n).map { _ in Double(random.below(3)) }))
            cases.append(("constant \(n)", [Double](repeating: 7, count: n)))
            cases.append(("organ pipe \(n)", (0..<n).map { Double(min($0, n - $0)) }))
            cases.append(("signed zeros and infinities \(n)", (0..<n).map { _ in [-0.0, 0.0, .infinity, -.infinity, 1e308, -1e-308][random.below(6)] }))
        }
        return cases
    }

    @Test("every index k of select equals sorted()[k] with nothing larger before and nothing smaller after, on uniform, sorted, reversed, three-valued, constant, organ-pipe and ±0/±∞ data of 0 to 20,001 values")
    func selectEqualsSort() {
        var random = SeededRandom(seed: 65)
        for (name, values) in Self.shapes(&random) where !values.isEmpty {
            let sorted = values.sorted()
            let ks = values.count <= 32 ? Array(values.indices) : (0..<24).map { _ in random.below(values.count) } + [0, values.count - 1]
            for k in ks {
                var scratch = values
                let ok = scratch.withUnsafeMutableBufferPointer { buffer -> Bool in
                    Selection.select(buffer, k, in: 0..<buffer.count)
                    return buffer[k] == sorted[k] && buffer[..<k].allSatisfy { $0 <= buffer[k] } && buffer[(k + 1)...].allSatisfy { $0 >= buffer[k] }
                }
                #expect(ok, "\(name), k = \(k)")
                #expect(scratch.sorted() == sorted, "\(name): select lost or duplicated values")
            }
        }
    }

    @Test("sortedElement equals sorted()[k] on 4,096 to 200,000 values of every shape (the sampled bracket, its ties, its misses and a NaN's fallback), and the sampled path answers the usual cases itself")
    func sortedElementEqualsSort() {
        var random = SeededRandom(seed: 67)
        var cases = Self.shapes(&random).filter { $0.1.count >= 4096 }
        for n in [4096, 200_000] {
            // Timestamp intervals as a phone's clock gives them: 41 values 1e-4 apart, heavy ties at the median.
            cases.append(("quantised intervals \(n)", (0..<n).map { _ in 0.01 + Double(random.below(21) - random.below(21)) * 1e-4 }))
            cases.append(("two clusters \(n)", (0..<n).map { _ in random.below(2) == 0 ? random.unit() : 1e9 + random.unit() }))
        }
        var sampled = 0
        for (name, values) in cases {
            let sorted = values.sorted()
            for k in [0, 1, values.count / 4, values.count / 2, values.count / 2 + 1, values.count - 2, values.count - 1] + (0..<8).map({ _ in random.below(values.count) }) {
                var scratch = values
                #expect(Selection.sortedElement(k, of: &scratch) == sorted[k], "\(name), k = \(k)")
                if let value = values.withUnsafeBufferPointer({ Selection.sampledElement(k, of: $0) }) {
                    #expect(value == sorted[k], "\(name), k = \(k): sampled")
                    sampled += 1
                }
            }
        }
        // Uniform, sorted, reversed, intervals and clusters at their medians at least: the pass, not the fallback.
        #expect(sampled >= 5 * 8)
        var withNaN = (0..<10_000).map { Double($0) }
        withNaN[1234] = .nan
        #expect(withNaN.withUnsafeBufferPointer { Selection.sampledElement(9_999, of: $0) } == nil, "a NaN makes the counts miss the last rank")
    }

    @Test("containsNaN: none in empty, finite, ±∞ and −0 values; a NaN (quiet, signalling or negative) found at every position of 1 to 9 values")
    func containsNaN() {
        #expect(![Double]().withUnsafeBufferPointer(Selection.containsNaN))
        #expect(![1, -0.0, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude].withUnsafeBufferPointer(Selection.containsNaN))
        for nan in [Double.nan, .signalingNaN, -Double.nan] {
            for count in 1...9 {
                for position in 0..<count {
                    var values = (0..<count).map(Double.init)
                    values[position] = nan
                    #expect(values.withUnsafeBufferPointer(Selection.containsNaN), "\(nan) at \(position) of \(count)")
                }
            }
        }
    }

    @Test("type-7 quantiles by selection equal quantileOfSorted of the sorted data bit for bit (ascending, descending and repeated probabilities); NaN for an empty input, a NaN value or a probability outside [0, 1]")
    func quantilesEqualSortedQuantiles() {
        var random = SeededRandom(seed: 66)
        let probabilities = [0, 0.05, 0.1, 0.25, 0.5, 0.5, 0.75, 0.9, 0.95, 1]
        for (name, values) in Self.shapes(&random) where !values.isEmpty {
            let sorted = values.sorted()
            for ps in [probabilities, probabilities.reversed(), [0.5, 0.25, 0.75]] {
                let expected = ps.map { Statistics.quantileOfSorted(sorted, $0) }
                let got = Selection.quantiles(of: values, ps)
                #expect(zip(got, expected).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }, "\(name) \(ps): \(got) vs \(expected)")
            }
        }
        #expect(Selection.quantiles(of: [Double](), [0.5])[0].isNaN)
        #expect(Selection.quantiles(of: [1, .nan, 3], [0.5])[0].isNaN)
        #expect(Selection.quantiles(of: [1, 2, 3], [-0.1, 1.1]).allSatisfy { $0.isNaN })
        // Hand values: R quantile(c(1, 2, 4, 8), c(.25, .5, .75), type = 7) = 1.75, 3, 5.
        #expect(Selection.quantiles(of: [8, 1, 4, 2], [0.25, 0.5, 0.75]) == [1.75, 3, 5])
    }
}

/// Linear resampling onto a uniform grid, by hand and against a plain per-point search.
@Suite struct ResamplingTests {
    @Test("by hand: times 0, 0.3, 1, 1.1, 2.05 s onto 2 Hz give grid 0, 0.5, 1, 1.5, 2 s and the interpolated values of two columns; an absurd span gives empty columns")
    func handValues() {
        let time = [0, 0.3, 1, 1.1, 2.05]
        let (start, columns) = Resampling.linear(time: time, columns: [[0, 3, 10, 11, 20.5], [1, 1, -1, 5, 5]], rateHz: 2)
        #expect(start == 0)
        // t = 0.5: between 0.3 and 1 (weight 0.2/0.7); t = 1.5: between 1.1 and 2.05 (weight 0.4/0.95).
        #expect(columns[0] == [0, 3 + (0.5 - 0.3) / 0.7 * 7, 10, 11 + (1.5 - 1.1) / 0.95 * 9.5, 11 + (2 - 1.1) / 0.95 * 9.5])
        #expect(columns[1] == [1, 1 + (0.5 - 0.3) / 0.7 * -2, -1, 5, 5])
        #expect(Resampling.linear(time: [0, 1e300], columns: [[0, 1]], rateHz: 100).columns == [[]])
        #expect(Resampling.linear(time: time, columns: [], rateHz: 2).columns.isEmpty)
    }

    @Test("0, 1, 3 and 9 columns of jittered 100-Hz samples: every output is x[j] + w·(x[j+1] − x[j]) with j the last input before t (a search per point), bit for bit")
    func equalsPerPointSearch() {
        var random = SeededRandom(seed: 73)
        let n = 5_000
        let time = (0..<n).map { Double($0) / 100 + 0.004 * (random.unit() - 0.5) }
        for m in [0, 1, 3, 9] {
            let columns = (0..<m).map { _ in (0..<n).map { _ in random.unit() } }
            let (start, got) = Resampling.linear(time: time, columns: columns, rateHz: 100)
            #expect(got.count == m)
            for c in 0..<m {
                for k in stride(from: 0, to: got[c].count, by: 7) {
                    let t = start + Double(k) / 100
                    var j = 0
                    while j < n - 2, time[j + 1] < t { j += 1 }
                    let w = min(max((t - time[j]) / (time[j + 1] - time[j]), 0), 1)
                    #expect(got[c][k] == columns[c][j] + w * (columns[c][j + 1] - columns[c][j]), "column \(c), point \(k)")
                }
            }
        }
    }

    @Test("the grid's two halves on two threads give the same bits as one walk: phone-like 100-Hz jitter, a 400-Hz source, a 20-Hz one, gaps, and 2–5 points")
    func parallelHalvesEqualOneWalk() {
        var random = SeededRandom(seed: 91)
        var sources: [[Double]] = []
        for (n, period, jitter) in [(40_001, 0.01, 0.004), (40_000, 0.0025, 0.001), (9_999, 0.05, 0.02)] {
            var t = 0.0
            sources.append((0..<n).map { _ in
                t += period + jitter * (random.unit() - 0.5) + (random.unit() < 0.001 ? 0.7 : 0)  // now and then a gap
                return t
            })
        }
        sources += [[0, 0.01], [0, 0.004, 0.02], [0, 0.01, 0.02, 0.035, 0.04]]
        for time in sources {
            let columns = (0..<3).map { _ in time.map { _ in random.unit() * 20 - 10 } }
            let one = Resampling.linear(time: time, columns: columns, rateHz: 100)
            let two = Resampling.linear(time: time, columns: columns, rateHz: 100, parallel: true)
            #expect(one.start == two.start && one.columns == two.columns, "\(time.count) source times")
        }
    }
}

/// Peak finding with SciPy's criteria, by hand and against walking out from every peak.
@Suite struct PeaksTests {
    /// find_peaks' definition written out: strict maxima (a plateau by its first sample), each
    /// prominence by walking out from the peak (Peaks.prominence), then thinning by height.
    static func definition(_ x: [Double], minimumProminence: Double, minimumDistance: Int) -> [Int] {
        guard x.count >= 3 else { return [] }
        var candidates: [Int] = []
        var i = 1
        while i < x.count - 1 {
            if x[i] > x[i - 1] {
                var j = i
                while j + 1 < x.count, x[j + 1] == x[i] { j += 1 }
                if j + 1 < x.count, x[j + 1] < x[i], Peaks.prominence(x, i) >= minimumProminence { candidates.append(i) }
                i = j + 1
            } else {
                i += 1
            }
        }
        guard minimumDistance > 1 else { return candidates }
        var keep = [Bool](repeating: true, count: candidates.count)
        for k in candidates.indices.sorted(by: { x[candidates[$0]] > x[candidates[$1]] }) where keep[k] {
            for other in candidates.indices where other != k && abs(candidates[other] - candidates[k]) < minimumDistance { keep[other] = false }
        }
        return candidates.indices.filter { keep[$0] }.map { candidates[$0] }
    }

    @Test("by hand: 0, 2, 1, 3, 1, 2, 0 has peaks 1, 3, 5 with prominences 1, 3, 1; a prominence of 1.5 keeps 3; a distance of 3 keeps the highest, 3")
    func handValues() {
        let x: [Double] = [0, 2, 1, 3, 1, 2, 0]
        #expect([1, 3, 5].map { Peaks.prominence(x, $0) } == [1, 3, 1])
        #expect(Peaks.find(x, minimumProminence: 1) == [1, 3, 5])
        #expect(Peaks.find(x, minimumProminence: 1.5) == [3])
        #expect(Peaks.find(x, minimumDistance: 3) == [3])
    }

    @Test("the prominences of the rising samples in two stack passes select what walking out from each peak selects: noise, quantised steps with plateaus and ties, a 20,000-sample walk band, NaN and ±∞ among them, 2,000 short runs of ties, NaNs, ±∞ and ±0; distances 1 to 60")
    func equalsWalkingOut() {
        var random = SeededRandom(seed: 75)
        var signals: [[Double]] = []
        for n in [3, 4, 10, 200, 2_001] {
            signals.append((0..<n).map { _ in random.unit() })
            signals.append((0..<n).map { _ in Double(random.below(4)) })  // plateaus and ties
        }
        signals.append((0..<20_000).map { i in sin(2 * Double.pi * 1.8 * Double(i) / 100) * (1 + 0.2 * sin(Double(i) / 900)) + 0.05 * (random.unit() - 0.5) })
        var hostile = (0..<500).map { _ in random.unit() }
        for (i, value) in [(40, Double.nan), (41, .nan), (120, .infinity), (300, -.infinity), (301, .infinity)] { hostile[i] = value }
        signals.append(hostile)
        let symbols: [Double] = [0, -0.0, 1, 1, 2, 2, 3, .nan, .infinity, -.infinity]
        for _ in 0..<2_000 { signals.append((0..<(3 + random.below(30))).map { _ in symbols[random.below(symbols.count)] }) }
        for x in signals {
            for (prominence, distance) in [(0.0, 1), (0.3, 1), (0.5, 30), (0.1, 60), (2.0, 5)] {
                #expect(Peaks.find(x, minimumProminence: prominence, minimumDistance: distance)
                            == Self.definition(x, minimumProminence: prominence, minimumDistance: distance),
                        "\(x.count) samples, prominence \(prominence), distance \(distance)")
            }
        }
    }
}

/// Fork–join: results in index order whatever thread computed them.
@Suite struct ParallelTests {
    @Test("map gives body(i) in index order on two threads and on one, for 0, 1, 2 and 1,000 pieces; pair gives both results in place, nested pairs too")
    func mapAndPair() {
        for count in [0, 1, 2, 1_000] {
            let expected = (0..<count).map { i in (0...i % 97).reduce(0.0) { $0 + sin(Double($1)) } }
            for parallel in [false, true] {
                let mapped = Parallel.map(count, parallel: parallel) { (i: Int) -> Double in (0...i % 97).reduce(0.0) { (sum: Double, k: Int) -> Double in sum + sin(Double(k)) } }
                #expect(mapped == expected)
            }
        }
        let ((a, b), c) = Parallel.pair(parallel: true) { Parallel.pair(parallel: true) { "a" } _: { [1, 2] } } _: { 3.5 }
        #expect(a == "a" && b == [1, 2] && c == 3.5)
    }

    @Test("a thread whose affinity allows one processor runs every piece itself (with the check removed, Dispatch hands pieces to its other workers)")
    func oneProcessorRunsOnItsThread() throws {
        let original = try #require(Processors.threadMask)
        defer { try? Processors.setThreadMask(original) }
        let caller = pthread_self()
        func threads() -> [pthread_t] { Parallel.map(32, parallel: true) { _ in usleep(2_000); return pthread_self() } }
        // Only the first processor of the mask.
        let first = try #require(original.indices.first { original[$0] != 0 })
        var one = [UInt8](repeating: 0, count: original.count)
        one[first] = original[first] & (0 &- original[first])  // its lowest set bit
        try Processors.setThreadMask(one)
        #expect(Processors.usable == 1)
        #expect(threads().allSatisfy { pthread_equal($0, caller) != 0 })
    }

    @Test("map(beside:) gives first() and body(i) in index order, on two threads and on one, for 0, 1 and 500 pieces")
    func mapBeside() {
        for count in [0, 1, 500] {
            for parallel in [false, true] {
                let (first, rest) = Parallel.map(beside: { (0..<10_000).reduce(0.0) { $0 + cos(Double($1)) } }, count, parallel: parallel) { i in "\(i * i)" }
                #expect(first == (0..<10_000).reduce(0.0) { $0 + cos(Double($1)) })
                #expect(rest == (0..<count).map { "\($0 * $0)" })
            }
        }
    }
}
