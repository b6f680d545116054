import Glibc
import Testing
import TestSupport
@testable import SignalProcessing

/// Lag products through the FFT against the same products summed in 80-bit arithmetic, and the
/// direct sums where the transform's rounding bound does not hold.
@Suite struct LagProductsTests {
    /// Σ_{j<w} x_j·x_{m+j} in 80 bits, and Σ x_j²·Σ x_{m+j}² (the normalisation of the bound).
    static func exact(_ x: [Double], window w: Int, lag m: Int) -> (Float80, Double) {
        var product: Float80 = 0, a: Float80 = 0, b: Float80 = 0
        for j in 0..<w {
            product += Float80(x[j]) * Float80(x[m + j])
            a += Float80(x[j]) * Float80(x[j])
            b += Float80(x[m + j]) * Float80(x[m + j])
        }
        return (product, Double(a * b))
    }

    static func products(_ x: [Double], window w: Int, lags: ClosedRange<Int>) throws -> [Double] {
        var products = try #require(LagProducts(window: w, lags: lags.upperBound))
        let norms = lags.map { exact(x, window: w, lag: $0).1 }
        var out = [Double](repeating: .nan, count: lags.count)
        x.withUnsafeBufferPointer { x in
            norms.withUnsafeBufferPointer { norms in out.withUnsafeMutableBufferPointer { products(x, window: w, lags: lags, norms: norms, into: $0) } }
        }
        return out
    }

    @Test("a Praat cross-correlation's size (588-sample window, 590 lags at 44.1 kHz) and another: every product within 1e-13·√(Σx²·Σy²) of the 80-bit sum")
    func withinTolerance() throws {
        var random = SeededRandom(seed: 2026_1130)
        for (w, m) in [(588, 590), (300, 400)] {
            let x = (0..<(w + m)).map { (k: Int) -> Double in
                let tone = 0.6 * sin(Double(k) * 0.071)
                return tone + 0.3 * (random.unit() - 0.5) + 0.02
            }
            let out = try Self.products(x, window: w, lags: 1...m)
            for lag in 1...m {
                let (exact, norm) = Self.exact(x, window: w, lag: lag)
                #expect(abs(Float80(out[lag - 1]) - exact) <= Float80(LagProducts.tolerance * norm.squareRoot()), "window \(w), lag \(lag)")
            }
        }
    }

    @Test("a loud window before silence 10⁻⁸ as loud: the lags whose stretch is quiet are the direct sums bit for bit (the transform's rounding would swamp them), the loud ones within tolerance")
    func quietLagsSummedDirectly() throws {
        let w = 400, m = 500
        let x = (0..<(w + m)).map { (k: Int) -> Double in k < w + 100 ? sin(Double(k) * 0.05) : 1e-8 * sin(Double(k) * 0.3) }
        let out = try Self.products(x, window: w, lags: 1...m)
        var direct = [Double](repeating: .nan, count: m)
        x.withUnsafeBufferPointer { x in direct.withUnsafeMutableBufferPointer { Autocorrelation.lagProducts(x, window: w, lags: 1...m, into: $0) } }
        var quiet = 0
        for lag in 1...m {
            let (exact, norm) = Self.exact(x, window: w, lag: lag)
            #expect(abs(Float80(out[lag - 1]) - exact) <= Float80(LagProducts.tolerance * norm.squareRoot()), "lag \(lag)")
            if lag > 470 {
                quiet += 1
                #expect(out[lag - 1].bitPattern == direct[lag - 1].bitPattern, "lag \(lag): \(out[lag - 1]) vs \(direct[lag - 1])")
            }
        }
        #expect(quiet == 30)
    }

    @Test("sizes: the least product of 2s, 3s and 5s at or above W + M (by enumeration); nil below 2¹⁶ products and beyond 2²⁰ points")
    func sizes() {
        func enumerated(_ n: Int) -> Int {
            var best = Int.max
            var five = 1
            for _ in 0..<12 {
                var three = five
                for _ in 0..<16 {
                    var two = three
                    while two < n { two *= 2 }
                    best = min(best, two)
                    three *= 3
                }
                five *= 5
            }
            return best
        }
        for n in [1, 2, 7, 1_025, 1_178, 4_097, 65_537, 1 << 20] { #expect(LagProducts.transformSize(atLeast: n) == enumerated(n), "\(n)") }
        #expect(LagProducts.transformSize(atLeast: 1_178) == 1_200 && LagProducts.transformSize(atLeast: 1_025) == 1_080)
        #expect(LagProducts.transformSize(atLeast: (1 << 20) + 1) == nil && LagProducts.transformSize(atLeast: 0) == nil)
        #expect(LagProducts(window: 106, lags: 108) == nil)
        #expect(LagProducts(window: 256, lags: 256) != nil && LagProducts(window: 255, lags: 256) == nil)
        #expect(LagProducts(window: 1 << 19, lags: (1 << 19) + 1) == nil && LagProducts(window: Int.max, lags: 2) == nil)
    }
}
