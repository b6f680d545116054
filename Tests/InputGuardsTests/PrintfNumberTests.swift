import Foundation
import Testing
import InputGuards

@Suite struct PrintfNumberTests {
    /// The same text as Foundation's `String(format:)` with `%.Ng`, over magnitudes from the
    /// smallest subnormal to the largest Double, both signs, −0, the non-finite values and every
    /// precision from 1 to 17; precisions outside 1…17 are clamped.
    @Test("%.Ng as String(format:) prints it, every precision 1–17, 1e±308, subnormals, −0, NaN, ±∞")
    func matchesStringFormat() {
        let values: [Double] = [0, -0.0, 1, -1, 0.1, 2.0 / 3, 123_456_789.123, 1e-5, 1e21, -9.87654321e-300, 1.7976931348623157e308,
                                .leastNonzeroMagnitude, -.leastNormalMagnitude, 4.5e15, 66.55738, .nan, .infinity, -.infinity]
        for value in values {
            for significant in 1...17 {
                #expect(PrintfNumber.g(value, significant: significant) == String(format: "%.\(significant)g", value), "\(value) \(significant)")
            }
        }
        #expect(PrintfNumber.g(2.0 / 3, significant: 40) == String(format: "%.17g", 2.0 / 3))
        #expect(PrintfNumber.g(2.0 / 3, significant: -3) == "0.7")
    }
}
