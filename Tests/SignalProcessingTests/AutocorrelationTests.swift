import Testing
import TestSupport
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

    @Test("centred products: the documented order (term j in lane j mod 8 over whole runs of eight, the lanes added in order from −0, then the rest one by one) bit for bit, every length 0 to 40 and 1,001")
    func centredProducts() {
        var random = SeededRandom(seed: 8)
        for n in Array(0...40) + [1_001] {
            // One value more than counted (a pointer to an empty array's storage may be nil).
            let a = (0...n).map { _ in random.unit() - 0.3 }, b = (0...n).map { _ in random.unit() * 2 - 1 }
            let ma = 0.2, mb = -0.1
            var lanes = [[Double]](repeating: [0, 0, 0], count: 8), whole = n / 8 * 8
            for j in 0..<whole {
                let u = a[j] - ma, v = b[j] - mb
                lanes[j % 8][0] += u * v
                lanes[j % 8][1] += u * u
                lanes[j % 8][2] += v * v
            }
            var expected = [-0.0, -0.0, -0.0]
            for l in 0..<8 { for q in 0..<3 { expected[q] += lanes[l][q] } }
            for j in whole..<n {
                let u = a[j] - ma, v = b[j] - mb
                expected[0] += u * v
                expected[1] += u * u
                expected[2] += v * v
            }
            let found = a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in Autocorrelation.centredProducts(a.baseAddress!, b.baseAddress!, count: n, meanA: ma, meanB: mb) }
            }
            #expect([found.cross, found.energyA, found.energyB].map(\.bitPattern) == expected.map(\.bitPattern), "n \(n)")
        }
    }
}

