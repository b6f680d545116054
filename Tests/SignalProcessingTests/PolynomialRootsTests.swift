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

    @Test("unpolished (eGeMAPSv02's formants): an eleventh-order predictor's roots as the sweeps leave them, each known root found once within 1e-12, cold and started from them")
    func unpolishedRoots() throws {
        let pairs = [(0.96, 0.13), (0.93, 0.52), (0.88, 1.1), (0.8, 1.9), (0.75, 2.6)]
        let c = Self.coefficients(real: [0.6], pairs: pairs)
        let known: [(Double, Double)] = [(0.6, 0.0)] + pairs.flatMap { (pair: (Double, Double)) -> [(Double, Double)] in
            let (r, angle) = pair
            return [(r * cos(angle), r * sin(angle)), (r * cos(angle), -r * sin(angle))]
        }
        let cold = try #require(PolynomialRoots.roots(c, polished: false))
        let warm = try #require(PolynomialRoots.roots(c, near: cold, polished: false))
        for roots in [cold, warm] {
            #expect(roots.count == 11)
            for z in roots { #expect(Self.distanceToNearest(z, known) < 1e-12) }
            for k in known { #expect(roots.filter { hypot($0.re - k.0, $0.im - k.1) < 1e-9 }.count == 1) }
        }
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

    @Test("started near a similar polynomial's roots (the frame before), the roots of 200 random tenth-order predictors are the cold start's within 1e-12 (each known root found once); starts of the wrong count, with two equal values, real and conjugate, or NaN fall back to the circle")
    func startedNear() throws {
        var state: UInt64 = 88
        func unit() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) * 0x1p-53
        }
        var previous: [PolynomialRoots.Root]?
        for _ in 0..<200 {
            let pairs = (0..<5).map { k in (0.6 + 0.39 * unit(), (Double(k) + unit()) * Double.pi / 5) }
            let c = Self.coefficients(real: [], pairs: pairs)
            let known = pairs.flatMap { [($0.0 * cos($0.1), $0.0 * sin($0.1)), ($0.0 * cos($0.1), -$0.0 * sin($0.1))] }
            let roots = try #require(PolynomialRoots.roots(c, near: previous))
            for z in roots { #expect(Self.distanceToNearest(z, known) < 1e-12) }
            for k in known { #expect(roots.filter { hypot($0.re - k.0, $0.im - k.1) < 1e-9 }.count == 1) }
            previous = roots
        }
        let c = Self.coefficients(real: [0.5, -0.25], pairs: [(0.9, 0.7)])
        let cold = try #require(PolynomialRoots.roots(c))
        let z = PolynomialRoots.Root(re: 0.3, im: 0.2)
        for near in [[z], [z, z, PolynomialRoots.Root(re: 0.1, im: 0), PolynomialRoots.Root(re: 0.1, im: 0)],
                     [z, PolynomialRoots.Root(re: 0.3, im: -0.2), PolynomialRoots.Root(re: 0.5, im: 0), PolynomialRoots.Root(re: .nan, im: 0)]] {
            let roots = try #require(PolynomialRoots.roots(c, near: near), "\(near)")
            for r in cold { #expect(roots.contains { hypot($0.re - r.re, $0.im - r.im) < 1e-12 }, "\(near)") }
        }
    }
}
