import Foundation
import Testing
import TestSupport
@testable import SignalProcessing
import CKernels

/// ``VectorMath`` (glibc's libmvec through CKernels/logexp.c) at this machine's kernel level.
struct VectorMathTests {
    /// The distance in units in the last place between two finite doubles of one sign.
    static func ulps(_ a: Double, _ b: Double) -> Double {
        a == b ? 0 : abs(a - b) / max(a.ulp, b.ulp)
    }

    /// Within 4 ulp of the scalar functions (libmvec's stated bound; scalar glibc is within 1) on
    /// 20,000 values spread over the whole range each function takes, subnormals included.
    @Test func withinFourUlpOfTheScalarFunctions() {
        var random = SeededRandom(seed: 17)
        let positive = (0..<20_000).map { _ in pow(10, -320 + 628 * random.unit()) }
        let exponents = (0..<20_000).map { _ in -740 + 1449 * random.unit() }
        var worst = (log: 0.0, log10: 0.0, exp: 0.0)
        var x = positive
        VectorMath.log(&x)
        for (value, result) in zip(positive, x) { worst.log = max(worst.log, Self.ulps(result, Foundation.log(value))) }
        x = positive
        VectorMath.log10(&x)
        for (value, result) in zip(positive, x) { worst.log10 = max(worst.log10, Self.ulps(result, Foundation.log10(value))) }
        x = exponents
        VectorMath.exp(&x)
        for (value, result) in zip(exponents, x) where result.isNormal { worst.exp = max(worst.exp, Self.ulps(result, Foundation.exp(value))) }
        #expect(worst.log <= 4 && worst.log10 <= 4 && worst.exp <= 4, "\(worst)")
        print("libmvec at kernel level \(atk_kernel_level()): largest distance from the scalar functions, ulp: log \(worst.log), log10 \(worst.log10), exp \(worst.exp)")
    }


    /// A value's result does not depend on where it sits: at every place of arrays of 1–17
    /// values (whole vectors and padded tails of every width) it equals its result in a whole
    /// vector. The values are ones whose vector result differs from the scalar `exp`, so a tail
    /// computed by the scalar function would show.
    @Test func resultsDoNotDependOnThePlace() throws {
        var random = SeededRandom(seed: 5)
        var candidates = (0..<4_096).map { _ in -700 + 1400 * random.unit() }
        var vector = candidates
        VectorMath.exp(&vector)
        candidates = zip(candidates, vector).filter { Foundation.exp($0.0) != $0.1 }.map(\.0)
        try #require(candidates.count >= 4, "no value whose vector exp differs from the scalar one")
        for value in candidates.prefix(4) {
            var whole = [Double](repeating: value, count: 64)
            VectorMath.exp(&whole)
            for count in 1...17 {
                var filler = SeededRandom(seed: UInt64(count))
                for place in 0..<count {
                    var x = (0..<count).map { _ in filler.unit() }
                    x[place] = value
                    VectorMath.exp(&x)
                    #expect(x[place] == whole[0], "\(value) at \(place) of \(count)")
                }
            }
        }
    }

    @Test func edgeValues() {
        var x: [Double] = [0, -0.0, -1, .infinity, .nan, 1, 10, 1e-30]
        VectorMath.log10(&x)
        #expect(x[0] == -.infinity && x[1] == -.infinity && x[2].isNaN && x[3] == .infinity && x[4].isNaN && x[5] == 0 && x[6] == 1)
        #expect(abs(x[7] + 30) <= 4 * 30.0.ulp)
        var e: [Double] = [0, 710, -746, -.infinity, .infinity, .nan]
        VectorMath.exp(&e)
        #expect(e[0] == 1 && e[1] == .infinity && e[2] == 0 && e[3] == 0 && e[4] == .infinity && e[5].isNaN)
        var empty: [Double] = []
        VectorMath.log(&empty)
        #expect(empty.isEmpty)
    }

    @Test("square roots in place equal the scalar squareRoot() bit for bit, every length 0 to 20 and 1,001, with −0, +∞, a negative value and NaN among them")
    func squareRoots() {
        var random = SeededRandom(seed: 2)
        for n in Array(0...20) + [1_001] {
            var x = (0..<n).map { _ in exp(40 * random.unit() - 20) }
            for (k, special) in [-0.0, .infinity, -1, .nan].enumerated() where k < n { x[(k * 7) % n] = special }
            let expected = x.map { $0.squareRoot() }
            VectorMath.squareRoot(&x)
            #expect(x.map(\.bitPattern) == expected.map(\.bitPattern), "n \(n)")
        }
    }

    @Test("weighted rows equal Σ_k w_k·r_k[j] summed from 0 in k order bit for bit: 0 to 12 rows, every length 0 to 20 and 1,001")
    func weightedRows() {
        var random = SeededRandom(seed: 12)
        for count in 0...12 {
            for n in Array(0...20) + [1_001] {
                let rows = (0..<count).map { _ in (0...n).map { _ in random.unit() - 0.5 } }, weights = (0..<count).map { _ in random.unit() }
                var expected = [Double](repeating: 0, count: n)
                for j in 0..<n { for k in 0..<count { expected[j] += weights[k] * rows[k][j] } }
                var out = [Double](repeating: .nan, count: n + 1)
                let pointers = rows.map { row in row.withUnsafeBufferPointer { $0.baseAddress! } }
                pointers.withUnsafeBufferPointer { p in
                    weights.withUnsafeBufferPointer { w in out.withUnsafeMutableBufferPointer { VectorMath.weightedRows(p, weights: w, into: UnsafeMutableBufferPointer(rebasing: $0[0..<n])) } }
                }
                #expect(out.prefix(n).map(\.bitPattern) == expected.map(\.bitPattern) && out[n].isNaN, "\(count) rows of \(n)")
            }
        }
        // No rows from a buffer without an address: zeros.
        var out = [Double](repeating: .nan, count: 9)
        out.withUnsafeMutableBufferPointer { VectorMath.weightedRows(UnsafeBufferPointer(start: nil, count: 0), weights: UnsafeBufferPointer(start: nil, count: 0), into: $0) }
        #expect(out == [Double](repeating: 0, count: 9))
    }
}

