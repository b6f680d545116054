import Foundation
import Testing
import TestSupport
@testable import Analysis

/// docs/analyses.md §5 E (Praat 6.1.38 via parselmouth 0.4.7 and analytic values).
@Suite struct VoiceTests {
    static let rate = 44_100.0

    /// E3's pulse vowel: pulses at cumulative sums of T0(1 ± ε) (starting +), amplitudes 1 ± δ,
    /// each adding 0.05·A·Σ g·e^(−πBτ)·sin(2πFτ) for 0 ≤ τ < 50 ms with (F, B, g) =
    /// (700, 250, 1), (1220, 250, 0.5), (2600, 300, 0.25); optional Gaussian noise σ.
    static func vowel(f0: Double = 120, epsilon: Double = 0, delta: Double = 0, sigma: Double = 0, seconds: Double = 2) -> [Double] {
        let n = Int(seconds * rate)
        var x = [Double](repeating: 0, count: n)
        let formants: [(Double, Double, Double)] = [(700, 250, 1), (1220, 250, 0.5), (2600, 300, 0.25)]
        var t = 0.0, k = 0
        let span = Int(0.05 * rate)
        while t < seconds {
            let amplitude = 1 + (k % 2 == 0 ? delta : -delta)
            let start = Int((t * rate).rounded(.up))
            for i in start..<min(n, start + span) {
                let tau = Double(i) / rate - t
                var value = 0.0
                for (f, b, g) in formants { value += g * exp(-Double.pi * b * tau) * sin(2 * Double.pi * f * tau) }
                x[i] += 0.05 * amplitude * value
            }
            t += (1 / f0) * (1 + (k % 2 == 0 ? epsilon : -epsilon))
            k += 1
        }
        if sigma > 0 {
            var random = SeededRandom(seed: 5)
            for i in x.indices {
                x[i] += sigma * (-2 * log(max(random.unit(), 1e-300))).squareRoot() * cos(2 * Double.pi * random.unit())
            }
        }
        return x
    }

    static func features(_ x: [Double]) -> VoiceFeatures {
        VoiceAnalysis.analyze(interleaved: x, channels: 1, sampleRateHz: rate).features
    }

