import Foundation
import Testing
@testable import Analysis

/// docs/analyses.md §5 C: EBU Tech 3341/3342 cases synthesised at 48 kHz (1 kHz sines; "dBFS" = peak).
@Suite struct LoudnessTests {
    static let rate = 48_000.0

    /// Interleaved `channels` copies of a 1 kHz sine whose peak follows `segments` (dBFS, s).
    static func program(_ segments: [(dbfs: Double, seconds: Double)], channels: Int = 2, frequency: Double = 1000) -> [Double] {
        var out: [Double] = []
        var n = 0
        for (level, seconds) in segments {
            let amplitude = pow(10, level / 20)
            for _ in 0..<Int((seconds * rate).rounded()) {
                let value = amplitude * sin(2 * Double.pi * frequency * Double(n) / rate)
                for _ in 0..<channels { out.append(value) }
                n += 1
            }
        }
        return out
    }

    static func meter(_ interleaved: [Double], channels: Int = 2) -> LoudnessMeter {
        var meter = LoudnessMeter(sampleRateHz: rate, channels: channels)
        let block = 65_536 * channels
        var start = 0
        while start < interleaved.count {
            meter.process(interleaved: Array(interleaved[start..<min(interleaved.count, start + block)]))
            start += block
        }
        return meter
    }

    @Test("C2: integrated loudness of the EBU 3341 cases (±0.005 LU)")
    func integrated() throws {
        let cases: [(String, [Double], Int, Double)] = [
            ("stereo −23", Self.program([(-23, 20)]), 2, -22.9933),
            ("mono −23", Self.program([(-23, 20)], channels: 1), 1, -26.0036),
            ("3341-2", Self.program([(-33, 20)]), 2, -32.9933),
            ("3341-3", Self.program([(-36, 10), (-23, 60), (-36, 10)]), 2, -23.0139),
            ("3341-4", Self.program([(-72, 10), (-36, 10), (-23, 60), (-36, 10), (-72, 10)]), 2, -23.0139),
            ("3341-5", Self.program([(-26, 20), (-20, 20.1), (-26, 20)]), 2, -22.9787),
        ]
        for (name, signal, channels, expected) in cases {
            let value = try #require(Self.meter(signal, channels: channels).integratedLUFS, "\(name)")
            #expect(abs(value - expected) <= 0.005, "\(name): \(value)")
        }
        let fullScale = try #require(Self.meter(Self.program([(0, 10)], channels: 1, frequency: 997), channels: 1).integratedLUFS)
        #expect(abs(fullScale - -3.0103) <= 0.005)
    }

    /// 3341-6: 5.0 channels L, R at −28, C at −24, Ls, Rs at −30 dBFS, 20 s (surrounds weighted 1.41).
    @Test("C2: 5.0 surround case 3341-6")
    func surround() throws {
        let levels = [-28.0, -28, -24, -30, -30]
        var interleaved: [Double] = []
        for n in 0..<Int(20 * Self.rate) {
            let phase = sin(2 * Double.pi * 1000 * Double(n) / Self.rate)
            for level in levels { interleaved.append(pow(10, level / 20) * phase) }
        }
        let value = try #require(Self.meter(interleaved, channels: 5).integratedLUFS)
        #expect(abs(value - -23.0163) <= 0.005)
    }

    @Test("C3: short-term of 3341-9 is −22.986 at every full window; momentary of case 1 −22.9933")
    func shortTerm() {
        var segments: [(Double, Double)] = []
        for _ in 0..<5 { segments += [(-20, 1.34), (-30, 1.66)] }
        let meter = Self.meter(Self.program(segments))
        let values = meter.shortTermLUFS
        #expect(!values.isEmpty)
        #expect(values.allSatisfy { abs($0 - -22.986) <= 0.01 }, "\(values.min()!)…\(values.max()!)")
        let momentary = Self.meter(Self.program([(-23, 5)])).momentaryLUFS
        #expect(momentary.allSatisfy { abs($0 - -22.9933) <= 0.005 })
    }

