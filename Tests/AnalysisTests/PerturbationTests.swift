import Testing
@testable import Analysis

/// The pulse and perturbation steps of ``Perturbation`` at their edges, on sounds whose sample
/// times are exact binary fractions (1,024 Hz) so that every window's first and last sample is
/// known by hand; Praat's own values on voices are `PraatCorpusTests` and `VoiceTests`.
struct PerturbationTests {
    static let rate = 1024.0

    /// `count` samples of `value` at 1,024 Hz (sample i at (i + ½)/1024 s).
    static func constant(_ value: Double, count: Int = 128) -> PraatSound {
        PraatSound(samples: [Double](repeating: value, count: count), sampleRateHz: rate)
    }

    /// Frames 10 ms apart from 5 ms, voiced (100 Hz) where `voiced` says.
    static func contour(_ voiced: [Bool]) -> PraatPitchAnalysis.Contour {
        PraatPitchAnalysis.Contour(x1: 0.005, dx: 0.01, ceiling: 600, frequency: voiced.map { $0 ? 100 : 0 }, strength: voiced.map { _ in 0.9 })
    }

    @Test("a voiced stretch is the whole frames of its run, clipped to the sound; none after the last voiced frame, none that begins after the sound ends")
    func voicedInterval() throws {
        let sound = Self.constant(0, count: 1024)  // 1 s
        let pitch = Self.contour([true, true, false, true, false])  // frames at 5, 15, 25, 35, 45 ms
        let first = try #require(Perturbation.voicedInterval(after: 0, pitch: pitch, sound: sound))
        #expect(abs(first.0 - 0) < 1e-15 && abs(first.1 - 0.02) < 1e-15)
        let second = try #require(Perturbation.voicedInterval(after: 0.02, pitch: pitch, sound: sound))
        #expect(abs(second.0 - 0.03) < 1e-15 && abs(second.1 - 0.04) < 1e-15)
        // After frame 3 no frame is voiced (the contour ends at 50 ms, the sound at 1 s).
        #expect(Perturbation.voicedInterval(after: 0.04, pitch: pitch, sound: sound) == nil)
        // A voiced frame at 35 ms of a 31.25-ms sound (32 samples): its stretch would begin at
        // 30 ms, past the sound's end less half a frame (26.25 ms).
        #expect(Perturbation.voicedInterval(after: 0.02, pitch: pitch, sound: Self.constant(0, count: 32)) == nil)
    }

    @Test("the extremum of a window of two samples or of none (beyond the sound) is the window's middle; of more, the largest |x| refined by a parabola")
    func extremum() {
        var samples = [Double](repeating: 0, count: 128)
        samples[10] = 0.2
        samples[11] = 0.5
        samples[20] = 0.25
        samples[21] = -1
        samples[22] = 0.25
        let sound = PraatSound(samples: samples, sampleRateHz: Self.rate)
        #expect(Perturbation.extremum(sound, sound.time(10), sound.time(11)) == 0.5 * (sound.time(10) + sound.time(11)))
        #expect(Perturbation.extremum(sound, 1, 2) == 1.5)
        // Samples 20–22: −1 between two equal values, so the parabola's vertex is sample 21 itself.
        #expect(Perturbation.extremum(sound, sound.time(19), sound.time(23)) == sound.time(21))
    }

    @Test("the best correlation over no lag, or over lags without an interior maximum, is −1 at the window's own time, never a made-up lag")
    func bestCorrelation() {
        let sound = Self.constant(0.5)
        let dx = sound.dx, t1 = sound.time(50), window = 16 * dx
        // Lags whose windows start from sample 54 to sample 35: none.
        #expect(Perturbation.bestCorrelation(sound, t1: t1, window: window, from: sound.time(62), to: sound.time(43)) == (-1, t1, 0))
        // One lag (its window from sample 24): r = 1 there, and no maximum between neighbours.
        #expect(Perturbation.bestCorrelation(sound, t1: t1, window: window, from: sound.time(32), to: sound.time(32)) == (-1, t1, 0))
    }

    @Test("periods outside 0.1–20 ms are no periods, even between equal neighbours; two periods have local jitter but no rap or ppq5, three amplitudes no apq5 or apq11")
    func periodsAndWidths() throws {
        let sound = Self.constant(0.5, count: 1024)
        let long = Perturbation.measures([0, 0.03, 0.06, 0.09, 0.12], sound: sound)
        #expect(long.periodCount == 0 && long.meanPeriodSeconds == nil && long.jitterLocal == nil)
        let short = Perturbation.measures([0.1, 0.11, 0.12], sound: sound)
        #expect(short.periodCount == 2)
        #expect(try #require(short.jitterLocalAbsoluteSeconds) < 1e-15)
        #expect(short.jitterRap == nil && short.jitterPpq5 == nil && short.jitterDdp == nil)
        let five = Perturbation.measures([0.1, 0.11, 0.12, 0.13, 0.14], sound: sound)
        #expect(five.shimmerLocal == 0 && five.shimmerApq3 == 0)
        #expect(five.shimmerApq5 == nil && five.shimmerApq11 == nil)
    }

    @Test("a Hann-windowed RMS over fewer than three samples is none; over three or more of a constant, the constant")
    func hannRMS() throws {
        let sound = Self.constant(0.5)
        #expect(Perturbation.hannRMS(sound, sound.time(10), sound.dx / 4, sound.dx / 4) == nil)
        #expect(Perturbation.hannRMS(sound, sound.time(10), sound.dx, sound.dx / 4) == nil)
        #expect(abs(try #require(Perturbation.hannRMS(sound, sound.time(10), 2 * sound.dx, 2 * sound.dx)) - 0.5) < 1e-15)
    }
}