    func number(_ value: Double?, _ name: String = #function) throws -> Double { try #require(value, "\(name)") }

    @Test("sets left out are not computed: the Praat measures and levels are those of the whole analysis, the other sets empty, without their warnings")
    func setsLeftOut() throws {
        let x = Self.vowel(epsilon: 0.01, delta: 0.05, seconds: 1)
        let whole = VoiceAnalysis.analyze(interleaved: x, channels: 1, sampleRateHz: Self.rate)
        var options = VoiceAnalysis.Options()
        options.sets = [.harmonicity]
        let praat = VoiceAnalysis.analyze(interleaved: x, channels: 1, sampleRateHz: Self.rate, options: options)
        #expect(praat.features == whole.features)
        // Without harmonicity: the same Praat measures but HNR.
        options.sets = []
        var bare = VoiceAnalysis.analyze(interleaved: x, channels: 1, sampleRateHz: Self.rate, options: options).features
        #expect(bare.hnrDb == nil && whole.features.hnrDb != nil)
        bare.hnrDb = whole.features.hnrDb
        #expect(bare == whole.features)
        #expect(praat.pitchF0Hz.map(\.bitPattern) == whole.pitchF0Hz.map(\.bitPattern))
        #expect(whole.formants.voicedFrameCount > 0 && whole.cepstral.cppsDb != nil && whole.mfcc.frameCount > 0 && whole.egemaps.frameCount > 0 && whole.spectrogram != nil)
        #expect(praat.formants.voicedFrameCount == 0 && praat.formants.f2OverF1Ratio == nil && praat.formantTimeSeconds.isEmpty)
        #expect(praat.cepstral.cppsDb == nil && praat.cepstrumSlice == nil)
        #expect(praat.mfcc.frameCount == 0 && praat.mfcc.coefficients.allSatisfy { $0.mean == nil })
        #expect(praat.egemaps.frameCount == 0 && praat.egemaps.alphaRatioVoicedMeanDb == nil)
        #expect(praat.spectrogram == nil)
        // The whole analysis's only set warning: the vowel is voiced throughout, so eGeMAPSv02's five
        // unvoiced means and two unvoiced segment lengths have no values.
        let setWarning = "egemapsv02: 7 of 88 functionals null: no unvoiced frame (the unvoiced means and segments)"
        #expect(praat.warnings + [setWarning] == whole.warnings, "\(praat.warnings) vs \(whole.warnings)")
        // One set alone equals that set of the whole analysis.
        options.sets = [.cepstral]
        #expect(VoiceAnalysis.analyze(interleaved: x, channels: 1, sampleRateHz: Self.rate, options: options).cepstral == whole.cepstral)
    }

    /// A pitch floor whose window is longer than the recording left F0 and HNR null with only
    /// "less than 1 s of voiced signal" said.
    @Test("no pitch frame is said with its cause: 0.5 s under a 1-Hz floor (windows of 3 s, and 2 s for HNR), under a 5-Hz floor (0.6 s; HNR's 0.4 s fits); a 100-Hz recording (a 0.04-s window holds 4 samples)")
    func noPitchFrame() throws {
        var options = VoiceAnalysis.Options()
        options.pitchFloorHz = 1
        let half = Self.vowel(seconds: 0.5)
        let floorOne = VoiceAnalysis.analyze(interleaved: half, channels: 1, sampleRateHz: Self.rate, options: options)
        #expect(floorOne.features.contour.f0MedianHz == nil && floorOne.features.hnrDb == nil)
        #expect(floorOne.warnings.contains("pitch: no frame: the recording's 0.5 s are shorter than its window of 3 periods of the 1-Hz floor (3 s); F0, pulses, jitter and shimmer null"), "\(floorOne.warnings)")
        #expect(floorOne.warnings.contains("HNR: no frame: the recording's 0.5 s are shorter than its window of 1 period of the 1-Hz floor and one more for the cross-correlation (2 s); HNR null"), "\(floorOne.warnings)")
        options.pitchFloorHz = 5
        let floorFive = VoiceAnalysis.analyze(interleaved: half, channels: 1, sampleRateHz: Self.rate, options: options)
        #expect(floorFive.warnings.filter { $0.contains("no frame") } == ["pitch: no frame: the recording's 0.5 s are shorter than its window of 3 periods of the 5-Hz floor (0.6 s); F0, pulses, jitter and shimmer null"], "\(floorFive.warnings)")
        #expect(floorFive.features.hnrDb != nil)
        let coarse = VoiceAnalysis.analyze(interleaved: (0..<200).map { sin(Double($0)) }, channels: 1, sampleRateHz: 100)
        #expect(coarse.warnings.contains("pitch: no frame: its window of 3 periods of the 75-Hz floor holds fewer than 6 samples at 100 Hz; F0, pulses, jitter and shimmer null"), "\(coarse.warnings)")
        #expect(Self.features(Self.vowel()).contour.f0MedianHz != nil && !VoiceAnalysis.analyze(interleaved: Self.vowel(), channels: 1, sampleRateHz: Self.rate).warnings.contains { $0.contains("no frame") })
    }

    /// A clean vowel 72 dB below full scale said "less than 1 s of voiced signal: F0 and
    /// perturbation are unreliable" where the pitch tracker voices all of it: only the voiced
    /// material (frames at or above −60 dBFS) is missing.
    @Test("a voice below −60 dBFS: F0 from the pitch tracker's voiced frames and the voiced levels null, said as such; at full level neither warning")
    func quietVoice() throws {
        let loud = Self.vowel(seconds: 2), quiet = loud.map { $0 * 1e-4 }
        let analysis = VoiceAnalysis.analyze(interleaved: quiet, channels: 1, sampleRateHz: Self.rate)
        let tracked = try #require(analysis.warnings.first { $0.hasPrefix("less than 1 s of voiced material") })
        // 10-ms pitch frames (0.75 periods of the 75-Hz floor).
        let seconds = Double(analysis.features.contour.voicedFrameCount) * 0.01
        #expect(seconds >= 1.5)
        #expect(tracked == "less than 1 s of voiced material (0 s of 40-ms frames at or above max(P95 − 30 dB, −60 dBFS) whose centre is voiced): the voiced levels are null or unreliable; F0 and perturbation read the pitch tracker's \(String(format: "%.3g", seconds)) s of voiced frames")
        #expect(!analysis.warnings.contains { $0.hasPrefix("less than 1 s of voiced signal") }, "\(analysis.warnings)")
        #expect(analysis.features.contour.f0MedianHz != nil && analysis.features.contour.rmsVoicedDbfs == nil)
        let full = VoiceAnalysis.analyze(interleaved: loud, channels: 1, sampleRateHz: Self.rate)
        #expect(!full.warnings.contains { $0.hasPrefix("less than 1 s of voiced") }, "\(full.warnings)")
    }

    @Test("the cross-correlation's maxima that rounding decides are redone with Praat's sums: on a plateau (neighbours 1e-15 apart) every lag, at the voicing threshold's half the lag there; neighbours 4.1 times the fast sums' error bound apart are left, 3.9 times apart redone; the bound for a 588-value window by hand")
    func tiedLags() {
        let e = PraatPitchAnalysis.FrameContext.fastSumsError(window: 588)
        #expect(e == 1e-13 + (588.0 / 16 + 8) * 0x1p-52)
        var tied: [Int] = []
        func lags(_ r: [Double], threshold: Double = 0) -> [Int] {
            _ = r.withUnsafeBufferPointer { PraatPitchAnalysis.FrameContext.tiedLags($0, lags: r.count - 1, threshold: threshold, error: e, into: &tied) }
            return tied
        }
        let plateau = [1.0] + (1...6).map { 1 - 1e-5 - Double($0 % 2) * 1e-15 }
        #expect(lags(plateau) == [1, 2, 3, 4, 5, 6])
        let apart = [1.0, 0.9, 0.9 + 4.1 * e, 0.5, 0.4, 0.3]
        #expect(lags(apart) == [])
        #expect(lags([1.0, 0.9, 0.9 + 3.9 * e, 0.5, 0.4, 0.3]) == [1, 2])
        #expect(lags(apart, threshold: 0.4 + e) == [4])
        #expect(lags([1.0, 0.5]) == [])
    }

    @Test("voiced material of a recording shorter than one 40-ms frame is none, even where a pitch contour (a 150-Hz floor's 20-ms window) has a voiced frame; the weak-channel check of no channels or one is none")
    func shortVoicedMaterial() {
        let x = (0..<480).map { 0.5 * sin(2 * Double.pi * 200 * Double($0) / 16000) }
        let contour = PraatPitchAnalysis.Contour(x1: 0.015, dx: 0.01, ceiling: 600, frequency: [200], strength: [0.9])
        #expect(VoiceAnalysis.voicedSegments(x, sampleRateHz: 16000, contour: contour).isEmpty)
        #expect(VoiceAnalysis.weakChannel0(interleaved: [0.5, 0.5], channels: 0, meanSquare0: 0) == nil)
        #expect(VoiceAnalysis.weakChannel0(interleaved: [0.5, 0.5], channels: 1, meanSquare0: 0.25) == nil)
    }

    @Test("E1: Praat intensity of sines of RMS 0.02, 1/√2, 1 is 60.000, 90.969, 93.979 dB")
    func intensity() throws {
        for (rms, expected) in [(0.02, 60.000), (1 / 2.0.squareRoot(), 90.969), (1.0, 93.979)] {
            let x = (0..<Int(Self.rate)).map { rms * 2.0.squareRoot() * sin(2 * Double.pi * 441 * Double($0) / Self.rate) }
            let set = VoiceAnalysis.analyze(interleaved: x, channels: 1, sampleRateHz: Self.rate).features
            #expect(abs(try number(set.levels.intensityDb) - expected) <= 0.001)
        }
    }

    @Test("E2: exact alternating periods T0(1 ± 0.005): jitter local 1 %, rap 0.667 %, ppq5 0.4 %, ddp 2 %")
    func exactPeriods() throws {
        var times: [Double] = [0]
        for k in 0..<400 { times.append(times.last! + (1.0 / 120) * (1 + (k % 2 == 0 ? 0.005 : -0.005))) }
        let silent = PraatSound(samples: [Double](repeating: 0, count: 10), dx: 1 / Self.rate)
        let m = Perturbation.measures(times, sound: silent)
        #expect(abs((m.jitterLocal ?? 0) - 0.01) <= 1e-6 * 0.01 * 100)
        #expect(abs((m.jitterLocalAbsoluteSeconds ?? 0) - 8.33333e-5) <= 1e-9)
        #expect(abs((m.jitterRap ?? 0) - 0.00666667) <= 1e-7)
        #expect(abs((m.jitterPpq5 ?? 0) - 0.004) <= 1e-7)
        #expect(abs((m.jitterDdp ?? 0) - 0.02) <= 1e-7)
    }

    @Test("E3: the clean 120 Hz pulse vowel: F0 120.00, jitter and shimmer < 0.05 %, HNR > 35 dB")
    func clean() throws {
        let set = Self.features(Self.vowel())
        #expect(abs(try number(set.contour.f0MedianHz) - 120) <= 0.05)
        #expect(try number(set.contour.perturbation.jitterLocal) < 0.0005)
        #expect(try number(set.contour.perturbation.shimmerLocal) < 0.0005)
        #expect(try number(set.hnrDb) > 35)
        #expect(abs(try number(set.levels.intensityDb) - 55.404) <= 0.05)
    }

    @Test("E3: ε = 0.005 gives jitter local 1 %, rap 0.667 %, ppq5 0.4 %")
    func jitter() throws {
        let set = Self.features(Self.vowel(epsilon: 0.005))
        #expect(abs(try number(set.contour.perturbation.jitterLocal) - 0.01) <= 0.0005)
        #expect(abs(try number(set.contour.perturbation.jitterRap) - 0.00667) <= 0.0003)
        #expect(abs(try number(set.contour.perturbation.jitterPpq5) - 0.004) <= 0.0003)
    }

    @Test("E3: δ = 0.02 gives shimmer local 4 %, 0.347 dB, apq3 2.66 %, apq5 1.6 %, apq11 2.18 %")
    func shimmer() throws {
        let set = Self.features(Self.vowel(delta: 0.02))
        #expect(abs(try number(set.contour.perturbation.shimmerLocal) - 0.04) <= 0.002)
        #expect(abs(try number(set.contour.perturbation.shimmerLocalDb) - 0.347) <= 0.02)
        #expect(abs(try number(set.contour.perturbation.shimmerApq3) - 0.0266) <= 0.0015)
        #expect(abs(try number(set.contour.perturbation.shimmerApq5) - 0.016) <= 0.001)
        #expect(abs(try number(set.contour.perturbation.shimmerApq11) - 0.0218) <= 0.0012)
    }

    @Test("E3: noise σ = 0.001 / 0.003 gives HNR 21.1 / 11.7 dB (±1)", arguments: [(0.001, 21.1), (0.003, 11.7)])
    func harmonicity(sigma: Double, expected: Double) throws {
        let set = Self.features(Self.vowel(sigma: sigma))
        #expect(abs(try number(set.hnrDb) - expected) <= 1)
    }

    @Test("HNR frames above 55 dB are warned of (their values are rounding, in Praat as here): counted among the voiced frames at 10·lg(r/(1 − r)) just above 55 dB and at r = 1; none just below 55 dB or where unvoiced; every frame of an exactly periodic vowel, none of a vowel with noise")
    func roundingHarmonicity() {
        // r for 54.9 and 55.1 dB: r/(1 − r) = 10^(L/10).
        let r = { (db: Double) in pow(10, db / 10) / (1 + pow(10, db / 10)) }
        let contour = PraatPitchAnalysis.Contour(x1: 0, dx: 0.01, ceiling: 600, frequency: [120, 120, 120, 0, 120], strength: [r(54.9), r(55.1), 1, 1, 0.9])
        #expect(VoiceAnalysis.roundingHarmonicityWarning(contour)?.hasPrefix("HNR: 2 of 4 voiced frames above 55 dB") == true,
                "\(VoiceAnalysis.roundingHarmonicityWarning(contour) ?? "no warning")")
        let below = PraatPitchAnalysis.Contour(x1: 0, dx: 0.01, ceiling: 600, frequency: [120, 0], strength: [r(54.9), 1])
        #expect(VoiceAnalysis.roundingHarmonicityWarning(below) == nil)
        let noisy = VoiceAnalysis.analyze(interleaved: Self.vowel(sigma: 0.001), channels: 1, sampleRateHz: Self.rate)
        #expect(!noisy.warnings.contains { $0.hasPrefix("HNR:") }, "\(noisy.warnings)")
        // A noiseless pulse vowel of 294-sample periods (150 Hz) repeats exactly: every voiced frame is above.
        let periodic = VoiceAnalysis.analyze(interleaved: Self.vowel(f0: 150), channels: 1, sampleRateHz: Self.rate)
        #expect((periodic.features.hnrDb ?? 0) > 55)
        #expect(periodic.warnings.contains { $0.hasPrefix("HNR: 198 of 198 voiced frames above 55 dB") }, "\(periodic.warnings)")
    }

