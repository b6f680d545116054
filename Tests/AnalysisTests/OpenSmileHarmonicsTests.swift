import Foundation
import Testing
@testable import Analysis

/// eGeMAPSv02's harmonic measures (``OpenSmileHarmonics``) on spectra whose peaks are set by
/// hand; openSMILE's own values on real and synthetic voices are
/// `EGeMAPSv02PeerTests.harmonicsEqualOpenSmile` and `formantAmplitudesEqualOpenSmile`.
struct OpenSmileHarmonicsTests {
    /// 64-point transforms at 8 kHz: 33 bins 125 Hz apart.
    static let harmonics: OpenSmileHarmonics = {
        let frame = FramePowerSpectrum(length: 64, window: [Double](repeating: 1, count: 64), sampleRateHz: 8000)!
        return OpenSmileHarmonics(fft: frame.fft, binHz: frame.binHz)
    }()

    /// A magnitude spectrum of 0.01 with peaks of the given heights at the given bins.
    static func spectrum(_ peaks: [Int: Double]) -> [Double] {
        (0..<33).map { peaks[$0] ?? 0.01 }
    }

    @Test("500-Hz harmonics at bins 4, 8, 12, 16 of heights 1, ½, ¼, ⅛: H1–H2 = 20·lg 2, F1 at 1 kHz −20·lg 2, H1–A3 with F3 at 2 kHz 20·lg 4; no harmonic near 300 Hz: amplitude 0, H1–A3 the level − 201, at least −201")
    func knownPeaks() {
        let m = Self.spectrum([4: 1, 8: 0.5, 12: 0.25, 16: 0.125])
        var scratch = OpenSmileHarmonics.Scratch()
        let found = Self.harmonics.harmonicDifferences(m, f0Hz: 500, formantsHz: [1000, 1500, 2000], scratch: &scratch)
        #expect(abs(found.h1MinusH2Db - 20 * log10(2)) < 1e-9)
        #expect(abs(found.amplitudesDb[0] + 20 * log10(2)) < 1e-9)
        #expect(abs(found.amplitudesDb[1] - 20 * log10(0.25)) < 1e-9, "1.5 kHz: the strongest harmonic within 1.2–1.8 kHz is bin 12 (1.5 kHz)")
        #expect(abs(found.h1MinusA3Db - 20 * log10(4)) < 1e-9)
        let none = Self.harmonics.harmonicDifferences(m, f0Hz: 500, formantsHz: [1000, 1500, 300], scratch: &scratch)
        #expect(none.amplitudesDb[2] == 0)
        #expect(none.h1MinusA3Db == -201, "−20·lg 2 − 201, held at −201")
        let louder = Self.harmonics.harmonicDifferences(Self.spectrum([4: 1, 8: 2]), f0Hz: 500, formantsHz: [1000, 1500, 300], scratch: &scratch)
        #expect(abs(louder.h1MinusA3Db - (20 * log10(2) - 201)) < 1e-9)
    }

    @Test("F0 above the sample rate with the first bin above its neighbour: no harmonic (never a read before the spectrum), every level openSMILE's floor")
    func harmonicAtTheFirstBin() {
        var m = Self.spectrum([:])
        m[0] = 1
        var scratch = OpenSmileHarmonics.Scratch()
        let found = Self.harmonics.harmonicDifferences(m, f0Hz: 9000, formantsHz: [0, 0, 0], scratch: &scratch)
        #expect(found.h1MinusH2Db == 0 && found.amplitudesDb == [0, 0, 0] && found.h1MinusA3Db == -201)
    }

    @Test("HNR: F0 NaN, ±∞, 0, negative, 1e308 or 1e-300 gives no value; a lag beyond the spectrum (1 Hz) on a silent frame is searched from the last lag; a falling autocorrelation without a peak gives lag 0, no value")
    func harmonicsToNoiseGuards() {
        var scratch = OpenSmileHarmonics.Scratch()
        let power = (0..<33).map { pow(0.5, Double($0)) }
        for f0 in [Double.nan, .infinity, -.infinity, 0, -100, 1e308, 1e-300] {
            #expect(Self.harmonics.harmonicsToNoise(power: power, f0Hz: f0, scratch: &scratch) == nil, "F0 \(f0)")
        }
        #expect(Self.harmonics.harmonicsToNoise(power: [Double](repeating: 0, count: 33), f0Hz: 1, scratch: &scratch) == 110)
        #expect(Self.harmonics.harmonicsToNoise(power: power, f0Hz: 1000, scratch: &scratch) == nil)
    }

    @Test("a strict local maximum: inside against both neighbours, the first and last values against their one; a plateau is none; an index outside the values is none, never a read outside them")
    func isPeak() {
        let x: [Double] = [3, 1, 2, 2, 0, 5]
        #expect((0..<6).map { OpenSmileHarmonics.isPeak(x, $0) } == [true, false, false, false, false, true])
        #expect(OpenSmileHarmonics.isPeak([0, 2, 1], 1))
        for n in [-1, 6, Int.min, Int.max] {
            #expect(!OpenSmileHarmonics.isPeak(x, n), "index \(n)")
        }
        #expect(!OpenSmileHarmonics.isPeak([], 0))
    }
}
