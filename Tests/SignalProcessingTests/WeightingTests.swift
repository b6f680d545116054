import Foundation
import Testing
@testable import SignalProcessing

/// analysis.md §3.1–3.3 and §5 A.
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
    /// and the class 1 limits (measured − design) of analysis.md §3.2.
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

    @Test("A3 and analysis.md §3.3: digital A coefficients and responses at 48 and 44.1 kHz")
    func digital() {
        let a48 = FrequencyWeighting.a.filter(sampleRateHz: 48_000).sections
        #expect(abs(a48[0].b0 - 0.234183045784004) < 1e-12)
        #expect(abs(a48[0].a1 - -0.224558446076045) < 1e-12 && abs(a48[0].a2 - 0.012606623926022) < 1e-12)
        #expect(abs(a48[1].a1 - -1.89387049481051) < 1e-12 && abs(a48[1].a2 - 0.895159769167195) < 1e-12)
        #expect(abs(a48[2].a1 - -1.99461445597799) < 1e-12 && abs(a48[2].a2 - 0.994621706999094) < 1e-12)
        let c44 = FrequencyWeighting.c.filter(sampleRateHz: 44_100).sections
        #expect(abs(c44[0].b0 - 0.217013218490566) < 1e-12)
        #expect(c44.count == 2)
        let nominal = [31.5, 63, 100, 125, 250, 500, 2000, 4000, 8000, 10000, 12500, 16000]
        let expected48 = [-39.529, -26.224, -19.147, -16.192, -8.678, -3.250, 1.201, 0.926, -1.691, -3.708, -6.925, -13.140]
        let filter48 = FrequencyWeighting.a.filter(sampleRateHz: 48_000)
        for (f, value) in zip(nominal, expected48) {
            #expect(abs(20 * log10(filter48.magnitude(atFrequencyHz: f, sampleRateHz: 48_000)) - value) <= 0.01, "\(f)")
        }
        let filter44 = FrequencyWeighting.a.filter(sampleRateHz: 44_100)
        for (f, value) in zip([8000.0, 10000, 12500, 16000], [-1.809, -3.992, -7.625, -15.236]) {
            #expect(abs(20 * log10(filter44.magnitude(atFrequencyHz: f, sampleRateHz: 44_100)) - value) <= 0.01, "\(f)")
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
