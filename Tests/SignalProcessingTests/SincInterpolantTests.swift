import Foundation
import Testing
import TestSupport
import CKernels
@testable import SignalProcessing

/// Praat's windowed-sinc interpolant (SincInterpolant, CKernels' atk_sinc_value) against Praat's
/// formula written out term by term with a libm sine and cosine per term, and Brent's maximum
/// against a dense grid over the same interpolant and against Praat's Brent written out.
@Suite struct SincInterpolantTests {
    /// NUM_interpolate_sinc as the Praat source states it, one term at a time: on each side
    /// Σ r[ix]·½ sin(a)/a·(1 + cos(a/(d + depth))), a = π·d + kπ, d the distance to the nearer
    /// middle sample, summed in Float80.
    static func praat(_ r: [Double], at x: Double, depth: Int) -> (value: Double, magnitude: Double) {
        let bound = r.count - 1
        func value(_ k: Int) -> Double { r[abs(k)] }
        let midLeft = Int(floor(x)), midRight = midLeft + 1
        let span = min(depth, midRight + bound, bound - midLeft)
        let left = midRight - span, right = midLeft + span
        var sum: Float80 = 0, magnitude = 0.0
        let leftDepth = Double(midLeft - left + 1), rightDepth = Double(right - midRight + 1)
        for (k, ix) in stride(from: midLeft, through: left, by: -1).enumerated() {
            let d = x - Double(midLeft), a = Double.pi * d + Double(k) * Double.pi
            let term = value(ix) * 0.5 * sin(a) / a * (1 + cos(a / (d + leftDepth)))
            sum += Float80(term)
            magnitude += abs(term)
        }
        for (k, ix) in (midRight...right).enumerated() {
            let d = Double(midRight) - x, a = Double.pi * d + Double(k) * Double.pi
            let term = value(ix) * 0.5 * sin(a) / a * (1 + cos(a / (d + rightDepth)))
            sum += Float80(term)
            magnitude += abs(term)
        }
        return (Double(sum), magnitude)
    }

    /// r[0…bound] like a voiced frame's correlation: r[0] = 1, then a decaying cosine of
    /// `period` samples plus uniform noise of ±0.05 (seeded).
    static func noisyCorrelation(bound: Int, amplitude: Double, period: Double, decay: Double, seed: UInt64) -> [Double] {
        var random = SeededRandom(seed: seed)
        return (0...bound).map { (m: Int) -> Double in
            guard m > 0 else { return 1 }
            let lag = Double(m)
            return amplitude * cos(2 * Double.pi * lag / period) * exp(-lag / decay) + 0.05 * (2 * random.unit() - 1)
        }
    }

    @Test("the window's cosines and the sine by Taylor polynomials: cos within 1 ulp of libm's for |x| ≤ π/3 (every argument the interpolant gives it) and 2.3e-16 up to π/2; sin (lane 6) within 1 ulp of libm's on [0, π/4], where the interpolant uses it")
    func cosine() {
        var worstUlps = 0.0, worstAbsolute = 0.0, worstSineUlps = 0.0
        for i in 0...40_000 {
            let x = -Double.pi / 2 + Double.pi * Double(i) / 40_000
            let ours = SincInterpolant.cosine(SIMD8(repeating: x))[0]
            worstAbsolute = max(worstAbsolute, abs(ours - cos(x)))
            if abs(x) <= Double.pi / 3 { worstUlps = max(worstUlps, abs(ours - cos(x)) / cos(x).ulp) }
            let z = abs(x) / 2 * (i % 2 == 0 ? 1 : 1e-9 * Double(i))
            let sine = SincInterpolant.cosine(SIMD8(repeating: z))[6]
            if z > 0 { worstSineUlps = max(worstSineUlps, abs(sine - sin(z)) / sin(z).ulp) }
        }
        #expect(worstUlps <= 1, "\(worstUlps) ulp")
        #expect(worstAbsolute <= 2.3e-16, "\(worstAbsolute)")
        #expect(worstSineUlps <= 1, "sine \(worstSineUlps) ulp")
        #expect(SincInterpolant.cosine(SIMD8(repeating: 0))[6] == 0 && SincInterpolant.cosine(SIMD8(repeating: 0))[0] == 1)
    }

