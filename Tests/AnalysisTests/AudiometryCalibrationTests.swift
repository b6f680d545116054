import Foundation
import Testing
import TestSupport
@testable import Analysis
@testable import SignalProcessing

/// docs/audiometry.md §13 D19–D21c and F26–F30.
@Suite struct AudiometryCalibrationTests {
    @Test("D19: standard RETSPLs: TDH-39 1 kHz 40 dB HL, ER-3A (HA-2) 4 kHz 20 dB HL, supra-aural 250 Hz 0 dB HL")
    func standardRETSPL() {
        #expect(HeadphoneCalibration.soundPressureLevel(hearingLevel: 40, retspl: HeadphoneCalibration.Transducer.tdh39.retspl[1000]!) == 47)
        #expect(HeadphoneCalibration.soundPressureLevel(hearingLevel: 20, retspl: HeadphoneCalibration.Transducer.er3aHA2.retspl[4000]!) == 25.5)
        #expect(HeadphoneCalibration.soundPressureLevel(hearingLevel: 0, retspl: HeadphoneCalibration.Transducer.genericSupraAural.retspl[250]!) == 27)
        #expect(HeadphoneCalibration.Transducer.tdh39.retspl[750] == nil)  // unverified, not shipped
    }

    @Test("embedded tables: every headphone of every version has 11 RETSPLs, 11 dB SPL values and 16 volume offsets (§7.3, §7.4)")
    func tables() throws {
        let identifiers = ["AIRPODSV1", "AIRPODSV2", "AIRPODSV3", "AIRPODSPRO", "AIRPODSPROV2", "AIRPODSMAX", "EARPODS"]
        for version in [HeadphoneCalibration.TableVersion.researchKit3_0, .researchKit3_2] {
            for id in identifiers {
                let t = try #require(HeadphoneCalibration.tables(for: id, version: version), "\(id) \(version)")
                #expect(t.retspl.count == 11 && t.dBSPL.count == 11 && t.volumeCurve.count == 16, "\(id) \(version)")
            }
        }
        for id in ["AIRPODS", "AIRPODSPRO", "EARPODS"] {
            #expect(HeadphoneCalibration.tables(for: id, version: .researchKit2)?.volumeCurve.count == 16)
        }
        #expect(HeadphoneCalibration.tables(for: "AIRPODSMAX")?.retspl[750] == 10.515)
        #expect(HeadphoneCalibration.tables(for: "EARPODS")?.volumeCurve.last == -0.5)  // WIRED at full volume
        #expect(HeadphoneCalibration.tables(for: "AIRPODSPRO", version: .researchKit2)?.dBSPL[6000] == 91.64)
        #expect(HeadphoneCalibration.tables(for: "UNKNOWN") == nil)
        #expect(HeadphoneCalibration.Transducer.tdh39.retspl.count == 9)  // 750 and 1500 Hz unverified, absent
        #expect(HeadphoneCalibration.Transducer.allCases.allSatisfy { !$0.retspl.isEmpty })
    }

    @Test("D20: AirPods gen 1 at 1 kHz: attenuation and amplitude at 0/30/60 dB HL, clipping from 105.89")
    func airPods() throws {
        let tables = try #require(HeadphoneCalibration.tables(for: "airpodsv1"))
        for (hl, attenuation, amplitude) in [(0.0, -106.89, 4.523765e-6), (30, -76.89, 1.430540e-4), (60, -46.89, 4.523765e-3)] {
            let result = try #require(HeadphoneCalibration.researchKitAmplitude(hearingLevel: hl, frequencyHz: 1000, tables: tables))
            #expect(abs(result.attenuationDecibels - attenuation) < 1e-9)
            #expect(abs((result.amplitude ?? 0) / amplitude - 1) < 1e-5)
            // And back: the amplitude plays at HL, i.e. at HL + RETSPL(1 kHz) = HL + 7 dB SPL.
            let back = try #require(HeadphoneCalibration.levels(amplitude: amplitude, frequencyHz: 1000, tables: tables))
            #expect(abs(back.hearingLevel - hl) < 1e-4 && abs(back.soundPressureLevel - (hl + 7)) < 1e-4)
        }
        // §7.5 worked example: v = 0.5 (V = −29) and a = 4.031809e−3 play 30 dB HL.
        let half = try #require(HeadphoneCalibration.levels(amplitude: 4.031809e-3, frequencyHz: 1000, tables: tables, volume: 0.5))
        #expect(abs(half.hearingLevel - 30) < 1e-4)
        #expect(abs((HeadphoneCalibration.maximumHearingLevel(frequencyHz: 1000, tables: tables) ?? 0) - 105.89) < 1e-9)
        #expect(HeadphoneCalibration.researchKitAmplitude(hearingLevel: 105.89, frequencyHz: 1000, tables: tables)?.amplitude == nil)
        #expect(HeadphoneCalibration.researchKitAmplitude(hearingLevel: 30, frequencyHz: 1100, tables: tables) == nil)
        #expect(HeadphoneCalibration.tables(for: "AIRPODS") == nil)
        #expect(HeadphoneCalibration.tables(for: "AIRPODS", version: .researchKit2) != nil)
    }