    @Test("E4: median F0 within 0.01 % at 100, 220, 440 Hz", arguments: [100.0, 220, 440])
    func f0(frequency: Double) throws {
        let set = Self.features(Self.vowel(f0: frequency))
        #expect(abs(try number(set.contour.f0MedianHz) / frequency - 1) <= 0.0001)
    }

    @Test("identical stereo channels both count in BS.1770 loudness (+10·lg 2 = 3.0103 LU over mono), once only on request; too-loud rule on a full-scale sine")
    func loudnessAndTooLoud() throws {
        let mono = (0..<Int(3 * Self.rate)).map { 0.5 * sin(2 * Double.pi * 997 * Double($0) / Self.rate) }
        let stereo = mono.flatMap { [$0, $0] }
        let a = VoiceAnalysis.analyze(interleaved: mono, channels: 1, sampleRateHz: Self.rate).features
        let b = VoiceAnalysis.analyze(interleaved: stereo, channels: 2, sampleRateHz: Self.rate).features
        #expect(b.levels.channelMode == .dualMono)
        #expect(abs(try number(b.levels.loudnessLufs) - number(a.levels.loudnessLufs) - 10 * log10(2)) < 1e-9)
        var once = VoiceAnalysis.Options()
        once.countIdenticalChannelsOnce = true
        let c = VoiceAnalysis.analyze(interleaved: stereo, channels: 2, sampleRateHz: Self.rate, options: once).features
        #expect(abs(try number(a.levels.loudnessLufs) - number(c.levels.loudnessLufs)) < 1e-9)
        #expect(b.levels.researchKitTooLoud)  // mean clamped level of a −6 dBFS sine ≈ 0.83
        let quiet = VoiceAnalysis.analyze(interleaved: mono.map { $0 * 0.001 }, channels: 1, sampleRateHz: Self.rate).features
        #expect(!quiet.levels.researchKitTooLoud)
        // No integrated loudness: every block below −70 LUFS (−80 dBFS), or no block at all (0.3 s).
        let silent = VoiceAnalysis.analyze(interleaved: mono.map { $0 * 0.0001 }, channels: 1, sampleRateHz: Self.rate)
        #expect(silent.features.levels.loudnessLufs == nil && silent.warnings.contains("integrated loudness is −∞: every 400-ms block is below −70 LUFS"))
        let short = VoiceAnalysis.analyze(interleaved: Array(mono.prefix(Int(0.3 * Self.rate))), channels: 1, sampleRateHz: Self.rate)
        #expect(short.features.levels.loudnessLufs == nil && short.warnings.contains("integrated loudness is undefined: the recording is shorter than one 400-ms block"), "\(short.warnings)")
    }

