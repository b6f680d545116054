import Foundation
import Testing
@testable import Analysis

/// eGeMAPSv02's jitter and shimmer (``OpenSmilePitchJitter``) on signals whose period and
/// amplitude sequences are known; openSMILE's own values on real and synthetic voices are
/// `EGeMAPSv02PeerTests.perturbationEqualsOpenSmile`.
struct OpenSmilePitchJitterTests {
    static let rateHz = 8000.0
    /// 80-sample sine periods (100 Hz at 8 kHz), period k scaled by amplitude(k).
    static func periods(_ count: Int, cycle: Int = 80, amplitude: (Int) -> Double = { _ in 1 }) -> [Double] {
        (0..<(count * cycle)).map { n in amplitude(n / cycle) * sin(2 * Double.pi * Double(n % cycle) / Double(cycle)) }
    }
    static func measure(_ samples: [Double], f0Hz: [Double]) -> OpenSmilePitchJitter {
        let (length, step) = EGeMAPSv02Analysis.pitchFraming(sampleRateHz: rateHz)!
        return OpenSmilePitchJitter(samples, sampleRateHz: rateHz, f0Hz: f0Hz, length: length, step: step)
    }
    static func frames(_ samples: [Double]) -> Int {
        let (length, step) = EGeMAPSv02Analysis.pitchFraming(sampleRateHz: rateHz)!
        return (samples.count - length) / step + 1
    }

    @Test("a steady 100-Hz sine has no jitter and no shimmer in any frame")
    func steady() {
        let samples = Self.periods(100)
        let result = Self.measure(samples, f0Hz: Array(repeating: 100, count: Self.frames(samples)))
        #expect(result.jitterLocal.count == Self.frames(samples))
        #expect(result.jitterLocal.allSatisfy { abs($0) <= 1e-12 }, "\(result.jitterLocal)")
        #expect(result.shimmerLocalDb.allSatisfy { abs($0) <= 1e-12 }, "\(result.shimmerLocalDb)")
    }

    @Test("periods alternating between amplitudes 1 and 0.8: shimmer 20·lg(1 + 0.2/0.9) dB in every frame")
    func alternatingAmplitude() {
        let samples = Self.periods(100) { $0 % 2 == 0 ? 1 : 0.8 }
        let result = Self.measure(samples, f0Hz: Array(repeating: 100, count: Self.frames(samples)))
        let expected = 20 * log10(1 + 0.2 / 0.9)
        for (index, value) in result.shimmerLocalDb.enumerated() {
            #expect(abs(value - expected) <= 1e-9, "frame \(index): \(value) dB, expected \(expected)")
        }
    }

    @Test("shimmer and jitter ratios stop at 1, as openSMILE's: amplitudes 1 and 0.01 give 20·lg 2 dB; F0 jumping 55 ↔ 500 Hz gives jitter 1")
    func ratiosCappedAtOne() {
        let samples = Self.periods(100) { $0 % 2 == 0 ? 1 : 0.01 }
        let shimmer = Self.measure(samples, f0Hz: Array(repeating: 100, count: Self.frames(samples))).shimmerLocalDb
        #expect(shimmer.allSatisfy { abs($0 - 20 * log10(2)) <= 1e-12 }, "\(shimmer)")
        // A 500-Hz sine: its 144-sample multiple is the period found near 55 Hz (frame 0), 16
        // samples near 500 Hz (frame 1, a few periods): the first difference, 128 samples, over a
        // mean period of 16 leaves a ratio above 1, reported as 1.
        let sine = Self.periods(500, cycle: 16)
        let jitter = Self.measure(sine, f0Hz: (0..<Self.frames(sine)).map { $0 % 2 == 0 ? 55 : 500 }).jitterLocal
        #expect(jitter[1] == 1 && jitter.allSatisfy { $0 <= 1 }, "\(jitter)")
    }

    @Test("hostile F0 (NaN, ±∞, negative, 1e308, 1e-300, a period of 2 samples) and frames past the end are unvoiced or unmeasured: 0, never a crash")
    func hostileF0() {
        let samples = Self.periods(20)
        let hostile: [Double] = [.nan, .infinity, -.infinity, -100, 0, 1e308, 1e-300, 4000, .greatestFiniteMagnitude, -0.0, 100, 100]
        let result = Self.measure(samples, f0Hz: hostile + Array(repeating: 100, count: 40))
        #expect(result.jitterLocal.count == hostile.count + 40)
        #expect(result.jitterLocal.prefix(10).allSatisfy { $0 == 0 } && result.shimmerLocalDb.prefix(10).allSatisfy { $0 == 0 })
        #expect((result.jitterLocal + result.shimmerLocalDb).allSatisfy { $0.isFinite })
    }
}
