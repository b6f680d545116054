import Foundation
import Testing
@testable import Analysis

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
