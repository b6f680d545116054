import Foundation
import Testing
import TestSupport
@testable import SignalProcessing

/// Praat's NUM_interpolate_sinc as its resampler reads the old samples (PraatSincInterpolation):
/// eight places at once (CKernels' atk_sinc_resample8) against one at a time, and the cases the
/// eight-lane kernel leaves to the one-place function.
@Suite struct PraatSincInterpolationTests {
    @Test("eight places at once equal eight single places bit for bit (depths 3, 4, 7, 50; places everywhere the kernel takes them); a sine sampled 20 times per period is read back within 1e-3 between its samples")
    func fourEqualOne() {
        var random = SeededRandom(seed: 50)
        let y = (0..<400).map { n in sin(2 * Double.pi * Double(n) / 20) + 0.01 * (random.unit() - 0.5) }
        let clean = (0..<400).map { n in sin(2 * Double.pi * Double(n) / 20) }
        y.withUnsafeBufferPointer { y in
            clean.withUnsafeBufferPointer { clean in
                for depth in [3, 4, 7, 50] {
                    var x = Double(depth) + 0.013
                    var lanes = 0
                    while x + 7.7 < Double(y.count - depth) {
                        let places = SIMD8(x, x + 1.1, x + 2.2, x + 3.3, x + 4.4, x + 5.5, x + 6.6, x + 7.7)
                        if let eight = PraatSincInterpolation.values(y, at: places, depth: depth) {
                            lanes += 8
                            for lane in 0..<8 {
                                #expect(eight[lane].bitPattern == PraatSincInterpolation.value(y, at: places[lane], depth: depth).bitPattern,
                                        "depth \(depth), x \(places[lane])")
                            }
                        }
                        x += 0.731
                    }
                    #expect(lanes > 1_000, "depth \(depth): \(lanes) lanes")
                }
                // The interpolant of a band-limited sine, away from the ends, at depth 50.
                for x in stride(from: 60.25, to: 340, by: 3.7) {
                    let expected = sin(2 * Double.pi * (x - 1) / 20)
                    #expect(abs(PraatSincInterpolation.value(clean, at: x, depth: 50) - expected) <= 1e-3, "x \(x)")
                }
            }
        }
    }

    @Test("the eight-lane kernel declines, leaving the place to the one-place function, below depth 3, at an integer place, within `depth` samples of either end, beyond the ends and at NaN")
    func declines() {
        let y = (0..<100).map { Double($0 % 7) }
        y.withUnsafeBufferPointer { y in
            let inside = SIMD8(30.5, 31.5, 32.5, 33.5, 34.5, 35.5, 36.5, 37.5)
            #expect(PraatSincInterpolation.values(y, at: inside, depth: 3) != nil)
            #expect(PraatSincInterpolation.values(y, at: inside, depth: 2) == nil)
            for lane in 0..<8 {
                for bad in [40.0, 2.5, 99.5, 0.5, 100.5, .nan, .infinity] {
                    var places = inside
                    places[lane] = bad
                    #expect(PraatSincInterpolation.values(y, at: places, depth: 3) == nil, "lane \(lane) at \(bad)")
                }
            }
            #expect(PraatSincInterpolation.values(UnsafeBufferPointer(start: nil, count: 0), at: inside, depth: 3) == nil)
        }
    }
}
