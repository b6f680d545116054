import Glibc
import Testing
import TestSupport
@testable import SignalProcessing

/// Clenshaw's trigonometric series against the same series summed term by term in 80-bit
/// arithmetic with libm's sines and cosines.
@Suite struct TrigSeriesTests {
    @Test("110 terms at 220 angles (eGeMAPSv02's 11-kHz resampling of a 44.1-kHz frame) and at 0, ±π, tiny and negative angles, 1 to 35 outputs (partial lanes): within K²·ε·Σ(|a|+|b|) of the 80-bit sum")
    func againstTermByTerm() {
        var random = SeededRandom(seed: 2026_1130)
        let terms = 110
        let a = (0..<terms).map { _ in random.unit() - 0.5 }, b = (0..<terms).map { _ in random.unit() - 0.5 }
        let size = (a + b).reduce(0) { $0 + abs($1) }
        let resampling = (0..<220).map { n in 2 * Double.pi * (Double(n) * 44_100 / 11_000 - 71) / 1_024 }
        let special = [0, Double.pi, -Double.pi, 1e-9, -3.3, 6.2, 2 * Double.pi - 1e-7]
        for angles in [resampling, special] + (1...35).map({ n in Array(resampling.prefix(n)) }) {
            let series = TrigSeries(angles: angles)
            var out = [Double](repeating: .nan, count: angles.count)
            let pairs = (0..<terms).flatMap { [a[$0], b[$0]] }
            pairs.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { series.sum(p, terms: terms, into: $0) } }
            for (i, theta) in angles.enumerated() {
                var exact: Float80 = 0
                for k in 0..<terms {
                    exact += Float80(a[k]) * Float80(cos(Double(k) * theta)) - Float80(b[k]) * Float80(sin(Double(k) * theta))
                }
                let tolerance = Double(terms * terms) * Double.ulpOfOne * size
                #expect(abs(Float80(out[i]) - exact) <= Float80(tolerance), "θ \(theta): \(out[i]) vs \(exact)")
            }
        }
    }

    @Test("no terms: zeros; one term: a₀ at every angle")
    func degenerate() {
        let series = TrigSeries(angles: [0.3, 1.1, -2])
        var out = [Double](repeating: .nan, count: 3)
        [Double]().withUnsafeBufferPointer { e in out.withUnsafeMutableBufferPointer { series.sum(e, terms: 0, into: $0) } }
        #expect(out == [0, 0, 0])
        [0.75, 9.0].withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { series.sum(p, terms: 1, into: $0) } }
        #expect(out == [0.75, 0.75, 0.75])
    }
}