    @Test("C4: loudness range of EBU 3342 cases 1–4 (±0.05 LU)")
    func range() throws {
        let cases: [([(Double, Double)], Double)] = [
            ([(-20, 20), (-30, 20)], 10), ([(-20, 20), (-15, 20)], 5), ([(-40, 20), (-20, 20)], 20),
            ([(-50, 20), (-35, 20), (-20, 20), (-35, 20), (-50, 20)], 15),
        ]
        for (segments, expected) in cases {
            let value = try #require(Self.meter(Self.program(segments)).loudnessRangeLU)
            #expect(abs(value - expected) <= 0.05, "\(expected): \(value)")
        }
    }

    @Test("C5: a signal below −70 LUFS has no integrated loudness (−∞), never NaN")
    func silence() {
        let meter = Self.meter(Self.program([(-90, 5)]))
        #expect(meter.integratedLUFS == nil)
        #expect(meter.loudnessRangeLU == nil)
    }

    @Test("why a measure is undefined: shorter than a 400-ms block, shorter than a 3-s window, every block below −70 LUFS; no reason where the measure has a value")
    func undefinedReasons() {
        let short = Self.meter(Self.program([(-20, 0.3)]))
        #expect(short.integratedUndefinedReason == "integrated loudness is undefined: the recording is shorter than one 400-ms block")
        #expect(short.rangeUndefinedReason == "loudness range and short-term loudness are undefined: the recording is shorter than one 3-s short-term window")
        let second = Self.meter(Self.program([(-20, 1)]))
        #expect(second.integratedLUFS != nil && second.integratedUndefinedReason == nil && second.shortTermLUFS.isEmpty)
        #expect(second.rangeUndefinedReason == short.rangeUndefinedReason)
        let silent = Self.meter(Self.program([(-90, 5)]))
        #expect(silent.integratedUndefinedReason == "integrated loudness is −∞: every 400-ms block is below −70 LUFS")
        #expect(silent.rangeUndefinedReason == "loudness range is undefined: every 3-s short-term block is below −70 LUFS")
        let tone = Self.meter(Self.program([(-20, 4)]))
        #expect(tone.integratedUndefinedReason == nil && tone.rangeUndefinedReason == nil && tone.loudnessRangeLU != nil)
    }

    /// At 100 Hz a −9-dBFS tone read 1,922 LUFS, at 1–2 kHz −∞: the high shelf's bilinear design
    /// wraps where its 1,682 Hz lies above the Nyquist frequency.
    @Test("below twice the high shelf's 1,682 Hz every loudness is undefined, said with the rate (100 Hz, 3,363 Hz); at 3,365 Hz and 4 kHz a tone has its loudness")
    func rateBelowTheShelf() throws {
        func metered(_ rate: Double) -> LoudnessMeter {
            var meter = LoudnessMeter(sampleRateHz: rate, channels: 1)
            meter.process(interleaved: (0..<Int(4 * rate)).map { 0.5 * sin(2 * Double.pi * 0.03 * Double($0)) })
            return meter
        }
        for rate in [100.0, 3_363] {
            let meter = metered(rate)
            let said = "K-weighting's high shelf at 1682 Hz needs a sample rate above 3364 Hz (twice it); this recording's is \(rate) Hz"
            #expect(meter.rateProblem == said && meter.integratedLUFS == nil && meter.loudnessRangeLU == nil && meter.momentaryLUFS.isEmpty && meter.shortTermLUFS.isEmpty)
            #expect(meter.integratedUndefinedReason == "integrated loudness is undefined: \(said)")
            #expect(meter.rangeUndefinedReason == "loudness range and short-term loudness are undefined: \(said)")
        }
        for rate in [3_365.0, 4_000] {
            // A tone at 0.03 cycles a sample (101–120 Hz) of −9.03 dBFS RMS: K-weighting's high-pass
            // and shelf hold it within a few dB of −9.72 LUFS (−0.691 + 10·lg 0.125).
            let loudness = try #require(metered(rate).integratedLUFS, "\(rate)")
            #expect(metered(rate).rateProblem == nil && abs(loudness - (-9.72)) < 3, "\(rate): \(loudness)")
        }
    }
}
