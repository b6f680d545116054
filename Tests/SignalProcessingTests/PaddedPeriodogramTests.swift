import Foundation
import Testing
import TestSupport
@testable import SignalProcessing

/// The summed periodogram of zero-padded segments by its two routes against the definition.
@Suite struct PaddedPeriodogramTests {
    /// Σ_s |Σ_n x_s[n]·e^(−2πi·k·n/N)|², summed term by term.
    static func definition(_ segments: [[Double]], size: Int, bins: ClosedRange<Int>) -> [Double] {
        bins.map { k in
            segments.reduce(0.0) { total, x in
                var re = 0.0, im = 0.0
                for (n, value) in x.enumerated() {
                    let angle = -2 * Double.pi * Double(k * n % size) / Double(size)
                    re += value * cos(angle)
                    im += value * sin(angle)
                }
                return total + re * re + im * im
            }
        }
    }

    @Test("Both routes (summed autocorrelation, and one transform per segment) equal the DFT sums of the definition to 1e-12 of the largest bin: 64 points from segments of 1–8 values, 8,192 from 8-s segments of a 100-Hz gait band signal (and shorter bouts' segments)")
    func routesEqualDefinition() throws {
        var random = SeededRandom(seed: 71)
        for (size, length, bins, count) in [(64, 8, 0...32, 12), (8192, 800, 40...247, 9)] {
            var segments: [[Double]] = []
            for s in 0..<count {
                let n = s == count - 1 ? max(1, length / 3) : length - random.below(max(1, length / 4))  // one short segment
                let phase = random.unit()
                segments.append((0..<n).map { (i: Int) -> Double in
                    let cycles: Double = 1.8 * Double(i) / 100 + phase
                    return sin(2 * Double.pi * cycles) + 0.3 * (random.unit() - 0.5)
                })
            }
            let expected = Self.definition(segments, size: size, bins: bins)
            let largest = expected.max()!
            for autocorrelation in [true, false] {
                var periodogram = try PaddedPeriodogram(size: size, maximumLength: length, bins: bins, viaAutocorrelation: autocorrelation)
                for x in segments { periodogram.add(count: x.count) { x[$0] } }
                let got = periodogram.sums()
                #expect(periodogram.segments == count)
                #expect(got.count == bins.count)
                let worst = zip(got, expected).map { abs($0 - $1) }.max()!
                #expect(worst <= 1e-12 * largest, "size \(size), autocorrelation \(autocorrelation): worst \(worst) of \(largest)")
            }
        }
    }

    @Test("Segments too long for the transform pair fall back to one transform per segment (2L − 1 > size/2), with the same sums")
    func longSegmentsUseTheDirectRoute() throws {
        let x = (0..<40).map { sin(Double($0) * 0.7) }
        var periodogram = try PaddedPeriodogram(size: 64, maximumLength: 40, bins: 0...32)
        periodogram.add(count: x.count) { x[$0] }
        let expected = Self.definition([x], size: 64, bins: 0...32)
        #expect(zip(periodogram.sums(), expected).allSatisfy { abs($0 - $1) <= 1e-12 * expected.max()! })
    }
    @Test("A segment given as values and a window adds what the closure of their products adds, bit for bit, on both routes, a shorter segment after a longer one among them")
    func valuesTimesWindow() throws {
        var random = SeededRandom(seed: 63)
        let x = (0..<1_300).map { _ in random.unit() - 0.5 }
        for autocorrelation in [true, false] {
            var byClosure = try PaddedPeriodogram(size: 8_192, maximumLength: 800, bins: 40...250, viaAutocorrelation: autocorrelation)
            var byBuffers = byClosure
            for (start, length) in [(0, 800), (100, 800), (300, 450), (500, 800)] {
                let window = Window.hann.values(count: length)
                byClosure.add(count: length) { x[start + $0] * window[$0] }
                x.withUnsafeBufferPointer { x in window.withUnsafeBufferPointer { byBuffers.add(x.baseAddress! + start, window: $0) } }
            }
            #expect(byBuffers.sums() == byClosure.sums() && byBuffers.segments == 4)
        }
    }
}
