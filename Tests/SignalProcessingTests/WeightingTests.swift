import Foundation
import Testing
@testable import SignalProcessing

/// docs/analyses.md §3.1–3.3 and §5 A.
@Suite struct WeightingTests {
    @Test("exact IEC 61672-1 pole frequencies")
    func poles() {
        let (f1, f2, f3, f4) = FrequencyWeighting.poleFrequenciesHz
        #expect(abs(f1 - 20.598997057568) < 1e-9)
        #expect(abs(f2 - 107.652648643046) < 1e-9)
        #expect(abs(f3 - 737.862230736290) < 1e-9)
        #expect(abs(f4 - 12194.217147998) < 1e-6)
    }

    @Test("A1: analogue A and C with exact poles, 0 dB at 1 kHz (±0.005 dB)")
    func analogue() {
        let frequencies = [100, 10000, 31.6227766, 63, 8000]
        let a = [-19.1428, -2.4918, -39.4400, -26.2198, -1.1471]
        let c = [-0.2996, -4.4055, -3.0103, -0.8206, -3.0473]
        for (k, f) in frequencies.enumerated() {
            #expect(abs(FrequencyWeighting.a.analogueDecibels(atFrequencyHz: f) - a[k]) <= 0.005, "A \(f)")
            #expect(abs(FrequencyWeighting.c.analogueDecibels(atFrequencyHz: f) - c[k]) <= 0.005, "C \(f)")
        }
        #expect(FrequencyWeighting.a.analogueDecibels(atFrequencyHz: 1000) == 0)
    }

    /// IEC 61672-1:2013 nominal A and C at the exact band frequencies 1000·10^(0.1(n−30)), n = 10…43,
    /// and the class 1 limits (measured − design) of docs/analyses.md §3.2.
    static let bands: [(nominal: Double, a: Double, c: Double, upper: Double, lower: Double)] = [
        (10, -70.4, -14.3, 3.5, -.infinity), (12.5, -63.4, -11.2, 3.0, -.infinity), (16, -56.7, -8.5, 2.5, -4.5),
        (20, -50.5, -6.2, 2.5, -2.5), (25, -44.7, -4.4, 2.5, -2.0), (31.5, -39.4, -3.0, 2.0, -2.0), (40, -34.6, -2.0, 1.5, -1.5),
        (50, -30.2, -1.3, 1.5, -1.5), (63, -26.2, -0.8, 1.5, -1.5), (80, -22.5, -0.5, 1.5, -1.5), (100, -19.1, -0.3, 1.5, -1.5),
        (125, -16.1, -0.2, 1.5, -1.5), (160, -13.4, -0.1, 1.5, -1.5), (200, -10.9, 0.0, 1.5, -1.5), (250, -8.6, 0.0, 1.4, -1.4),
        (315, -6.6, 0.0, 1.4, -1.4), (400, -4.8, 0.0, 1.4, -1.4), (500, -3.2, 0.0, 1.4, -1.4), (630, -1.9, 0.0, 1.4, -1.4),
        (800, -0.8, 0.0, 1.4, -1.4), (1000, 0.0, 0.0, 1.1, -1.1), (1250, 0.6, 0.0, 1.4, -1.4), (1600, 1.0, -0.1, 1.6, -1.6),
        (2000, 1.2, -0.2, 1.6, -1.6), (2500, 1.3, -0.3, 1.6, -1.6), (3150, 1.2, -0.5, 1.6, -1.6), (4000, 1.0, -0.8, 1.6, -1.6),
        (5000, 0.5, -1.3, 2.1, -2.1), (6300, -0.1, -2.0, 2.1, -2.6), (8000, -1.1, -3.0, 2.1, -3.1), (10000, -2.5, -4.4, 2.6, -3.6),
        (12500, -4.3, -6.2, 3.0, -6.0), (16000, -6.6, -8.5, 3.5, -17.0), (20000, -9.3, -11.2, 4.0, -.infinity),
    ]

    static func exact(_ index: Int) -> Double { 1000 * pow(10, 0.1 * Double(index + 10 - 30)) }

