import Foundation
import Testing
import TestSupport
@testable import Analysis
import SignalProcessing

/// IEC 61260-1 band filters (``FractionalOctaveBands``, ``Butterworth/bandPassDesigned(order:lowHz:highHz:sampleRateHz:)``)
/// and the ISO 8253-1 ambient limits (``AmbientNoiseLimits``).
struct FractionalOctaveBandTests {
    /// A Butterworth band-pass is 1/√2 at its edges and 1 at the pre-warped centre
    /// f₀ = (fs/π)·atan(√(tan(πf₁/fs)·tan(πf₂/fs))), for even and odd orders and a band up to 0.4·fs.
    @Test func designHasItsDefiningValues() {
        for (order, low, high, rate) in [(6, 891.25, 1122.02, 48_000.0), (3, 28.18, 35.48, 44_100), (1, 100, 200, 8_000),
                                         (5, 5_000, 17_000, 44_100), (4, 11.2, 22.4, 1_000)] {
            let filter = Butterworth.bandPassDesigned(order: order, lowHz: low, highHz: high, sampleRateHz: rate)
            #expect(filter.sections.count == order)
            #expect(abs(filter.magnitude(atFrequencyHz: low, sampleRateHz: rate) - 0.5.squareRoot()) < 1e-9, "order \(order) at \(low) Hz")
            #expect(abs(filter.magnitude(atFrequencyHz: high, sampleRateHz: rate) - 0.5.squareRoot()) < 1e-9, "order \(order) at \(high) Hz")
            let centre = rate / .pi * atan((tan(.pi * low / rate) * tan(.pi * high / rate)).squareRoot())
            #expect(abs(filter.magnitude(atFrequencyHz: centre, sampleRateHz: rate) - 1) < 1e-9, "order \(order) at the centre")
            #expect(filter.largestPoleRadius < 1)
        }
    }

    /// Band layout of IEC 61260-1 §5: exact mid-band frequencies 1000·G^(x/b), edges G^(±1/(2b))
    /// apart; bands whose upper edge reaches fs/2 are left out.
    @Test func bandLayout() throws {
        let thirds = try #require(FractionalOctaveBands(bandsPerOctave: 3, nominalRangeHz: 25...20_000, sampleRateHz: 44_100))
        #expect(thirds.bands.count == 29 && thirds.bands.first?.nominalHz == 25 && thirds.bands.last?.nominalHz == 16_000)
        let g = pow(10, 0.3)
        for band in thirds.bands {
            #expect(abs(band.upperEdgeHz / band.lowerEdgeHz - pow(g, 1.0 / 3)) < 1e-12)
            #expect(abs(band.midHz * band.midHz - band.lowerEdgeHz * band.upperEdgeHz) < 1e-9 * band.midHz * band.midHz)
            #expect(abs(band.midHz / band.nominalHz - 1) < 0.03)  // ISO 266 rounding
        }
        #expect(thirds.bands.first { $0.nominalHz == 1000 }?.midHz == 1000)
        let octaves = try #require(FractionalOctaveBands(bandsPerOctave: 1, nominalRangeHz: 25...20_000, sampleRateHz: 48_000))
        #expect(octaves.bands.map(\.nominalHz) == [31.5, 63, 125, 250, 500, 1000, 2000, 4000, 8000, 16_000])
        #expect(FractionalOctaveBands(bandsPerOctave: 2, nominalRangeHz: 25...20_000, sampleRateHz: 48_000) == nil)
        #expect(FractionalOctaveBands(bandsPerOctave: 3, nominalRangeHz: 25...20_000, sampleRateHz: .nan) == nil)
        #expect(FractionalOctaveBands(bandsPerOctave: 3, nominalRangeHz: 30_000...40_000, sampleRateHz: 48_000) == nil)
    }

    /// Block by block equals all at once (the filters carry their state), and a 1 kHz sine of
    /// amplitude a reads 20·lg(a/√2) in its band (within the filter's 0.01 dB at mid-band).
    @Test func blocksAndASine() throws {
        let rate = 48_000.0
        let x = (0..<48_000).map { 0.5 * sin(2 * .pi * 1000 * Double($0) / rate) }
        var whole = try #require(FractionalOctaveBands(bandsPerOctave: 3, nominalRangeHz: 800...1250, sampleRateHz: rate))
        var blocks = whole
        let all = whole.meanSquares(x)
        let first = blocks.meanSquares(Array(x[..<17_000])), second = blocks.meanSquares(Array(x[17_000...]))
        for i in all.indices {
            #expect(abs((first[i] * 17_000 + second[i] * 31_000) / 48_000 - all[i]) < 1e-12 * max(all[i], 1e-30))
        }
        var steady = whole
        _ = steady.meanSquares(Array(x[..<24_000]))
        let level = steady.levels(Array(x[24_000...]))
        #expect(abs(level[1] - 20 * log10(0.5 / 2.0.squareRoot())) < 0.01)
        #expect(level[0] < level[1] - 20 && level[2] < level[1] - 20)
    }

