import Foundation
import Testing
@testable import Analysis

/// eGeMAPSv02's LPC formants (``OpenSmileFormants``) of roots placed by hand: cFormantLpc brings a
/// root outside the unit circle inside it; openSMILE's own output is `EGeMAPSv02PeerTests` and
/// `EGeMAPSv02SpeechTests`.
struct OpenSmileFormantsTests {
    @Test("a root's formant: 1 kHz at radius 0.95 and at 1/0.95 give the same frequency and bandwidth −ln 0.95·11000/π; none below the real axis or outside 50–5450 Hz")
    func formantOfRoot() throws {
        let theta = 2 * Double.pi * 1000 / 11000, bandwidth = -log(0.95) * 11000 / Double.pi
        for radius in [0.95, 1 / 0.95] {
            let formant = try #require(OpenSmileFormants.formant(.init(re: radius * cos(theta), im: radius * sin(theta)), rateHz: 11000))
            #expect(abs(formant.frequencyHz - 1000) < 1e-9)
            #expect(abs(formant.bandwidthHz - bandwidth) < 1e-9, "radius \(radius): \(formant.bandwidthHz)")
        }
        #expect(OpenSmileFormants.formant(.init(re: 0.95 * cos(theta), im: -0.95 * sin(theta)), rateHz: 11000) == nil)
        #expect(OpenSmileFormants.formant(.init(re: 0.9, im: 0), rateHz: 11000) == nil)
        #expect(OpenSmileFormants.formant(.init(re: -0.9, im: 0), rateHz: 10800) == nil, "arg π: 5400 Hz, inside the range, but on the real axis")
        for hz in [40.0, 5460] {
            let angle = 2 * Double.pi * hz / 11000
            #expect(OpenSmileFormants.formant(.init(re: 0.9 * cos(angle), im: 0.9 * sin(angle)), rateHz: 11000) == nil, "\(hz) Hz")
        }
    }

    /// By hand: r = (1, ½, ¼) is the autocorrelation of xₙ = ½xₙ₋₁ + noise, so a₁ = −½ (k₁ = −½,
    /// error ¾) and a₂ = 0 (k₂ = −(¼ − ½·½)/¾ = 0). r = (1, 1, 1), a constant, is predicted without
    /// error after one step (k₁ = −1, error 1·(1 − 1) = 0); r = 0, silence, has no error to divide by.
    @Test("Levinson's recursion: r = (1, ½, ¼) gives a = (1, −½, 0); a constant's or silence's vanishing error gives false, not NaN coefficients")
    func levinson() {
        var a = [Double](repeating: .nan, count: 3)
        #expect(OpenSmileFormants.levinson([1, 0.5, 0.25], into: &a))
        #expect(a == [1, -0.5, 0])
        for r in [[1.0, 1, 1], [0, 0, 0]] {
            #expect(!OpenSmileFormants.levinson(r, into: &a), "r = \(r)")
        }
    }
}