    @Test("values against Praat's formula term by term within 1e-13 of the terms' magnitude: depths 3, 30, 70 and 700 over r[−800…800], spans clipped near both ends; integers give r exactly, beyond ±B the end value")
    func againstPraat() {
        let r = Self.noisyCorrelation(bound: 800, amplitude: 0.9, period: 37.3, decay: 500, seed: 20_261_125)
        var interpolant = SincInterpolant(capacity: 10)
        r.withUnsafeBufferPointer { interpolant.load($0) }
        #expect(interpolant.bound == 800)
        for depth in [3, 30, 70, 700] {
            for x in [0.25, 0.5, 1.001, 2.75, 36.9, 37.3, 123.456, 400.5, 700.01, 797.3, 798.6, 799.2, -3.7, -799.5] {
                let ours = interpolant.value(at: x, depth: depth)
                let (expected, magnitude) = Self.praat(r, at: x, depth: depth)
                let span = min(depth, Int(floor(x)) + 1 + 800, 800 - Int(floor(x)))
                if span >= 3 {
                    #expect(abs(ours - expected) <= 1e-13 * magnitude, "depth \(depth), x \(x): \(ours) vs \(expected)")
                } else if span == 1 {
                    let left = Int(floor(x))
                    #expect(abs(ours - (r[abs(left)] + (x - Double(left)) * (r[abs(left + 1)] - r[abs(left)]))) <= 1e-15, "linear at \(x)")
                }
            }
        }
        for k in [-800, -17, 0, 5, 800] { #expect(interpolant.value(at: Double(k), depth: 70) == r[abs(k)]) }
        for x in [800.5, -1e300, .infinity, .nan] { #expect(interpolant.value(at: x, depth: 70) == r[800]) }
        // A shorter sequence after a longer one, then an empty one (read as r = (0)): nothing of
        // the earlier ones is left; hostile depths fall back to the lower orders.
        [0.5, 0.25].withUnsafeBufferPointer { interpolant.load($0) }
        #expect(interpolant.bound == 1 && interpolant.value(at: -1, depth: 70) == 0.25 && interpolant.value(at: 0.5, depth: 70) == 0.375)
        #expect(interpolant.value(at: 0.75, depth: -5) == 0.25 && interpolant.value(at: 0.25, depth: .max) == 0.4375)
        [Double]().withUnsafeBufferPointer { interpolant.load($0) }
        #expect(interpolant.bound == 0 && interpolant.value(at: 0, depth: 70) == 0 && interpolant.value(at: 3, depth: 70) == 0)
        #expect(interpolant.maximum(around: 0, depth: 70).y == 0)
    }

    @Test("the last, partial step of each side loads eight values and clears those past the span: r[−bound…bound] with seven NaNs each side, flush against inaccessible pages, gives the same bits as SincInterpolant at every place and depth")
    func lastStepStaysInside() throws {
        let bound = 40, room = SincInterpolant.room
        let r = Self.noisyCorrelation(bound: bound, amplitude: 0.8, period: 11.3, decay: 60, seed: 20_261_127)
        var interpolant = SincInterpolant(capacity: bound)
        r.withUnsafeBufferPointer { interpolant.load($0) }
        let padding = [Double](repeating: .nan, count: room)
        let mirrored = padding + r.reversed() + r.dropFirst() + padding
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bytes = 3 * page
        let region = try #require(mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(region != MAP_FAILED)
        defer { munmap(region, bytes) }
        #expect(mprotect(region, page, PROT_NONE) == 0 && mprotect(region + 2 * page, page, PROT_NONE) == 0)
        let data = (region + page).bindMemory(to: Double.self, capacity: page / 8)
        // The padded sequence at the middle page's start (nothing readable before −bound − 7),
        // then at its end (nothing after bound + 7).
        for start in [0, page / 8 - mirrored.count] {
            for (k, value) in mirrored.enumerated() { data[start + k] = value }
            let centre = UnsafePointer(data + start + room + bound)
            for depth in [3, 5, 9, 12, 15, 17, 70, 700] {
                for step in 0...(8 * bound) {
                    let x = -Double(bound) + 0.2501 * Double(step) / 1.0001
                    let ours = atk_sinc_value(centre, bound, x, depth)
                    #expect(ours.bitPattern == interpolant.value(at: x, depth: depth).bitPattern, "depth \(depth), x \(x)")
                }
            }
        }
    }

    @Test("Brent's maximum: no point of a 4,001-point grid over [i − 1, i + 1] is higher, and its place is within one grid step of the grid's best; depths 70 and 700")
    func maximum() {
        let period = 37.3
        let r = (0...400).map { m in cos(2 * Double.pi * Double(m) / period) * exp(-Double(m) / 300) }
        var interpolant = SincInterpolant(capacity: 400)
        r.withUnsafeBufferPointer { interpolant.load($0) }
        for depth in [70, 700] {
            for i in [37, 75, 112] {
                let (x, y) = interpolant.maximum(around: i, depth: depth)
                let grid = (0...4_000).map { Double(i) - 1 + 2 * Double($0) / 4_000 }
                let best = grid.max { interpolant.value(at: $0, depth: depth) < interpolant.value(at: $1, depth: depth) }!
                #expect(y >= interpolant.value(at: best, depth: depth) - 1e-15, "depth \(depth), around \(i)")
                #expect(abs(x - best) <= 2 / 4_000, "depth \(depth), around \(i): \(x) vs \(best)")
                #expect(abs(y - interpolant.value(at: x, depth: depth)) == 0)
            }
        }
    }

    /// Praat's NUMminimize_brent (Praat 6.1.38 dwsys/NUM2.cpp, after Keselyov's netlib fmin) as
    /// NUMimproveMaximum runs it on −f over [i − 1, i + 1] in the places of Praat's vector
    /// r[−B…B] indexed from 1 (lag + B + 1): tolerance √(2⁻⁵³)·|x| + 1e-10/3, the golden-section
    /// step from the nearer end unless the parabola's step is shorter and lands 2·tolerance
    /// inside, at least one tolerance a step, at most 60 steps after the first place.
    static func praatBrent(_ f: (Double) -> Double, around i: Int, bound: Int) -> (x: Double, y: Double) {
        let origin = Double(bound + 1), golden = 1 - 0.6180339887498948482045868343656, sqrtEpsilon = (0x1p-53 as Double).squareRoot()
        var a = Double(i + bound + 1 - 1), b = Double(i + bound + 1 + 1)
        var v = a + golden * (b - a), fv = -f(v - origin), x = v, w = v, fx = fv, fw = fv
        for _ in 1...60 {
            let range = b - a, middle = (a + b) / 2, tolerance = sqrtEpsilon * abs(x) + 1e-10 / 3
            if abs(x - middle) + range / 2 <= 2 * tolerance { return (x - origin, -fx) }
            var step = golden * (x < middle ? b - x : a - x)
            if abs(x - w) >= tolerance {
                let t = (x - w) * (fx - fv)
                var q = (x - v) * (fx - fw)
                var p = (x - v) * q - (x - w) * t
                q = 2 * (q - t)
                if q > 0 { p = -p } else { q = -q }
                if abs(p) < abs(step * q), p > q * (a - x + 2 * tolerance), p < q * (b - x - 2 * tolerance) { step = p / q }
            }
            if abs(step) < tolerance { step = step > 0 ? tolerance : -tolerance }
            let t = x + step, ft = -f(t - origin)
            if ft <= fx {
                if t < x { b = x } else { a = x }
                (v, w, x, fv, fw, fx) = (w, x, t, fw, fx, ft)
            } else {
                if t < x { a = t } else { b = t }
                if ft <= fw || w == x {
                    (v, w, fv, fw) = (w, t, fw, ft)
                } else if ft <= fv || v == x || v == w {
                    (v, fv) = (t, ft)
                }
            }
        }
        return (x - origin, -fx)
    }

    @Test("Brent's maximum takes Praat's steps: its NUMminimize_brent written out (in Praat's places lag + B + 1, its tolerance and its parabola's conditions) over the same interpolant finds the same place and value, bit for bit: 8- and 44.1-kHz-like correlations, every maximum, depths 70 and 700, spans clipped near the end")
    func maximumIsPraats() {
        for (bound, period, decay, seed) in [(104, 97.3, 300.0, UInt64(20_261_204)), (586, 181.7, 900.0, 20_261_205), (300, 23.7, 200.0, 20_261_206)] {
            let r = Self.noisyCorrelation(bound: bound, amplitude: 0.8, period: period, decay: decay, seed: seed)
            var interpolant = SincInterpolant(capacity: bound)
            r.withUnsafeBufferPointer { interpolant.load($0) }
            let maxima = (2..<bound).filter { r[$0] > r[$0 - 1] && r[$0] >= r[$0 + 1] }
            #expect(maxima.count >= 10)
            for depth in [70, 700] {
                for i in maxima {
                    let ours = interpolant.maximum(around: i, depth: depth)
                    let praat = Self.praatBrent({ interpolant.value(at: $0, depth: depth) }, around: i, bound: bound)
                    #expect(ours.x.bitPattern == praat.x.bitPattern && ours.y.bitPattern == praat.y.bitPattern,
                            "bound \(bound), depth \(depth), around \(i): \(ours) vs \(praat)")
                }
            }
        }
    }

    @Test("values at many places, eight setups side by side, equal value(at:depth:) one at a time bit for bit: 0 to 21 places, depths 3, 30 and 700, near both ends (spans clipped, lower orders), integers, beyond ±B, NaN")
    func valuesEqualOneAtATime() {
        let r = Self.noisyCorrelation(bound: 300, amplitude: 0.8, period: 23.7, decay: 200, seed: 20_261_130)
        var interpolant = SincInterpolant(capacity: 300)
        r.withUnsafeBufferPointer { interpolant.load($0) }
        let all = [24.3, 47.5, 1.2, 299.4, 71.0, 300.5, 95.25, 2.9, 150.125, -0.6, -299.7, .nan, 17.77, 0.0001, 298.999, 120.5, 33.3, -42.42, 7.0, 250.75, 1e300]
        for depth in [3, 30, 700] {
            for count in 0...all.count {
                let places = Array(all.prefix(count))
                var values = [Double](repeating: -1, count: count)
                places.withUnsafeBufferPointer { x in values.withUnsafeMutableBufferPointer { interpolant.values(at: x, depth: depth, into: $0) } }
                for (k, x) in places.enumerated() {
                    let alone = interpolant.value(at: x, depth: depth)
                    #expect(values[k].bitPattern == alone.bitPattern, "depth \(depth), \(count) places, x \(x): \(values[k]) vs \(alone)")
                }
            }
        }
    }

    @Test("maxima, eight searches with their setups side by side, equal maximum(around:depth:) one at a time bit for bit: depths 70, 700 and 3 mixed, places near both ends (spans clipped, lower orders), 0 to 9 places")
    func maximaEqualOneAtATime() {
        let r = Self.noisyCorrelation(bound: 300, amplitude: 0.8, period: 23.7, decay: 200, seed: 20_261_126)
        var interpolant = SincInterpolant(capacity: 300)
        r.withUnsafeBufferPointer { interpolant.load($0) }
        let places = [24, 47, 1, 299, 71, 300, 95, 2, 150], depths = [70, 70, 700, 70, 3, 70, 700, 70, 70]
        for count in 0...places.count {
            var x = [Double](repeating: .nan, count: count), y = x
            places.withUnsafeBufferPointer { p in
                depths.withUnsafeBufferPointer { d in
                    x.withUnsafeMutableBufferPointer { x in
                        y.withUnsafeMutableBufferPointer { y in
                            interpolant.maxima(around: UnsafeBufferPointer(rebasing: p[..<count]), depths: UnsafeBufferPointer(rebasing: d[..<count]), x: x, y: y)
                        }
                    }
                }
            }
            for j in 0..<count {
                let alone = interpolant.maximum(around: places[j], depth: depths[j])
                #expect(x[j].bitPattern == alone.x.bitPattern && y[j].bitPattern == alone.y.bitPattern, "\(count) places, place \(places[j]): \(x[j]), \(y[j]) vs \(alone)")
            }
        }
    }
}
