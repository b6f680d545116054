import CKernels
import Glibc
import Testing
import TestSupport
@testable import SignalProcessing

/// Burg's LPC with its sums in twice double precision (CKernels' atk_burg_sums) against Praat's
/// VECburg written out here with its sums in 80-bit arithmetic, as Praat 6.1.38 computes them.
@Suite struct BurgLPCTests {
    /// Praat's VECburg (dwsys/NUM2.cpp), one value at a time, sums in Float80.
    static func reference(_ x: [Double], order m: Int) -> [Double]? {
        let n = x.count
        var a = [Double](repeating: 0, count: m + 1), aa = a
        var energy: Float80 = 0
        for v in x { energy += Float80(v) * Float80(v) }
        guard energy > 0 else { return nil }
        var b1 = [Double](repeating: 0, count: n + 1), b2 = b1
        b1[1] = x[0]
        b2[n - 1] = x[n - 1]
        for j in 2...n - 1 { b1[j] = x[j - 1]; b2[j - 1] = x[j - 1] }
        for i in 1...m {
            var numerator: Float80 = 0, denominator: Float80 = 0
            for j in 1...n - i {
                numerator += Float80(b1[j]) * Float80(b2[j])
                denominator += Float80(b1[j]) * Float80(b1[j]) + Float80(b2[j]) * Float80(b2[j])
            }
            guard denominator > 0 else { return Array(a[1...]) }
            a[i] = Double(2 * numerator / denominator)
            for j in stride(from: 1, to: i, by: 1) { a[j] = aa[j] - a[i] * aa[i - j] }
            if i < m {
                for j in 1...i { aa[j] = a[j] }
                for j in stride(from: 1, through: n - i - 1, by: 1) {
                    b1[j] -= aa[i] * b2[j]
                    b2[j] = b2[j + 1] - aa[i] * b1[j + 1]
                }
            }
        }
        return Array(a[1...])
    }

    /// A Gaussian-windowed frame of an AR(2) resonance driven by noise, `n` samples.
    static func frame(_ n: Int, _ random: inout SeededRandom) -> [Double] {
        let r = 0.9 + 0.09 * random.unit(), theta = Double.pi * random.unit()
        let c1: Double = 2 * r * cos(theta), c2: Double = r * r, edge: Double = exp(-12)
        var y1 = 0.0, y2 = 0.0
        return (0..<n).map { (i: Int) -> Double in
            let y: Double = c1 * y1 - c2 * y2 + (random.unit() - 0.5)
            y2 = y1
            y1 = y
            let d: Double = Double(i + 1) - 0.5 * Double(n + 1), span = Double(n + 1)
            return y * (exp(-48 * d * d / (span * span)) - edge) / (1 - edge)
        }
    }

    @Test("coefficients within 1e-12 of Praat's 80-bit sums (largest coefficient) on 300 random resonant frames of 12 to 551 samples, orders 2 to 12")
    func againstExtendedPrecision() throws {
        var random = SeededRandom(seed: 1967)
        for k in 0..<300 {
            let n = 12 + random.below(540), order = 2 + k % 11
            let x = Self.frame(n, &random)
            let expected = try #require(Self.reference(x, order: order))
            let found = try #require(x.withUnsafeBufferPointer { BurgLPC(order: order).coefficients($0) })
            let size = expected.map(abs).max() ?? 1
            #expect(found.count == expected.count)
            #expect(zip(found, expected).allSatisfy { abs($0 - $1) <= 1e-12 * size }, "n \(n), order \(order): \(found) vs \(expected)")
        }
    }

    @Test("a frame times 2^−600 or 2^600 gives the frame's coefficients bit for bit (its products would leave Double's range unscaled); all zeros, a NaN or an infinity: none")
    func scaleAndHostileValues() throws {
        var random = SeededRandom(seed: 2005)
        let x = Self.frame(400, &random), burg = BurgLPC(order: 10)
        let plain = try #require(x.withUnsafeBufferPointer { burg.coefficients($0) })
        for scale in [0x1p-600, 0x1p600] {
            let scaled = x.map { $0 * scale }
            #expect(scaled.withUnsafeBufferPointer { burg.coefficients($0) }?.map(\.bitPattern) == plain.map(\.bitPattern), "× \(scale)")
        }
        for value in [Double.nan, .infinity, -.infinity] {
            var hostile = x
            hostile[200] = value
            #expect(hostile.withUnsafeBufferPointer { burg.coefficients($0) } == nil, "\(value)")
        }
        #expect([Double](repeating: 0, count: 100).withUnsafeBufferPointer { burg.coefficients($0) } == nil)
    }

    @Test("the sums: Σ b1·b2 and Σ b1² + b2² of 0 to 40 and 1,001 values, a third of the products cancelling, equal the exact sums (128-bit integers) rounded once")
    func sums() {
        var random = SeededRandom(seed: 2)
        for n in Array(0...40) + [1_001] {
            // Values of 26 significant bits, times 2^−26: every product and sum is exact in a
            // 128-bit integer scaled by 2^52.
            func draw() -> Double { Double(Int(random.next() % (1 << 26)) - (1 << 25)) * 0x1p-26 }
            let b1: [Double] = (0..<n).map { _ in draw() }
            let b2: [Double] = (0..<n).map { i in i % 3 == 0 ? -b1[i] : draw() }
            var numerator = Double.nan, denominator = Double.nan
            atk_burg_sums(b1, b2, n, &numerator, &denominator)
            var exactNumerator: Int128 = 0, exactDenominator: Int128 = 0
            for j in 0..<n {
                let u = Int128(b1[j] * 0x1p26), v = Int128(b2[j] * 0x1p26)
                exactNumerator += u * v
                exactDenominator += u * u + v * v
            }
            #expect(numerator == Double(exactNumerator) * 0x1p-52, "n \(n)")
            #expect(denominator == Double(exactDenominator) * 0x1p-52, "n \(n)")
        }
    }
}