    @Test("A2: rounded to 0.1 dB, the analogue curves reproduce the standard's table")
    func table() {
        for (index, band) in Self.bands.enumerated() {
            let f = Self.exact(index)
            #expect(abs((FrequencyWeighting.a.analogueDecibels(atFrequencyHz: f) * 10).rounded() / 10 - band.a) < 1e-9, "A \(band.nominal)")
            #expect(abs((FrequencyWeighting.c.analogueDecibels(atFrequencyHz: f) * 10).rounded() / 10 - band.c) < 1e-9, "C \(band.nominal)")
        }
    }

    /// Band-limited noise through the analogue curve, dB re flat: 10·lg(∫ w(f)·|H(f)|² df / ∫ w(f) df)
    /// over 20 Hz … fs/2 (w = 1/f pink, 1 white), by the trapezoid rule on 200,000 log-spaced points.
    static func noiseLevel(_ gain: (Double) -> Double, rate: Double, pink: Bool) -> Double {
        let n = 200_000, low = log(20.0), high = log(rate / 2 * 0.9999)
        var weighted = 0.0, flat = 0.0, previous: (f: Double, a: Double, b: Double)?
        for i in 0..<n {
            let f = exp(low + (high - low) * Double(i) / Double(n - 1))
            let w = pink ? 1 / f : 1
            let (a, b) = (w * gain(f), w)
            if let p = previous {
                weighted += 0.5 * (a + p.a) * (f - p.f)
                flat += 0.5 * (b + p.b) * (f - p.f)
            }
            previous = (f, a, b)
        }
        return 10 * log10(weighted / flat)
    }

    @Test("A3: low-frequency sections bilinear (coefficients), the 12.2-kHz pair matched (Vicanek 2016: |H|² exact at 0, fs/4, fs/2)")
    func digital() {
        let a48 = FrequencyWeighting.a.filter(sampleRateHz: 48_000).sections
        #expect(abs(a48[1].a1 - -1.89387049481051) < 1e-12 && abs(a48[1].a2 - 0.895159769167195) < 1e-12)
        #expect(abs(a48[2].a1 - -1.99461445597799) < 1e-12 && abs(a48[2].a2 - 0.994621706999094) < 1e-12)
        #expect(FrequencyWeighting.c.filter(sampleRateHz: 44_100).sections.count == 2)
        let f4 = FrequencyWeighting.poleFrequenciesHz.f4
        for rate in [8_000.0, 44_100, 48_000, 96_000] {
            let section = FrequencyWeighting.matchedLowPass(poleHz: f4, sampleRateHz: rate)
            let pole = exp(-2 * Double.pi * f4 / rate)
            #expect(abs(section.a1 + 2 * pole) < 1e-15 && abs(section.a2 - pole * pole) < 1e-15)
            for f in [0.0, rate / 4, rate / 2] {
                let analogue = pow(f4 * f4 / (f * f + f4 * f4), 2)
                let digital = pow(BiquadCascade(sections: [section]).magnitude(atFrequencyHz: f, sampleRateHz: rate), 2)
                #expect(abs(digital / analogue - 1) < 1e-9, "\(rate) Hz at \(f): \(digital) vs \(analogue)")
            }
        }
    }

    @Test("the A and C filters against IEC 61672-1 Annex E at 44.1 and 48 kHz: tones within 0.1 dB to 10 kHz, 0.15 dB at 12.5 kHz, 0.6 dB at 16 kHz; pink and white noise within 0.05 dB",
          arguments: [44_100.0, 48_000.0])
    func exactness(rate: Double) {
        for weighting in [FrequencyWeighting.a, .c] {
            let filter = weighting.filter(sampleRateHz: rate)
            for (f, bound) in [(31.5, 0.1), (63, 0.1), (125, 0.1), (250, 0.1), (500, 0.1), (1000, 0.1), (2000, 0.1), (4000, 0.1), (8000, 0.1), (10000, 0.1), (12500, 0.15), (16000, 0.6)] {
                let error = 20 * log10(filter.magnitude(atFrequencyHz: f, sampleRateHz: rate)) - weighting.analogueDecibels(atFrequencyHz: f)
                #expect(abs(error) <= bound, "\(weighting) at \(rate): \(f) Hz off by \(error) dB")
            }
            for pink in [true, false] {
                let digital = Self.noiseLevel({ pow(filter.magnitude(atFrequencyHz: $0, sampleRateHz: rate), 2) }, rate: rate, pink: pink)
                let analogue = Self.noiseLevel({ pow(10, weighting.analogueDecibels(atFrequencyHz: $0) / 10) }, rate: rate, pink: pink)
                #expect(abs(digital - analogue) <= 0.05, "\(weighting) at \(rate), \(pink ? "pink" : "white"): \(digital - analogue) dB")
            }
        }
    }

