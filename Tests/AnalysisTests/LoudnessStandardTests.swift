import InputGuards
import Foundation
import Testing
@testable import Analysis
import SignalProcessing

/// EBU Tech 3341 (loudness metering, "EBU mode") and Tech 3342 (loudness range) test signals,
/// generated from their published definitions: 1 kHz sines whose levels are given in dBFS of
/// the sine's peak, in every channel of the layout. Tolerances are the documents': ±0.1 LU for
/// M, S and I; ±1 LU for LRA; +0.2/−0.4 dB for true peak.
@Suite struct LoudnessStandardTests {
    /// `segments` of (dBFS, seconds) of a 1 kHz sine, continuous phase, interleaved into
    /// `channels` channels with per-channel level offsets (dB).
    static func sine(_ segments: [(Double, Double)], rate: Double, channels: Int = 2, offsets: [Double]? = nil) -> [Double] {
        var x: [Double] = []
        var n = 0
        for (level, seconds) in segments {
            let amplitude = pow(10, level / 20)
            for _ in 0..<Int((seconds * rate).rounded()) {
                let value = amplitude * sin(2 * Double.pi * 1000 * Double(n) / rate)
                for c in 0..<channels { x.append(value * pow(10, (offsets?[c] ?? 0) / 20)) }
                n += 1
            }
        }
        return x
    }

    static func meter(_ x: [Double], rate: Double, channels: Int = 2) -> LoudnessMeter {
        var meter = LoudnessMeter(sampleRateHz: rate, channels: channels)
        var start = 0
        while start < x.count {  // streamed in 65,536-sample blocks, as from a file
            let end = min(x.count, start + 65_536 * channels)
            meter.process(interleaved: Array(x[start..<end]))
            start = end
        }
        return meter
    }

    @Test("Tech 3341 cases 1–5: I = −23.0 / −33.0 LUFS (±0.1), steady M and S likewise", arguments: [44_100.0, 48_000])
    func integrated(rate: Double) throws {
        let cases: [(segments: [(Double, Double)], expected: Double)] = [
            ([(-23, 20)], -23),
            ([(-33, 20)], -33),
            ([(-36, 10), (-23, 60), (-36, 10)], -23),
            ([(-72, 10), (-36, 10), (-23, 60), (-36, 10), (-72, 10)], -23),
            ([(-26, 20), (-20, 20.1), (-26, 20)], -23),
        ]
        for (number, (segments, expected)) in cases.enumerated() {
            let meter = Self.meter(Self.sine(segments, rate: rate), rate: rate)
            let integrated = try #require(meter.integratedLUFS)
            #expect(abs(integrated - expected) <= 0.1, "case \(number + 1) at \(rate): \(integrated)")
            if number < 2 {
                #expect(meter.momentaryLUFS.allSatisfy { abs($0 - expected) <= 0.1 })
                #expect(meter.shortTermLUFS.allSatisfy { abs($0 - expected) <= 0.1 })
            }
        }
    }

    @Test("Tech 3341 case 6: five channels, L R at −28, C at −24, Ls Rs at −30 dBFS (G = 1.41): I = −23.0 ±0.1")
    func fiveChannels() throws {
        let x = Self.sine([(0, 20)], rate: 48_000, channels: 5, offsets: [-28, -28, -24, -30, -30])
        let integrated = try #require(Self.meter(x, rate: 48_000, channels: 5).integratedLUFS)
        #expect(abs(integrated + 23) <= 0.1, "\(integrated)")
    }

    @Test("Tech 3341 case 9: 20 × (1.34 s at −20 dBFS, 1.66 s at −30 dBFS): short-term −23.0 ±0.1 once 3 s are in")
    func shortTermSequence() {
        let segments = Array(repeating: [(-20.0, 1.34), (-30.0, 1.66)], count: 20).flatMap { $0 }
        let meter = Self.meter(Self.sine(segments, rate: 48_000), rate: 48_000)
        let values = meter.shortTermLUFS
        #expect(values.count > 500)
        #expect(values.allSatisfy { abs($0 + 23) <= 0.1 }, "\(values.min() ?? .nan)…\(values.max() ?? .nan)")
    }

    @Test("Tech 3342 cases 1–4: LRA 10, 5, 20, 15 LU (±1)", arguments: [44_100.0, 48_000])
    func loudnessRange(rate: Double) throws {
        let cases: [([(Double, Double)], Double)] = [
            ([(-20, 20), (-30, 20)], 10),
            ([(-20, 20), (-15, 20)], 5),
            ([(-40, 20), (-20, 20)], 20),
            ([(-50, 20), (-35, 20), (-20, 20), (-35, 20), (-50, 20)], 15),
        ]
        for (number, (segments, expected)) in cases.enumerated() {
            let range = try #require(Self.meter(Self.sine(segments, rate: rate), rate: rate).loudnessRangeLU)
            #expect(abs(range - expected) <= 1, "case \(number + 1) at \(rate): \(range)")
        }
    }

    /// The interpolator evaluated directly: every phase in use at every sample, no shortcut
    /// (newest sample × first tap), and the sample values themselves.
    static func directTruePeak(_ x: [Double], phases: [Int]) -> Double {
        let h = TruePeakMeter.phases
        var peak = x.map(abs).max() ?? 0
        for n in x.indices {
            for p in phases {
                var y = 0.0
                for j in 0..<TruePeakMeter.taps where n - j >= 0 { y += h[p][j] * x[n - j] }
                peak = max(peak, abs(y))
            }
        }
        return peak
    }