    /// A stereo recording with the voice on the right channel only gave "less than 1 s of voiced
    /// signal" and no F0 without saying that channel 0, the one analysed, was silent.
    @Test("channel 0 silent or more than 20 dB below another channel is said, with the level of the strongest: −∞ (silent), 20·lg 100 = 40 dB below, not at 19.9 dB or with channels swapped")
    func weakChannel0() {
        let mono = (0..<Int(Self.rate)).map { 0.5 * sin(2 * Double.pi * 997 * Double($0) / Self.rate) }  // −9.0309 dBFS RMS (0.125 mean square)
        func warning(_ gain0: Double, _ gain1: Double, channels: Int = 2) -> String? {
            let interleaved = mono.flatMap { (x: Double) -> [Double] in [gain0 * x, gain1 * x] + Array(repeating: 0, count: channels - 2) }
            return VoiceAnalysis.weakChannel0(interleaved: interleaved, channels: channels, meanSquare0: 0.125 * gain0 * gain0)
        }
        let said = "channel 0, which F0, perturbation, HNR, formants, cepstra, MFCCs and eGeMAPS analyse, is"
        #expect(warning(0, 1) == "\(said) silent while channel 1 (-9.0 dBFS RMS): the voice may be on channel 1")
        #expect(warning(0, 1, channels: 4) == "\(said) silent while channel 1 (-9.0 dBFS RMS): the voice may be on channel 1")
        #expect(warning(0.01, 1) == "\(said) 40.0 dB below channel 1 (-9.0 dBFS RMS): the voice may be on channel 1")
        #expect(warning(pow(10, -19.9 / 20), 1) == nil && warning(1, 0) == nil && warning(1, 1) == nil)
        let analysed = VoiceAnalysis.analyze(interleaved: mono.flatMap { [0.0, $0] }, channels: 2, sampleRateHz: Self.rate)
        #expect(analysed.warnings.contains("\(said) silent while channel 1 (-9.0 dBFS RMS): the voice may be on channel 1"), "\(analysed.warnings)")
    }

