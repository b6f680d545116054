import Testing
import InputGuards
@testable import SignalProcessing

@Suite struct AutocorrelationTests {
    /// Moe-Nilssen & Helbostad's R(m) = [Σ_{i<N−m} x_i x_{i+m} / (N − m)] / [Σ x_i² / N] summed
    /// directly, in Float80.
    static func direct(_ x: [Double], maxLag: Int) -> [Double] {
        let n = x.count
        let energy = x.reduce(Float80(0)) { $0 + Float80($1) * Float80($1) } / Float80(n)
        return (0...min(maxLag, n - 1)).map { m in
            var sum: Float80 = 0
            for i in 0..<(n - m) { sum += Float80(x[i]) * Float80(x[i + m]) }
            return Double(sum / Float80(n - m) / energy)
        }
    }

    /// Lengths around powers of two, so that n + maxLag falls on both sides of the transform's
    /// size (a padding short of n + maxLag wraps the signal's end into the first lags), maxLag
    /// from 0 to beyond the signal.
    @Test("equals the direct sums to 1e-12 for n + maxLag on either side of a power of two, maxLag 0 to past the end")
    func matchesDirectSums() {
        var random = SplitMix64(seed: 20_261_130)
        for (n, maxLag) in [(2, 1), (3, 5), (100, 0), (120, 8), (121, 7), (124, 4), (125, 4), (1_000, 24), (1_000, 25), (1_030, 250), (4_000, 96), (4_097, 500)] {
            let x = (0..<n).map { _ in Double(random.next() % 2_000_001) / 1_000_000 - 1 }
            let r = Autocorrelation.unbiased(x, maxLag: maxLag), expected = Self.direct(x, maxLag: maxLag)
            #expect(r.count == expected.count, "n \(n) maxLag \(maxLag)")
            for (m, (got, want)) in zip(r, expected).enumerated() {
                #expect(abs(got - want) <= 1e-12, "n \(n) maxLag \(maxLag) lag \(m): \(got) vs \(want)")
            }
        }
        #expect(Autocorrelation.unbiased([1], maxLag: 3).isEmpty)
        #expect(Autocorrelation.unbiased([0, 0, 0], maxLag: 1).allSatisfy { $0.isNaN })
    }
}