    /// IEC 61260-1:2014 Table 1, class 1, for octave bands, as exponents x of Ω = G^x (high side;
    /// the low side mirrors at 1/Ω, Formula 10): the pass-band's maximum relative attenuation
    /// (its minimum is −0.4 dB throughout) and the stop-band's minimum, constant beyond G^4;
    /// fractional bands map the breakpoints by Formula 9, 1 + (G^(1/(2b)) − 1)/(G^(1/2) − 1)·(Ω − 1);
    /// limits between breakpoints are linear in lg Ω (Formula 11).
    static let passBandMaximum: [(x: Double, dB: Double)] = [(0, 0.4), (1.0 / 8, 0.5), (1.0 / 4, 0.7), (3.0 / 8, 1.4), (1.0 / 2, 5.3)]
    static let stopBandMinimum: [(x: Double, dB: Double)] = [(1.0 / 2, 1.2), (1, 16.6), (2, 40.5), (3, 60), (4, 70)]

    static func classOneLimits(omega: Double, bandsPerOctave b: Double) -> (minimum: Double, maximum: Double) {
        let g = pow(10, 0.3)
        func mapped(_ x: Double) -> Double { 1 + (pow(g, 1 / (2 * b)) - 1) / (pow(g, 0.5) - 1) * (pow(g, x) - 1) }
        func interpolate(_ table: [(x: Double, dB: Double)], _ h: Double) -> Double {
            let points = table.map { (lg: log10(mapped($0.x)), dB: $0.dB) }
            let lg = log10(h)
            guard lg > points[0].lg else { return points[0].dB }
            for (a, c) in zip(points, points.dropFirst()) where lg <= c.lg {
                return a.dB + (c.dB - a.dB) * (lg - a.lg) / (c.lg - a.lg)
            }
            return points[points.count - 1].dB
        }
        let h = omega < 1 ? 1 / omega : omega
        return h <= mapped(0.5) ? (-0.4, interpolate(passBandMaximum, h)) : (interpolate(stopBandMinimum, h), .infinity)
    }