    @Test("ResearchKit's too-loud level by hand: Int16 samples 16384, −8192, 32767 and −32768 (1.5 clamped), zeros skipped; m = max(dB/60, −1) + 1: (0.899661 + 0.799318 + 1 + 1.000004) / 4; a sample at −70 dBFS counts as 0")
    func tooLoudLevel() {
        // 0.5·32767 = 16383.5 and −0.25·32767 = −8191.75 round away from zero; 1e-7·32767 rounds to 0.
        let samples = [0.5, -0.25, 0, 1.0, -1.5, 1e-7] + [Double](repeating: 0, count: 4_000)
        let level = VoiceAnalysis.analyze(interleaved: samples, channels: 1, sampleRateHz: 8_000).features.levels.researchKitTooLoudMeanLevel
        // 20·lg(16384/32767) = −6.020335 dB → 0.899661; 20·lg(8192/32767) = −12.040935 → 0.799318;
        // 20·lg(32767/32767) = 0 → 1; 20·lg(32768/32767) = +0.000265 → 1.0000044.
        let m = [16384.0, 8192, 32767, 32768].map { max(20 * log10($0 / 32767) / 60, -1) + 1 }
        #expect(abs(m[0] - 0.899661) < 1e-6 && abs(m[1] - 0.799318) < 1e-6 && abs(m[3] - 1.0000044) < 1e-7)
        #expect(level == m.reduce(0, +) / 4)
        let quietest = VoiceAnalysis.analyze(interleaved: [1 / 32767] + [Double](repeating: 0, count: 4_000), channels: 1, sampleRateHz: 8_000)
        #expect(quietest.features.levels.researchKitTooLoudMeanLevel == 0)  // −90 dB: max(−1.5, −1) + 1
    }