    @Test("true peak: the interpolator's pass band (the 4 phases as one 96-tap filter at 4×) within 0.003 dB up to 0.4 × the input rate, −0.05 dB at 0.42 (scipy.signal.freqz of the same design: 0.000, 0.001, 0.002, −0.050)")
    func truePeakInterpolatorResponse() {
        var h = [Double](repeating: 0, count: 4 * TruePeakMeter.taps)
        for p in 0..<4 { for j in 0..<TruePeakMeter.taps { h[4 * j + p] = TruePeakMeter.phases[p][j] } }
        func decibels(_ f: Double) -> Double {  // f in units of the input rate; the filter runs at 4×
            let w = 2 * Double.pi * f / 4
            let re = h.indices.reduce(0) { $0 + h[$1] * cos(w * Double($1)) }, im = h.indices.reduce(0) { $0 - h[$1] * sin(w * Double($1)) }
            return 20 * log10((re * re + im * im).squareRoot() / 4)
        }
        for f in [0.0, 0.0625, 0.125, 0.25, 0.4] { #expect(abs(decibels(f)) <= 0.003, "\(f) × rate: \(decibels(f)) dB") }
        #expect(abs(decibels(0.42) + 0.050) <= 0.002, "0.42 × rate: \(decibels(0.42)) dB")
        #expect(decibels(0.55) < -20, "0.55 × rate (image): \(decibels(0.55)) dB")
    }

    @Test("true peak: the streaming meter with its exact shortcut equals the interpolator evaluated directly, for rare and dense peaks, any block size, 1 and 2 channels, 4× and 2×")
    func truePeakShortcutIsExact() {
        var random = SplitMix64(seed: 0x1770)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) * 2 - 1 }
        let length = 6_000
        var signals: [(String, [Double])] = [
            // Quiet noise with a few isolated bursts (most runs skipped), a dense tone (none
            // skipped), a single impulse (the peak is the sample itself), and rising noise (the
            // peak grows all along, so the shortcut rarely applies).
            ("bursts", (0..<length).map { n in 0.01 * uniform() + ([700, 2_345, 5_990].contains(n) ? (uniform() < 0 ? -0.9 : 0.9) : 0) }),
            ("tone", (0..<length).map { n in 0.5 * sin(2 * Double.pi * 0.25 * Double(n) + 0.785) }),
            ("impulse", (0..<length).map { $0 == 3_000 ? -1 : 0 }),
            ("rising", (0..<length).map { n in Double(n) / Double(length) * uniform() }),
            // Near-Gaussian noise whose level alternates every 1,000 samples, like programme
            // material: the per-sample bound decides most samples.
            ("levels", (0..<length).map { n in (n / 1_000 % 2 == 0 ? 0.05 : 0.1) * (uniform() + uniform() + uniform()) }),
        ]
        for shift in 0..<33 {
            // Two equal samples in quiet noise (the peak between them is above both), at every
            // offset of the meter's 32-sample runs: the interpolated peak of a pair at the end of
            // a run is computed in the next, quiet run.
            let first = 3_000 + shift
            let x: [Double] = (0..<length).map { n in n == first || n == first + 1 ? 0.5 : 0.001 * uniform() }
            signals.append(("pair at \(first)", x))
        }
        for (name, x) in signals {
            for (rate, phases) in [(48_000.0, [0, 1, 2, 3]), (96_000, [0, 2]), (192_000, [])] {
                let expected = Self.directTruePeak(x, phases: phases)
                for block in [1, 7, 11, 12, 33, 4_096] {
                    for channels in [1, 2] {
                        // Channel 1 carries the signal at half level, so each channel's own
                        // history and peak are exercised.
                        var meter = TruePeakMeter(sampleRateHz: rate, channels: channels)
                        var start = 0
                        while start < x.count {
                            let end = min(start + block, x.count)
                            let frames = x[start..<end].flatMap { v in channels == 1 ? [v] : [v, v / 2] }
                            frames.withUnsafeBufferPointer { meter.process(interleaved: $0) }
                            start = end
                        }
                        #expect(abs(meter.peaks[0] - expected) <= 1e-12 * expected, "\(name) at \(rate), blocks of \(block), \(channels) ch: \(meter.peaks[0]) vs \(expected)")
                        if channels == 2 {
                            #expect(abs(meter.peaks[1] - expected / 2) <= 1e-12 * expected, "\(name), channel 2")
                        }
                    }
                }
            }
        }
    }

    @Test("true peak (BS.1770-4 Annex 2): inter-sample peaks of fs/4 and 0.4·fs sines found within +0.2/−0.4 dB", arguments: [44_100.0, 48_000])
    func truePeak(rate: Double) {
        // A sine at fs/4 sampled 45° off its crests (every sample at 0.7071 of the peak), one at
        // 0.4·fs, and one at 997 Hz; a 50-ms raised-cosine fade-in, because an abrupt start is not
        // band-limited and makes every interpolator ring above the sine's peak.
        for (frequency, phase) in [(rate / 4, Double.pi / 4), (rate * 0.4, 0.3), (997, 0)] {
            let amplitude = 0.5  // −6.02 dBTP
            let fade = Int(0.05 * rate)
            let x = (0..<Int(rate)).map { n in
                let envelope = n < fade ? 0.5 - 0.5 * cos(Double.pi * Double(n) / Double(fade)) : 1
                return envelope * amplitude * sin(2 * Double.pi * frequency * Double(n) / rate + phase)
            }
            var meter = TruePeakMeter(sampleRateHz: rate, channels: 1)
            x.withUnsafeBufferPointer { meter.process(interleaved: $0) }
            let expected = 20 * log10(amplitude)
            #expect(meter.truePeakDbtp - expected <= 0.2 && meter.truePeakDbtp - expected >= -0.4, "\(frequency) Hz: \(meter.truePeakDbtp)")
            let samplePeak = 20 * log10(x.map(abs).max() ?? 0)
            #expect(meter.truePeakDbtp >= samplePeak - 1e-9)
        }
    }
}