    /// Sines at every one-third-octave frequency 10 Hz – 20 kHz through the real filter (time
    /// domain, steady state): measured − design within the class 1 limits.
    @Test("class 1: the measured response of sines through the filters", arguments: [44_100.0, 48_000.0])
    func classOne(rate: Double) {
        for weighting in [FrequencyWeighting.a, .c] {
            for (index, band) in Self.bands.enumerated() {
                let f = Self.exact(index)
                guard f < rate / 2 else { continue }
                let seconds = max(1.0, 40 / f)  // at least 40 periods
                let n = Int(seconds * rate)
                var x = (0..<n).map { sin(2 * Double.pi * f * Double($0) / rate) }
                var filter = weighting.filter(sampleRateHz: rate)
                filter.process(&x)
                let tail = x[(n / 2)...]  // steady state
                let rms = (tail.reduce(0) { $0 + $1 * $1 } / Double(tail.count)).squareRoot()
                let measured = 20 * log10(rms / 0.5.squareRoot())
                let deviation = measured - weighting.analogueDecibels(atFrequencyHz: f)
                #expect(deviation <= band.upper && deviation >= band.lower, "\(weighting) \(band.nominal) Hz at \(rate): \(deviation)")
            }
        }
    }

    @Test("C1: K-weighting equals BS.1770-4 at 48 kHz and §4.3 at 44.1 kHz (1e-12)")
    func kWeighting() {
        let k48 = KWeighting.filter(sampleRateHz: 48_000).sections
        let expected48 = [[1.53512485958697, -2.69169618940638, 1.19839281085285, -1.69065929318241, 0.73248077421585],
                          [1.0, -2.0, 1.0, -1.99004745483398, 0.99007225036621]]
        for (s, e) in zip(k48, expected48) {
            for (value, reference) in zip([s.b0, s.b1, s.b2, s.a1, s.a2], e) { #expect(abs(value - reference) < 1e-12) }
        }
        let k44 = KWeighting.filter(sampleRateHz: 44_100).sections
        for (value, reference) in zip([k44[0].b0, k44[0].b1, k44[0].b2, k44[0].a1, k44[0].a2, k44[1].a1, k44[1].a2],
                                      [1.53084123005035, -2.65097999515473, 1.16907907992159, -1.66365511325602, 0.71259542807323,
                                       -1.98916967362980, 0.98919903578704]) {
            #expect(abs(value - reference) < 1e-12)
        }
    }
}

@Suite struct UpsamplerTests {
    /// Response of the 2× upsampler to sines, measured after the output settles: flat to
    /// ±0.01 dB up to 0.42 × the input rate.
    @Test("half-band 2× upsampler: pass band within ±0.01 dB to 20 kHz at 48 kHz")
    func passBand() {
        let rate = 48_000.0
        for f in [100.0, 1000, 5000, 10_000, 15_000, 18_000, 20_000] {
            var upsampler = HalfBandUpsampler()
            let x = (0..<9600).map { sin(2 * Double.pi * f * Double($0) / rate) }
            let y = upsampler.process(Array(x[0..<4800])) + upsampler.process(Array(x[4800...]))
            // A whole number of periods after the filter's delay (an RMS over a partial period is off).
            let period = 2 * rate / f
            let length = Int((Double(y.count - 2000) / period).rounded(.down) * period)
            let tail = y[(y.count - length)...]
            let rms = (tail.reduce(0) { $0 + $1 * $1 } / Double(tail.count)).squareRoot()
            #expect(abs(20 * log10(rms / 0.5.squareRoot())) <= 0.01, "\(f) Hz: \(20 * log10(rms / 0.5.squareRoot()))")
        }
    }
}