    @Test("frames analysed in runs (over threads) are those of one pass, bit for bit: autocorrelation and cross-correlation, the cross-correlation's frames keeping the lags they do not compute from the frames before, runs starting in silence, sounds ending voiced or silent, a 0.1-s sound",
          arguments: [1, 3, 7, 40])
    func runsEqualOnePass(framesPerRun: Int) throws {
        let silence = [Double](repeating: 0, count: Int(0.3 * Self.rate))
        let voice = Self.vowel(f0: 140, epsilon: 0.01, delta: 0.05, sigma: 0.002, seconds: 0.6)
        let sounds = [silence + voice + silence + Self.vowel(f0: 230, sigma: 0.004, seconds: 0.5),
                      voice + silence, Array(voice.prefix(Int(0.1 * Self.rate)))]
        for (s, samples) in sounds.enumerated() {
            let sound = PraatSound(samples: samples, dx: 1 / Self.rate)
            for var analysis in [PraatPitchAnalysis(), VoiceAnalysis.harmonicityAnalysis(floor: 75, sampleRateHz: Self.rate)] {
                analysis.framesPerRun = .max
                let onePass = analysis.analyze(sound)
                analysis.framesPerRun = framesPerRun
                analysis.maxRuns = .max
                let runs = analysis.analyze(sound)
                #expect(onePass != nil)
                #expect(runs?.frequency == onePass?.frequency && runs?.strength == onePass?.strength, "sound \(s), \(analysis.method)")
            }
        }
    }

