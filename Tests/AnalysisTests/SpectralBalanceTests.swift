import Foundation
import Testing
@testable import Analysis

/// eGeMAPS spectral balance and temporal features (``EGeMAPSAnalysis``) on signals whose values
/// follow by hand: tones on bin centres, a harmonic complex of known amplitudes, a spectrum
/// whose dB values are a line, bursts of known lengths.
struct SpectralBalanceTests {
    static func sines(_ components: [(frequency: Double, amplitude: Double)], rate: Double, seconds: Double) -> [Double] {
        (0..<Int(rate * seconds)).map { n in
            components.reduce(0) { $0 + $1.amplitude * sin(2 * Double.pi * $1.frequency * Double(n) / rate) }
        }
    }

    /// Tones at 500 Hz (amplitude a) and 2500 Hz (b) on bin centres of the 20-ms frame's
    /// 512-point spectrum at 16 kHz: alpha ratio = Hammarberg index = 20·lg(a/b) (each band
    /// holds one tone, whose peak and energy scale with its amplitude squared), within the other
    /// tone's and the negative frequencies' leakage through the Hamming window's sidelobes
    /// (1.4e-4 dB at the peaks).
    @Test func alphaRatioAndHammarbergIndexOfTwoTones() {
        let x = Self.sines([(500, 0.5), (2500, 0.05)], rate: 16000, seconds: 0.5)
        let frames = EGeMAPSAnalysis().frames(x, sampleRateHz: 16000, f0: { _ in nil }, thirdFormant: { _ in nil })
        #expect(frames.timeSeconds.count == 1 + (8000 - 320) / 160)
        for (alpha, hammarberg) in zip(frames.alphaRatioDb, frames.hammarbergIndexDb) {
            #expect(abs(alpha - 20) < 0.01)
            #expect(abs(hammarberg - 20) < 1e-3)
        }
        #expect(frames.voiced.allSatisfy { !$0 } && frames.h1MinusH2Db.allSatisfy { $0.isNaN })
        // Spectral frames longer than the 60-ms harmonic frame (the longest the parameters allow,
        // 0.2 s, 3200 samples in a 4096-point spectrum), voiced: the same ratio.
        var long = EGeMAPSAnalysis()
        long.frameLengthSeconds = 0.2
        let longFrames = long.frames(x, sampleRateHz: 16000, f0: { _ in 500 }, thirdFormant: { _ in nil })
        #expect(longFrames.timeSeconds.count == 1 + (8000 - 3200) / 160 && longFrames.voiced.allSatisfy { $0 })
        for alpha in longFrames.alphaRatioDb { #expect(abs(alpha - 20) < 0.01) }
    }

    /// A power spectrum whose dB values are 3 − 0.02·f: the least-squares slope is −0.02 dB/Hz
    /// in either band.
    @Test func spectralSlopeOfALine() throws {
        let spectrum = try #require(FramePowerSpectrum(length: 320, window: Array(repeating: 1, count: 320), sampleRateHz: 16000))
        let power = (0..<spectrum.bins).map { (k: Int) -> Double in pow(10, (3 - 0.02 * Double(k) * spectrum.binHz) / 10) }
        #expect(abs(spectrum.logSlope(power, spectrum.bins(0, through: 500)) + 0.02) < 1e-12)
        #expect(abs(spectrum.logSlope(power, spectrum.bins(500, through: 1500)) + 0.02) < 1e-12)
        #expect(spectrum.bins(0, through: 500) == 0..<17)
        #expect(spectrum.bins(500, through: 1500) == 16..<49)
        #expect(spectrum.logSlope(power, 3..<4).isNaN)
    }

    /// Harmonics of 200 Hz with amplitudes 1, 0.5, …, and 0.1 at 1000 Hz (the fifth): H1–H2 =
    /// 20·lg 2, and with F3 = 1000 Hz, B3 = 300 Hz (only the fifth harmonic in 850–1150 Hz)
    /// H1–A3 = 20·lg 10 = 20 dB; the harmonics lie between bins (12.8 and 25.6 bins of
    /// 15.625 Hz), and the parabola through the dB values of the truncated Gaussian's peak reads
    /// their difference within 0.1 dB (0.076 dB seen).
    @Test func harmonicDifferencesOfAKnownComplex() {
        let amplitudes = [1.0, 0.5, 0.3, 0.2, 0.1, 0.05]
        let x = Self.sines(amplitudes.enumerated().map { (200 * Double($0.offset + 1), $0.element) }, rate: 16000, seconds: 0.5)
        let frames = EGeMAPSAnalysis().frames(x, sampleRateHz: 16000, f0: { _ in 200 }, thirdFormant: { _ in (1000, 300) })
        // Frames whose 60-ms window lies within the signal.
        let inside = frames.timeSeconds.indices.filter { frames.timeSeconds[$0] >= 0.03 && frames.timeSeconds[$0] <= 0.47 }
        #expect(inside.count > 30)
        for i in inside {
            #expect(abs(frames.h1MinusH2Db[i] - 20 * log10(2)) < 0.1)
            #expect(abs(frames.h1MinusA3Db[i] - 20) < 0.1)
        }
        // No harmonic within F3 ± B3/2: no A3.
        let outside = EGeMAPSAnalysis().frames(x, sampleRateHz: 16000, f0: { _ in 200 }, thirdFormant: { _ in (1100, 100) })
        #expect(outside.h1MinusA3Db.allSatisfy { $0.isNaN })
    }

    /// Loudness follows the intensity–loudness power law: ten times the amplitude (100 times the
    /// power in every band) multiplies it by 100^0.33.
    @Test func loudnessPowerLaw() {
        let x = Self.sines([(300, 0.01), (1200, 0.005), (3100, 0.002)], rate: 22050, seconds: 0.3)
        let quiet = EGeMAPSAnalysis().frames(x, sampleRateHz: 22050, f0: { _ in nil }, thirdFormant: { _ in nil }).loudness
        let loud = EGeMAPSAnalysis().frames(x.map { 10 * $0 }, sampleRateHz: 22050, f0: { _ in nil }, thirdFormant: { _ in nil }).loudness
        for (q, l) in zip(quiet, loud) { #expect(abs(l / q - pow(100, 0.33)) < 1e-9) }
        // Digital silence: no spectral value, loudness 0.
        let silent = EGeMAPSAnalysis().frames(Array(repeating: 0, count: 2205), sampleRateHz: 22050, f0: { _ in nil }, thirdFormant: { _ in nil })
        #expect(silent.alphaRatioDb.allSatisfy { $0.isNaN } && silent.slope0To500DbPerHz.allSatisfy { $0.isNaN } && silent.loudness.allSatisfy { $0 == 0 })
    }

    /// The three-frame moving average stays within a class and skips NaN neighbours.
    @Test func smoothingWithinClasses() {
        let classes = [true, true, false, false, false]
        let smooth = EGeMAPSAnalysis.smoothed([1, 2, 10, .nan, 20]) { classes[$0] == classes[$1] }
        #expect(smooth[0] == 1.5 && smooth[1] == 1.5 && smooth[2] == 10 && smooth[3].isNaN && smooth[4] == 20)
        #expect(EGeMAPSAnalysis.smoothed([3, 6, 9]) == [4.5, 6, 7.5])
    }

    /// A frame's power spectrum is |DFT|² of its samples (zeros before and after the recording)
    /// through the window, zero-padded to the transform's 512 points, whatever frames the same
    /// spectrum computed before: each start, taken in an order that goes from a loud frame to one
    /// partly or wholly outside the recording, equals a fresh spectrum's bit for bit and a direct
    /// DFT within 1e-9 of the frame's largest power.
    @Test func framePowerIsEachFramesOwn() throws {
        let samples = (0..<1000).map { (n: Int) -> Double in sin(0.37 * Double(n)) + 0.5 * sin(Double(n * n % 101)) }
        let window = (0..<300).map { (n: Int) -> Double in 0.54 - 0.46 * cos(2 * Double.pi * Double(n) / 299) }
        var reused = try #require(FramePowerSpectrum(length: 300, window: window, sampleRateHz: 16000))
        var power = [Double](repeating: .nan, count: reused.bins)
        for start in [400, -150, 900, 0, -299, 1000, 700, -5000, 250] {
            reused.power(samples, from: start, into: &power)
            var fresh = try #require(FramePowerSpectrum(length: 300, window: window, sampleRateHz: 16000))
            var alone = [Double](repeating: .nan, count: fresh.bins)
            fresh.power(samples, from: start, into: &alone)
            #expect(power == alone, "start \(start)")
            let frame = (0..<300).map { j in (start + j >= 0 && start + j < samples.count ? samples[start + j] : 0) * window[j] }
            let direct = (0..<reused.bins).map { k -> Double in
                var re = 0.0, im = 0.0
                for (j, x) in frame.enumerated() {
                    let angle = -2 * Double.pi * Double(k * j % 512) / 512
                    re += x * cos(angle)
                    im += x * sin(angle)
                }
                return re * re + im * im
            }
            let scale = max(direct.max() ?? 0, 1e-300)
            for k in direct.indices { #expect(abs(power[k] - direct[k]) <= 1e-9 * scale, "start \(start) bin \(k)") }
            if start >= samples.count || start + 300 <= 0 { #expect(power.allSatisfy { $0 == 0 }, "start \(start)") }
        }
    }

    /// Peaks rise and fall by more than a tenth of the range: two here (the 5.05 wiggle is not one).
    @Test func loudnessPeaks() {
        #expect(EGeMAPSAnalysis.peakCount([0, 5, 4.9, 5.05, 0, 0, 8, 1], threshold: 0.1) == 2)
        #expect(EGeMAPSAnalysis.peakCount([2, 2, 2], threshold: 0.1) == 0)
        #expect(EGeMAPSAnalysis.peakCount([], threshold: 0.1) == 0)
    }

    /// Five 0.4-s bursts of a 150-Hz harmonic vowel (50-ms raised-cosine ramps: an abrupt onset's
    /// click is a loudness peak of its own) 0.2 s apart, with 0.2 s of silence before and after
    /// (3.2 s): five voiced segments (1.5625 per second) of 0.4 s and six unvoiced ones of 0.2 s,
    /// each within two pitch frames (Praat's voicing decision at the edges), and five loudness
    /// peaks.
    @Test func temporalFeaturesOfBursts() {
        let rate = 16000.0
        let ramp = Int(0.05 * rate)
        let vowel = Self.sines([(150, 0.3), (300, 0.2), (450, 0.1), (600, 0.05)], rate: rate, seconds: 0.4).enumerated().map { n, x in
            x * 0.5 * (1 - cos(Double.pi * Double(min(n, 6400 - 1 - n, ramp)) / Double(ramp)))
        }
        let gap = [Double](repeating: 0, count: Int(0.2 * rate))
        var x = gap
        for _ in 0..<5 { x += vowel + gap }
        let result = VoiceAnalysis.analyze(interleaved: x, channels: 1, sampleRateHz: rate)
        let features = result.egemaps
        #expect(abs((features.voicedSegmentsPerSecond ?? 0) - 5 / 3.2) < 1e-12)
        #expect(abs((features.voicedSegmentLengthMeanSeconds ?? 0) - 0.4) <= 0.02)
        #expect(abs((features.unvoicedSegmentLengthMeanSeconds ?? 0) - 0.2) <= 0.02)
        #expect(abs((features.loudnessPeaksPerSecond ?? 0) - 5 / 3.2) < 1e-12)
        #expect((features.h1MinusH2VoicedMeanDb.map { abs($0 - 20 * log10(1.5)) } ?? 1) < 0.1)
    }
}
