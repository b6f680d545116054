import Glibc
import Testing
@testable import SignalProcessing

/// The roots of polynomials multiplied out from known roots: found to the accuracy their
/// conditioning allows, and nil where the coefficients are not usable or an iterate overflows.
@Suite struct PolynomialRootsTests {
    /// c[0] + c[1]·z + … of Π (z − rₖ) over the real roots and the conjugate pairs r·e^(±iθ).
    static func coefficients(real: [Double], pairs: [(r: Double, theta: Double)]) -> [Double] {
        var c: [Double] = [1]
        func multiply(_ factor: [Double]) {
            var product = [Double](repeating: 0, count: c.count + factor.count - 1)
            for i in c.indices { for j in factor.indices { product[i + j] += c[i] * factor[j] } }
            c = product
        }
        for r in real { multiply([-r, 1]) }
        for (r, theta) in pairs { multiply([r * r, -2 * r * cos(theta), 1]) }
        return c
    }

    static func distanceToNearest(_ z: PolynomialRoots.Root, _ known: [(Double, Double)]) -> Double {
        known.map { hypot(z.re - $0.0, z.im - $0.1) }.min()!
    }

    @Test func simpleRootsOfAnLPCPolynomial() throws {
        // A tenth-order predictor's roots: five pole pairs inside the unit circle, as formants give.
        let pairs = [(0.97, 0.11), (0.95, 0.43), (0.9, 0.9), (0.85, 1.6), (0.7, 2.5)]
        let c = Self.coefficients(real: [], pairs: pairs)
        let known = pairs.flatMap { [($0.0 * cos($0.1), $0.0 * sin($0.1)), ($0.0 * cos($0.1), -$0.0 * sin($0.1))] }
        let roots = try #require(PolynomialRoots.roots(c))
        #expect(roots.count == 10)
        for z in roots { #expect(Self.distanceToNearest(z, known) < 1e-12) }
        // Each known root found once.
        for k in known { #expect(roots.filter { hypot($0.re - k.0, $0.im - k.1) < 1e-9 }.count == 1) }
    }

    @Test func realRootsAndScale() throws {
        // 3·(z − 0.5)(z + 0.25)(z − 2)(z + 4): the leading coefficient divided out, roots of both signs and sizes.
        let c = Self.coefficients(real: [0.5, -0.25, 2, -4], pairs: []).map { 3 * $0 }
        let roots = try #require(PolynomialRoots.roots(c))
        for (z, expected) in zip(roots.sorted { $0.re < $1.re }, [-4.0, -0.25, 0.5, 2]) {
            #expect(abs(z.re - expected) < 1e-12 * max(1, abs(expected)))
            #expect(abs(z.im) < 1e-12)
        }
        // Degree one: −c₀/c₁.
        let line = try #require(PolynomialRoots.roots([3, -1.5]))
        #expect(line == [PolynomialRoots.Root(re: 2, im: 0)])
    }

    @Test func tripleRootToItsConditioning() throws {
        // (z − 0.3)³: a triple root is found only to about ε^(1/3) (≈ 6·10⁻⁶), but found three times.
        let roots = try #require(PolynomialRoots.roots(Self.coefficients(real: [0.3, 0.3, 0.3], pairs: [])))
        #expect(roots.count == 3)
        for z in roots { #expect(hypot(z.re - 0.3, z.im) < 1e-4) }
    }

    @Test func unusableCoefficients() {
        #expect(PolynomialRoots.roots([]) == nil)
        #expect(PolynomialRoots.roots([1]) == nil)
        #expect(PolynomialRoots.roots([1, 0]) == nil)
        #expect(PolynomialRoots.roots([1, .nan, 1]) == nil)
        #expect(PolynomialRoots.roots([.infinity, 1]) == nil)
        // Finite coefficients whose monic form overflows: the iterates stop being finite.
        #expect(PolynomialRoots.roots([1e300, 0, 1e-300]) == nil)
    }
}