    @Test("the too-loud rule's Int16 rounding equals Int(clamping:rounding:to:) half away from zero: halves, their neighbours, the clamps, ±0, NaN, ±∞, 1e±308, and 100,000 random values")
    func int16Rounding() {
        var values: [Double] = [0, -0.0, .nan, .infinity, -.infinity, 1e308, -1e308, 1e-308, 1, -1, 1.5, -1.5, 32767.5 / 32767, -32768.5 / 32767]
        for k in stride(from: -32770.0, through: 32770, by: 0.5) {
            let x = k / 32767
            values += [x, x.nextUp, x.nextDown]
        }
        var random = SeededRandom(seed: 11)
        for _ in 0..<100_000 { values.append(4 * random.unit() - 2) }
        for x in values {
            #expect(VoiceAnalysis.int16(x) == Int(clamping: x * 32767, rounding: .toNearestOrAwayFromZero, to: -32768...32767), "\(x)")
        }
    }
}

extension VoiceTests {
    @Test("F0, pulses, jitter, shimmer and HNR do not depend on the recording's gain: the pulse vowel times 2⁻¹⁰⁰⁰, 2⁻⁶⁰⁰, 2⁻²⁰⁰ and 2³⁰⁰ gives the same bits as the vowel itself, where the correlations' products of sums of squares underflow or overflow unscaled (PraatSound.scaledForCorrelation); 2⁻¹⁰⁰ and 2¹⁰⁰ need no scaling")
    func correlationsIndependentOfGain() throws {
        let x = Self.vowel(epsilon: 0.005, delta: 0.02, sigma: 0.001, seconds: 1)
        let reference = VoiceAnalysis.analyze(interleaved: x, channels: 1, sampleRateHz: Self.rate).features.contour
        let hnr = try #require(Self.features(x).hnrDb)
        #expect(reference.pulseCount > 100 && reference.perturbation.jitterLocal != nil && reference.perturbation.shimmerLocal != nil)
        for power in [-1000, -600, -200, -100, 100, 300] {
            let scaled = x.map { scalbn($0, Int32(power)) }
            let features = Self.features(scaled)
            #expect(features.contour.f0MedianHz?.bitPattern == reference.f0MedianHz?.bitPattern, "2^\(power): F0 \(String(describing: features.contour.f0MedianHz))")
            #expect(features.contour.pulseCount == reference.pulseCount, "2^\(power): \(features.contour.pulseCount) pulses")
            #expect(features.contour.perturbation == reference.perturbation, "2^\(power): \(features.contour.perturbation)")
            #expect(features.hnrDb?.bitPattern == hnr.bitPattern, "2^\(power): HNR \(String(describing: features.hnrDb))")
        }
        // The scaled copy: its peak in [½, 1) only outside [2⁻¹²⁸, 2¹²⁸]; silence and NaN as they are.
        let sound = PraatSound(samples: [0x1p-700, -0x1.8p-699, 0], sampleRateHz: Self.rate)
        #expect(sound.scaledForCorrelation().samples == [0x1p-2, -0x1.8p-1, 0])
        #expect(PraatSound(samples: [0x1p-128, 0.1], sampleRateHz: Self.rate).scaledForCorrelation().samples == [0x1p-128, 0.1])
        #expect(PraatSound(samples: [0, -0.0], sampleRateHz: Self.rate).scaledForCorrelation().samples.map(\.bitPattern) == [0, (-0.0).bitPattern])
    }