    /// Every band of the octave and one-third-octave banks at 44.1 and 48 kHz meets class 1 of
    /// IEC 61260-1:2014 Table 1 on 400 frequencies per band from Ω = G^−5 to G^5 (below fs/2):
    /// relative attenuation −20·lg(|H(f)|/|H(f_m)|) within the limits.
    @Test func classOneMask() throws {
        let g = pow(10, 0.3)
        var worst = Double.infinity
        for (rate, perOctave) in [(44_100.0, 1), (44_100, 3), (48_000, 1), (48_000, 3)] {
            let bank = try #require(FractionalOctaveBands(bandsPerOctave: perOctave, nominalRangeHz: 25...20_000, sampleRateHz: rate))
            let filters = bank.bands.map { Butterworth.bandPassDesigned(order: FractionalOctaveBands.order, lowHz: $0.lowerEdgeHz, highHz: $0.upperEdgeHz, sampleRateHz: rate) }
            for (band, filter) in zip(bank.bands, filters) {
                let reference = filter.magnitude(atFrequencyHz: band.midHz, sampleRateHz: rate)
                for k in 0...400 {
                    let omega = pow(g, -5 + 10 * Double(k) / 400)
                    let f = band.midHz * omega
                    guard f < rate / 2 * 0.999 else { continue }
                    let attenuation = -20 * log10(filter.magnitude(atFrequencyHz: f, sampleRateHz: rate) / reference)
                    let limits = Self.classOneLimits(omega: omega, bandsPerOctave: Double(perOctave))
                    #expect(attenuation >= limits.minimum && attenuation <= limits.maximum,
                            "\(rate) Hz, 1/\(perOctave) octave, \(band.nominalHz) Hz band at Ω = \(omega): \(attenuation) dB outside \(limits)")
                    worst = min(worst, attenuation - limits.minimum, limits.maximum - attenuation)
                }
            }
        }
        print("IEC 61260-1 class 1: smallest margin \(worst) dB")
    }

    struct Reference: Decodable {
        struct Levels: Decodable { var dbfs: [Double]; var midHz: [Double] }
        struct Response: Decodable { var frequencyHz: [Double]; var magnitude: [Double]; var lowHz: Double; var highHz: Double }
        var levels: [String: Levels]
        var response: Response
    }

    /// Band levels of white and pink noise at 44.1 and 48 kHz, octaves and thirds, equal to within
    /// 1e-6 dB to those of the same IEC 61260-1 bank built from SciPy alone (`butter(6, [f1, f2],
    /// "bandpass")` run by `sosfilt` over the whole signal, Benchmarks/peers/octave_bands_reference.py),
    /// the same bands chosen, and the design's response equal to SciPy's `butter` to 1e-9.
    @Test(.enabled(if: Peer.python.runs, Peer.python.skipMessage)) func levelsEqualSciPy() throws {
        guard let python = Peer.python.require() else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("octave-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [SharedData.packageRoot.appendingPathComponent("Benchmarks/peers/octave_bands_reference.py").path, folder]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let reference = try JSONDecoder().decode(Reference.self, from: data)
        var worst = 0.0
        for (key, expected) in reference.levels {
            let parts = key.split(separator: "-")
            let rate = try #require(Double(parts[1])), perOctave = try #require(Int(parts[2]))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(parts[0])-\(parts[1]).f64"))
            let x = bytes.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
            var bank = try #require(FractionalOctaveBands(bandsPerOctave: perOctave, nominalRangeHz: 25...20_000, sampleRateHz: rate))
            let levels = bank.levels(x)
            try #require(bank.bands.count == expected.dbfs.count, "\(key): \(bank.bands.count) bands, SciPy's bank \(expected.dbfs.count)")
            for (i, band) in bank.bands.enumerated() {
                #expect(abs(band.midHz - expected.midHz[i]) < 1e-9 * band.midHz)
                #expect(abs(levels[i] - expected.dbfs[i]) <= 1e-6, "\(key) \(band.nominalHz) Hz: \(levels[i]) vs \(expected.dbfs[i])")
                worst = max(worst, abs(levels[i] - expected.dbfs[i]))
            }
        }
        print("band levels: largest difference from SciPy's bank \(worst) dB over \(reference.levels.count) file × band-width cases")
        let r = reference.response
        let filter = Butterworth.bandPassDesigned(order: 6, lowHz: r.lowHz, highHz: r.highHz, sampleRateHz: 48_000)
        for (f, m) in zip(r.frequencyHz, r.magnitude) {
            #expect(abs(filter.magnitude(atFrequencyHz: f, sampleRateHz: 48_000) - m) <= 1e-9 * max(m, 1e-6), "\(f) Hz")
        }
    }

    /// ISO 8253-1:2010 clause 11 by hand: Table 2's 125-Hz column at 1 kHz is 23 dB; an ER-3A adds
    /// 37 − 15 = 22 dB there; testing down to −10 dB HL takes 10 dB off; the HDA 200 adds nothing
    /// where Table 3 prints a dash (31.5 Hz) and 29 − 15 dB at 1 kHz; the column is the highest of
    /// 125/250/500 Hz not above the lowest test frequency.
    @Test func ambientLimitsFollowClause11() throws {
        let i1k = try #require(AmbientNoiseLimits.bandsHz.firstIndex(of: 1000)), i250 = try #require(AmbientNoiseLimits.bandsHz.firstIndex(of: 250))
        let base = try #require(AmbientNoiseLimits.limits(lowestTestFrequencyHz: 125))
        #expect(base[i1k] == 23 && base[i250] == 19 && base.count == 25)
        #expect(try #require(AmbientNoiseLimits.limits(lowestTestFrequencyHz: 125, earphone: .insert))[i1k] == 45)
        #expect(try #require(AmbientNoiseLimits.limits(lowestTestFrequencyHz: 125, lowestHearingLevel: -10))[i1k] == 13)
        let hda = try #require(AmbientNoiseLimits.limits(lowestTestFrequencyHz: 125, earphone: .circumaural))
        #expect(hda[0] == 56 && hda[i1k] == 23 + 29 - 15)
        #expect(try #require(AmbientNoiseLimits.limits(lowestTestFrequencyHz: 300))[0] == 66)  // the 250-Hz column
        #expect(try #require(AmbientNoiseLimits.limits(lowestTestFrequencyHz: 1000))[0] == 78)  // the 500-Hz column
        #expect(AmbientNoiseLimits.limits(lowestTestFrequencyHz: 100) == nil && AmbientNoiseLimits.limits(lowestTestFrequencyHz: .nan) == nil)
        // A room 2 dB under every limit but 5 dB over at 250 Hz: that band alone, and a NaN band counts as over.
        var levels = Dictionary(uniqueKeysWithValues: zip(AmbientNoiseLimits.bandsHz, base.map { $0 - 2 }))
        levels[250] = base[i250] + 5
        #expect(AmbientNoiseLimits.exceedances(levels: levels, limits: base) == [.init(bandHz: 250, levelDecibels: base[i250] + 5, limitDecibels: base[i250])])
        levels[8000] = .nan
        #expect(AmbientNoiseLimits.exceedances(levels: levels, limits: base).map(\.bandHz).sorted() == [250, 8000])
    }
}