    @Test("D20b and §7.5: volume quantisation, correct and ResearchKit ≥ 3.1.0")
    func volume() throws {
        let tables = try #require(HeadphoneCalibration.tables(for: "AIRPODSV1"))
        let result = try #require(HeadphoneCalibration.researchKitAmplitude(hearingLevel: 30, frequencyHz: 1000, tables: tables, volume: 0.5))
        #expect(abs(result.attenuationDecibels - -47.89) < 1e-9)
        #expect(abs((result.amplitude ?? 0) / 4.031809e-3 - 1) < 1e-5)
        for (v, correct, quirk) in [(1.0, 0.0, 0.0), (0.99, -3.0, 0.0), (0.5, -29.0, 0.0), (0.03, -65.5, -65.5)] {
            #expect(HeadphoneCalibration.volumeOffset(tables, volume: v) == correct, "\(v)")
            #expect(HeadphoneCalibration.volumeOffset(tables, volume: v, rule: .researchKit3_1) == quirk, "\(v)")
        }
        #expect(HeadphoneCalibration.quantizedVolume(0.93749994) == 0.9375)
        #expect(HeadphoneCalibration.quantizedVolume(0.03, rule: .researchKitBefore3_1) == nil)
    }

    @Test("D21: PTA3 15, PTA4 20, WHO 2021 mild, WHO 1991 grade 0; D21b grade edges; D21c unilateral")
    func grades() {
        var audiogram = Audiogram()
        audiogram.thresholds[.right] = [500: 10, 1000: 15, 2000: 20, 4000: 35]
        #expect(audiogram.pureToneAverage(.right, frequencies: Audiogram.pta3Frequencies) == 15)
        #expect(audiogram.pureToneAverage(.right, frequencies: Audiogram.pta4Frequencies) == 20)
        #expect(Audiogram.who2021Grade(20) == "mild")
        #expect(Audiogram.who1991Grade(20) == 0)
        let edges: [(Double, String)] = [(19.99, "normal"), (20, "mild"), (34.99, "mild"), (35, "moderate"), (50, "moderately severe"),
                                         (65, "severe"), (80, "profound"), (95, "complete")]
        for (pta, grade) in edges { #expect(Audiogram.who2021Grade(pta) == grade, "\(pta)") }
        #expect(Audiogram.who2021Category(better: 15, worse: 35) == "unilateral")
        #expect(Audiogram.who2021Category(better: 15, worse: 34.9) == "normal")
        audiogram.thresholds[.right]?[4000] = .some(nil)
        #expect(audiogram.pureToneAverage(.right, frequencies: Audiogram.pta4Frequencies) == nil)
    }

    static func sine(_ f: Double, amplitude: Double = 1, n: Int = 48_000, fs: Double = 48_000) -> [Double] {
        (0..<n).map { amplitude * sin(2 * Double.pi * f * Double($0) / fs) }
    }

    @Test("F26–F28: flat-top level, Hann log-parabolic frequency and its refinement by the IEEE 1057 sine fit")
    func spectralEstimators() throws {
        let f26 = try #require(ToneVerification.analyze(Self.sine(1000, amplitude: 0.5), sampleRateHz: 48_000))
        #expect(abs(f26.peakAmplitude - 0.5) < 1e-9)
        #expect(abs(f26.frequencyHz - 1000) < 1e-9)
        let f27 = try #require(ToneVerification.analyze(Self.sine(1000.5), sampleRateHz: 48_000))
        #expect(abs(f27.levelDbfs - -0.0098) <= 0.001)
        #expect(abs(f27.frequencyHz - 1000.5) <= 0.001)
        let f28 = try #require(ToneVerification.analyze(Self.sine(1000.25), sampleRateHz: 48_000))
        #expect(abs(f28.hannFrequencyHz - 1000.2655) <= 0.001)
        #expect(abs(f28.frequencyHz - 1000.25) <= 1e-6)
        #expect(abs(f27.frequencyHz - 1000.5) <= 1e-6)
        #expect(abs(f28.levelDbfs - 0.0023) <= 0.001)
    }

    @Test("F27: half-bin scalloping of the rectangular and Hann peak bins, and the Hann ±6-bin power sum")
    func scalloping() throws {
        let n = 48_000
        let x = Self.sine(1000.5)
        let fft = try FFT(size: n)
        func spectrum(_ window: Window) -> (power: [Double], sum: Double, sumSquares: Double) {
            let w = window.values(count: n, periodic: true)
            let s = fft.forward(zip(x, w).map { $0 * $1 })
            var power = [Double](repeating: 0, count: fft.realBins)
            for k in 0..<fft.realBins { power[k] = s[2 * k] * s[2 * k] + s[2 * k + 1] * s[2 * k + 1] }
            let sum: Double = w.reduce(0, +)
            let sumSquares: Double = w.reduce(0) { $0 + $1 * $1 }
            return (power, sum, sumSquares)
        }
        func peakError(_ window: Window) -> Double {
            let (power, sum, _) = spectrum(window)
            return 20 * log10(power.max()!.squareRoot() * 2 / sum)
        }
        #expect(abs(peakError(.rectangular) - -3.9205) <= 0.003)
        #expect(abs(peakError(.hann) - -1.4236) <= 0.001)
        let hann = spectrum(.hann)
        let k = hann.power.indices.max { hann.power[$0] < hann.power[$1] }!
        let rms2 = 2 * hann.power[(k - 6)...(k + 6)].reduce(0, +) / (Double(n) * hann.sumSquares)
        #expect(abs(10 * log10(rms2 / 0.5)) <= 0.001)  // a unit sine has x_rms² = ½
    }

    @Test("F29: THD of 1 % and 0.5 % second and third harmonics is 1.11803 % (−39.031 dB)")
    func thd() throws {
        let x = (0..<48_000).map { i -> Double in
            let t = Double(i) / 48_000
            return sin(2 * Double.pi * 1000 * t) + 0.01 * sin(2 * Double.pi * 2000 * t) + 0.005 * sin(2 * Double.pi * 3000 * t)
        }
        let result = try #require(ToneVerification.analyze(x, sampleRateHz: 48_000))
        #expect(abs(result.thd * 100 - 1.11803) <= 0.001)
        #expect(abs(result.thdDecibels - -39.031) <= 0.01)
        #expect(abs(result.thdPlusNoiseDecibels - -39.031) <= 0.01)  // no noise: THD+N = THD
    }

    @Test("THD+N of a unit sine with white noise of σ = 0.001 is 10·lg(σ²/½) = −56.99 dB; noise-free is at the float floor")
    func thdPlusNoise() throws {
        var random = SeededRandom(seed: 7)
        let half = 0.001 * 3.0.squareRoot()  // uniform on ±half has σ = half/√3
        let x = Self.sine(997.3).map { $0 + half * (2 * random.unit() - 1) }
        let noisy = try #require(ToneVerification.analyze(x, sampleRateHz: 48_000))
        #expect(abs(noisy.thdPlusNoiseDecibels - 10 * log10(1e-6 / 0.5)) <= 0.1, "\(noisy.thdPlusNoiseDecibels)")
        #expect(abs(noisy.frequencyHz - 997.3) <= 0.001)
        let clean = try #require(ToneVerification.analyze(Self.sine(997.3), sampleRateHz: 48_000))
        #expect(clean.thdPlusNoiseDecibels < -200)
    }

    @Test("F30: raised-cosine rise times 29.06 / 20.34 ms; ramps outside 20–50 ms rejected; measured from a rendered tone")
    func ramps() throws {
        #expect(abs(ToneSpecification.riseTime(.raisedCosine(seconds: 0.05)) * 1000 - 29.06) <= 0.1)
        #expect(abs(ToneSpecification.riseTime(.raisedCosine(seconds: 0.035)) * 1000 - 20.34) <= 0.1)
        #expect(abs(ToneSpecification.riseTime(.researchKit) * 1000 - 95) <= 0.1)
        #expect(throws: ToneSpecification.Problem.self) {
            try ToneSpecification(frequencyHz: 1000, amplitude: 0.1, durationSeconds: 1, ramp: .raisedCosine(seconds: 0.025)).render()
        }
        let tone = try ToneSpecification(frequencyHz: 1000, amplitude: 0.1, durationSeconds: 1, ear: .left, sampleRateHz: 48_000).render()
        let left = stride(from: 0, to: tone.count, by: 2).map { Double(tone[$0]) }
        #expect(stride(from: 1, to: tone.count, by: 2).allSatisfy { tone[$0] == 0 })  // the other ear is silent
        let (rise, fall) = try #require(ToneVerification.rampTimes(left, sampleRateHz: 48_000))
        #expect(abs(rise * 1000 - 29.06) <= 0.2 && abs(fall * 1000 - 29.06) <= 0.2, "\(rise) \(fall)")
        let steady = Array(left[2400..<(2400 + 48_000)])
        let verified = try #require(ToneVerification.analyze(steady, sampleRateHz: 48_000))
        #expect(abs(verified.levelDbfs - -20) <= 0.01)
        #expect(abs(verified.frequencyHz - 1000) <= 0.01)
    }
}