    @Test("a pitch contour has no value at a time that is not finite (NaN, ±∞), whichever frames are voiced; at a finite time it interpolates between frame centres")
    func contourValueAtNonFiniteTime() {
        let contour = PraatPitchAnalysis.Contour(x1: 0.02, dx: 0.01, ceiling: 600, frequency: [100, 110, 120], strength: [0.9, 0.9, 0.9])
        for t in [Double.nan, .infinity, -.infinity] { #expect(contour.value(at: t) == nil, "\(t)") }
        #expect(contour.value(at: 0.025) == 105)
        #expect(contour.value(at: 0.02) == 100)
    }

    /// Praat's Sampled_xToIndex is (t − x1)/dx + 1, and its low, high and nearest indices and the
    /// phase of Sampled_getValueAtX are taken from that sum (Melder_ifloor, Melder_iceiling and
    /// Melder_iround, floor(x + 0.5)). Adding 1 rounds where the quotient and the sum lie on either
    /// side of a power of two: 127.49999999999999 + 1 is 128.5 (the spacing of doubles doubles at
    /// 128, and the tie goes to the even 128.5), so Praat's nearest frame is the later one. The
    /// times below are such quotients (dx = 1 or a file's 10-ms pitch grid); the expected indices
    /// are those sums rounded by hand, less 1 for the 0-based index.
    @Test("the sample and frame indices of a time are Praat's: (t − x1)/dx + 1 rounded, then 0-based, where adding 1 rounds across a power of two")
    func indicesArePraats() {
        let sound = PraatSound(samples: [Double](repeating: 0, count: 300), dx: 1, firstTime: 0)
        // 128 − 2⁻⁴⁶ + 1 rounds to 129 (a tie at spacing 2⁻⁴⁵, to the even 129): low index 128 − 1.
        #expect(sound.lowIndex(128.nextDown) == 128)
        // 127 + 2⁻⁴⁶ + 1 rounds to 128: high index 128 − 1.
        #expect(sound.highIndex(127.nextUp) == 127)
        // 127.5 − 2⁻⁴⁶ + 1 is 128.5, + 0.5 is 129: nearest index 129 − 1.
        #expect(sound.nearestIndex(127.5.nextDown) == 128)
        // A tie goes to the later sample, below 0 too: −2.5 + 1 + 0.5 = −1, 0-based −2.
        #expect(sound.nearestIndex(-2.5) == -2)
        // Just below the first sample: −2⁻⁵⁴ + 1 rounds to 1, so its low index is the first sample.
        #expect(sound.lowIndex(-0x1p-54) == 0)
        // A cepstrogram frame's time on a 10-ms pitch grid of a 44.1-kHz file (speech with noise at
        // 10 dB SNR): (t − x1)/dx = 127.49999999999999, Praat's index 128.5, phase 0.5, so the
        // nearer frame is the later one (0-based 128): unvoiced there, the time has no value.
        let x1 = 0.02191609977324271, t = 1.2969160997732425
        var frequency = [Double](repeating: 110, count: 200)
        frequency[128] = 0
        let grid = PraatPitchAnalysis.Contour(x1: x1, dx: 0.01, ceiling: 600, frequency: frequency, strength: frequency.map { _ in 0.9 })
        #expect((t - x1) / 0.01 == 127.49999999999999)
        #expect(grid.value(at: t) == nil)
        frequency[128] = 120
        frequency[127] = 0
        let later = PraatPitchAnalysis.Contour(x1: x1, dx: 0.01, ceiling: 600, frequency: frequency, strength: frequency.map { _ in 0.9 })
        #expect(later.value(at: t) == 120)
    }
}
