import TestSupport
import Testing
@testable import Analysis

/// The quefrency averaging of "Get CPPS" as a flat tap table (PraatCepstralAnalysis.TapTable):
/// four bins at a time where their windows are side by side, one at a time elsewhere, each bin's sum
/// the same bits as its own taps summed in order.
struct CepstralSmoothingTests {
    @Test("tap table: every bin bit for bit its own taps summed k ascending (NaN where a window has none), at Praat's 0.5-ms averaging and at widths that leave edge and single-tap windows; both the four-bin and the one-bin path taken")
    func tapTableMatchesTaps() {
        var random = SeededRandom(seed: 5000)
        for (bins, dq, width) in [(513, 1e-4, 0.0005), (513, 1e-4, 0.00037), (129, 2.5e-4, 0.0011), (7, 1e-4, 0.0005)] {
            let qmax = dq * Double(bins - 1)
            let windows = (0..<bins).map { j in
                PraatCepstralAnalysis.InterpolatedMean(count: bins, x1: 0, dx: dq, domain: 0...qmax,
                                                        from: Double(j) * dq - 0.5 * width, to: Double(j) * dq + 0.5 * width)
            }
            let taps = windows.map(\.taps)
            let table = PraatCepstralAnalysis.TapTable(taps)
            let y = (0..<bins).map { _ in random.unit() * 1e3 }
            var out = [Double](repeating: 0, count: bins)
            y.withUnsafeBufferPointer { y in out.withUnsafeMutableBufferPointer { table.apply(y, into: $0) } }
            for j in 0..<bins {
                guard let t = taps[j] else {
                    #expect(out[j].isNaN, "bin \(j) of \(bins)")
                    continue
                }
                var sum = 0.0
                for (k, weight) in t.weights.enumerated() { sum += weight * y[t.first - 1 + k] }
                #expect(out[j].bitPattern == sum.bitPattern, "bin \(j) of \(bins), width \(width)")
            }
            if bins >= 16 {
                #expect(table.group.contains { $0 >= 0 } && table.group.contains(-1), "\(bins) bins: both paths")
            }
        }
    }
}
