import Foundation
import Testing
@testable import Analysis

/// MFCCs (``MFCCAnalysis``) without a peer: what follows from the DCT's definition. The values
/// of the default 20 coefficients are checked against librosa in `VoiceQualityPeerTests`.
struct MFCCTests {
    /// A harmonic complex of 180 Hz with a little deterministic noise, 0.5 s at 16 kHz.
    static let signal: [Double] = (0..<8000).map { (n: Int) -> Double in
        let t = Double(n) / 16000
        let harmonics = (1...12).reduce(0.0) { (sum: Double, k: Int) -> Double in
            let h = Double(k)
            return sum + 0.3 / h * sin(2 * Double.pi * 180 * h * t + h)
        }
        return harmonics + 1e-3 * sin(Double(n * n % 9973))
    }

    /// Coefficient k is row k of the DCT applied to the same log-mel frame, whatever the number
    /// kept: every count's coefficients, Δ and ΔΔ are the first ones of the full transform (128
    /// of 128 bands), bit for bit — counts that fill whole groups of four rows and counts that do not.
    @Test(arguments: [1, 3, 4, 5, 13, 20, 127])
    func coefficientsAreTheFullTransformsFirst(count: Int) throws {
        var full = MFCCAnalysis(), kept = MFCCAnalysis()
        full.coefficientCount = 128
        kept.coefficientCount = count
        let all = full.analyze(Self.signal, sampleRateHz: 16000), some = kept.analyze(Self.signal, sampleRateHz: 16000)
        try #require(some.frameCount == all.frameCount && some.frameCount == 1 + 8000 / 512 && some.coefficients.count == count)
        #expect(some.coefficients == Array(all.coefficients[0..<count]))
        for (ours, theirs) in [(some.delta, all.delta), (some.deltaDelta, all.deltaDelta)] {
            let ours = try #require(ours), theirs = try #require(theirs)
            #expect(ours == Array(theirs[0..<count]))
        }
    }

    /// Silence: every band's energy is below 10⁻¹⁰, so every band reads −100 dB; the orthonormal
    /// DCT of a constant −100 over N bands is c₀ = √(1/N)·N·(−100) = −100·√N and 0 for k ≥ 1
    /// (the cosines of each row sum to 0), here with 40 bands and 13 coefficients.
    @Test func silenceIsAConstantLogMelFrame() {
        var analysis = MFCCAnalysis()
        analysis.melBands = 40
        analysis.coefficientCount = 13
        let result = analysis.analyze([Double](repeating: 0, count: 4000), sampleRateHz: 16000)
        #expect(result.frameCount == 1 + 4000 / 512 && result.coefficients.count == 13)
        #expect(result.coefficients.allSatisfy { $0.count == result.frameCount })
        #expect(result.coefficients[0].allSatisfy { abs($0 + 100 * 40.0.squareRoot()) < 1e-10 })
        for series in result.coefficients.dropFirst() { #expect(series.allSatisfy { abs($0) < 1e-11 }) }
    }
}

extension MFCCTests {
    /// Non-finite samples count as 0 (as the audio readers decode them): a stretch of NaN and ±∞
    /// gives the statistics of the same stretch of zeros, every one a finite number.
    @Test func nonFiniteSamplesCountAsZero() {
        var holed = Self.signal, zeroed = Self.signal
        for n in 3000..<3500 { holed[n] = n % 3 == 0 ? .nan : n % 3 == 1 ? .infinity : -.infinity; zeroed[n] = 0 }
        let ours = MFCCAnalysis().features(holed, sampleRateHz: 16000), expected = MFCCAnalysis().features(zeroed, sampleRateHz: 16000)
        #expect(ours == expected)
        #expect(ours.coefficients.allSatisfy { ($0.mean?.isFinite ?? false) && ($0.sd?.isFinite ?? false) })
    }
}
